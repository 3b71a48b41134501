#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
python3 - <<'PY'
text = open("sightings.py").read()
text = text.replace(
    '    parser.add_argument("file")\n',
    '    parser.add_argument("file")\n    parser.add_argument("--sort", choices=["count", "name"], default="count")\n',
)
text = text.replace(
    "    for species, count in totals(args.file).most_common():\n",
    "    seen = totals(args.file).most_common()\n"
    '    if args.sort == "name":\n'
    "        seen.sort()\n"
    "    for species, count in seen:\n",
)
open("sightings.py", "w").write(text)
PY
cat >> test_sightings.py <<'PY'


def test_sort_by_name():
    assert run("--sort", "name", "birds.csv")[:3] == ["blue tit: 7", "chaffinch: 3", "goldfinch: 6"]
PY
