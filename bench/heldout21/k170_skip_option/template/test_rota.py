import subprocess
import sys

from rota import read_people, rota


def run(*args):
    done = subprocess.run([sys.executable, "rota.py", *args], capture_output=True, text=True, check=True)
    return done.stdout.splitlines()


def test_reads_names_and_skips_comments():
    assert read_people("people.txt") == ["Ana", "Ben", "Cy", "Dee", "Eli"]


def test_first_week():
    assert run("people.txt", "--weeks", "1") == ["week 1: bins=Ana, bathroom=Ben, kitchen=Cy, hoovering=Dee"]


def test_chores_move_along():
    assert rota(["Kim", "Lou"], 2) == [
        "week 1: bins=Kim, bathroom=Lou, kitchen=Kim, hoovering=Lou",
        "week 2: bins=Lou, bathroom=Kim, kitchen=Lou, hoovering=Kim",
    ]
