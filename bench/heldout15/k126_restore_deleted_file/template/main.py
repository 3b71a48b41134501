"""Print the quiz: python3 main.py"""

from helpers import numbered, question

QUESTIONS = [
    ("What is the capital of Peru?", "Lima"),
    ("How many legs has a spider?", "8"),
    ("Which planet is nearest the sun?", "Mercury"),
]

if __name__ == "__main__":
    for line in numbered(question(q, a) for q, a in QUESTIONS):
        print(line)
