#!/bin/sh
# A reference solution: proves the check can pass. Never shown to an agent.
set -e
cat > sync.py <<'PY'
"""Copy the files of folder SRC that folder DEST lacks or has an older copy of: python3 sync.py SRC DEST"""

import argparse
import logging
import os
import shutil

log = logging.getLogger(__name__)


def plan(src, dest):
    """The names of the files to copy, sorted."""
    names = []
    for name in sorted(os.listdir(src)):
        log.debug("looking at %s", name)
        source = os.path.join(src, name)
        target = os.path.join(dest, name)
        if not os.path.isfile(source):
            log.debug("%s is not a file, skipped", name)
            continue
        if os.path.exists(target) and os.path.getmtime(target) >= os.path.getmtime(source):
            log.debug("%s is up to date", name)
            continue
        names.append(name)
    return names


def main(src, dest):
    os.makedirs(dest, exist_ok=True)
    names = plan(src, dest)
    log.debug("%d to copy", len(names))
    for name in names:
        shutil.copy2(os.path.join(src, name), os.path.join(dest, name))
        print(f"copied {name}")
    print(f"{len(names)} copied")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("src")
    parser.add_argument("dest")
    parser.add_argument("--verbose", action="store_true", help="log what it looks at on stderr")
    args = parser.parse_args()
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.WARNING, format="%(message)s")
    main(args.src, args.dest)
PY
