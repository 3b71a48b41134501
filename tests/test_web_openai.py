"""The OpenAI-compatible endpoint, driven by the real `openai` Python package."""

from __future__ import annotations

import openai
import pytest

from hearth.testing.script import ScriptedCall, ScriptedReply
from websupport import TOKEN, Web


def _client(web: Web, key: str = TOKEN) -> openai.OpenAI:
    return openai.OpenAI(base_url=f"{web.url}/v1", api_key=key, max_retries=0, timeout=30)


def test_models_and_a_blocking_completion_that_runs_the_agent(web: Web) -> None:
    web.model.add(
        ScriptedReply(
            tool_calls=[ScriptedCall(name="write", arguments={"path": "poem.txt", "content": "roses\n"})]
        ),
        ScriptedReply(text="I wrote poem.txt.\nTASK_COMPLETE"),
    )
    client = _client(web)
    assert [m.id for m in client.models.list()] == ["hearth"]
    reply = client.chat.completions.create(
        model="hearth", messages=[{"role": "user", "content": "write a poem to poem.txt"}]
    )
    assert reply.choices[0].message.content == "I wrote poem.txt."
    assert reply.choices[0].finish_reason == "stop"
    assert reply.usage is not None and reply.usage.prompt_tokens > 0
    assert (web.workspace / "poem.txt").read_text() == "roses\n"


def test_streaming_completion_shows_the_work_then_the_answer(web: Web) -> None:
    web.model.add(
        ScriptedReply(tool_calls=[ScriptedCall(name="ls", arguments={"path": "."})]),
        ScriptedReply(text="The folder is empty.\nTASK_COMPLETE", chunk_size=4),
    )
    stream = _client(web).chat.completions.create(
        model="hearth",
        messages=[
            {"role": "system", "content": "be brief"},
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": "Hello! What should I do?"},
            {"role": "user", "content": "what is in the folder?"},
        ],
        stream=True,
        stream_options={"include_usage": True},
    )
    content, reasoning, finish, usage = "", "", None, None
    for chunk in stream:
        if chunk.usage:
            usage = chunk.usage
        for choice in chunk.choices:
            content += choice.delta.content or ""
            reasoning += getattr(choice.delta, "reasoning_content", None) or ""
            finish = choice.finish_reason or finish
    assert content == "The folder is empty."
    assert "→ ls" in reasoning and "✓ ls" in reasoning
    assert finish == "stop" and usage is not None and usage.total_tokens > 0
    task = web.model.requests[0]["messages"][-1]["content"]
    assert "Hello! What should I do?" in task and "what is in the folder?" in task


def test_a_wrong_key_is_refused(web: Web) -> None:
    with pytest.raises(openai.AuthenticationError):
        _client(web, key="wrong").models.list()


def test_calls_needing_approval_are_refused_not_left_waiting(web: Web) -> None:
    web.model.add(
        ScriptedReply(tool_calls=[ScriptedCall(name="shell", arguments={"command": "touch x.txt"})]),
        ScriptedReply(text="BLOCKED: I may not run commands here."),
        ScriptedReply(text="BLOCKED: I may not run commands here."),
    )
    reply = _client(web).chat.completions.create(
        model="hearth", messages=[{"role": "user", "content": "touch x"}]
    )
    assert "may not run commands" in (reply.choices[0].message.content or "")
    assert not (web.workspace / "x.txt").exists()
