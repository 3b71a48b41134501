"""The `hearth` entry point: the REPL directly for `hearth [-w DIR]`, the full CLI otherwise."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from hearth.apps.cli.entry import repl_workspace
from support import clean_env


def test_only_a_workspace_flag_goes_straight_to_the_repl() -> None:
    assert repl_workspace([]) is None
    assert repl_workspace(["-w", "ws"]) == Path("ws")
    assert repl_workspace(["--workspace=ws"]) == Path("ws")
    for args in (["run", "x"], ["--help"], ["-w"], ["-w", "ws", "run"], ["--list-sessions"]):
        assert repl_workspace(args) is False


def _hearth(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hearth", *args],
        env=clean_env(home),
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_full_cli_and_clear_errors_through_the_entry_point(home: Path, tmp_path: Path) -> None:
    helped = _hearth(home, "--help")
    assert helped.returncode == 0 and "web" in helped.stdout and "run" in helped.stdout
    missing = _hearth(home, "-w", str(tmp_path / "nope"))
    assert (
        missing.returncode == 1 and missing.stderr.startswith("error: ") and "Traceback" not in missing.stderr
    )
