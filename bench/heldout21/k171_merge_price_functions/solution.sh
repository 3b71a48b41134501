#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
python3 - <<'PY'
import re

text = open("tickets.py").read()
start = text.index("def weekday_price")
text = text[:start] + '''def price(age, weekend=False):
    """The price of one ticket; `weekend` on Saturday or Sunday."""
    if age < FREE_UNDER:
        return 0.0
    extra = WEEKEND_EXTRA if weekend else 0
    if age < CHILD_UNDER:
        return CHILD + extra
    if age >= SENIOR_FROM:
        return SENIOR + extra
    return ADULT + extra
'''
open("tickets.py", "w").write(text)

till = open("till.py").read()
till = till.replace("from tickets import weekday_price, weekend_price", "from tickets import price")
till = till.replace(
    """    if day.lower()[:3] in WEEKEND:
        return [weekend_price(age) for age in ages]
    return [weekday_price(age) for age in ages]
""",
    """    weekend = day.lower()[:3] in WEEKEND
    return [price(age, weekend) for age in ages]
""",
)
open("till.py", "w").write(till)

test = open("test_tickets.py").read()
test = test.replace("from tickets import weekday_price, weekend_price", "from tickets import price")
test = test.replace("weekday_price(", "price(")
test = re.sub(r"weekend_price\((\w+)\)", r"price(\1, weekend=True)", test)
open("test_tickets.py", "w").write(test)
PY
