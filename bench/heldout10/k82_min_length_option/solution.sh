#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i 's/found = sorted(set(words(f.read())))/found = sorted({w for w in words(f.read()) if len(w) >= args.min_length})/' vocab.py
cat >> test_vocab.py <<'PY'


def test_min_length():
    assert run("--min-length", "5", "poem.txt") == ["beautiful", "green"]
PY
