"""Copy the files of folder SRC that folder DEST lacks or has an older copy of: python3 sync.py SRC DEST"""

import os
import shutil
import sys


def plan(src, dest):
    """The names of the files to copy, sorted."""
    names = []
    for name in sorted(os.listdir(src)):
        print(f"debug: looking at {name}")
        source = os.path.join(src, name)
        target = os.path.join(dest, name)
        if not os.path.isfile(source):
            print(f"debug: {name} is not a file, skipped")
            continue
        if os.path.exists(target) and os.path.getmtime(target) >= os.path.getmtime(source):
            print(f"debug: {name} is up to date")
            continue
        names.append(name)
    return names


def main(src, dest):
    os.makedirs(dest, exist_ok=True)
    names = plan(src, dest)
    print(f"debug: {len(names)} to copy")
    for name in names:
        shutil.copy2(os.path.join(src, name), os.path.join(dest, name))
        print(f"copied {name}")
    print(f"{len(names)} copied")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
