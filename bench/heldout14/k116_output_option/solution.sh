#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
python3 - <<'PY'
with open("slugs.py") as f:
    text = f.read()
text = text.replace(
    '    args = parser.parse_args()\n    for line in slugs(args.file):\n        print(line)\n',
    '    parser.add_argument("-o", "--output", metavar="FILE", help="write the slugs to FILE instead")\n'
    "    args = parser.parse_args()\n"
    "    found = slugs(args.file)\n"
    "    if args.output:\n"
    '        with open(args.output, "w", encoding="utf-8") as f:\n'
    '            f.writelines(line + "\\n" for line in found)\n'
    '        print(f"wrote {len(found)} slugs to {args.output}")\n'
    "        return\n"
    "    for line in found:\n"
    "        print(line)\n",
)
with open("slugs.py", "w") as f:
    f.write(text)
PY
cat >> test_slugs.py <<'PY'


def test_output_option(tmp_path):
    path = tmp_path / "t.txt"
    path.write_text("Red Car\n\nBlue Boat\n")
    out = tmp_path / "out.txt"
    done = subprocess.run(
        [sys.executable, "slugs.py", "--output", str(out), str(path)], capture_output=True, text=True, check=True
    )
    assert done.stdout == f"wrote 2 slugs to {out}\n"
    assert out.read_text() == "red-car\nblue-boat\n"
PY
