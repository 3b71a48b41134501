#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
python3 - <<'PY'
text = open("scores.py").read()
text = text.replace('    parser.add_argument("file")\n', '    parser.add_argument("file")\n    parser.add_argument("--min", type=int, default=None)\n')
text = text.replace('        print(f"{name} {score}")', '        if args.min is None or score >= args.min:\n            print(f"{name} {score}")')
open("scores.py", "w").write(text)
PY
cat >> test_scores.py <<'PY'


def test_min_option():
    done = subprocess.run([sys.executable, "scores.py", "--min", "42", "round1.txt"], capture_output=True, text=True)
    assert done.stdout.splitlines() == ["cyd 88", "ada 42"]
PY
