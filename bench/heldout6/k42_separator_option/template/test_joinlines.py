import subprocess
import sys

from joinlines import join_lines


def test_blank_lines_are_left_out():
    assert join_lines(["a\n", "\n", "  \n", "b\n"]) == "a, b"


def test_the_script_joins_with_commas():
    out = subprocess.run(
        [sys.executable, "joinlines.py", "colours.txt"], capture_output=True, text=True, check=True
    )
    assert out.stdout == "red, green, blue\n"
