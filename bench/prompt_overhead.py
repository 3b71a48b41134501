"""Prompt overhead and prefix reuse.

1. Tokens of the first request a real session sends (`hearth run` against the scripted server:
   the system prompt and every tool it offers, sub-agent tools included), for each tool mode,
   with tools offered on demand (the default) and with every schema in full (as before), counted
   by the scripted server's estimate and, when llama-cpp-python and the embedded model are installed,
   by the model's own tokenizer (Qwen2.5's vocabulary read from the GGUF). Goal: at most 1,500.
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

from hearth.llm.profiles import ToolMode
from hearth.testing.script import (
    ScriptedCall,
    ScriptedReply,
    estimate_tokens,
    prefix_reuse,
    prompt_text,
    reuse_summary,
)
from hearth.testing.server import ScriptedServer


def qwen_tokenizer(gguf: str | None = None):  # type: ignore[no-untyped-def]
    """The embedded model's tokenizer (or that of the GGUF given), or None when not installed here."""
    try:
        from llama_cpp import Llama

        from hearth.llm.embedded import ensure_model
        from hearth.runtime.config import user_data_path

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


EVERY_TOOL = {
    "HEARTH_NETWORK": "true",  # web_fetch
    "HEARTH_SEARCH_PROVIDER": "searxng",  # web_search: the scripted server's host answers
    "HEARTH_SEARCH_URL": "{server}/search",
}


def first_request(model: str, mode: ToolMode, **env: str) -> dict[str, object]:
    """The first request a real session sends (`hearth run` against the scripted server): its
    system prompt and every tool it offers, sub-agent tools included."""
    ws = Path(tempfile.mkdtemp(prefix="hearth-bench-"))
    home = Path(tempfile.mkdtemp(prefix="hearth-bench-home-"))
    with ScriptedServer([ScriptedReply(text="Hi. TASK_COMPLETE")], model=model) as server:
        extra = {k: v.replace("{server}", server.url) for k, v in env.items()}
        environ = {
            **os.environ,
            "HOME": str(home),
            "XDG_CONFIG_HOME": str(home / "config"),
            "XDG_DATA_HOME": str(home / "data"),
            "HEARTH_LLM_URL": server.url,
            "HEARTH_MODEL": model,
            "HEARTH_TOOL_MODE": mode.value,
            **extra,
        }
        cmd = [
            sys.executable,
            "-m",
            "hearth",
            "run",
            "say hi",
            "-w",
            str(ws),
            "--json",
            "--permission",
            "auto",
        ]
        subprocess.run(cmd, env=environ, capture_output=True, check=False)
        if not server.requests:
            raise SystemExit(f"no request reached the scripted server ({model}, {mode.value})")
        return server.requests[0]


LARGE = "qwen2.5-coder-32b-instruct"
SMALL = "qwen2.5-coder-1.5b-instruct"


def overhead(count) -> list[tuple[str, int, int, int | None]]:  # type: ignore[no-untyped-def]
    rows = []
    sets = [
        ("default", LARGE, {}),
        ("default, every schema in full (before)", LARGE, {"HEARTH_TOOLS_ON_DEMAND": "false"}),
        ("every optional tool", LARGE, EVERY_TOOL),
        ("every optional tool, in full (before)", LARGE, {**EVERY_TOOL, "HEARTH_TOOLS_ON_DEMAND": "false"}),
        ("small", SMALL, {}),
    ]
    for label, model, env in sets:
        for mode in (ToolMode.NATIVE, ToolMode.AUTO, ToolMode.TEXT):
            body = first_request(model, mode, **env)
            tools = len(body.get("tools") or [])  # type: ignore[arg-type]
            est = estimate_tokens(prompt_text(body))
            rows.append((f"{label}, {mode.value}", tools, est, count(chatml(body)) if count else None))
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
    print("First request of a real session (hearth run, scripted server): system prompt + tools sent")
    print(f"{'':48} {'tools sent':>10} {'estimate (chars/4)':>20} {'Qwen2.5 tokenizer':>18}")
    for name, tools, est, real in overhead(count):
        print(f"{name:48} {tools:>10} {est:>20} {real if real is not None else 'not installed':>18}")
    requests = hearth_session(args.steps)
    shares = prefix_reuse(requests)
    print(f"\nPrefix reuse over a {len(requests)}-request Hearth session (auto mode, native calls)")
    print(reuse_summary(shares))


if __name__ == "__main__":
    main()
