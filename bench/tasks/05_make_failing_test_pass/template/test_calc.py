from calc import average


def test_average():
    assert average([2, 4, 6]) == 4
