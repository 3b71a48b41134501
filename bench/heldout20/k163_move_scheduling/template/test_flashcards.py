from datetime import date

from flashcards import due_cards, due_date, next_interval


def card(last, interval):
    return {"front": "x", "back": "y", "interval": interval, "last": last}


def test_next_interval():
    assert next_interval(4, True) == 8
    assert next_interval(40, True) == 60
    assert next_interval(16, False) == 1


def test_due_date():
    assert due_date(card("2024-02-28", 2)) == date(2024, 3, 1)


def test_due_cards_longest_overdue_first():
    late, later, not_yet = card("2024-03-01", 1), card("2024-02-01", 3), card("2024-03-05", 1)
    assert due_cards([late, not_yet, later], date(2024, 3, 2)) == [later, late]
