"""The OpenAI-compatible endpoint, driven by the real `openai` Python package."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import openai
import pytest

from hearth.testing.script import ScriptedCall, ScriptedReply
from hearth.testing.server import ScriptedServer
from websupport import TOKEN, Web, running_web


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
    assert content.strip() == "The folder is empty."
    assert "→ ls" in reasoning and "✓ ls" in reasoning
    assert "folder is empty" not in reasoning  # the answer is content, not thinking
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


def test_the_answer_streams_as_content_while_it_is_written(web: Web) -> None:
    web.model.add(ScriptedReply(text="one two three four five six\nTASK_COMPLETE", chunk_size=4))
    stream = _client(web).chat.completions.create(
        model="hearth", messages=[{"role": "user", "content": "count"}], stream=True
    )
    pieces = [c.choices[0].delta.content for c in stream if c.choices and c.choices[0].delta.content]
    assert len(pieces) > 3, pieces  # many deltas, not the whole answer in one chunk at the end
    assert "".join(pieces).strip() == "one two three four five six"  # the finish marker is not shown


def test_the_marker_filter_holds_back_only_what_may_be_the_marker() -> None:
    from hearth.apps.web.openai_api import MarkerFilter

    f = MarkerFilter()
    out = f.feed("done. TASK_") + f.feed("COMPL") + f.feed("ETE and TASK") + f.end()
    assert out == "done.  and TASK"
    assert f.feed("\n\n") == "" and f.feed("more") == "\n\nmore"
    # a call written as text waits for the reply's end, and is dropped when it was a call
    assert f.feed(" Looking.\n``") == " Looking." and f.feed('`json\n{"name": "ls"}\n```') == ""
    assert f.end(calls=True) == ""
    assert f.feed("\nCode:\n```py\nx = 1\n```\nTASK_COMPLETE") == "\n\nCode:"
    assert f.end() == "\n```py\nx = 1\n```"


@pytest.fixture
def strict_web(
    workspace: Path, home: Path, server: ScriptedServer, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Web]:
    with running_web(workspace, home, server, monkeypatch, tool_mode="native", retries=0) as w:
        yield w


def test_calls_written_as_text_are_not_streamed_as_the_answer(
    workspace: Path, home: Path, server: ScriptedServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    call = '```json\n{"name": "ls", "arguments": {"path": "."}}\n```'
    server.add(
        ScriptedReply(text=f"Let me look.\n{call}", chunk_size=5),
        ScriptedReply(text="It is empty.\nTASK_COMPLETE", chunk_size=5),
    )
    with running_web(workspace, home, server, monkeypatch, tool_mode="text") as web:
        stream = _client(web).chat.completions.create(
            model="hearth", messages=[{"role": "user", "content": "what is here?"}], stream=True
        )
        content = "".join(c.choices[0].delta.content or "" for c in stream if c.choices)
    assert '"name"' not in content and "```" not in content
    assert "Let me look." in content and content.rstrip().endswith("It is empty.")


def test_a_model_server_failure_is_an_error_status_not_a_reply(strict_web: Web) -> None:
    strict_web.model.add(ScriptedReply(status=503, error="the model is loading"))
    with pytest.raises(openai.APIStatusError) as caught:
        _client(strict_web).chat.completions.create(
            model="hearth", messages=[{"role": "user", "content": "hi"}]
        )
    assert caught.value.status_code == 502
    body = caught.value.body
    assert isinstance(body, dict) and "the model is loading" in body["message"]
    assert body["type"] == "server_error" and body["code"] == "model_error"


def test_a_model_server_failure_while_streaming_is_an_error_status(strict_web: Web) -> None:
    strict_web.model.add(ScriptedReply(status=503, error="the model is loading"))
    with pytest.raises(openai.APIStatusError) as caught:
        for _ in _client(strict_web).chat.completions.create(
            model="hearth", messages=[{"role": "user", "content": "hi"}], stream=True
        ):
            pass
    assert caught.value.status_code == 502


def test_a_wrong_key_gets_openais_error_body(web: Web) -> None:
    answer = httpx.get(f"{web.url}/v1/models", headers={"Authorization": "Bearer wrong"})
    assert answer.status_code == 401
    error = answer.json()["error"]
    assert error["code"] == "invalid_api_key" and error["type"] == "invalid_request_error"
    assert "Bearer" in error["message"]
    bad = web.client().post("/v1/chat/completions", json={"model": "hearth", "messages": []})
    assert bad.status_code == 400 and "messages" in bad.json()["error"]["message"]
