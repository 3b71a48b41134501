import subprocess
import sys


def test_prints_each_run_and_the_total():
    done = subprocess.run([sys.executable, "runs.py", "may.txt"], capture_output=True, text=True)
    assert done.stdout.splitlines()[0] == "2026-05-02 5.00 km"
    assert done.stdout.splitlines()[-1] == "total 37.80 km"
