"""Compaction against the window: masking first, then a summary; overflow triggers it; prefix stays stable."""

from __future__ import annotations

import asyncio
import itertools
import json
from pathlib import Path
from typing import Any

from hearth.agent.compaction import Compactor, estimate_tokens
from hearth.agent.context import build_messages
from hearth.agent.dispatch import Dispatcher
from hearth.agent.loop import Agent, Limits
from hearth.agent.policy import PermissionMode, PermissionPolicy
from hearth.agent.prompt import system_prompt
from hearth.core.events import Compacted, ModelReply, Status
from hearth.core.types import Message
from hearth.llm.profiles import ModelProfile, ToolMode
from hearth.sandbox.paths import SafePaths
from hearth.store.sessions import SessionStore
from hearth.testing import ScriptedCall, ScriptedModel, ScriptedReply
from hearth.tools.base import RunContext
from hearth.tools.builtin.files import file_tools
from hearth.tools.builtin.work import work_tools
from hearth.tools.toolset import Toolset


def read_call(i: int) -> ScriptedReply:
    return ScriptedReply(tool_calls=[ScriptedCall(id=f"r{i}", name="read", arguments={"path": f"f{i}.txt"})])


SUMMARY = ScriptedReply(text="Read the earlier files; each holds lorem ipsum. Only the final answer is left.")


def summarising(replies: list[ScriptedReply]) -> list[object]:
    """A script that answers the compaction's summary requests and plays `replies` for the rest."""
    queue = list(replies)

    def respond(body: dict[str, object]) -> ScriptedReply:
        if "You summarise an agent's work" in body["messages"][0]["content"]:  # type: ignore[index]
            return SUMMARY
        return queue.pop(0) if queue else ScriptedReply(text="done")

    return [respond] * 100


def agent_requests(model: ScriptedModel) -> list[dict[str, Any]]:
    return [r for r in model.requests if "You summarise" not in r["messages"][0]["content"]]


def make(ws: Path, replies: list[ScriptedReply], window: int) -> tuple[Agent, ScriptedModel]:
    for i in range(20):
        (ws / f"f{i}.txt").write_text(f"file {i}\n" + "lorem ipsum dolor sit amet " * 40 + "\n")
    tools = Toolset([*file_tools(), *work_tools()])
    store = SessionStore(ws / ".hearth" / "s.db")
    sid = store.create(str(ws), "m")
    model = ScriptedModel(summarising(replies))  # type: ignore[arg-type]
    agent = Agent(
        model,
        ModelProfile(tool_mode=ToolMode.NATIVE, context_window=window),
        Dispatcher(tools, PermissionPolicy(PermissionMode.AUTO), RunContext(paths=SafePaths(ws))),
        store,
        sid,
        system_prompt(tools, ToolMode.NATIVE),
        Limits(max_iterations=40),
        compactor=Compactor(window=window, reserve=256, keep_results=2, keep_events=6),
    )
    return agent, model


def prompt_tokens(body: dict[str, object]) -> int:
    msgs = [Message.model_validate(m) if False else m for m in body["messages"]]  # type: ignore[attr-defined]
    return int(len(json.dumps(msgs) + json.dumps(body.get("tools", []))) / 3.5)


def test_old_tool_outputs_are_masked_first_and_stay_in_the_store(workspace: Path) -> None:
    agent, model = make(
        workspace, [read_call(i) for i in range(14)] + [ScriptedReply(text="read them all")], 6000
    )
    fin = asyncio.run(agent.run("read the files"))
    assert fin.status is Status.DONE and model.violations == []
    compactions = [e for e in agent.history if isinstance(e, Compacted)]
    assert compactions and compactions[0].masked and not compactions[0].summary  # masking first
    assert all(c.tokens_after < c.tokens_before for c in compactions)
    upto = agent.history.index(compactions[0]) + 1
    masked = build_messages(agent.system_prompt, agent.history[:upto])
    assert "hidden to save context" in json.dumps([m.to_wire() for m in masked])
    budget = agent.compactor.budget  # type: ignore[union-attr]
    assert all(prompt_tokens(r) <= budget * 1.1 for r in agent_requests(model))
    # the store still has every full output
    stored = agent.store.events(agent.session_id)
    assert sum("lorem ipsum" in getattr(e, "output", "") for e in stored) == 14


def test_compaction_frees_half_the_budget_at_once_and_keeps_the_unread_result_whole(workspace: Path) -> None:
    agent, model = make(workspace, [read_call(i) for i in range(16)] + [ScriptedReply(text="ok")], 8000)
    fin = asyncio.run(agent.run("read the files"))
    assert fin.status is Status.DONE and model.violations == []
    compactor = agent.compactor
    assert compactor is not None
    compactions = [e for e in agent.history if isinstance(e, Compacted)]
    assert compactions
    assert all(c.tokens_after <= compactor.target for c in compactions if c.summary or c is compactions[-1])
    assert all(len(c.masked) > 1 for c in compactions if c.masked)  # never one result per step
    requests = agent_requests(model)
    changed = sum(
        1
        for before, after in itertools.pairwise(requests)
        if after["messages"][: len(before["messages"])] != before["messages"]
    )
    assert changed <= 3  # 16 reads of ~300 tokens: one change every few steps, not every step
    for body in requests:  # the result the model is about to read is never a stub
        last = body["messages"][-1]
        assert last["role"] != "tool" or "lorem ipsum" in last["content"]


