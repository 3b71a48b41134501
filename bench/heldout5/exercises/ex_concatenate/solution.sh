#!/bin/sh
# A reference solution (HumanEval's canonical one): proves the check can pass. Never shown to an agent.
set -e
cat > solution.py <<'PY'
from typing import List


def concatenate(strings: List[str]) -> str:
    """ Concatenate list of strings into a single string
    >>> concatenate([])
    ''
    >>> concatenate(['a', 'b', 'c'])
    'abc'
    """
    return ''.join(strings)
PY
