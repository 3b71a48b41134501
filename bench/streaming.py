"""Streaming overhead: from a chunk leaving the server to its text on the screen.

The scripted server streams 400 chunks at 200 chunks/s; each chunk carries the time it was
made (`@<ns>;`). The agent runs in a pseudo-terminal; a reader notes when each stamp appears
on the screen. Latency = seen - made, so it includes the HTTP hop, Hearth's parsing, the
terminal view and the pty. Goal: p99 under 20 ms.

    .venv/bin/python bench/streaming.py
"""

from __future__ import annotations

import os
import re
import statistics
import sys
import tempfile
import time

import pexpect

from hearth.testing.script import ScriptedReply
from hearth.testing.server import ScriptedServer

CHUNKS = 400
RATE = 200  # chunks per second
STAMP = re.compile(rb"@(\d{19});")


def measure(args: list[str], markdown: bool) -> list[float]:
    ws = tempfile.mkdtemp(prefix="hearth-stream-")
    # each chunk's "{t}" becomes its send time; one paragraph each, as Markdown wraps lines
    text = "@{t};\n\n" * CHUNKS
    latencies: list[float] = []
    with ScriptedServer() as server:
        server.add(ScriptedReply(text=text, chunk_size=len("@{t};\n\n"), delay=1 / RATE, stamp=True))
        env = {**os.environ, "HEARTH_LLM_URL": server.url, "TERM": "xterm"}
        child = pexpect.spawn(
            sys.executable,
            ["-m", "hearth.apps.cli.main", *args, "-w", ws],
            env=env,
            timeout=60,
            dimensions=(60, 200),
        )
        if markdown:
            child.expect("›".encode())
            child.sendline("go")
        seen: set[bytes] = set()
        deadline = time.time() + 60
        while len(seen) < CHUNKS and time.time() < deadline:
            try:
                data = child.read_nonblocking(65536, timeout=5)
            except (pexpect.TIMEOUT, pexpect.EOF):
                break
            now = time.time_ns()
            for stamp in STAMP.findall(data):
                if stamp not in seen:
                    seen.add(stamp)
                    latencies.append((now - int(stamp)) / 1e6)
        child.close(force=True)
    return latencies


def report(name: str, latencies: list[float]) -> None:
    if not latencies:
        print(f"{name:34} no chunks seen")
        return
    ordered = sorted(latencies)
    p99 = ordered[int(len(ordered) * 0.99) - 1]
    print(
        f"{name:34} {len(latencies):5} chunks  p50 {statistics.median(ordered):6.1f} ms  p99 {p99:6.1f} ms  "
        f"max {ordered[-1]:6.1f} ms"
    )


def main() -> None:
    print(f"{CHUNKS} chunks at {RATE}/s, chunk made -> text on the pty")
    report("hearth run (plain text)", measure(["run", "go"], markdown=False))
    report("hearth REPL (Markdown, Rich Live)", measure([], markdown=True))


if __name__ == "__main__":
    main()
