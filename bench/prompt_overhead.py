"""Prompt overhead and prefix reuse.

1. Tokens of the first request (system prompt + default tool schemas), for each tool mode, counted
   by the scripted server's estimate and, when llama-cpp-python and the embedded model are installed,
   by the model's own tokenizer (Qwen2.5's vocabulary read from the GGUF). Goal: under 2,000.
2. Prefix reuse over a scripted 40-step session through the real CLI and HTTP: for each request,
   (a) the share of the previous request's prompt that the new one repeats byte for byte (what a
   prefix cache can reuse), and (b) the share of the new prompt that is such a repeat.
   Goal: at least 99% (a) on every step but the one right after a compaction.

    .venv/bin/python bench/prompt_overhead.py [--steps 40] [--record out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from hearth.agent.prompt import system_prompt
from hearth.core.types import Message
from hearth.llm.profiles import ToolMode
from hearth.runtime.config import Settings
from hearth.runtime.profile import SMALL_TOOLS, default_toolset, full_toolset, small_toolset
from hearth.testing.script import (
    ScriptedCall,
    ScriptedReply,
    estimate_tokens,
    prefix_reuse,
    prompt_text,
    reuse_summary,
)
from hearth.testing.server import ScriptedServer
from hearth.tools.builtin.search import SearchProvider
from hearth.tools.toolset import Toolset


def qwen_tokenizer(gguf: str | None = None):  # type: ignore[no-untyped-def]
    """The embedded model's tokenizer (or that of the GGUF given), or None when not installed here."""
    try:
        from llama_cpp import Llama

        from hearth.runtime.config import user_data_path
        from hearth.runtime.embedded import ensure_model

        path = gguf or str(ensure_model(user_data_path()))
        llm = Llama(model_path=path, vocab_only=True, verbose=False)
        return lambda text: len(llm.tokenize(text.encode(), add_bos=False, special=True))
    except Exception:
        return None


def chatml(body: dict[str, object]) -> str:
    """The prompt as Qwen's chat template renders it (tools go into the system turn)."""
    out = []
    tools = body.get("tools") or []
    for m in body["messages"]:  # type: ignore[attr-defined]
        content = m["content"]
        if m["role"] == "system" and tools:
            content += (
                "\n\n# Tools\n\n<tools>\n"
                + "\n".join(json.dumps(t["function"]) for t in tools)
                + "\n</tools>"
            )
        out.append(f"<|im_start|>{m['role']}\n{content}<|im_end|>")
    return "\n".join(out) + "\n<|im_start|>assistant\n"


def every_tool() -> Toolset:
    """What a session is offered with every optional tool configured: the network on (web_fetch),
    a search provider (web_search), an isolating sandbox (python), get_time and data_view."""
    settings = Settings(network=True, search_provider="searxng", search_url="http://127.0.0.1:8888")
    search = SearchProvider("searxng", settings.search_url, "")
    return full_toolset(settings, isolated=True, search=search)


def overhead(count) -> list[tuple[str, int, int | None]]:  # type: ignore[no-untyped-def]
    rows = []
    sets = [
        ("", default_toolset(), False),
        ("every tool, ", every_tool(), False),
        ("small, ", small_toolset(), True),
        # what the runtime shows a small model when every optional tool is configured
        ("small + every tool, ", every_tool().filtered(SMALL_TOOLS), True),
    ]
    for label, tools, small in sets:
        for mode in (ToolMode.TEXT, ToolMode.AUTO, ToolMode.NATIVE):
            prompt = system_prompt(tools, mode, small=small)
            body = {"messages": [Message(role="system", content=prompt).to_wire()]}
            if mode is not ToolMode.TEXT:
                body["tools"] = [t.to_wire() for t in tools.specs()]
            rows.append(
                (
                    f"{label}{mode.value} mode, {len(tools)} tools",
                    estimate_tokens(prompt_text(body)),
                    count(chatml(body)) if count else None,
                )
            )
    return rows


def session_script(steps: int) -> list[ScriptedReply]:
    replies = []
    for i in range(steps - 1):
        if i % 3 == 0:
            replies.append(
                ScriptedReply(
                    tool_calls=[
                        ScriptedCall(
                            name="write",
                            arguments={
                                "path": f"src/mod{i}.py",
                                "content": f"def f{i}(x):\n    return x + {i}\n",
                            },
                        )
                    ]
                )
            )
        elif i % 3 == 1:
            replies.append(
                ScriptedReply(
                    tool_calls=[ScriptedCall(name="read", arguments={"path": f"src/mod{i - 1}.py"})]
                )
            )
        else:
            replies.append(
                ScriptedReply(tool_calls=[ScriptedCall(name="todo_add", arguments={"text": f"check {i}"})])
            )
    replies.append(ScriptedReply(text="All done. TASK_COMPLETE"))
    return replies


def hearth_session(steps: int) -> list[dict[str, object]]:
    ws = Path(tempfile.mkdtemp(prefix="hearth-bench-"))
    with ScriptedServer(session_script(steps), context_window=32768) as server:
        env = {**os.environ, "HEARTH_LLM_URL": server.url, "HEARTH_MAX_ITERATIONS": str(steps + 5)}
        subprocess.run(
            [
                sys.executable,
                "-m",
                "hearth.apps.cli.main",
                "run",
                "build the modules",
                "-w",
                str(ws),
                "--json",
                "--permission",
                "auto",
            ],
            env=env,
            capture_output=True,
            check=False,
        )
        return list(server.requests)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--gguf", help="count with this GGUF's tokenizer (default: the embedded model's)")
    args = parser.parse_args()
    count = qwen_tokenizer(args.gguf)
    print("First request: system prompt + tool schemas")
    print(f"{'':42} {'estimate (chars/4)':>20} {'Qwen2.5 tokenizer':>18}")
    for name, est, real in overhead(count):
        print(f"{name:42} {est:>20} {real if real is not None else 'not installed':>18}")
    requests = hearth_session(args.steps)
    shares = prefix_reuse(requests)
    print(f"\nPrefix reuse over a {len(requests)}-request Hearth session (auto mode, native calls)")
    print(reuse_summary(shares))


if __name__ == "__main__":
    main()
