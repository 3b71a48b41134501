#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
python3 - <<'PY'
def edit(path, old, new):
    with open(path) as f:
        text = f.read()
    assert old in text, old
    with open(path, "w") as f:
        f.write(text.replace(old, new))


edit("tidy.py", "def tidy(folder):", "def tidy(folder, dry_run=False):")
edit(
    "tidy.py",
    "        os.rename(os.path.join(folder, name), os.path.join(folder, new))\n",
    "        if dry_run:\n"
    '            lines.append(f"would rename {name} -> {new}")\n'
    "            continue\n"
    "        os.rename(os.path.join(folder, name), os.path.join(folder, new))\n",
)
edit(
    "tidy.py",
    '    parser.add_argument("folder")\n',
    '    parser.add_argument("folder")\n'
    '    parser.add_argument("--dry-run", action="store_true", help="only show what it would rename")\n',
)
edit("tidy.py", "lines = tidy(args.folder)", "lines = tidy(args.folder, dry_run=args.dry_run)")
with open("test_tidy.py", "a") as f:
    f.write(
        "\n\n"
        "def test_dry_run_renames_nothing(tmp_path):\n"
        '    make(tmp_path, "Big Cat.PNG", "Notes.txt", "notes.txt")\n'
        '    assert run("--dry-run", str(tmp_path)) == [\n'
        '        "would rename Big Cat.PNG -> big_cat.png",\n'
        '        "skipped Notes.txt (notes.txt exists)",\n'
        "    ]\n"
        '    assert sorted(os.listdir(tmp_path)) == ["Big Cat.PNG", "Notes.txt", "notes.txt"]\n'
    )
PY
