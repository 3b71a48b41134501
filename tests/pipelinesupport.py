"""Replies and plans for the pipeline's tests (the scripted server answers each role by marker)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from hearth.testing.script import ScriptedCall, ScriptedReply


def planned(*tasks: dict[str, Any]) -> ScriptedReply:
    return ScriptedReply(text=json.dumps({"tasks": list(tasks)}))


def task(
    key: str, title: str, files: list[str], depends: list[str] | None = None, phase: int = 1
) -> dict[str, Any]:
    return {
        "id": key,
        "title": title,
        "description": f"{title}.",
        "files": files,
        "depends_on": depends or [],
        "phase": phase,
    }


def write(path: str, content: str) -> ScriptedReply:
    return ScriptedReply(
        tool_calls=[ScriptedCall(name="write", arguments={"path": path, "content": content})]
    )


def done(text: str = "Done.") -> ScriptedReply:
    return ScriptedReply(text=f"{text}\nTASK_COMPLETE")


def verdict(kind: str = "pass", *reasons: str) -> ScriptedReply:
    return ScriptedReply(text=json.dumps({"verdict": kind, "reasons": list(reasons), "summary": "checked"}))


def planner_marker(name: str) -> str:
    return f"Split the plan `{name}`"


def coder_marker(key: str) -> str:
    return f"Work on task {key} of"


def reviewer_marker(key: str) -> str:
    return f"Review task {key}:"


def make_plan(workspace: Path, name: str, text: str) -> Path:
    (workspace / "plans").mkdir(exist_ok=True)
    path = workspace / "plans" / f"{name}.md"
    path.write_text(text, encoding="utf-8")
    return path


def git(workspace: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-c", "user.name=T", "-c", "user.email=t@example.com", *args],
        cwd=workspace,
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def user_texts(body: dict[str, Any]) -> list[str]:
    return [m["content"] for m in body["messages"] if m["role"] == "user"]
