#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
python3 - <<'PY'
text = open("rota.py").read()
text = text.replace(
    '    parser.add_argument("--weeks", type=int, default=4, help="how many weeks (default 4)")\n',
    '    parser.add_argument("--weeks", type=int, default=4, help="how many weeks (default 4)")\n'
    '    parser.add_argument("--skip", action="append", default=[], metavar="NAME", help="leave NAME out")\n',
)
text = text.replace(
    "    for line in rota(read_people(args.people), args.weeks):\n",
    "    people = read_people(args.people)\n"
    "    for name in args.skip:\n"
    "        if name not in people:\n"
    '            parser.error(f"{name} is not in {args.people}")\n'
    "    people = [name for name in people if name not in args.skip]\n"
    "    for line in rota(people, args.weeks):\n",
)
open("rota.py", "w").write(text)
readme = open("README.md").read()
readme = readme.replace(
    "    python3 rota.py people.txt --weeks 8  # or as many as you like\n",
    "    python3 rota.py people.txt --weeks 8  # or as many as you like\n"
    "    python3 rota.py people.txt --skip Ben # Ben is away: no chores for him\n",
)
open("README.md", "w").write(readme)
PY
cat >> test_rota.py <<'PY'


def test_skip():
    assert run("people.txt", "--weeks", "1", "--skip", "Ben", "--skip", "Dee") == [
        "week 1: bins=Ana, bathroom=Cy, kitchen=Eli, hoovering=Ana"
    ]
PY
