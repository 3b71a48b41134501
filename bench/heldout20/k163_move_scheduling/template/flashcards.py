"""A tiny flashcard drill: python3 flashcards.py [DATE] prints the cards due on DATE."""

import sys
from datetime import date, timedelta

CARDS = [
    {"front": "der Apfel", "back": "the apple", "interval": 1, "last": "2024-03-01"},
    {"front": "die Brücke", "back": "the bridge", "interval": 4, "last": "2024-02-27"},
    {"front": "das Fenster", "back": "the window", "interval": 8, "last": "2024-02-20"},
    {"front": "der Schlüssel", "back": "the key", "interval": 2, "last": "2024-03-02"},
]


def next_interval(interval, correct):
    """Days until a card comes back: twice as many after a right answer (at most 60), 1 after a wrong one."""
    return min(interval * 2, 60) if correct else 1


def due_date(card):
    return date.fromisoformat(card["last"]) + timedelta(days=card["interval"])


def due_cards(cards, today):
    """The cards due on or before `today`, the longest overdue first."""
    return sorted((card for card in cards if due_date(card) <= today), key=due_date)


def main():
    today = date.fromisoformat(sys.argv[1]) if len(sys.argv) > 1 else date(2024, 3, 3)
    for card in due_cards(CARDS, today):
        print(f"{card['front']} -> {card['back']} (due {due_date(card)})")
    print(f"A right answer turns an interval of 4 days into {next_interval(4, True)}")


if __name__ == "__main__":
    main()
