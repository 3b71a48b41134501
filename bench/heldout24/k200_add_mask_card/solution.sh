#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
cat >> cards.py <<'PY'


def mask_card(number):
    """The card number with every digit but the last four replaced by *."""
    to_mask = len(digits_only(number)) - 4
    masked = ""
    for char in number:
        if char.isdigit() and to_mask > 0:
            masked += "*"
            to_mask -= 1
        else:
            masked += char
    return masked
PY
