#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
python3 - <<'PY'
text = open("runs.py").read()
text = text.replace('    parser.add_argument("file")\n', '    parser.add_argument("file")\n    parser.add_argument("--miles", action="store_true")\n')
text = text.replace("    runs = read_runs(args.file)\n", '    runs = read_runs(args.file)\n    unit = "km"\n    if args.miles:\n        runs = [(day, km / 1.609344) for day, km in runs]\n        unit = "mi"\n')
text = text.replace('{km:.2f} km")', '{km:.2f} {unit}")').replace('runs):.2f} km")', 'runs):.2f} {unit}")')
open("runs.py", "w").write(text)
PY
cat >> test_runs.py <<'PY'


def test_miles():
    done = subprocess.run([sys.executable, "runs.py", "--miles", "may.txt"], capture_output=True, text=True)
    assert done.stdout.splitlines()[-1] == "total 23.49 mi"
PY
