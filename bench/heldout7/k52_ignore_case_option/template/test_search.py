import subprocess
import sys

from search import matching_lines


def test_lines_are_numbered_from_one():
    assert matching_lines(["cat\n", "dog\n", "hotdog\n"], "dog") == ["2: dog", "3: hotdog"]


def test_the_script_matches_case():
    out = subprocess.run(
        [sys.executable, "search.py", "error", "app.log"], capture_output=True, text=True, check=True
    )
    assert out.stdout == "3: error: retry in 5 s\n"
