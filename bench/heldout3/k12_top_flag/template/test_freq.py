from freq import word_counts


def test_counts_ignore_case():
    assert word_counts("A b a") == [("a", 2), ("b", 1)]


def test_ties_are_alphabetical():
    assert word_counts("pear apple") == [("apple", 1), ("pear", 1)]
