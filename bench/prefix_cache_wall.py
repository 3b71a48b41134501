"""Wall time of a 10-step session on a real model: Hearth's stable prefix against dynamic state
in the system prompt (what agents that rewrite their prompt every turn do).

Both variants send the same conversation, one more step each request, with max_tokens=1 so the
time is the server's prefill. Variant "stable" keeps the system prompt byte-identical and puts the
changing state (todo list, step counter, clock) in the newest message; variant "dynamic" puts that
state at the top of the system prompt, so the server's prefix cache misses every time.

    python bench/prefix_cache_wall.py --url http://127.0.0.1:PORT/v1   # e.g. the embedded server
"""

from __future__ import annotations

import argparse
import time

import httpx

from hearth.agent.prompt import system_prompt
from hearth.llm.profiles import ToolMode
from hearth.runtime.offer import default_toolset

STEPS = 10


def state(step: int) -> str:
    todos = "\n".join(f"[{'x' if i < step else ' '}] {i + 1}. part {i + 1}" for i in range(STEPS))
    return f"Step {step + 1} of {STEPS}. Time: 10:{step:02d}.\nTodos:\n{todos}"


def conversation(step: int, dynamic: bool) -> list[dict[str, str]]:
    base = system_prompt(default_toolset(), ToolMode.TEXT)
    system = (state(step) + "\n\n" + base) if dynamic else base
    msgs = [
        {"role": "system", "content": system},
        {"role": "user", "content": "Write parts 1 to 10 as files."},
    ]
    for i in range(step):
        msgs.append(
            {
                "role": "assistant",
                "content": f'```json\n{{"name": "write", "arguments": {{"path": "part{i + 1}.txt", "content": "part {i + 1}"}}}}\n```',
            }
        )
        msgs.append(
            {"role": "user", "content": f"Result of write:\nCreated part{i + 1}.txt (1 lines, 6 bytes)."}
        )
    if not dynamic:
        msgs[-1]["content"] += "\n\n[hearth] " + state(step)
    return msgs


def run(url: str, dynamic: bool) -> list[float]:
    times = []
    with httpx.Client(timeout=600) as client:
        for step in range(STEPS):
            t = time.perf_counter()
            r = client.post(
                url + "/chat/completions",
                json={"messages": conversation(step, dynamic), "max_tokens": 1, "temperature": 0},
            )
            r.raise_for_status()
            times.append(time.perf_counter() - t)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--url", required=True)
    args = parser.parse_args()
    stable = run(args.url, dynamic=False)
    dynamic = run(args.url, dynamic=True)
    print(f"{'step':>4} {'stable prefix (s)':>18} {'dynamic system prompt (s)':>26}")
    for i, (a, b) in enumerate(zip(stable, dynamic, strict=True), start=1):
        print(f"{i:>4} {a:>18.2f} {b:>26.2f}")
    print(f"{'all':>4} {sum(stable):>18.2f} {sum(dynamic):>26.2f}   ({sum(dynamic) / sum(stable):.1f}x)")


if __name__ == "__main__":
    main()
