"""What the held-out suites' tests share: a task's workspace solved by its reference solution, git
with a fixed identity, the workspace's own tests run, a task found by part of its name. The checks
every suite gets are in test_bench_suites.py; what is particular to a task stays in its suite's
test file."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from hearth.bench.tasks import BenchTask
from support import ROOT

BENCH = ROOT / "bench"
GIT_ID = {
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@localhost",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@localhost",
}


def solve(task: BenchTask, ws: Path) -> None:
    """Run the task's reference solution in the workspace."""
    subprocess.run(
        ["/bin/sh", str(task.folder / "solution.sh")],
        cwd=ws,
        check=True,
        capture_output=True,
        env={"PATH": "/usr/bin:/bin", "HOME": str(ws), **GIT_ID},
    )


def git(ws: Path, *args: str) -> None:
    subprocess.run(
        ["git", *args], cwd=ws, check=True, capture_output=True, env={"PATH": "/usr/bin:/bin", **GIT_ID}
    )


def workspace_tests_pass(ws: Path, test_file: str) -> bool:
    """Whether the workspace's own tests pass, as an agent running pytest there would see them."""
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", test_file],
        cwd=ws,
        capture_output=True,
    )
    return done.returncode == 0


def find_task(tasks: list[BenchTask], part: str) -> BenchTask:
    (task,) = [t for t in tasks if part in t.name]
    return task
