from solution import largest_prime_factor


METADATA = {}


def check(candidate):
    assert candidate(15) == 5
    assert candidate(27) == 3
    assert candidate(63) == 7
    assert candidate(330) == 11
    assert candidate(13195) == 29



def test_largest_prime_factor():
    check(largest_prime_factor)
