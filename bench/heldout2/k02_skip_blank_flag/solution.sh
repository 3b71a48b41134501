#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
cat > linecount.py <<'PY'
"""Count the lines of a text file: python3 linecount.py FILE"""

import argparse


def count_lines(path, skip_blank=False):
    with open(path) as f:
        return sum(1 for line in f if not (skip_blank and not line.strip()))


def main(argv=None):
    parser = argparse.ArgumentParser(description="Count the lines of a file.")
    parser.add_argument("file")
    parser.add_argument("--skip-blank", action="store_true", help="leave blank lines out")
    args = parser.parse_args(argv)
    print(count_lines(args.file, args.skip_blank))


if __name__ == "__main__":
    main()
PY
cat >> test_linecount.py <<'PY'


def test_skip_blank(tmp_path):
    path = tmp_path / "b.txt"
    path.write_text("one\n\n  \ntwo\n")
    assert count_lines(path, skip_blank=True) == 2
PY
