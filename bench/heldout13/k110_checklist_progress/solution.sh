#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
cat > progress.py <<'PY'
"""How far a Markdown checklist has got: python3 progress.py FILE"""

import sys


def main(path):
    sections = {}
    current = None
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("## "):
                current = line[3:].strip()
            elif line.startswith(("- [ ]", "- [x]", "- [X]")) and current is not None:
                done, total = sections.get(current, (0, 0))
                sections[current] = (done + (line[3] != " "), total + 1)
    if not sections:
        print("no items")
        return
    for name, (done, total) in sections.items():
        print(f"{name}: {done} of {total} done")
    done = sum(d for d, _ in sections.values())
    total = sum(t for _, t in sections.values())
    print(f"total: {done} of {total} done ({round(100 * done / total)}%)")


if __name__ == "__main__":
    main(sys.argv[1])
PY
