"""The cost of isolation.

1. Median wall time of `shell("true")` through each sandbox backend available here, against the
   backend's own start with the same flags (bwrap, or the Landlock/process helper, started alone) and
   a bare `subprocess.run(["/bin/sh", "-c", "true"])`. The rows of a backend are interleaved run by
   run, each after a pause (the model's turn in a session). Goal: Hearth within 3 ms of bwrap alone.
2. A 1,000-file write + read loop through the file tools (safe resolution, openat2) against plain
   Python file I/O. Goal: within 1.5x.

    .venv/bin/python bench/sandbox_cost.py [--runs 50] [--files 1000]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Awaitable, Callable
from io import BytesIO
from pathlib import Path

from hearth.agent.dispatch import Dispatcher
from hearth.agent.policy import PermissionMode, PermissionPolicy
from hearth.core.protocols import ExecSpec
from hearth.core.types import ToolCall
from hearth.history.checkpoints import Checkpoints
from hearth.sandbox.backend import Backend
from hearth.sandbox.choice import BACKENDS, self_test
from hearth.sandbox.limits import ProcessGroup, ResourceLimits
from hearth.sandbox.paths import SafePaths
from hearth.sandbox.runner import SandboxRunner
from hearth.tools.base import RunContext
from hearth.tools.builtin.files import ReadInput, WriteInput, read, write
from hearth.tools.builtin.shell import shell_tools
from hearth.tools.toolset import Toolset

MEMORY_DIR = "/dev/shm" if Path("/dev/shm").is_dir() else None  # the disk's noise hides the checks' cost


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


async def _timed(coro: Awaitable[object]) -> float:
    t = time.perf_counter()
    await coro
    return time.perf_counter() - t


async def _alone(backend: Backend, ws: Path, wrap: Callable[[list[str]], list[str]] | None = None) -> None:
    """The backend's command line for `true` started as the runner starts one (asyncio, output
    piped, its descriptors passed), and nothing else; `wrap`: through a launcher."""
    launch = backend.launch(ExecSpec("true", ws))
    try:
        proc = await asyncio.create_subprocess_exec(
            *(wrap(launch.argv) if wrap else launch.argv),
            env={},
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
            start_new_session=True,
            pass_fds=launch.pass_fds,
        )
    finally:
        launch.close()
    assert proc.stdout is not None
    await proc.stdout.read()
    await proc.wait()


async def _rows_for(name: str, ws: Path, runs: int, pause: float) -> list[tuple[str, float]]:
    """The backend's own start, then `shell("true")` through the runner and through the
    dispatcher (as a session calls it), interleaved run by run so all rows meet the same load,
    with `pause` seconds before each (the model's turn between two commands of a session)."""
    backend = BACKENDS[name](ws, ResourceLimits())
    group = ProcessGroup.create(ResourceLimits())
    runner = SandboxRunner(BACKENDS[name](ws, ResourceLimits()))
    tool_runner = SandboxRunner(BACKENDS[name](ws, ResourceLimits()))
    dispatcher = Dispatcher(
        Toolset(shell_tools()),
        PermissionPolicy(PermissionMode.AUTO),
        RunContext(paths=SafePaths(ws), sandbox=tool_runner),
    )
    call = ToolCall(id="c", name="shell", arguments={"command": "true"})
    spec = ExecSpec("true", ws, timeout=30)
    label = "bwrap" if name == "bwrap" else f"the {name} helper"
    rows: dict[str, list[float]] = {
        f"{label} alone (same flags)": [],
        f"{label} via the launcher": [],
        f"shell via {name}": [],
        f"shell tool via {name}": [],
    }
    await runner.run(spec)  # warm up (a session's first command)
    await dispatcher.dispatch(call)
    for _ in range(runs):
        times = []
        for attempt in (
            lambda: _alone(backend, ws),
            lambda: _alone(backend, ws, group.launcher),
            lambda: runner.run(spec),
            lambda: dispatcher.dispatch(call),
        ):
            await asyncio.sleep(pause)
            times.append(await _timed(attempt()))
        for key, value in zip(rows, times, strict=True):
            rows[key].append(value)
    await runner.close()
    await tool_runner.close()
    group.remove()
    out = [(key, median_ms(values)) for key, values in rows.items()]
    beyond = [tool - alone for alone, _, _, tool in zip(*rows.values(), strict=True)]
    out.append((f"  Hearth beyond {label} (paired)", median_ms(beyond)))
    return out


def bench_shell(runs: int, pause: float) -> list[tuple[str, float]]:
    ws = Path(tempfile.mkdtemp(prefix="hearth-bench-"))
    rows: list[tuple[str, float]] = []
    samples = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(["/bin/sh", "-c", "true"], check=True)
        samples.append(time.perf_counter() - t)
    rows.append(("bare subprocess.run", median_ms(samples)))
    for name in ("bwrap", "landlock", "process"):
        backend = BACKENDS[name](ws, ResourceLimits())
        why = backend.available() or (
            asyncio.run(self_test(BACKENDS[name], ResourceLimits())) if name != "process" else None
        )
        if why:
            rows.append((f"{name} (unavailable: {why[:50]})", float("nan")))
            continue
        rows += asyncio.run(_rows_for(name, ws, runs, pause))
    points = Checkpoints(ws)
    points.snapshot("first")
    samples = []
    for _ in range(runs):
        t = time.perf_counter()
        points.snapshot("unchanged")
        samples.append(time.perf_counter() - t)
    rows.append(("checkpoint, no file changed", median_ms(samples)))
    shutil.rmtree(ws, ignore_errors=True)
    return rows


def bench_files(count: int, rounds: int = 3) -> tuple[float, float]:
    """Plain and tool I/O interleaved file by file, so both meet the same disk conditions
    (file creation cost on this VM's disk drifts by 4x between runs)."""
    body = "line of text\n" * 20
    plain_times, tool_times = [], []
    for _ in range(rounds):
        ws = Path(tempfile.mkdtemp(prefix="hearth-bench-", dir=MEMORY_DIR))
        ctx = RunContext(paths=SafePaths(ws))
        plain = tools = 0.0
        for i in range(count):
            p = ws / f"plain_{i}.txt"
            t = time.perf_counter()
            p.write_text(body)
            assert p.read_text() == body
            plain += time.perf_counter() - t
            w, r = WriteInput(path=f"tool_{i}.txt", content=body), ReadInput(path=f"tool_{i}.txt")
            t = time.perf_counter()
            write(w, ctx)
            read(r, ctx)
            tools += time.perf_counter() - t
        plain_times.append(plain)
        tool_times.append(tools)
        shutil.rmtree(ws, ignore_errors=True)
    return statistics.median(plain_times), statistics.median(tool_times)


def baseline_src(ref: str) -> Path:
    """`ref`'s src folder, unpacked from git into a temporary folder."""
    out = Path(tempfile.mkdtemp(prefix="hearth-baseline-"))
    root = Path(__file__).resolve().parent.parent
    raw = subprocess.run(["git", "-C", str(root), "archive", ref, "src"], capture_output=True, check=True)
    with tarfile.open(fileobj=BytesIO(raw.stdout)) as tar:
        tar.extractall(out, filter="data")
    return out / "src"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--shell-only", action="store_true", help="leave out the file I/O part")
    parser.add_argument(
        "--pause", type=float, default=0.1, help="seconds before each command (the model's turn; default 0.1)"
    )
    parser.add_argument("--baseline", help="also run the shell part on this commit's src (e.g. main)")
    args = parser.parse_args()
    if args.baseline:
        src = baseline_src(args.baseline)
        cmd = [sys.executable, __file__, "--runs", str(args.runs), "--pause", str(args.pause), "--shell-only"]
        print(f"baseline ({args.baseline}):")
        subprocess.run(cmd, env={**os.environ, "PYTHONPATH": str(src)}, check=False)
        print("\nthis tree:")
    rows = bench_shell(args.runs, args.pause)
    base = rows[0][1]
    print(f'shell("true"), median of {args.runs} runs, {args.pause} s before each')
    print(f"{'':44} {'ms':>8} {'x bare':>8}")
    for name, ms in rows:
        print(f"{name:44} {ms:8.2f} {ms / base:8.2f}")
    if args.shell_only:
        return
    plain, tools = bench_files(args.files)
    print(
        f"\n{args.files} files written and read back, interleaved, median of 3 rounds, in {MEMORY_DIR or 'tmp'}"
    )
    print(f"{'plain Python open/write/read':32} {plain * 1000:8.1f} ms")
    print(f"{'file tools (safe paths, openat2)':32} {tools * 1000:8.1f} ms {tools / plain:8.2f}x")


if __name__ == "__main__":
    main()
