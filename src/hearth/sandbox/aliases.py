"""Commands a model types that this system spells differently.

Models write `python script.py` and `pip install x`; many systems have only `python3` (Debian,
Ubuntu, macOS without Xcode's shims). Every backend puts a folder of tiny scripts at the END of the
sandbox's PATH, one per alias, so a real command of that name always wins and the scripts only
fill the gaps. The folder is made once per process, readable by all and writable by no command
(bwrap and containers mount it read-only; Landlock lists it as readable only).
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

# name -> the command line it runs (its arguments follow)
ALIASES: dict[str, str] = {
    "python": "python3",
    "pip": "python3 -m pip",
    "pip3": "python3 -m pip",
}
SANDBOX_ALIASES = "/run/hearth-aliases"  # where bwrap and containers mount the folder

_made: list[str] = []


def alias_script(target: str) -> str:
    return f'#!/bin/sh\nexec {target} "$@"\n'


def alias_dir() -> str:
    """The host folder holding one script per alias (made on first use, removed at exit)."""
    if _made and os.path.isdir(_made[0]):
        return _made[0]
    folder = tempfile.mkdtemp(prefix="hearth-aliases-")
    for name, target in ALIASES.items():
        path = os.path.join(folder, name)
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(alias_script(target))
        os.chmod(path, 0o755)
    os.chmod(folder, 0o755)  # a container's user 65534 must be able to run them
    _made[:] = [folder]
    atexit.register(shutil.rmtree, folder, True)
    return folder
