import pytest

from board import make_card, move, points_left, tagged


def test_new_cards_start_in_todo():
    card = make_card("Logo")
    assert card["column"] == "todo" and card["points"] == 1 and card["tags"] == []


def test_move():
    card = make_card("Logo")
    move(card, "done")
    assert card["column"] == "done"
    with pytest.raises(ValueError):
        move(card, "later")


def test_points_left_leaves_out_done_cards():
    cards = [make_card("a", points=3), make_card("b", "doing", 2), make_card("c", "done", 8)]
    assert points_left(cards) == 5


def test_tagged():
    cards = [make_card("a", tags=["bug"]), make_card("b"), make_card("c", tags=["ui", "bug"])]
    assert tagged(cards, "bug") == ["a", "c"]
