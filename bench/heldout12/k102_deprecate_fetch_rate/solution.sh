#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
cat > rates.py <<'PY'
"""Convert between currencies at the shop's fixed rates (how many of each one euro buys)."""

import warnings

RATES = {"EUR": 1.0, "USD": 1.08, "GBP": 0.85, "JPY": 162.0, "CHF": 0.94}


def get_rate(base, quote):
    """How many `quote` one `base` buys, for example get_rate("EUR", "USD") == 1.08."""
    for code in (base, quote):
        if code not in RATES:
            raise KeyError(f"unknown currency {code}")
    return RATES[quote] / RATES[base]


def fetch_rate(base, quote):
    """Deprecated: use get_rate."""
    warnings.warn("fetch_rate is deprecated, use get_rate", DeprecationWarning, stacklevel=2)
    return get_rate(base, quote)


def convert(amount, base, quote):
    """`amount` of `base` in `quote`, rounded to two decimals."""
    return round(amount * get_rate(base, quote), 2)
PY
sed -i 's/fetch_rate/get_rate/g' report.py
