"""The `hearth` command's entry point.

`hearth` alone (or with just `-w DIR`) opens the REPL directly, without loading the command-line
parser and its help renderer: the prompt is what people wait for. Everything else goes to the
full CLI in `main`.
"""

from __future__ import annotations

import sys
from pathlib import Path

from hearth.apps.cli.startup import started, starting


def repl_workspace(args: list[str]) -> Path | bool | None:
    """The workspace when `args` only open the REPL (None: the default); False otherwise."""
    if not args:
        return None
    if len(args) == 2 and args[0] in ("-w", "--workspace"):
        return Path(args[1])
    if len(args) == 1 and args[0].startswith("--workspace="):
        return Path(args[0].split("=", 1)[1])
    return False


def main() -> None:
    starting()  # no garbage collection while importing (startup.py)
    workspace = repl_workspace(sys.argv[1:])
    if workspace is False:
        from hearth.apps.cli.main import main as full_cli

        full_cli()
        return
    import asyncio

    from hearth.apps.cli.repl import repl
    from hearth.core.errors import HearthError
    from hearth.runtime.config import load_settings

    started()
    try:
        flags = {"workspace": workspace}
        asyncio.run(repl(load_settings(flags), reload=lambda: load_settings(flags)))
    except HearthError as exc:
        sys.stderr.write(f"error: {exc}\n")
        sys.exit(1)


if __name__ == "__main__":
    main()
