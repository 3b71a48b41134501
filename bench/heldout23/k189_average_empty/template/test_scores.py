from scores import average, best


def test_average():
    assert average([2, 4]) == 3


def test_average_of_nothing_is_zero():
    assert average([]) == 0.0


def test_best():
    assert best([1, 5, 3]) == 5
