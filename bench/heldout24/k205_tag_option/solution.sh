#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
python3 - <<'PY'
text = open("bookmarks.py").read()
text = text.replace(
    '    parser.add_argument("file", help="the bookmarks file")\n',
    '    parser.add_argument("file", help="the bookmarks file")\n'
    '    parser.add_argument("--tag", help="list only the bookmarks with this tag")\n',
)
text = text.replace(
    "    for url, title, tags in read_bookmarks(args.file):\n",
    "    for url, title, tags in read_bookmarks(args.file):\n"
    "        if args.tag is not None and args.tag not in tags:\n"
    "            continue\n",
)
open("bookmarks.py", "w").write(text)
PY
