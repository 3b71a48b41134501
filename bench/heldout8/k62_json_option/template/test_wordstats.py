import subprocess
import sys

from wordstats import stats


def test_stats_counts_lines_words_and_chars():
    assert stats("a b\nc\n") == {"lines": 2, "words": 3, "chars": 6}


def test_the_script_prints_one_count_a_line():
    out = subprocess.run(
        [sys.executable, "wordstats.py", "poem.txt"], capture_output=True, text=True, check=True
    )
    assert out.stdout == "lines: 3\nwords: 14\nchars: 72\n"
