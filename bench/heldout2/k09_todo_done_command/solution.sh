#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
python3 - <<'PY'
src = open("todo.py").read()
src = src.replace(
    '    commands.add_parser("list", help="show the items, numbered from 1")\n',
    '    commands.add_parser("list", help="show the items, numbered from 1")\n'
    '    done = commands.add_parser("done", help="remove an item")\n'
    '    done.add_argument("number", type=int)\n',
)
src = src.replace(
    '            print(f"{number}. {text}")\n',
    '            print(f"{number}. {text}")\n'
    '    elif args.command == "done":\n'
    '        text = items.pop(args.number - 1)\n'
    '        save(items)\n'
    '        print(f"Done: {text}")\n',
)
open("todo.py", "w").write(src)
PY
