#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
cat > sortlines.py <<'PY'
"""Print the non-blank lines of a file in sorted order: python3 sortlines.py FILE"""

import argparse


def sorted_lines(text, unique=False):
    lines = [line for line in text.splitlines() if line.strip()]
    if unique:
        lines = set(lines)
    return sorted(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description="Sort the lines of a file.")
    parser.add_argument("file")
    parser.add_argument("--unique", action="store_true", help="print each distinct line once")
    args = parser.parse_args(argv)
    with open(args.file) as f:
        lines = sorted_lines(f.read(), unique=args.unique)
    for line in lines:
        print(line)


if __name__ == "__main__":
    main()
PY
cat >> test_sortlines.py <<'PY'


def test_unique(tmp_path, capsys):
    path = tmp_path / "in.txt"
    path.write_text("kiwi\nbanana\nkiwi\n")
    main(["--unique", str(path)])
    assert capsys.readouterr().out == "banana\nkiwi\n"
PY
