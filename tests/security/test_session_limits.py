"""Per-session caps on how much commands write and on background jobs.

RLIMIT_FSIZE caps one file (20 MB in these tests); the session's write budget (100 MB
here) caps the workspace's growth across files, commands and jobs, with a message that
says what to do. Past it, commands still run but cannot write files (so `rm` frees space).
"""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

import pytest

from hearth.core.errors import ToolError
from hearth.core.protocols import ExecSpec
from hearth.sandbox.budget import SessionCaps
from security.box import Box

MB = 1 << 20
CAP = 100 * MB
WRITE_30MB = "head -c 30000000 /dev/zero > {name}"


@pytest.fixture
def capped(box: Box) -> Box:
    """The box's runner with a 100 MB budget, and files of up to 40 MB (so each 30 MB one fits)."""
    runner = box.choice.runner
    runner.set_caps(SessionCaps(write_bytes=CAP, background_jobs=8))
    runner.limits = dataclasses.replace(runner.limits, file_bytes=40 * MB)
    return box


def _written(folder: Path, pattern: str = "big*") -> int:
    return sum(p.stat().st_size for p in folder.rglob(pattern))


def _budget_note(text: str) -> bool:
    return "write budget of 100 MB is used up" in text and "max_session_write_bytes" in text


def test_a_command_that_keeps_writing_is_stopped_at_the_budget(capped: Box) -> None:
    """The budget is looked at every WATCH_INTERVAL while a command runs: a writer that keeps
    going (30 MB files, 20 of them, a moment apart) is stopped soon after passing it. (A burst
    that ends between two looks is caught when the command ends: see the next tests.)"""
    script = (
        "for i in $(seq 1 20); do " + WRITE_30MB.format(name="big$i") + "; sleep 0.05; done; echo finished"
    )
    result = capped.run(script, timeout=60)
    assert result.killed == "write budget", result
    assert "finished" not in result.output
    assert _budget_note(result.output)
    assert _written(capped.workspace) < 20 * 30_000_000


def test_a_burst_past_the_budget_stops_later_writes(capped: Box) -> None:
    """However fast a command writes, once it has passed the budget it is said, and the next
    command cannot write."""
    burst = capped.run("for i in 1 2 3 4 5; do " + WRITE_30MB.format(name="big$i") + "; done", timeout=60)
    assert _budget_note(burst.output), burst
    late = capped.run(WRITE_30MB.format(name="late"), timeout=60)
    assert _budget_note(late.output) and late.exit_code != 0
    assert not (capped.workspace / "late").exists() or (capped.workspace / "late").stat().st_size == 0


def test_files_written_across_commands_share_one_budget(capped: Box) -> None:
    results = [capped.run(WRITE_30MB.format(name=f"big{i}"), timeout=60) for i in range(6)]
    assert all(r.exit_code == 0 and not _budget_note(r.output) for r in results[:3])
    assert any(_budget_note(r.output) for r in results[3:4])
    for late in results[4:]:
        assert _budget_note(late.output) and late.exit_code != 0  # could not write
    assert _written(capped.workspace) <= CAP + 30_000_000
    # Deleting gives the budget back: rm works past the budget, then writing works again.
    assert capped.run("rm big*").exit_code == 0
    again = capped.run(WRITE_30MB.format(name="small"))
    assert again.exit_code == 0 and not _budget_note(again.output)
    assert (capped.workspace / "small").stat().st_size == 30_000_000


def test_many_small_files_and_folders_count_too(capped: Box) -> None:
    """Not one big file: up to 10,000 files of 40 KB in folders, spelled with a loop in Python."""
    script = (
        "import os\n"
        "for d in range(100):\n"
        "    os.makedirs(f'tree/{d}', exist_ok=True)\n"
        "    for f in range(100):\n"
        "        open(f'tree/{d}/{f}', 'wb').write(os.urandom(40000))\n"
        "print('finished')\n"
    )
    (capped.workspace / "many.py").write_text(script)
    result = capped.run("python3 many.py", timeout=60)
    assert result.killed == "write budget", result
    assert _budget_note(result.output)
    assert _written(capped.workspace, "tree/*/*") < 10000 * 40000


def test_background_jobs_writing_together_are_stopped(capped: Box) -> None:
    runner = capped.choice.runner
    writer = "for i in 1 2 3 4; do head -c 30000000 /dev/zero > big{n}_$i; sleep 0.3; done; sleep 100"
    jobs = [
        capped.call(runner.start(ExecSpec(writer.format(n=n), capped.workspace, timeout=60)))
        for n in range(3)
    ]

    async def settle() -> None:
        for _ in range(200):
            if not any(j.running for j in runner.jobs()):
                return
            await asyncio.sleep(0.05)

    capped.call(settle())
    assert not any(j.running for j in runner.jobs())
    assert all(_budget_note(runner.read(j.id)) for j in jobs)
    assert _written(capped.workspace) < 12 * 30_000_000
    with pytest.raises(ToolError) as refused:
        capped.call(runner.start(ExecSpec("sleep 1", capped.workspace, timeout=60)))
    assert _budget_note(str(refused.value))


def test_the_sandbox_temp_folder_counts(capped: Box) -> None:
    if capped.name == "bwrap":
        pytest.skip("bwrap's /tmp is a tmpfs in memory, bounded by the memory cgroup, not the disk")
    script = "for i in 1 2 3 4 5 6; do head -c 30000000 /dev/zero > $TMPDIR/big$i; done; echo finished"
    result = capped.run(script, timeout=60)
    assert result.killed == "write budget" and _budget_note(result.output)


def test_thirty_background_jobs_stop_at_the_cap_with_a_list(capped: Box) -> None:
    runner = capped.choice.runner
    started, refusals = [], []
    for n in range(30):
        try:
            started.append(capped.call(runner.start(ExecSpec(f"sleep 100 # {n}", capped.workspace, 60))))
        except ToolError as exc:
            refusals.append(str(exc))
    assert len(started) == 8 and len(refusals) == 22
    message = refusals[0]
    assert "8 background jobs are running" in message and "max_background_jobs" in message
    assert all(job.id in message for job in started)
    assert "shell_jobs(action='stop'" in message
    capped.call(runner.stop(started[0].id))
    capped.call(runner.start(ExecSpec("sleep 100", capped.workspace, 60)))  # room again
