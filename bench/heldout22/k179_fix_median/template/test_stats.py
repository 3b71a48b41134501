from stats import mean, median, spread


def test_mean():
    assert mean([2, 4, 9]) == 5


def test_median_of_an_odd_count():
    assert median([7, 1, 3]) == 3


def test_median_of_an_even_count():
    assert median([4, 1, 3, 2]) == 2.5


def test_spread():
    assert spread([3, -2, 8]) == 10
