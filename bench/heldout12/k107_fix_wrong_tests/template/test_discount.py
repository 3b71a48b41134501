from discount import bulk_discount, line_total


def test_no_discount_below_ten():
    assert bulk_discount(1) == 0
    assert bulk_discount(9) == 0


def test_ten_percent_from_ten():
    assert bulk_discount(10) == 10
    assert bulk_discount(49) == 10


def test_twenty_percent_from_fifty():
    assert bulk_discount(50) == 10
    assert bulk_discount(51) == 20
    assert bulk_discount(120) == 20


def test_line_total_without_discount():
    assert line_total(250, 4) == 1000
    assert line_total(0, 3) == 0


def test_line_total_with_discount():
    assert line_total(199, 10) == 1791
    assert line_total(333, 60) == 15984
    assert line_total(99, 16) == 1426
