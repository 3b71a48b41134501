from sortlines import main, sorted_lines


def test_sorted_lines_skips_blank_lines():
    assert sorted_lines("b\n\na\n  \nc\n") == ["a", "b", "c"]


def test_main_prints_sorted(tmp_path, capsys):
    path = tmp_path / "in.txt"
    path.write_text("kiwi\nbanana\nkiwi\n")
    main([str(path)])
    assert capsys.readouterr().out == "banana\nkiwi\nkiwi\n"
