import subprocess
import sys


def test_sorted_highest_first():
    done = subprocess.run([sys.executable, "scores.py", "round1.txt"], capture_output=True, text=True)
    assert done.stdout.splitlines() == ["cyd 88", "ada 42", "dee 30", "bo 17"]
