from ordinals import ordinal, results


def test_first_places():
    assert ordinal(1) == "1st"
    assert ordinal(2) == "2nd"
    assert ordinal(3) == "3rd"
    assert ordinal(4) == "4th"
    assert ordinal(10) == "10th"


def test_twenties():
    assert ordinal(21) == "21st"
    assert ordinal(22) == "22nd"
    assert ordinal(23) == "23rd"
    assert ordinal(30) == "30th"


def test_teens():
    assert ordinal(11) == "11th"
    assert ordinal(12) == "12th"
    assert ordinal(13) == "13th"


def test_results():
    names = ["Ada", "Bo", "Cy", "Di", "Ed", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lu", "Max"]
    lines = results(names)
    assert lines[0] == "1st Ada"
    assert lines[11] == "12th Lu"
    assert lines[12] == "13th Max"
