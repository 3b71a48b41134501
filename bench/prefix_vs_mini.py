"""The same two numbers for mini-swe-agent against the scripted server.

mini-swe-agent (from a throwaway venv: `python -m venv /tmp/minivenv && /tmp/minivenv/bin/pip install
mini-swe-agent`) runs its text-based config against Hearth's scripted OpenAI-compatible server,
which answers with one shell command per step for `--steps` steps. We report its first request's
size and the prefix reuse between its requests, next to Hearth's (bench/prompt_overhead.py).

    .venv/bin/python bench/prefix_vs_mini.py --mini /tmp/minivenv/bin/mini [--steps 40]
"""

from __future__ import annotations

import argparse
import subprocess
import tempfile
from pathlib import Path

from hearth.bench.runners import mini_command
from hearth.testing.script import ScriptedReply, estimate_tokens, prefix_reuse, prompt_text, reuse_summary
from hearth.testing.server import ScriptedServer


def script(steps: int) -> list[ScriptedReply]:
    replies = [
        ScriptedReply(
            text=f"THOUGHT: step {i}: look at the next file.\n\n```mswea_bash_command\necho step {i} > f{i}.txt && ls\n```"
        )
        for i in range(steps - 1)
    ]
    replies.append(
        ScriptedReply(
            text="THOUGHT: done.\n\n```mswea_bash_command\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n```"
        )
    )
    return replies


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--mini", required=True, help="the `mini` executable of a throwaway venv")
    parser.add_argument("--steps", type=int, default=40)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="mini-bench-"))
    with ScriptedServer(script(args.steps)) as server:
        cmd, env = mini_command(args.mini, server.url, args.steps + 2, "Write one file per step.")
        subprocess.run(cmd, cwd=work, env=env, capture_output=True, text=True, timeout=600, check=False)
        requests = list(server.requests)
    if not requests:
        raise SystemExit("mini-swe-agent sent no request; check its installation")
    shares = prefix_reuse(requests)
    print(
        f"mini-swe-agent: {len(requests)} requests; first request ~{estimate_tokens(prompt_text(requests[0]))} tokens "
        "(estimate, chars/4)"
    )
    print(reuse_summary(shares))


if __name__ == "__main__":
    main()
