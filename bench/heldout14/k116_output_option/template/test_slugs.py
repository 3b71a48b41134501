import subprocess
import sys

from slugs import slug, slugs


def test_slug():
    assert slug("Hello, World!") == "hello-world"
    assert slug("  Spaces  everywhere ") == "spaces-everywhere"


def test_slugs_skip_blank_lines(tmp_path):
    path = tmp_path / "t.txt"
    path.write_text("One Fish\n\nTwo Fish\n")
    assert slugs(str(path)) == ["one-fish", "two-fish"]


def test_prints_one_slug_a_line(tmp_path):
    path = tmp_path / "t.txt"
    path.write_text("Red Car\nBlue Boat\n")
    done = subprocess.run([sys.executable, "slugs.py", str(path)], capture_output=True, text=True, check=True)
    assert done.stdout == "red-car\nblue-boat\n"
