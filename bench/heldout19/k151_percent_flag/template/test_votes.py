import subprocess
import sys


def test_prints_the_counts_most_votes_first():
    done = subprocess.run([sys.executable, "votes.py", "ballots.txt"], capture_output=True, text=True)
    assert done.stdout.splitlines() == ["Rosa: 5", "Omar: 4", "Lena: 2", "Ivo: 1"]
