"""On a machine without bubblewrap Hearth picks Landlock, and says plainly what that leaves open.

`hearth doctor`, the first lines of `hearth run` and the web status name what Landlock cannot
protect and how to install bubblewrap on each distribution; under Landlock a background command
asks in normal mode even when the read-only defaults would allow it. bwrap's absence is made real
with a private mount namespace where /usr/bin/bwrap is /dev/null (no executable bwrap on PATH).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hearth.agent.modes import PermissionMode
from hearth.agent.policy import Decision, PermissionPolicy
from hearth.sandbox.backend import Backend
from hearth.sandbox.bwrap import BwrapBackend
from hearth.sandbox.choice import BACKENDS
from hearth.sandbox.confined import LandlockBackend
from hearth.testing.script import ScriptedReply
from hearth.testing.server import ScriptedServer
from hearth.tools.builtin.python import python_tools
from hearth.tools.builtin.shell import shell_tools
from support import clean_env
from websupport import running_web

_LANDLOCK = BACKENDS["landlock"](Path("/tmp"), None).available()  # type: ignore[arg-type]
needs_landlock = pytest.mark.skipif(bool(_LANDLOCK), reason=str(_LANDLOCK))
PACKAGES = (
    "apt install bubblewrap",
    "dnf install bubblewrap",
    "pacman -S bubblewrap",
    "zypper install bubblewrap",
)
GAPS = ("cannot hide secret files", "cannot make control files read-only")


def _hide_bwrap() -> list[str] | None:
    """A prefix that runs a command where no bwrap can be found, or None when that cannot be done."""
    found = shutil.which("bwrap")
    if found is None:
        return []
    unshare = shutil.which("unshare")
    if unshare is None:
        return None
    probe = subprocess.run(
        [unshare, "-m", "sh", "-c", f"mount --bind /dev/null {found} && true"],
        capture_output=True,
        timeout=30,
    )
    if probe.returncode != 0:
        return None
    return [unshare, "-m", "sh", "-c", f'mount --bind /dev/null {found} && exec "$@"', "hide-bwrap"]


def _fresh(
    home: Path, tmp: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    prefix = _hide_bwrap()
    if prefix is None:
        pytest.skip("bwrap is installed and cannot be hidden here (no unshare -m)")
    argv = [*prefix, sys.executable, "-m", "hearth.apps.cli.main", *args]
    return subprocess.run(
        argv, capture_output=True, text=True, timeout=120, env=clean_env(home, **(env or {})), cwd=tmp
    )


def _says_gaps_and_packages(text: str) -> None:
    for gap in GAPS:
        assert gap in text, text
    for package in PACKAGES:
        assert package in text, text


@needs_landlock
def test_doctor_on_a_machine_without_bwrap_says_what_landlock_leaves_open(
    home: Path, tmp_path: Path, workspace: Path, server: ScriptedServer
) -> None:
    res = _fresh(home, tmp_path, "doctor", "-w", str(workspace), env={"HEARTH_LLM_URL": server.url})
    out = res.stdout + res.stderr
    assert "landlock" in out
    _says_gaps_and_packages(out)


@needs_landlock
def test_the_first_lines_of_a_run_without_bwrap_say_it(
    home: Path, tmp_path: Path, workspace: Path, server: ScriptedServer
) -> None:
    server.add(ScriptedReply(text="Done."))
    res = _fresh(home, tmp_path, "run", "hi", "-w", str(workspace), env={"HEARTH_LLM_URL": server.url})
    assert res.returncode == 0, res.stderr
    first = res.stderr.splitlines()[0]
    assert first.startswith("warning: sandbox landlock:")
    _says_gaps_and_packages(first)


@needs_landlock
def test_the_web_status_says_it(
    workspace: Path, home: Path, server: ScriptedServer, monkeypatch: Any
) -> None:
    with (
        running_web(workspace, home, server, monkeypatch, tool_mode="native", sandbox="landlock") as web,
        web.client() as api,
    ):
        status = api.get("/api/status").json()
    _says_gaps_and_packages(status["sandbox_warning"])


@pytest.mark.skipif(BwrapBackend(Path("/tmp"), None).available() is not None, reason="bwrap is not installed")  # type: ignore[arg-type]
def test_with_bwrap_no_landlock_caveat_is_said(hearth: Any, workspace: Path, server: ScriptedServer) -> None:
    server.add(ScriptedReply(text="Done."))
    res = hearth(
        "run", "hi", "-w", str(workspace), env={"HEARTH_LLM_URL": server.url, "HEARTH_SANDBOX": "bwrap"}
    )
    assert res.code == 0, res.stderr
    assert "cannot hide" not in res.stderr


def _policy(backend: type[Backend], mode: PermissionMode = PermissionMode.NORMAL) -> PermissionPolicy:
    return PermissionPolicy.from_settings(mode, guarded_only=not backend.controls_read_only)


def test_under_landlock_a_background_command_asks_in_normal_mode() -> None:
    (shell,) = [t for t in shell_tools() if t.name == "shell"]
    background = {"command": "ls", "background": True}
    asked = _policy(LandlockBackend).decide(shell, background)
    assert asked.decision is Decision.ASK and "outlives the call" in asked.reason
    assert _policy(LandlockBackend).decide(shell, {"command": "ls"}).decision is Decision.ALLOW
    assert _policy(BwrapBackend).decide(shell, background).decision is Decision.ALLOW
    assert _policy(LandlockBackend, PermissionMode.AUTO).decide(shell, background).decision is Decision.ALLOW
    ruled = PermissionPolicy.from_settings(PermissionMode.NORMAL, allow=["shell(ls)"], guarded_only=True)
    assert ruled.decide(shell, background).decision is Decision.ALLOW  # the user's own rule


def test_python_asks_in_normal_mode_on_every_backend() -> None:
    (python,) = python_tools()
    for backend in (LandlockBackend, BwrapBackend):
        assert _policy(backend).decide(python, {"code": "1"}).decision is Decision.ASK


def test_quickstart_says_which_sandbox_and_what_it_lacks() -> None:
    script = (Path(__file__).resolve().parents[2] / "scripts" / "quickstart").read_text()
    assert "python -m hearth.sandbox.choice" in script
    prefix = _hide_bwrap()
    if prefix is None or _LANDLOCK:
        pytest.skip("cannot show a machine without bwrap here")
    res = subprocess.run(
        [*prefix, sys.executable, "-m", "hearth.sandbox.choice"], capture_output=True, text=True, timeout=120
    )
    _says_gaps_and_packages(res.stdout)
