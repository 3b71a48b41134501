import subprocess
import sys


def run(*args):
    done = subprocess.run([sys.executable, "sightings.py", *args], capture_output=True, text=True)
    return done.stdout.splitlines()


def test_most_seen_first():
    assert run("birds.csv") == ["blue tit: 7", "goldfinch: 6", "robin: 4", "chaffinch: 3", "magpie: 2", "wren: 1"]
