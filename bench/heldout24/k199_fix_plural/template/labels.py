"""Labels for the stock screen of the farm shop: counts with their words, and lists of names."""


def plural(count, word):
    """The count and the word, with an "s" added to the word unless the count is exactly 1:
    plural(1, "crate") is "1 crate", plural(3, "crate") is "3 crates", plural(0, "crate") is
    "0 crates"."""
    if count > 1:
        return f"{count} {word}s"
    return f"{count} {word}"


def join_names(names):
    """The names as an English list: "Ann", "Ann and Bo", "Ann, Bo and Cy"; "" for none."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def stock_line(item, count):
    """One line of the stock screen, like "pears: 4 crates" or "pears: none left"."""
    if count == 0:
        return f"{item}: none left"
    return f"{item}: {plural(count, 'crate')}"
