import subprocess
import sys

from journal import read_entries


def run(*args):
    out = subprocess.run([sys.executable, "journal.py", *args], capture_output=True, text=True, check=True)
    return out.stdout.splitlines()


def test_read_entries_skips_blank_lines():
    entries = read_entries("garden.txt")
    assert len(entries) == 5
    assert entries[0] == ("2026-03-01", "Ordered seeds")


def test_all_entries_by_date():
    days = [line[:10] for line in run("garden.txt")]
    assert days == ["2026-03-01", "2026-03-04", "2026-03-05", "2026-03-09", "2026-03-12"]


def test_until_keeps_the_day_itself():
    assert run("--until", "2026-03-04", "garden.txt") == [
        "2026-03-01  Ordered seeds",
        "2026-03-04  Dug the bed by the fence",
    ]
