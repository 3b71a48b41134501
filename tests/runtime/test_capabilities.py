"""Capability flags that change what is sent: JSON-schema output with
repair and one retry, vision roles, thinking switched per role, and tool calling probed per role
(a role on another server or model is asked for itself). Against the scripted server over HTTP."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, Field

from hearth.core.types import Message
from hearth.llm.structured import StructuredAnswerError
from hearth.runtime.config import Settings, user_data_path
from hearth.runtime.session import Runtime, open_runtime
from hearth.runtime.vision import seeing_role
from hearth.testing.script import ScriptedReply
from hearth.testing.server import ScriptedServer
from runtime.test_subagents import call, done, first_user, private_config, run_parent, srv, tool_results

__all__ = ["private_config", "srv"]


class Verdict(BaseModel):
    approved: bool
    issues: list[str] = Field(default_factory=list)
    score: int = Field(ge=0, le=10)


ASK = [Message(role="system", content="You review changes."), Message(role="user", content="Review it.")]


def tool_probes(server: ScriptedServer) -> list[dict[str, Any]]:
    """The tool-mode probes a server got (a small model's server is also asked for actions)."""
    return [p for p in server.probes if "response_format" not in p]


def with_runtime(ws: Path, srv: ScriptedServer, fn: Any, **settings: Any) -> Any:
    async def go() -> Any:
        rt = await open_runtime(
            Settings.from_keys(llm_url=srv.url, workspace=ws, sandbox="process", **settings)
        )
        try:
            return await fn(rt)
        finally:
            await rt.aclose()

    return asyncio.run(go())


def test_a_json_schema_role_gets_response_format_and_its_answer_is_validated(
    workspace: Path, srv: ScriptedServer
) -> None:
    srv.add(ScriptedReply(text='{"approved": true, "issues": [], "score": 8}'))
    roles = {"reviewer": {"model": "rev", "json_schema": True, "seed": 3, "max_tokens": 200}}

    answer = with_runtime(workspace, srv, lambda rt: rt.ask_json("reviewer", ASK, Verdict), roles=roles)
    assert answer.value == Verdict(approved=True, issues=[], score=8) and answer.attempts == 1
    body = srv.requests[-1]
    fmt = body["response_format"]
    assert fmt["type"] == "json_schema" and fmt["json_schema"]["name"] == "Verdict"
    assert fmt["json_schema"]["schema"]["properties"]["score"]["maximum"] == 10
    assert body["model"] == "rev" and body["seed"] == 3 and body["max_tokens"] == 200
    assert "tools" not in body
    assert "JSON schema:" not in json.dumps(body["messages"])  # the server holds the schema


def test_without_the_flag_the_schema_is_in_the_prompt_and_a_bad_answer_is_retried_with_the_error(
    workspace: Path, srv: ScriptedServer
) -> None:
    srv.add(
        ScriptedReply(text='Sure! {"approved": "maybe", "score": 11}'),
        ScriptedReply(
            text='<think>fix it</think>```json\n{"approved": false, "issues": ["x"], "score": 4}\n```'
        ),
    )
    answer = with_runtime(workspace, srv, lambda rt: rt.ask_json("reviewer", ASK, Verdict))
    assert answer.value == Verdict(approved=False, issues=["x"], score=4)
    assert answer.attempts == 2 and answer.repaired
    first, second = srv.requests[-2:]
    assert "response_format" not in first
    last_user = first["messages"][-1]["content"]
    assert last_user.startswith("Review it.") and '"score"' in last_user  # the schema, in the turn
    assert [m["role"] for m in second["messages"]] == ["system", "user", "assistant", "user"]
    error = second["messages"][-1]["content"]
    assert "approved" in error and "score" in error and "10" in error  # both errors named
    assert srv.violations == []


def test_broken_json_is_repaired_and_a_model_that_never_fits_is_an_error(
    workspace: Path, srv: ScriptedServer
) -> None:
    srv.add(ScriptedReply(text='{"approved": true, "issues": ["a", "b"], "score": 7'))  # cut off
    answer = with_runtime(workspace, srv, lambda rt: rt.ask_json("reviewer", ASK, Verdict))
    assert answer.value.issues == ["a", "b"] and answer.repaired and answer.attempts == 1

    srv.add(ScriptedReply(text="I approve."), ScriptedReply(text="Looks good to me."))
    with pytest.raises(StructuredAnswerError) as caught:
        with_runtime(workspace, srv, lambda rt: rt.ask_json("reviewer", ASK, Verdict))
    assert "after 2 tries" in caught.value.message and caught.value.raw == "Looks good to me."


def test_a_vision_role_is_found_and_none_without_one(workspace: Path, srv: ScriptedServer) -> None:
    async def find(rt: Runtime) -> tuple[Any, Any]:
        role = seeing_role(rt)
        return (role.name, role.model) if role else None, [r.name for r in rt.roles_table() if r.vision]

    roles = {"coder": {"model": "c"}, "seer": {"model": "llava-7b", "vision": True}}
    assert with_runtime(workspace, srv, find, roles=roles) == (("seer", "llava-7b"), ["seer"])
    roles["vision"] = {"model": "qwen2-vl", "vision": True}
    assert with_runtime(workspace, srv, find, roles=roles)[0] == ("vision", "qwen2-vl")
    assert with_runtime(workspace, srv, find, roles={"coder": {"model": "c"}}) == (None, [])


def test_thinking_is_switched_per_role_in_the_request(workspace: Path, srv: ScriptedServer) -> None:
    srv.add(call("delegate", objective="QUIET-CHILD look", deliverable="x", role="coder"), done())
    srv.route("QUIET-CHILD", done("ok"))
    run_parent(workspace, srv, roles={"coder": {"thinking": False}, "main": {"thinking": True}})
    parent = srv.requests[0]
    child = next(b for b in srv.requests if "QUIET-CHILD" in first_user(b))
    assert parent["chat_template_kwargs"] == {"enable_thinking": True}
    assert child["chat_template_kwargs"] == {"enable_thinking": False}
    srv.add(ScriptedReply(text="plain TASK_COMPLETE"))
    run_parent(workspace, srv, task="no flags")
    assert "chat_template_kwargs" not in srv.requests[-1]  # unset: nothing is sent


@pytest.fixture
def text_server() -> Iterator[ScriptedServer]:
    """Another server whose model writes its tool calls as text."""
    server = ScriptedServer(model="texty", tool_style="text").start()
    yield server
    server.stop()


def test_the_probe_picks_text_mode_for_a_role_on_a_server_that_answers_tools_as_text(
    workspace: Path, srv: ScriptedServer, text_server: ScriptedServer
) -> None:
    roles = {"coder": {"server": text_server.url, "model": "texty"}}
    srv.add(call("delegate", objective="TEXT-ROLE list", deliverable="names", role="coder"), done())
    text_server.route(
        "TEXT-ROLE", ScriptedReply(text='```json\n{"name": "ls", "arguments": {}}\n```'), done()
    )
    run_parent(workspace, srv, roles=roles)
    assert (
        len(tool_probes(srv)) == 1 and len(tool_probes(text_server)) == 1
    )  # each server and model asked once
    assert "tools" in srv.requests[0]  # the main model calls natively
    child_first, child_second = text_server.requests
    assert "tools" not in child_first and "ls(" in child_first["messages"][0]["content"]
    result = child_second["messages"][-1]
    assert result["role"] == "user" and ".hearth-scratch" in result["content"]  # the text call ran
    assert text_server.violations == []
    cache = json.loads((user_data_path() / "tool_modes.json").read_text())  # remembered per user
    assert cache[f"{text_server.url} texty"] == "text" and cache[f"{srv.url} "] == "auto"

    srv.add(call("delegate", objective="TEXT-ROLE again", deliverable="names", role="coder"), done())
    text_server.route("TEXT-ROLE", done())
    run_parent(workspace, srv, roles=roles)
    assert len(tool_probes(text_server)) == 1  # remembered for that server and model
    assert "tools" not in text_server.requests[-1]


def test_a_role_on_the_same_server_with_another_model_is_probed_for_itself(
    workspace: Path, text_server: ScriptedServer
) -> None:
    """The planner (another model on the main server) is asked for itself, after the main model."""
    text_server.add(
        call("delegate", objective="PLANNER-X plan", deliverable="a plan", role="planner"), done()
    )
    text_server.route("PLANNER-X", done("planned"))
    run_parent(workspace, text_server, roles={"planner": {"model": "small-planner"}}, model="main-big")
    assert len(tool_probes(text_server)) == 2  # main-big, then small-planner
    assert [p["model"] for p in tool_probes(text_server)] == ["main-big", "small-planner"]
    child = next(b for b in text_server.requests if "PLANNER-X" in first_user(b))
    assert "tools" not in child and "tools" not in text_server.requests[0]  # both answered as text


def test_a_configured_native_tools_flag_is_not_probed(workspace: Path, text_server: ScriptedServer) -> None:
    text_server.add(call("delegate", objective="NATIVE-X go", deliverable="x", role="coder"), done())
    text_server.route("NATIVE-X", done())
    run_parent(workspace, text_server, roles={"coder": {"model": "other", "native_tools": True}})
    assert [p.get("model") for p in tool_probes(text_server)] == [None]  # only the main (blank) model
    child = next(b for b in text_server.requests if "NATIVE-X" in first_user(b))
    assert "tools" in child


def test_a_probe_the_server_could_not_answer_is_not_remembered(workspace: Path, srv: ScriptedServer) -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    roles = {"coder": {"server": f"http://127.0.0.1:{port}/v1", "model": "late"}}
    srv.add(call("delegate", objective="LATE-ROLE go", deliverable="x", role="coder"), done())
    _finished, events, _ = run_parent(workspace, srv, roles=roles, retries=0)
    assert json.loads(tool_results(events, "delegate")[0].output)["status"] == "failed"  # nobody there
    cache = json.loads((user_data_path() / "tool_modes.json").read_text())  # remembered per user
    assert not any(key.startswith(f"http://127.0.0.1:{port}") for key in cache)  # nothing learned

    with ScriptedServer(model="late", tool_style="text", port=port) as late:
        srv.add(call("delegate", objective="LATE-ROLE again", deliverable="x", role="coder"), done())
        late.route("LATE-ROLE", done("ok"))
        run_parent(workspace, srv, roles=roles, retries=0)
        assert len(tool_probes(late)) == 1 and "tools" not in late.requests[0]  # asked now, and text it is
