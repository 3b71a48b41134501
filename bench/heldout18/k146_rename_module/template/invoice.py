import fmt

LINES = [("Design", 45000), ("Hosting", 1999), ("Domain", 1200)]
VAT = 0.2


def main():
    subtotal = 0
    for label, cents in LINES:
        print(fmt.padded(label), fmt.money(cents))
        subtotal += cents
    vat = round(subtotal * VAT)
    print(fmt.padded("VAT " + fmt.percent(VAT)), fmt.money(vat))
    print(fmt.padded("Total"), fmt.money(subtotal + vat))


if __name__ == "__main__":
    main()
