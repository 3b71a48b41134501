from isbn import bad_numbers, check_digit, clean, is_valid


def test_clean():
    assert clean("0-306-40615-2") == "0306406152"
    assert clean("0 8044 2957 x") == "080442957X"


def test_check_digit():
    assert check_digit("030640615") == "2"
    assert check_digit("080442957") == "X"


def test_valid_numbers():
    assert is_valid("0-306-40615-2")
    assert is_valid("0-8044-2957-X")
    assert is_valid("9971502100")


def test_invalid_numbers():
    assert not is_valid("0-306-40615-3")
    assert not is_valid("12345")
    assert not is_valid("03064061A2")


def test_bad_numbers():
    lines = ["0-306-40615-2", "", "0-306-40615-9", "0-8044-2957-X"]
    assert bad_numbers(lines) == ["0-306-40615-9"]
