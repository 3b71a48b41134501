"""Start-up time: `hearth --help`, and `hearth` to a ready prompt, against other agents' --help.

    .venv/bin/python bench/startup.py [--runs 7] [--other /tmp/minivenv/bin/mini ...]

Each command is run `--runs` times; the median wall time is printed. The ready-prompt time is
measured in a pseudo-terminal (pexpect) until the prompt appears, against the scripted server
(so no model load is counted), with the sandbox self-test included.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

import pexpect

from hearth.testing.server import ScriptedServer


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


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--other", nargs="*", default=[], help="other agents' executables, run with --help")
    args = parser.parse_args()
    prompt, opened = ready_prompt(args.runs)
    rows = [
        ("hearth --help", timed([sys.executable, "-m", "hearth", "--help"], args.runs)),
        ("hearth to a ready prompt", prompt),
        ("hearth to the runtime open", opened),
    ]
    rows += [(f"{os.path.basename(exe)} --help", timed([exe, "--help"], args.runs)) for exe in args.other]
    print(f"median of {args.runs} runs")
    for name, seconds in rows:
        print(f"{name:32} {seconds:6.2f} s")


if __name__ == "__main__":
    main()
