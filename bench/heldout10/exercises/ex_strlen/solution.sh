#!/bin/sh
# A reference solution (HumanEval's canonical one): proves the check can pass. Never shown to an agent.
set -e
cat > solution.py <<'PY'


def strlen(string: str) -> int:
    """ Return length of given string
    >>> strlen('')
    0
    >>> strlen('abc')
    3
    """
    return len(string)
PY
