"""Nothing a command started outlives Hearth, whatever kills it.

A real runner process (and the real `hearth run`) starts background jobs that try to
escape (`setsid nohup`, a double fork into a new session, a subshell's `&`) and a
foreground command, then is SIGKILLed, alone or together with the sandbox processes it
started. Within a few seconds no process of those commands may be left, on every backend
usable here.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pexpect
import pytest

from hearth.sandbox.limits import ProcessGroup
from hearth.testing import ScriptedCall, ScriptedReply, ScriptedServer
from requirements import backend_params
from security.box import TEST_LIMITS
from support import clean_env

DRIVER = Path(__file__).with_name("progs") / "survivors.py"
EXPECTED = 7  # sleeps 1001 to 1007 in survivors.py


BACKEND_PARAMS = backend_params(("bwrap", "landlock", "process"), TEST_LIMITS)


def _marked(marker: str) -> list[int]:
    out = subprocess.run(["pgrep", "-f", marker], capture_output=True, text=True).stdout.split()
    return [int(pid) for pid in out if int(pid) != os.getpid()]


def _sleeping(marker: str) -> int:
    """How many of the marked sleeps run (not the shells whose command line names them)."""
    out = subprocess.run(["pgrep", "-f", f"^./{marker} "], capture_output=True, text=True).stdout
    return len(out.split())


def _joined(pid: int, paths: list[Path]) -> bool:
    try:
        return all(str(pid) in (p / "cgroup.procs").read_text() for p in paths)
    except OSError:  # already removed by a sweep
        return True


def _wait_for(predicate, seconds: float) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return predicate()


def _children(pid: int) -> list[int]:
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def _workspace(tmp_path: Path) -> tuple[Path, str]:
    ws = tmp_path / "ws"
    ws.mkdir()
    marker = "survivor" + secrets.token_hex(4)
    shutil.copy2(shutil.which("sleep") or "/bin/sleep", ws / marker)
    return ws, marker


def _assert_all_gone(marker: str) -> None:
    left = ""
    try:
        gone = _wait_for(lambda: not _marked(marker), 5)
        left = subprocess.run(["pgrep", "-af", marker], capture_output=True, text=True).stdout
    finally:
        for pid in _marked(marker):  # never leave them to the next test
            os.kill(pid, signal.SIGKILL)
    assert gone, f"processes outlived the killed Hearth: {left}"


@pytest.mark.parametrize("how", ["hearth alone", "hearth and its sandbox launchers"])
@pytest.mark.parametrize("backend", BACKEND_PARAMS)
def test_a_sigkilled_runner_leaves_no_process(tmp_path: Path, backend: str, how: str) -> None:
    ws, marker = _workspace(tmp_path)
    driver = subprocess.Popen(
        [sys.executable, str(DRIVER), backend, str(ws), marker],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert _wait_for(lambda: _sleeping(marker) >= EXPECTED, 20), (
            f"not all commands started: {_sleeping(marker)}"
        )
        victims = [driver.pid] + (_children(driver.pid) if how != "hearth alone" else [])
        for pid in victims:
            with contextlib.suppress(ProcessLookupError):  # already gone: the parent's death took it
                os.kill(pid, signal.SIGKILL)
    finally:
        driver.kill()
        driver.wait()
    _assert_all_gone(marker)


@pytest.mark.parametrize("backend", BACKEND_PARAMS)
def test_a_sigkilled_hearth_run_leaves_no_process(tmp_path: Path, home: Path, backend: str) -> None:
    ws, marker = _workspace(tmp_path)
    background = f"setsid nohup ./{marker} 1001"
    script = [
        ScriptedReply(
            tool_calls=[ScriptedCall(name="shell", arguments={"command": background, "background": True})]
        ),
        ScriptedReply(
            tool_calls=[
                ScriptedCall(
                    name="shell",
                    arguments={"command": f"(./{marker} 1003 &); ./{marker} 1004", "timeout": 900},
                )
            ]
        ),
    ]
    server = ScriptedServer(script).start()
    # In a terminal, so that on the process backend (where every shell command asks, whatever the
    # rules) a person can allow the commands; the sandboxed backends run them in auto mode unasked.
    env = clean_env(home, HEARTH_LLM_URL=server.url, HEARTH_SANDBOX=backend)
    argv = ["-m", "hearth.apps.cli.main", "run", "Start the servers", "-w", str(ws), "-p", "auto"]
    hearth = pexpect.spawn(sys.executable, argv, env=env, encoding="utf-8", timeout=5)

    def started() -> bool:
        with contextlib.suppress(pexpect.TIMEOUT, pexpect.EOF):
            if hearth.expect([r"\[y\] allow once.*: ", pexpect.TIMEOUT], timeout=0.2) == 0:
                hearth.sendline("y")
        return _sleeping(marker) >= 3 or not hearth.isalive()

    try:
        ok = _wait_for(started, 30)
        assert ok and hearth.isalive(), f"hearth did not start the commands: {hearth.before!r}"
        hearth.kill(signal.SIGKILL)
    finally:
        hearth.terminate(force=True)
        server.stop()
    _assert_all_gone(marker)


def test_stale_cgroups_of_a_dead_hearth_are_emptied_and_removed() -> None:
    """The backstop at start: a cgroup left by a Hearth that died is swept (processes killed)."""
    probe = ProcessGroup.create(TEST_LIMITS)
    if not probe.active:
        pytest.skip("no cgroup can be made here")
    probe.remove()
    gone_pid = subprocess.Popen(["true"])
    gone_pid.wait()
    stale = ProcessGroup.create(TEST_LIMITS, owner=gone_pid.pid)
    sleeper = subprocess.Popen(stale.launcher(["sleep", "1000"]))
    try:
        # Another test's Hearth starting meanwhile sweeps the same stale cgroup: the sleeper is
        # then killed before this sweep, which is the behaviour under test all the same.
        assert _wait_for(lambda: sleeper.poll() is not None or _joined(sleeper.pid, stale.paths), 5)
        ProcessGroup.sweep_stale()
        assert _wait_for(lambda: sleeper.poll() is not None, 5), "the stale cgroup's process was not killed"
        assert not any(p.exists() for p in stale.paths)
    finally:
        sleeper.kill()
        sleeper.wait()
        stale.remove()
