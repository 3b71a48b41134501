#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
cat > toc.py <<'PY'
import re
import sys

seen = {}
in_code = False
with open(sys.argv[1]) as f:
    for line in f:
        if line.startswith("```"):
            in_code = not in_code
            continue
        match = re.match(r"(##|###) (.*)", line)
        if in_code or not match:
            continue
        level, text = match.group(1), match.group(2).strip()
        kept = "".join(c for c in text.lower() if c.isalnum() or c in " -")
        anchor = kept.replace(" ", "-")
        count = seen.get(anchor, 0)
        seen[anchor] = count + 1
        if count:
            anchor = f"{anchor}-{count}"
        indent = "  " if level == "###" else ""
        print(f"{indent}- [{text}](#{anchor})")
PY
