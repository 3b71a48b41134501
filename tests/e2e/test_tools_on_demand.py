"""Tools offered on demand: a default session sends the core tools in full and names the others
in `tool_load`; a tool joins the list once loaded or called, and stays callable all along."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hearth.testing import ScriptedReply, ScriptedServer
from hearth.testing.script import ScriptedCall, estimate_tokens, prompt_text
from support import HearthCli

LARGE = "qwen2.5-coder-32b-instruct"
CORE = ["read", "write", "edit", "glob", "grep", "ls", "shell", "tool_load"]


def session(hearth, workspace: Path, replies: list[ScriptedReply], **env: str) -> list[dict[str, Any]]:  # type: ignore[no-untyped-def]
    with ScriptedServer(replies, model=LARGE) as server:
        res = hearth(
            "run",
            "keep track of the work",
            "-w",
            str(workspace),
            "--json",
            "--permission",
            "auto",
            env={"HEARTH_LLM_URL": server.url, "HEARTH_RETRIES": "0", "HEARTH_TOOL_MODE": "native", **env},
        )
        assert res.code == 0, res.stdout[-1500:] + res.stderr[-1500:]
        return list(server.requests)


def tools(body: dict[str, Any]) -> list[str]:
    return [t["function"]["name"] for t in body.get("tools") or []]


def results(body: dict[str, Any]) -> list[str]:
    return [m["content"] for m in body["messages"] if m["role"] == "tool"]


def test_the_first_request_sends_the_core_tools_and_a_catalogue_of_the_rest(hearth, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    first = session(hearth, workspace, [ScriptedReply(text="Hi. TASK_COMPLETE")])[0]
    assert tools(first) == CORE
    catalogue = first["tools"][-1]["function"]["description"]
    for name in ("delegate", "decompose", "git_status", "todo_add", "memory_store", "shell_jobs"):
        assert f"- {name}: " in catalogue
    assert estimate_tokens(prompt_text(first)) <= 1500


def test_a_tool_joins_the_list_when_loaded_or_called_and_a_bad_call_gets_its_schema(
    hearth: HearthCli, workspace: Path
) -> None:
    replies = [
        ScriptedReply(tool_calls=[ScriptedCall(name="todo_add", arguments={"txt": "x"})]),
        ScriptedReply(tool_calls=[ScriptedCall(name="tool_load", arguments={"names": ["git_log"]})]),
        ScriptedReply(tool_calls=[ScriptedCall(name="todo_list", arguments={})]),
        ScriptedReply(text="Tracked. TASK_COMPLETE"),
    ]
    requests = session(hearth, workspace, replies)
    assert [tools(r) for r in requests] == [CORE, CORE, [*CORE, "git_log"], [*CORE, "git_log", "todo_list"]]
    bad = results(requests[1])[-1]
    assert "Invalid arguments for todo_add" in bad and '"text":{"type":"string"' in bad.replace(" ", "")
    assert "git_log(" in results(requests[2])[-1]
    assert not results(requests[3])[-1].startswith(("Error", "Invalid"))
    assert requests[3]["tools"][: len(CORE)] == requests[0]["tools"]  # the listed part never changes


def test_with_the_setting_off_every_tool_is_sent_in_full(hearth, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    first = session(
        hearth, workspace, [ScriptedReply(text="Hi. TASK_COMPLETE")], HEARTH_TOOLS_ON_DEMAND="false"
    )[0]
    assert "tool_load" not in tools(first)
    assert {"delegate", "decompose", "git_status", "todo_add"} <= set(tools(first))
    assert json.dumps(first).count('"name"') >= 30
