#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
python3 - <<'PY'
text = open("votes.py").read()
text = text.replace('    parser.add_argument("file")\n', '    parser.add_argument("file")\n    parser.add_argument("--percent", action="store_true")\n')
text = text.replace(
    '        print(f"{name}: {count}")\n',
    '        line = f"{name}: {count}"\n'
    '        if args.percent:\n'
    '            line += f" ({count * 100 / sum(votes.values()):.1f}%)"\n'
    '        print(line)\n',
)
open("votes.py", "w").write(text)
PY
cat >> test_votes.py <<'PY'


def test_percent():
    done = subprocess.run([sys.executable, "votes.py", "--percent", "ballots.txt"], capture_output=True, text=True)
    assert done.stdout.splitlines()[0] == "Rosa: 5 (41.7%)"
PY
