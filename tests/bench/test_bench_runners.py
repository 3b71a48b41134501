"""An agent's run in the bench leaves no process behind (bench/runners.run_group)."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import pytest

from hearth.bench.runners import run_group


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie no one reaped yet counts as gone
    with open(f"/proc/{pid}/stat") as fh:
        return fh.read().split()[2] != "Z"


def _gone(pid: int) -> bool:
    for _ in range(100):
        if not _alive(pid):
            return True
        time.sleep(0.05)
    return False


def test_a_child_the_agent_left_running_is_killed_when_it_ends(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    script = f"sleep 1000 >/dev/null 2>&1 & echo $! > {pid_file}; echo done"
    result = run_group(["sh", "-c", script], 30)
    assert result.returncode == 0 and result.stdout.strip() == "done"
    assert _gone(int(pid_file.read_text()))


def test_at_its_time_limit_the_agent_and_its_children_are_killed(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    script = f"sleep 1000 & echo $! > {pid_file}; wait"  # the child holds the output pipe
    with pytest.raises(subprocess.TimeoutExpired):
        run_group(["sh", "-c", script], 1)
    assert _gone(int(pid_file.read_text()))
