#!/bin/sh
# A reference solution (HumanEval's canonical one): proves the check can pass. Never shown to an agent.
set -e
cat > solution.py <<'PY'


def is_palindrome(text: str):
    """
    Checks if given string is a palindrome
    >>> is_palindrome('')
    True
    >>> is_palindrome('aba')
    True
    >>> is_palindrome('aaaaa')
    True
    >>> is_palindrome('zbcd')
    False
    """
    for i in range(len(text)):
        if text[i] != text[len(text) - 1 - i]:
            return False
    return True
PY
