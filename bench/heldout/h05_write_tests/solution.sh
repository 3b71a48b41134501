#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
cat > test_slug.py <<'PY'
from slug import slugify


def test_slugify():
    assert slugify("Hello World") == "hello-world"
    assert slugify("Hi, there!") == "hi-there"
    assert slugify("a   b") == "a-b"
PY
