import os
import subprocess
import sys

from tidy import tidy_name

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tidy.py")


def run(*args):
    done = subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True, check=True)
    return done.stdout.splitlines()


def make(folder, *names):
    for name in names:
        (folder / name).write_text(name)


def test_tidy_name():
    assert tidy_name("Holiday Photo-1.JPG") == "holiday_photo_1.jpg"
    assert tidy_name("ok.txt") == "ok.txt"


def test_renames_untidy_files(tmp_path):
    make(tmp_path, "Big Cat.PNG", "fine.txt")
    assert run(str(tmp_path)) == ["renamed Big Cat.PNG -> big_cat.png"]
    assert sorted(os.listdir(tmp_path)) == ["big_cat.png", "fine.txt"]


def test_skips_a_name_that_is_taken(tmp_path):
    make(tmp_path, "Notes.txt", "notes.txt")
    assert run(str(tmp_path)) == ["skipped Notes.txt (notes.txt exists)"]
    assert sorted(os.listdir(tmp_path)) == ["Notes.txt", "notes.txt"]


def test_nothing_to_tidy(tmp_path):
    make(tmp_path, "a.txt")
    assert run(str(tmp_path)) == ["nothing to tidy"]
