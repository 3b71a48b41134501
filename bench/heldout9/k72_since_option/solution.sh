#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
python3 - <<'PY'
with open("journal.py") as f:
    code = f.read()
code = code.replace(
    "    args = parser.parse_args()\n",
    '    parser.add_argument("--since", metavar="DATE", help="only the entries on or after DATE")\n'
    "    args = parser.parse_args()\n",
)
code = code.replace(
    "    for day, text in sorted(",
    "    if args.since:\n"
    "        entries = [(day, text) for day, text in entries if day >= args.since]\n"
    "    for day, text in sorted(",
)
with open("journal.py", "w") as f:
    f.write(code)
PY
cat >> test_journal.py <<'PY'


def test_since_keeps_the_day_itself():
    assert run("--since", "2026-03-09", "garden.txt") == [
        "2026-03-09  First shoots on the peas",
        "2026-03-12  Frost, covered the beds",
    ]
PY
