import subprocess
import sys

from shopping import read_items


def test_read_items_adds_up(tmp_path):
    path = tmp_path / "list.txt"
    path.write_text("rice 2\nRice\n\nsalt\n")
    assert read_items(path) == [("rice", 3), ("salt", 1)]


def test_prints_one_item_a_line(tmp_path):
    path = tmp_path / "list.txt"
    path.write_text("oats 2\nhoney\n")
    done = subprocess.run([sys.executable, "shopping.py", str(path)], capture_output=True, text=True, check=True)
    assert done.stdout == "honey x1\noats x2\n"
