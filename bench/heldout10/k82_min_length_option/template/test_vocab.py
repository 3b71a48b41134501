import subprocess
import sys


def run(*args):
    done = subprocess.run([sys.executable, "vocab.py", *args], capture_output=True, text=True, check=True)
    return done.stdout.splitlines()


def test_words_are_distinct_and_sorted():
    assert run("poem.txt") == ["a", "and", "beautiful", "boat", "cat", "green", "in", "owl", "pea", "sea", "the", "to", "went"]


def test_count():
    assert run("--count", "poem.txt") == ["13"]
