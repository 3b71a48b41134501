"""Start-up time: `hearth --help`, `hearth` to a ready prompt, and `hearth run` to the first request
the server receives (this tree beside another commit's, default `main`), against other agents' --help.

    .venv/bin/python bench/startup.py [--runs 7] [--baseline main] [--other /tmp/minivenv/bin/mini ...]

Compiled bytecode is allowed (PYTHONDONTWRITEBYTECODE is dropped): an installed Hearth has it, and
without it every start compiles ~150 modules from source. Each command runs once before timing.

Each command is run `--runs` times; the median wall time is printed. The ready-prompt time is
measured in a pseudo-terminal (pexpect) until the prompt appears, against the scripted server
(so no model load is counted), with the sandbox self-test included.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path
from typing import Any

import pexpect

from hearth.testing.script import ScriptedReply
from hearth.testing.server import ScriptedServer

ROOT = Path(__file__).resolve().parent.parent


def timed(cmd: list[str], runs: int) -> float:
    samples = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(cmd, capture_output=True, check=False)
        samples.append(time.perf_counter() - t)
    return statistics.median(samples)


def ready_prompt(runs: int) -> tuple[float, float]:
    """Seconds until the prompt takes input, and until the runtime is open (the status bar shows
    the session: sandbox self-test and server probe done). The screen is emulated with pyte."""
    import re

    import pyte

    prompt_times, open_times = [], []
    ws = tempfile.mkdtemp(prefix="hearth-startup-")
    with ScriptedServer() as server:
        env = {**os.environ, "HEARTH_LLM_URL": server.url, "TERM": "xterm"}
        for _ in range(runs):
            screen = pyte.Screen(200, 50)
            stream = pyte.Stream(screen)
            t = time.perf_counter()
            child = pexpect.spawn(
                sys.executable,
                ["-m", "hearth", "-w", ws],
                env=env,
                timeout=30,
                dimensions=(50, 200),
                encoding="utf-8",
            )
            prompt_at = None
            while True:
                data = child.read_nonblocking(65536, timeout=30)
                if "\x1b[6n" in data:
                    child.send(f"\x1b[{screen.cursor.y + 1};{screen.cursor.x + 1}R")
                stream.feed(data.replace("\x1b[6n", ""))
                text = "\n".join(screen.display)
                if prompt_at is None and "›" in text:
                    prompt_at = time.perf_counter() - t
                if re.search(r"session \d{8}-\d{6}-[0-9a-f]{6}", text):
                    open_times.append(time.perf_counter() - t)
                    break
            assert prompt_at is not None
            prompt_times.append(prompt_at)
            child.sendcontrol("d")
            child.expect(pexpect.EOF)
    return statistics.median(prompt_times), statistics.median(open_times)


def first_request(src: Path, runs: int) -> tuple[float, float]:
    """Median seconds from starting `hearth run` (with `src` first on the path) to the scripted
    server receiving its first chat request (imports, settings, sandbox choice, server probe),
    and the median processor time of the whole run (its child processes included): on a machine
    other work keeps busy, the wall time mostly measures the wait for a processor."""
    home, ws = Path(tempfile.mkdtemp()), Path(tempfile.mkdtemp())
    stamps: list[float] = []

    def respond(body: dict[str, Any]) -> ScriptedReply:
        stamps.append(time.perf_counter())
        return ScriptedReply(text="Hi. TASK_COMPLETE")

    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    samples, cpu = [], []
    with ScriptedServer([respond] * (runs + 1), model="qwen2.5-coder-32b-instruct") as server:
        env |= {
            "PYTHONPATH": str(src),
            "HOME": str(home),
            "XDG_CONFIG_HOME": str(home / "config"),
            "XDG_DATA_HOME": str(home / "data"),
            "HEARTH_LLM_URL": server.url,
            "HEARTH_TOOL_MODE": "native",
        }
        cmd = [sys.executable, "-m", "hearth", "run", "hi", "-w", str(ws), "--json", "--permission", "auto"]
        for i in range(runs + 1):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t = time.perf_counter()
            subprocess.run(cmd, env=env, capture_output=True, check=False)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            if i:  # the first run writes the bytecode
                samples.append(stamps[-1] - t)
                cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return statistics.median(samples), statistics.median(cpu)


def baseline_src(ref: str) -> Path:
    """`ref`'s src folder, unpacked from git into a temporary folder."""
    out = Path(tempfile.mkdtemp(prefix="hearth-baseline-"))
    raw = subprocess.run(["git", "-C", str(ROOT), "archive", ref, "src"], capture_output=True, check=True)
    with tarfile.open(fileobj=BytesIO(raw.stdout)) as tar:
        tar.extractall(out, filter="data")
    return out / "src"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--other", nargs="*", default=[], help="other agents' executables, run with --help")
    parser.add_argument("--baseline", default="main", help="the commit to compare `hearth run` with")
    args = parser.parse_args()
    prompt, opened = ready_prompt(args.runs)
    base_wall, base_cpu = first_request(baseline_src(args.baseline), args.runs)
    wall, cpu = first_request(ROOT / "src", args.runs)
    rows = [
        (f"hearth run to its first request, {args.baseline}", base_wall),
        ("hearth run to its first request, this tree", wall),
        (f"hearth run, processor time, {args.baseline}", base_cpu),
        ("hearth run, processor time, this tree", cpu),
        ("hearth --help", timed([sys.executable, "-m", "hearth", "--help"], args.runs)),
        ("hearth to a ready prompt", prompt),
        ("hearth to the runtime open", opened),
    ]
    rows += [(f"{os.path.basename(exe)} --help", timed([exe, "--help"], args.runs)) for exe in args.other]
    print(f"median of {args.runs} runs")
    for name, seconds in rows:
        print(f"{name:44} {seconds:6.2f} s")


if __name__ == "__main__":
    main()
