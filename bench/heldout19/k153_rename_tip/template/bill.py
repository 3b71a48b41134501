from tips import tip, tip_percent

BILLS = [("Table 4", 86.40), ("Table 7", 23.10), ("Table 9", 140.00)]


def main():
    for table, total in BILLS:
        extra = tip(total)
        print(f"{table}: {total:.2f} + tip {extra:.2f} = {total + extra:.2f}")
    print(f"Large party, 20% tip on 310.00: {tip(310, 20):.2f}")
    print(f"Paid 57.50 on 50.00: a {tip_percent(50, 57.50)}% tip")


if __name__ == "__main__":
    main()
