"""A command's launcher is started ahead of the command (sandbox/spare.py); every guarantee
still holds from the command's first instruction.

After a session's first command, the next command's launcher waits, already in its own cgroup
and under the rlimits. These cases look from the host at a command started that way: its
launcher was running before the command was asked for, the command's processes are in a
Hearth cgroup and under the session's rlimits, it inherits no descriptor of Hearth's, and a
launcher never used is gone with the runner, its cgroup too.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hearth.core.protocols import ExecSpec
from hearth.sandbox import proctree
from hearth.sandbox.choice import BACKENDS
from hearth.sandbox.confined import HELPER
from hearth.sandbox.limits import ProcessGroup
from hearth.sandbox.runner import SandboxRunner
from requirements import backend_params
from security.box import TEST_LIMITS

BACKEND_PARAMS = backend_params(("bwrap", "landlock", "process"), TEST_LIMITS)
LIMIT_ROWS = {  # /proc/PID/limits rows and the value TEST_LIMITS gives them
    "Max open files": str(TEST_LIMITS.open_files),
    "Max file size": str(TEST_LIMITS.file_bytes),
    "Max address space": str(TEST_LIMITS.memory_bytes),
    "Max processes": str(TEST_LIMITS.processes),
    "Max core file size": "0",
}


def _limits(pid: int) -> dict[str, str]:
    rows = {}
    for line in Path(f"/proc/{pid}/limits").read_text().splitlines()[1:]:
        name = line[:26].strip()
        if name in LIMIT_ROWS:
            rows[name] = line[26:].split()[0]
    return rows


def _started_ticks(pid: int) -> int:
    stat = Path(f"/proc/{pid}/stat").read_text()
    return int(stat.rpartition(")")[2].split()[19])


def _ticks_now() -> int:
    return int(float(Path("/proc/uptime").read_text().split()[0]) * os.sysconf("SC_CLK_TCK"))


async def _job_payload(runner: SandboxRunner, ws: Path, marker: str) -> tuple[int, int]:
    """(the job's launcher pid, the pid of its `sleep`), once the sleep runs."""
    info = await runner.start(ExecSpec(f"exec sleep 30 # {marker}", ws, timeout=60))
    launcher = runner._jobs[info.id].process.pid
    for _ in range(200):
        sleeps = [p for p in proctree.descendants(launcher) if p.argv[:2] == (b"sleep", b"30")]
        if sleeps:
            return launcher, sleeps[0].pid
        await asyncio.sleep(0.05)
    raise AssertionError(f"the job's sleep never ran: {runner.read(info.id)}")


@pytest.mark.parametrize("backend", BACKEND_PARAMS)
def test_a_command_after_the_first_starts_from_a_launcher_made_ahead_with_every_limit(
    tmp_path: Path, backend: str
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    subprocess.run(["git", "init", "-q", str(ws)], check=True)  # descriptors for bwrap's git binds

    async def case() -> None:
        runner = SandboxRunner(BACKENDS[backend](ws, TEST_LIMITS))
        try:
            first = await runner.run(ExecSpec("true", ws, timeout=30))
            assert first.exit_code == 0, first.output
            await asyncio.sleep(1.5)  # the model's turn: the next launcher is made meanwhile
            asked = _ticks_now()
            launcher, payload = await _job_payload(runner, ws, "spare-case")
            assert _started_ticks(launcher) < asked, "the launcher was not started ahead"
            assert _limits(payload) == LIMIT_ROWS
            cgroups = Path(f"/proc/{payload}/cgroup").read_text()
            probe = ProcessGroup.create(TEST_LIMITS)
            try:
                if probe.active:  # cgroups can be made here: the command is in its own
                    assert "hearth-" in cgroups, cgroups
            finally:
                probe.remove()
            fds = await runner.run(ExecSpec("ls /proc/self/fd", ws, timeout=30))
            # 0-2, and ls's own listing descriptor (Landlock: its ruleset is closed too)
            assert len(fds.output.split()) <= 4, fds.output
        finally:
            await runner.close()

    asyncio.run(case())


@pytest.mark.parametrize("backend", BACKEND_PARAMS)
def test_a_launcher_never_used_is_gone_with_the_runner(tmp_path: Path, backend: str) -> None:
    async def case() -> tuple[int, list[Path]]:
        runner = SandboxRunner(BACKENDS[backend](tmp_path, TEST_LIMITS))
        await runner.run(ExecSpec("true", tmp_path, timeout=30))
        assert runner._spare is not None, "no launcher is made ahead after the first command"
        spare = await runner._spare
        pid, paths = spare.process.pid, list(spare.group.paths)
        assert Path(f"/proc/{pid}").exists()
        await runner.close()
        return pid, paths

    pid, paths = asyncio.run(case())
    deadline = time.monotonic() + 5
    while Path(f"/proc/{pid}").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not Path(f"/proc/{pid}").exists(), "the waiting launcher outlived its runner"
    assert not [p for p in paths if p.exists()], "its cgroup was left behind"


def test_the_waiting_launcher_exits_when_its_socket_closes_without_a_command() -> None:
    import socket

    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    proc = subprocess.Popen(
        [sys.executable, "-I", "-S", str(HELPER), "--wait", str(theirs.fileno())],
        pass_fds=(theirs.fileno(),),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    theirs.close()
    ours.close()
    out, _ = proc.communicate(timeout=30)
    assert proc.returncode == 0, out


def test_the_waiting_launcher_puts_descriptors_at_the_numbers_asked(tmp_path: Path) -> None:
    """bwrap's command line names descriptors by number (--seccomp 7, --bind-fd 9 ...)."""
    import socket

    (tmp_path / "data").write_text("from the descriptor\n")
    fd = os.open(tmp_path / "data", os.O_RDONLY | os.O_CLOEXEC)
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    proc = subprocess.Popen(
        [sys.executable, "-I", "-S", str(HELPER), "--wait", str(theirs.fileno())],
        pass_fds=(theirs.fileno(),),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    theirs.close()
    target = 41
    argv = ["/bin/sh", "-c", f"cat /proc/self/fd/{target}; ls /proc/self/fd | wc -l"]
    fields = [str(len(argv)), *argv, "1", "PATH=/usr/bin:/bin", str(target)]
    socket.send_fds(ours, [b"\0".join(f.encode() for f in fields)], [fd])
    ours.close()
    os.close(fd)
    out, _ = proc.communicate(timeout=30)
    lines = out.decode().split()
    assert out.decode().startswith("from the descriptor"), out
    assert lines[-1] == "5", out  # 0-2, the one passed, ls's own: nothing else leaked


def test_a_launcher_that_died_while_waiting_costs_nothing_but_the_plain_start(tmp_path: Path) -> None:
    async def case() -> str:
        runner = SandboxRunner(BACKENDS["process"](tmp_path, TEST_LIMITS))
        try:
            await runner.run(ExecSpec("true", tmp_path, timeout=30))
            assert runner._spare is not None
            spare = await runner._spare
            spare.process.kill()
            await spare.process.wait()
            done = await runner.run(ExecSpec("echo still here", tmp_path, timeout=30))
            assert done.exit_code == 0, done.output
            return done.output
        finally:
            await runner.close()

    assert asyncio.run(case()).strip() == "still here"


def test_a_waiting_launcher_exits_when_hearth_is_killed(tmp_path: Path) -> None:
    driver = (
        "import asyncio, sys\n"
        "from pathlib import Path\n"
        "from hearth.core.protocols import ExecSpec\n"
        "from hearth.sandbox.choice import BACKENDS\n"
        "from hearth.sandbox.limits import ResourceLimits\n"
        "from hearth.sandbox.runner import SandboxRunner\n"
        "async def main():\n"
        "    ws = Path(sys.argv[1])\n"
        "    runner = SandboxRunner(BACKENDS['process'](ws, ResourceLimits()))\n"
        "    await runner.run(ExecSpec('true', ws, timeout=30))\n"
        "    spare = await runner._spare\n"
        "    print(spare.process.pid, flush=True)\n"
        "    await asyncio.sleep(60)\n"
        "asyncio.run(main())\n"
    )
    hearth = subprocess.Popen(
        [sys.executable, "-c", driver, str(tmp_path)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert hearth.stdout is not None
        waiting = int(hearth.stdout.readline())
        assert Path(f"/proc/{waiting}").exists()
    finally:
        hearth.kill()
        hearth.wait()
    deadline = time.monotonic() + 10
    while _alive(waiting) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(waiting), "the waiting launcher outlived the Hearth that started it"


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")  # a zombie is dead, waiting for init to reap it
