import pytest

from inventory import Item, restock, running_low
from stockreport import report


def test_value():
    assert Item("cup", qty=3, price=2.5).value() == 7.5


def test_restock_adds_to_the_shelf():
    item = Item("jug", 2, 6.0)
    restock(item, 5)
    assert item.qty == 7
    with pytest.raises(ValueError):
        restock(item, -1)


def test_running_low():
    items = [Item("a", 1, 1.0), Item("b", 9, 1.0), Item("c", qty=4, price=1.0)]
    assert running_low(items) == ["a", "c"]
    assert running_low(items, limit=2) == ["a"]


def test_report():
    assert report([Item("pan", qty=2, price=10.0)]) == ["pan: 2 x 10.00", "stock value: 20.00", "running low: pan"]
