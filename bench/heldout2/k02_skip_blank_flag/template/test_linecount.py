from linecount import count_lines


def test_counts_every_line(tmp_path):
    path = tmp_path / "a.txt"
    path.write_text("one\n\ntwo\n")
    assert count_lines(path) == 3
