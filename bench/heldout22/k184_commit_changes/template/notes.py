"""A tiny notes keeper: python3 notes.py lists the notes in notes.txt, oldest first."""

from dataclasses import dataclass


@dataclass
class Note:
    date: str
    title: str


def read_notes(path):
    notes = []
    with open(path) as f:
        for line in f:
            if line.strip():
                date, _, title = line.strip().partition(" ")
                notes.append(Note(date, title))
    return sorted(notes, key=lambda note: note.date)


if __name__ == "__main__":
    for note in read_notes("notes.txt"):
        print(note.date, note.title)
