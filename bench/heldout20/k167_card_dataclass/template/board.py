"""A tiny kanban board printed in the terminal."""

COLUMNS = ["todo", "doing", "done"]


def make_card(title, column="todo", points=1, tags=None):
    return {"title": title, "column": column, "points": points, "tags": tags or []}


def move(card, column):
    if column not in COLUMNS:
        raise ValueError(f"no column {column!r}")
    card["column"] = column


def points_left(cards):
    return sum(card["points"] for card in cards if card["column"] != "done")


def tagged(cards, tag):
    return [card["title"] for card in cards if tag in card["tags"]]


def show(cards):
    for column in COLUMNS:
        titles = [card["title"] for card in cards if card["column"] == column]
        print(f"{column.upper()}: {', '.join(titles) or '-'}")
    print(f"{points_left(cards)} points left; bugs: {', '.join(tagged(cards, 'bug')) or 'none'}")


if __name__ == "__main__":
    cards = [
        make_card("Write the README", points=2),
        make_card("Fix the login bug", "doing", 3, ["bug"]),
        make_card("Set up CI", "done", 2),
        make_card("Dark mode", points=5, tags=["ui"]),
    ]
    move(cards[0], "doing")
    show(cards)
