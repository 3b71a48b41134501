#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
python3 - <<'PY'
with open("expenses.py") as f:
    text = f.read()
text = text.replace(
    '    args = parser.parse_args()\n    for name, amount in read_expenses(args.file):\n        print(f"{name}: {amount:.2f}")\n',
    '    parser.add_argument("--total", action="store_true", help="print the sum at the end")\n'
    "    args = parser.parse_args()\n"
    "    items = read_expenses(args.file)\n"
    "    for name, amount in items:\n"
    '        print(f"{name}: {amount:.2f}")\n'
    "    if args.total:\n"
    '        print(f"total: {sum(amount for _, amount in items):.2f}")\n',
)
with open("expenses.py", "w") as f:
    f.write(text)
PY
cat >> test_expenses.py <<'PY'


def test_total_option(tmp_path):
    path = tmp_path / "x.txt"
    path.write_text("tea 1.5\nbus fare 2\n")
    done = subprocess.run(
        [sys.executable, "expenses.py", "--total", str(path)], capture_output=True, text=True
    )
    assert done.stdout == "tea: 1.50\nbus fare: 2.00\ntotal: 3.50\n"
PY
