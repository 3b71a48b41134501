#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
python3 - <<'PY'
with open("wordstats.py") as f:
    code = f.read()
code = code.replace("import argparse\n", "import argparse\nimport json\n")
code = code.replace(
    '    parser.add_argument("file")\n',
    '    parser.add_argument("file")\n    parser.add_argument("--json", action="store_true")\n',
)
code = code.replace(
    "    for name, value in counts.items():",
    "    if args.json:\n        print(json.dumps(counts))\n        return\n    for name, value in counts.items():",
)
with open("wordstats.py", "w") as f:
    f.write(code)
PY
cat >> test_wordstats.py <<'PY'


def test_the_counts_can_be_json():
    out = subprocess.run(
        [sys.executable, "wordstats.py", "--json", "poem.txt"], capture_output=True, text=True, check=True
    )
    assert out.stdout == '{"lines": 3, "words": 14, "chars": 72}\n'
PY
