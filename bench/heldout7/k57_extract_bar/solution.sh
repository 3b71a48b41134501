#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
cat > chart.py <<'PY'
"""Print text bar charts of the visitors per weekday and the sales per month."""

VISITORS = {"Mon": 120, "Tue": 75, "Wed": 200, "Thu": 0, "Fri": 150}
SALES = {"January": 40, "February": 55, "March": 9}


def bar(value, largest, width):
    if largest == 0:
        return ""
    return "#" * round(value / largest * width)


def show_visitors(visitors):
    print("Visitors")
    largest = max(visitors.values())
    for day, count in visitors.items():
        print(f"  {day} {bar(count, largest, 20):<20} {count}")


def show_sales(sales):
    print(f"Sales ({sum(sales.values())} in all)")
    largest = max(sales.values())
    for month, amount in sales.items():
        print(f"  {month:>8} |{bar(amount, largest, 10)}")


if __name__ == "__main__":
    show_visitors(VISITORS)
    show_sales(SALES)
PY
