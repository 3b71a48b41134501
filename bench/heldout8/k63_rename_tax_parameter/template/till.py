"""Print the bill for today's basket."""

from billing import describe, invoice_total

BASKET = [(2.50, 4), (0.99, 3), (12.00, 1)]

if __name__ == "__main__":
    print(describe(BASKET, tax_pct=20))
    print(f"without tax: {invoice_total(BASKET):.2f}")
    print(f"reduced rate: {invoice_total(BASKET, tax_pct=7):.2f}")
