#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i 's/^    parser.add_argument("file")$/    parser.add_argument("file")\n    parser.add_argument("--sep", default=", ")/; s/print(join_lines(f))/print(join_lines(f, args.sep))/' joinlines.py
cat >> test_joinlines.py <<'PY'


def test_the_separator_can_be_chosen():
    out = subprocess.run(
        [sys.executable, "joinlines.py", "--sep", " | ", "colours.txt"], capture_output=True, text=True, check=True
    )
    assert out.stdout == "red | green | blue\n"
PY
