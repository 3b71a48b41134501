"""Fixtures for the adversarial sandbox cases, against the real backends here.

Each case runs commands through a real sandbox with a canary folder outside
the workspace; the `box` fixture fails the test if the canary changed or if
any process started by the case outlives it.
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import secrets
import subprocess
from collections.abc import Coroutine, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import pytest

from hearth.core.protocols import ExecResult, ExecSpec
from hearth.sandbox.choice import SandboxChoice, choose_sandbox
from hearth.sandbox.limits import ResourceLimits
from requirements import backend_params

TEST_LIMITS = ResourceLimits(memory_bytes=2 << 30, file_bytes=20 << 20, open_files=1024, processes=256)
T = TypeVar("T")
SECRET = "canary-secret-" + secrets.token_hex(4)


ISOLATING = backend_params(("bwrap", "landlock"), TEST_LIMITS)


def _digest(folder: Path) -> str:
    h = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        h.update(str(path.relative_to(folder)).encode())
        if path.is_file():
            h.update(path.read_bytes())
    return h.hexdigest()


@dataclass
class Box:
    name: str
    choice: SandboxChoice
    workspace: Path
    canary: Path
    marker: str
    loop: asyncio.Runner

    def run(self, command: str, timeout: float = 15, network: bool = False) -> ExecResult:
        spec = ExecSpec(command=command, cwd=self.workspace, timeout=timeout, network=network)
        return self.loop.run(self.choice.runner.run(spec))

    def call(self, coro: Coroutine[Any, Any, T]) -> T:
        return self.loop.run(coro)


@pytest.fixture(params=ISOLATING)
def box(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Box]:
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text(SECRET)
    (home / ".aws").mkdir()
    (home / ".aws" / "credentials").write_text(SECRET)
    (home / ".bashrc").write_text("# original\n")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))  # the folders HOME alone would give
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local/share"))
    monkeypatch.setenv("HEARTH_API_KEY", SECRET)
    ws = tmp_path / "proj"
    ws.mkdir()
    canary = tmp_path / "canary"
    canary.mkdir()
    (canary / "secret").write_text(SECRET)
    (tmp_path / "proj_evil").mkdir()
    loop = asyncio.Runner()
    choice = loop.run(choose_sandbox(request.param, ws, TEST_LIMITS))
    before = _digest(canary)
    b = Box(request.param, choice, ws, canary, "hearth" + secrets.token_hex(4), loop)
    yield b
    loop.run(choice.runner.close())
    loop.close()
    assert _digest(canary) == before, "the canary folder outside the workspace changed"
    survivors = subprocess.run(["pgrep", "-f", b.marker], capture_output=True, text=True).stdout.split()
    survivors = [pid for pid in survivors if int(pid) != os.getpid()]
    assert survivors == [], f"processes outlived the command: {survivors}"
    assert (home / ".bashrc").read_text() == "# original\n"
