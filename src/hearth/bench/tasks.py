"""Bench tasks: a folder with `task.toml` (prompt, check, timeout, optional setup and expected exit
code) and a `template/` copied into a temporary workspace. The check is a shell command run in that
workspace afterwards; exit 0 means pass. It sees the agent's exit code as $HEARTH_EXIT.
"""

from __future__ import annotations

import contextlib
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hearth.core.errors import HearthError


@dataclass(frozen=True)
class BenchTask:
    name: str
    folder: Path
    prompt: str
    check: str
    timeout: float = 300
    setup: str = ""
    expect_exit: int | None = None


def load_tasks(folder: Path, only: str = "") -> list[BenchTask]:
    tasks = []
    for path in sorted(folder.glob("*/task.toml")):
        if only and only not in path.parent.name:
            continue
        data = tomllib.loads(path.read_text())
        tasks.append(
            BenchTask(
                name=path.parent.name,
                folder=path.parent,
                prompt=data["prompt"],
                check=data["check"],
                timeout=float(data.get("timeout", 300)),
                setup=data.get("setup", ""),
                expect_exit=data.get("expect_exit"),
            )
        )
    if not tasks:
        raise HearthError(f"No tasks (folders with task.toml) in {folder}.", "Point --tasks at bench/tasks.")
    return tasks


def _tool_env() -> dict[str, str]:
    """Checks and setups run with this Python as `python3` (it has pytest) and a git identity.
    pytest loads no plugins it was not asked for (`-p`): the tasks' tests use none, and the
    development environment's (hypothesis, xdist, anyio) took five sixths of each check's time."""
    shim = Path(tempfile.gettempdir()) / "hearth-bench-bin"
    shim.mkdir(exist_ok=True)
    link = shim / "python3"
    if not link.exists():
        with contextlib.suppress(FileExistsError):  # another check made it meanwhile
            link.symlink_to(sys.executable)
    return {
        **os.environ,
        "PATH": f"{shim}:{os.environ.get('PATH', '')}",
        "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
        "GIT_AUTHOR_NAME": "bench",
        "GIT_AUTHOR_EMAIL": "bench@localhost",
        "GIT_COMMITTER_NAME": "bench",
        "GIT_COMMITTER_EMAIL": "bench@localhost",
    }


def prepare(task: BenchTask) -> Path:
    ws = Path(tempfile.mkdtemp(prefix=f"hearth-task-{task.name}-"))
    shutil.copytree(task.folder / "template", ws, dirs_exist_ok=True, ignore=shutil.ignore_patterns(".keep"))
    if task.setup:
        _sh(task.setup, ws, check=True)
    return ws


def _sh(
    script: str, ws: Path, env: dict[str, str] | None = None, **run: Any
) -> subprocess.CompletedProcess[str]:
    """`script` run by sh in the workspace, with no stdin and a temporary root of its own
    (removed after): pytest keeps its `tmp_path` folders in numbered folders under the temporary
    root and, when it exits, deletes the older ones, so scripts sharing the system's root (other
    checks, a test run around them) step on each other's folders."""
    with tempfile.TemporaryDirectory(prefix="hearth-bench-") as tmp:
        own = {"TMPDIR": tmp, "PYTEST_DEBUG_TEMPROOT": tmp}
        return subprocess.run(
            ["/bin/sh", "-c", script],
            cwd=ws,
            env={**_tool_env(), **own, **(env or {})},
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            **run,
        )


CHECK_SECONDS = 120
CHECK_MEMORY = 4 << 30  # address space per process of a check


def check(
    task: BenchTask,
    ws: Path,
    exit_code: int | None,
    seconds: float = CHECK_SECONDS,
    memory: int = CHECK_MEMORY,
) -> tuple[bool, str]:
    """Whether the task's check passes in `ws`, and the end of what it printed. A check still
    running after `seconds` (a solution looping for ever under its tests) fails, and everything
    it started is killed: before, the timeout ended the whole bench run with no result, and a
    killed shell left its pytest running. Each of its processes gets `memory` bytes of address
    space: a loop appending for ever took 11 GB in a minute, beside the model server."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    exit_env = {"HEARTH_EXIT": "" if exit_code is None else str(exit_code)}
    with tempfile.TemporaryDirectory(prefix="hearth-bench-") as tmp:
        env = {**_tool_env(), "TMPDIR": tmp, "PYTEST_DEBUG_TEMPROOT": tmp, **exit_env}
        with subprocess.Popen(
            ["/bin/sh", "-c", task.check],
            cwd=ws,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
            preexec_fn=limit,
        ) as proc:
            try:
                out, _ = proc.communicate(timeout=seconds)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, 9)
                out, _ = proc.communicate()
                return False, (out[-400:] + f"\n[the check ran over {seconds:.0f} s and was stopped]")
    passed = proc.returncode == 0 and (task.expect_exit is None or exit_code == task.expect_exit)
    return passed, out[-500:]