def test_older_turns_are_summarised_when_masking_is_not_enough(workspace: Path) -> None:
    replies = [
        ScriptedReply(text="thinking out loud " * 60, tool_calls=read_call(i).tool_calls) for i in range(10)
    ]
    agent, model = make(workspace, replies, 3000)
    fin = asyncio.run(agent.run("read the files"))
    assert fin.status is Status.DONE, fin.reason
    summaries = [e for e in agent.history if isinstance(e, Compacted) and e.summary]
    assert summaries and summaries[0].summary == SUMMARY.text
    after = [r for r in agent_requests(model) if "Earlier work was compacted" in json.dumps(r["messages"])]
    assert after
    first_user = after[-1]["messages"][1]["content"]
    assert first_user.startswith("read the files")  # the task survives, then the summary
    assert model.violations == []  # every kept call still has its result


def test_prefix_is_stable_between_compactions(workspace: Path) -> None:
    agent, model = make(workspace, [read_call(i) for i in range(10)] + [ScriptedReply(text="ok")], 6000)
    asyncio.run(agent.run("read"))
    compaction_steps = set()
    count = 0
    for e in agent.history:
        if e.kind == "model_reply":
            count += 1
        if isinstance(e, Compacted):
            compaction_steps.add(count)
    requests = agent_requests(model)
    for n, (before, after) in enumerate(itertools.pairwise(requests), start=1):
        if n in compaction_steps:
            continue
        assert json.dumps(after["messages"]).startswith(json.dumps(before["messages"])[:-1])


def test_a_context_overflow_error_compacts_and_retries(workspace: Path) -> None:
    overflow = ScriptedReply(
        status=400, error="request (9000 tokens) exceeds the available context size (8192)"
    )
    agent, _ = make(
        workspace,
        [
            read_call(0),
            read_call(1),
            read_call(2),
            read_call(3),
            overflow,
            ScriptedReply(text="done after compaction"),
        ],
        100_000,
    )
    fin = asyncio.run(agent.run("read"))
    assert fin.status is Status.DONE
    compactions = [e for e in agent.history if isinstance(e, Compacted)]
    assert compactions and all("overflowed" in c.reason for c in compactions)
    assert compactions[0].masked


def test_estimate_counts_tools_too() -> None:
    msgs = [Message(role="user", content="x" * 350)]
    assert estimate_tokens(msgs) >= 100
    assert build_messages("s", [])[0].content == "s"


def test_a_compaction_that_cannot_get_under_the_budget_is_not_repeated(workspace: Path) -> None:
    """A window so small that the tools alone nearly fill it: one attempt, not one per step."""
    replies = [
        ScriptedReply(
            text=f"step {i} " + "note " * 30,
            tool_calls=[ScriptedCall(name="ls", arguments={"path": f"d{i}"})],
        )
        for i in range(12)
    ]
    for i in range(12):
        (workspace / f"d{i}").mkdir()
    agent, model = make(workspace, [*replies, ScriptedReply(text="done")], 2200)
    fin = asyncio.run(agent.run("look around"))
    assert fin.status is Status.DONE, fin.reason
    summary_requests = len(model.requests) - len(agent_requests(model))
    assert summary_requests <= 3  # was one on nearly every step
    steps_at = []
    replies_seen = 0
    for e in agent.history:
        replies_seen += isinstance(e, ModelReply)
        if isinstance(e, Compacted):
            steps_at.append(replies_seen)
    assert all(b - a >= 4 for a, b in itertools.pairwise(steps_at))  # it waits for real growth


def test_an_unknown_window_waits_for_the_server_and_learns_it() -> None:
    compactor = Compactor(window=4096, known=False)
    assert not compactor.due(3000)  # a short session with an unknown window is left alone
    compactor.learn(2048)
    assert compactor.known and compactor.window == 2048 and compactor.due(3000)


def test_a_summary_larger_than_what_it_replaces_is_dropped(workspace: Path) -> None:
    long_summary = ScriptedReply(text="summary " * 4000)
    agent, model = make(workspace, [read_call(i) for i in range(6)] + [ScriptedReply(text="ok")], 3000)

    def respond(body: dict[str, object]) -> ScriptedReply:
        if "You summarise" in body["messages"][0]["content"]:  # type: ignore[index]
            return long_summary
        return queue.pop(0) if queue else ScriptedReply(text="ok")

    queue = [read_call(i) for i in range(6)]
    model.script = [respond] * 40
    asyncio.run(agent.run("read"))
    assert not any(isinstance(e, Compacted) and e.summary for e in agent.history)
    assert all(r.get("max_tokens") for r in model.requests if r not in agent_requests(model))


def test_an_overflow_that_states_no_window_still_teaches_one(workspace: Path) -> None:
    overflow = ScriptedReply(
        status=400, error="the request exceeds the available context size, try increasing it"
    )
    agent, _ = make(
        workspace, [*[read_call(i) for i in range(6)], overflow, ScriptedReply(text="done")], 4096
    )
    assert agent.compactor is not None
    agent.compactor.known = False  # as when the server never said
    fin = asyncio.run(agent.run("read"))
    assert fin.status is Status.DONE
    assert agent.compactor.known and agent.compactor.window < 4096  # a guess under what did not fit
    assert any(isinstance(e, Compacted) and "overflowed" in e.reason for e in agent.history)
