from billing import describe, invoice_total, line_total


def test_line_total():
    assert line_total(0.99, 3) == 2.97


def test_invoice_total_adds_tax():
    assert invoice_total([(10.00, 2)], tax_pct=25) == 25.00
    assert invoice_total([(10.00, 2)]) == 20.00


def test_describe():
    assert describe([(5.00, 1), (2.50, 2)], tax_pct=10) == "2 lines, 11.00 with 10% tax"
