#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
sed -i -e 's/^    parser.add_argument("file")$/    parser.add_argument("file")\n    parser.add_argument("--precision", type=int, default=2, help="decimals to print")/' \
    -e 's/print(f"{value:.2f}")/print(f"{value:.{args.precision}f}")/' average.py
cat >> test_average.py <<'PY'


def test_precision_option(tmp_path, capsys):
    path = tmp_path / "in.txt"
    path.write_text("1\n2\n2\n")
    main(["--precision", "4", str(path)])
    assert capsys.readouterr().out == "1.6667\n"
PY
