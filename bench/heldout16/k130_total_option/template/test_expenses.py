import subprocess
import sys

from expenses import read_expenses


def test_read_expenses_skips_blank_lines(tmp_path):
    path = tmp_path / "x.txt"
    path.write_text("tea 1.5\n\nbus fare 2\n")
    assert read_expenses(path) == [("tea", 1.5), ("bus fare", 2.0)]


def test_prints_each_expense(tmp_path):
    path = tmp_path / "x.txt"
    path.write_text("tea 1.5\nbus fare 2\n")
    done = subprocess.run([sys.executable, "expenses.py", str(path)], capture_output=True, text=True)
    assert done.stdout == "tea: 1.50\nbus fare: 2.00\n"
