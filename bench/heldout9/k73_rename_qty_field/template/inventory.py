"""The shop's stock: what each item is, how many are on the shelf, and what one costs."""

from dataclasses import dataclass


@dataclass
class Item:
    name: str
    qty: int
    price: float

    def value(self):
        return self.qty * self.price


def restock(item, amount):
    if amount < 0:
        raise ValueError("amount must not be negative")
    item.qty += amount


def running_low(items, limit=5):
    return [item.name for item in items if item.qty < limit]
