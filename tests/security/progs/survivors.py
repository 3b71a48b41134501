"""Starts commands that try to outlive their runner, then waits to be killed.

python survivors.py BACKEND WORKSPACE MARKER. `./MARKER` in the workspace is a copy of
sleep, so every process it runs is found by `pgrep -f MARKER`.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from hearth.core.protocols import ExecSpec
from hearth.sandbox.choice import choose_sandbox

DOUBLE_FORK = (
    'python3 -c "import os; os.fork() and os._exit(0); os.setsid(); os.fork() and os._exit(0); '
    "os.execv('./{m}', ['./{m}', '1006'])\""
)


async def main(backend: str, ws: Path, marker: str) -> None:
    choice = await choose_sandbox(backend, ws)

    def spec(command: str) -> ExecSpec:
        return ExecSpec(command=command.format(m=marker), cwd=ws, timeout=900)

    await choice.runner.start(spec("./{m} 1001 & ./{m} 1002"))
    await choice.runner.start(spec(DOUBLE_FORK + "; ./{m} 1007"))
    command = "setsid nohup ./{m} 1003 >/dev/null 2>&1 & (./{m} 1004 &); nohup ./{m} 1005"
    print("started", flush=True)
    await choice.runner.run(spec(command))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], Path(sys.argv[2]), sys.argv[3]))
