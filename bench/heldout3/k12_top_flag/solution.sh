#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
cat > freq.py <<'PY'
"""Print how often each word occurs in a file, most frequent first: python3 freq.py FILE"""

import argparse
from collections import Counter


def word_counts(text):
    counts = Counter(text.lower().split())
    return sorted(counts.items(), key=lambda item: (-item[1], item[0]))


def main(argv=None):
    parser = argparse.ArgumentParser(description="Count the words in a file.")
    parser.add_argument("file")
    parser.add_argument("--top", type=int, help="print only the N most frequent words")
    args = parser.parse_args(argv)
    with open(args.file) as f:
        counts = word_counts(f.read())
    if args.top is not None:
        counts = counts[: args.top]
    for word, count in counts:
        print(f"{word} {count}")


if __name__ == "__main__":
    main()
PY
cat >> test_freq.py <<'PY'


def test_top(tmp_path, capsys):
    from freq import main

    path = tmp_path / "w.txt"
    path.write_text("x y x z x y\n")
    main(["--top", "2", str(path)])
    assert capsys.readouterr().out == "x 3\ny 2\n"
PY
