#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
python3 - <<'PY'
with open("shopping.py") as f:
    text = f.read()
text = text.replace(
    '    args = parser.parse_args()\n    for name, count in read_items(args.file):\n        print(f"{name} x{count}")\n',
    '    parser.add_argument("-n", "--numbered", action="store_true", help="number the items")\n'
    "    args = parser.parse_args()\n"
    "    for number, (name, count) in enumerate(read_items(args.file), 1):\n"
    '        prefix = f"{number}. " if args.numbered else ""\n'
    '        print(f"{prefix}{name} x{count}")\n',
)
with open("shopping.py", "w") as f:
    f.write(text)
PY
cat >> test_shopping.py <<'PY'


def test_numbered_option(tmp_path):
    path = tmp_path / "list.txt"
    path.write_text("oats 2\nhoney\n")
    done = subprocess.run(
        [sys.executable, "shopping.py", "--numbered", str(path)], capture_output=True, text=True, check=True
    )
    assert done.stdout == "1. honey x1\n2. oats x2\n"
PY
