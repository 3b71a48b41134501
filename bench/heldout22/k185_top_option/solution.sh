#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
python3 - <<'PY'
text = open("wordfreq.py").read()
text = text.replace(
    '    parser.add_argument("file", help="the text file to read")\n',
    '    parser.add_argument("file", help="the text file to read")\n'
    '    parser.add_argument("--top", type=int, metavar="N", help="print only the N most common words")\n',
)
text = text.replace(
    "    for word, n in sorted(counts.items(), key=lambda item: (-item[1], item[0])):\n",
    "    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))\n"
    "    if args.top is not None:\n"
    "        ranked = ranked[: args.top]\n"
    "    for word, n in ranked:\n",
)
open("wordfreq.py", "w").write(text)
PY
