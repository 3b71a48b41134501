from inventory import Item, running_low

STOCK = [Item("mug", 12, 4.5), Item("teapot", 3, 19.0), Item(name="tray", qty=4, price=7.25)]


def report(items):
    lines = [f"{item.name}: {item.qty} x {item.price:.2f}" for item in items]
    total = sum(item.value() for item in items)
    lines.append(f"stock value: {total:.2f}")
    lines.append("running low: " + ", ".join(running_low(items)))
    return lines


if __name__ == "__main__":
    print("\n".join(report(STOCK)))
