"""Work out invoice totals, with tax added as a percentage."""


def line_total(price, quantity):
    return round(price * quantity, 2)


def invoice_total(lines, tax_pct=0):
    """lines holds (price, quantity) pairs; tax_pct=20 adds 20 % tax."""
    net = sum(line_total(price, quantity) for price, quantity in lines)
    return round(net * (1 + tax_pct / 100), 2)


def describe(lines, tax_pct=0):
    total = invoice_total(lines, tax_pct=tax_pct)
    return f"{len(lines)} lines, {total:.2f} with {tax_pct}% tax"
