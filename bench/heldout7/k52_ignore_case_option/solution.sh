#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
python3 - <<'PY'
with open("search.py") as f:
    code = f.read()
code = code.replace("def matching_lines(lines, word):", "def matching_lines(lines, word, ignore_case=False):")
code = code.replace(
    "        if word in line:",
    "        if word in line or (ignore_case and word.lower() in line.lower()):",
)
code = code.replace(
    '    parser.add_argument("file")\n',
    '    parser.add_argument("file")\n    parser.add_argument("-i", "--ignore-case", action="store_true")\n',
)
code = code.replace("matching_lines(f, args.word)", "matching_lines(f, args.word, args.ignore_case)")
with open("search.py", "w") as f:
    f.write(code)
PY
cat >> test_search.py <<'PY'


def test_the_case_can_be_ignored():
    out = subprocess.run(
        [sys.executable, "search.py", "--ignore-case", "error", "app.log"], capture_output=True, text=True, check=True
    )
    assert out.stdout == "1: ERROR disk full\n3: error: retry in 5 s\n4: Errors: 2\n"
PY
