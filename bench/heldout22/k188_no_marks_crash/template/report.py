"""Prints each student's average mark: python3 report.py grades.json"""

import json
import sys


def average(marks):
    return sum(marks) / len(marks)


def main(path):
    with open(path) as f:
        data = json.load(f)
    print(f"Class {data['class']}")
    for student in data["students"]:
        print(f"{student['name']}: {average(student['marks']):.1f}")


if __name__ == "__main__":
    main(sys.argv[1])
