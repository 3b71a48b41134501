#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
python3 - <<'PY'
text = open("countdown.py").read()
start = text.index("    parser = argparse")
end = text.index("    args = parser.parse_args()\n")
block = text[start:end]
text = text[:start] + "    args = parse_args(sys.argv[1:])\n" + text[end + len("    args = parser.parse_args()\n"):]
text = text.replace("def main():", "def parse_args(argv):\n" + block + "    return parser.parse_args(argv)\n\n\ndef main():")
text = text.replace("import argparse\n", "import argparse\nimport sys\n")
open("countdown.py", "w").write(text)
PY
