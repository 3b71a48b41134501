import subprocess
import sys


def run(*args):
    done = subprocess.run([sys.executable, "csvcol.py", *args], capture_output=True, text=True, check=True)
    return done.stdout.splitlines()


def test_prints_a_column():
    assert run("books.csv", "author")[:2] == ["T. S. Eliot", "Frank Herbert"]


def test_prints_every_row():
    assert len(run("books.csv", "year")) == 6
