from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from hearth.testing.server import ScriptedServer


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    ws.mkdir()
    return ws


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """A private HOME so no user config or data leaks into a test."""
    h = tmp_path / "home"
    h.mkdir()
    return h


@pytest.fixture
def server() -> Iterator[ScriptedServer]:
    srv = ScriptedServer().start()
    yield srv
    srv.stop()


def clean_env(home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HEARTH_", "LLM_"))}
    env.pop("WORKSPACE", None)
    env.pop("PERMISSION_MODE", None)
    env.update(
        HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), XDG_DATA_HOME=str(home / ".local/share")
    )
    env.update(extra)
    return env


@dataclass
class CliResult:
    code: int
    stdout: str
    stderr: str

    def json_lines(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.stdout.splitlines() if line.strip()]


@pytest.fixture
def hearth(home: Path, tmp_path: Path):  # type: ignore[no-untyped-def]
    """Run the real `hearth` command line in a subprocess."""

    def run(
        *args: str, env: dict[str, str] | None = None, timeout: float = 60, cwd: Path | None = None
    ) -> CliResult:
        proc = subprocess.run(
            [sys.executable, "-m", "hearth.apps.cli.main", *args],
            capture_output=True,
            text=True,
            timeout=timeout,
            env=clean_env(home, **(env or {})),
            cwd=cwd or tmp_path,
        )
        return CliResult(proc.returncode, proc.stdout, proc.stderr)

    return run
