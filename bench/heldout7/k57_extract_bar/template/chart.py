"""Print text bar charts of the visitors per weekday and the sales per month."""

VISITORS = {"Mon": 120, "Tue": 75, "Wed": 200, "Thu": 0, "Fri": 150}
SALES = {"January": 40, "February": 55, "March": 9}


def show_visitors(visitors):
    print("Visitors")
    largest = max(visitors.values())
    for day, count in visitors.items():
        if largest == 0:
            length = 0
        else:
            length = round(count / largest * 20)
        bar = "#" * length
        print(f"  {day} {bar:<20} {count}")


def show_sales(sales):
    print(f"Sales ({sum(sales.values())} in all)")
    largest = max(sales.values())
    for month, amount in sales.items():
        if largest == 0:
            length = 0
        else:
            length = round(amount / largest * 10)
        bar = "#" * length
        print(f"  {month:>8} |{bar}")


if __name__ == "__main__":
    show_visitors(VISITORS)
    show_sales(SALES)
