"""smolagents' ToolCallingAgent on one task, for `hearth bench run --agent smolagents`.

Run with the python of a throwaway venv that has `smolagents` (and `openai`) installed, in the
task's workspace. It gets the smallest tool set that lets it do the tasks: run a shell command,
read a file, write a file, all in the current folder (unsandboxed, as mini-swe-agent is).

    /tmp/smolvenv/bin/python bench/adapters/smolagents_agent.py --url URL --max-steps 15 "task"
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from smolagents import OpenAIServerModel, ToolCallingAgent, tool


@tool
def shell(command: str) -> str:
    """Run a shell command in the workspace folder and return its output and exit code.

    Args:
        command: The command line to run with /bin/sh.
    """
    proc = subprocess.run(["/bin/sh", "-c", command], capture_output=True, text=True, timeout=120)
    return f"exit {proc.returncode}\n{proc.stdout[-8000:]}{proc.stderr[-4000:]}"


@tool
def read_file(path: str) -> str:
    """Read a text file in the workspace.

    Args:
        path: The file's path, relative to the workspace.
    """
    return Path(path).read_text(encoding="utf-8", errors="replace")[:20000]


@tool
def write_file(path: str, content: str) -> str:
    """Write a text file in the workspace, replacing it if it exists.

    Args:
        path: The file's path, relative to the workspace.
        content: The whole new content of the file.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(content, encoding="utf-8")
    return f"wrote {len(content)} characters to {path}"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--model", default="local")
    parser.add_argument("--max-steps", type=int, default=15)
    parser.add_argument("task")
    args = parser.parse_args()
    # llama-cpp-python's server takes only string contents: smolagents' own option for such servers
    model = OpenAIServerModel(
        model_id=args.model, api_base=args.url, api_key="x", flatten_messages_as_text=True
    )
    agent = ToolCallingAgent(tools=[shell, read_file, write_file], model=model, max_steps=args.max_steps)
    answer = agent.run(args.task)
    print(f"FINAL ANSWER: {answer}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
