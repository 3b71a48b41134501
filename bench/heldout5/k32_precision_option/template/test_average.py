from average import average, main


def test_average():
    assert average("1\n2\n\n6\n") == 3.0


def test_empty_file_averages_to_zero():
    assert average("\n") == 0.0


def test_main_prints_two_decimals(tmp_path, capsys):
    path = tmp_path / "in.txt"
    path.write_text("1\n2\n")
    main([str(path)])
    assert capsys.readouterr().out == "1.50\n"
