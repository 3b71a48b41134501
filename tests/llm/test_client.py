"""The OpenAI-compatible client against the scripted server over real HTTP."""

from __future__ import annotations

import asyncio
import json
import socket

import pytest

from hearth.core.errors import ContextOverflow, ModelError
from hearth.core.protocols import Delta, ModelRequest
from hearth.core.types import Message
from hearth.llm.client import ClientSettings, OpenAICompatModel
from hearth.llm.server_info import probe_server
from hearth.llm.urls import normalize_base_url
from hearth.testing import ScriptedCall, ScriptedReply, ScriptedServer

REQ = ModelRequest(messages=[Message(role="system", content="s"), Message(role="user", content="hi")])


def client(url: str, **kw: float) -> OpenAICompatModel:
    return OpenAICompatModel(ClientSettings(base_url=url, backoff=0.01, **kw))  # type: ignore[arg-type]


def test_streams_text_and_reports_server_usage(server: ScriptedServer) -> None:
    server.add(ScriptedReply(text="Hello there, friend.", chunk_size=3))
    deltas: list[Delta] = []
    resp = asyncio.run(client(server.url).complete(REQ, deltas.append))
    assert resp.content == "Hello there, friend."
    assert "".join(d.text for d in deltas if d.kind == "text") == resp.content
    assert len([d for d in deltas if d.kind == "text"]) > 3  # it really streamed
    assert resp.usage.prompt_tokens > 0 and not resp.usage.estimated
    assert resp.timings.ttft_ms is not None and resp.timings.total_ms >= resp.timings.ttft_ms
    assert server.violations == []


def test_cached_prompt_tokens_come_from_the_server(server: ScriptedServer) -> None:
    server.add(ScriptedReply(text="a"), ScriptedReply(text="b"))
    model = client(server.url)
    first = asyncio.run(model.complete(REQ))
    second = asyncio.run(model.complete(REQ))
    assert first.usage.cached_tokens == 0
    assert second.usage.cached_tokens == server.cached_tokens[1] > 0


def test_native_tool_calls_are_assembled_from_chunks(server: ScriptedServer) -> None:
    server.add(
        ScriptedReply(
            tool_calls=[
                ScriptedCall(name="write", arguments={"path": "a.txt", "content": "x" * 100}),
                ScriptedCall(name="ls", arguments={}),
            ],
            chunk_size=2,
        )
    )
    resp = asyncio.run(client(server.url).complete(REQ))
    assert [c.name for c in resp.tool_calls] == ["write", "ls"]
    assert '"content": "' + "x" * 100 in resp.tool_calls[0].arguments
    assert resp.finish_reason == "tool_calls"


def test_reasoning_content_is_kept_apart(server: ScriptedServer) -> None:
    server.add(ScriptedReply(reasoning="let me think", text="ok"))
    resp = asyncio.run(client(server.url).complete(REQ))
    assert (resp.reasoning, resp.content) == ("let me think", "ok")


def test_retries_a_500_then_succeeds(server: ScriptedServer) -> None:
    server.add(ScriptedReply(status=500, error="boom"), ScriptedReply(text="recovered"))
    retries: list[Delta] = []
    resp = asyncio.run(client(server.url).complete(REQ, retries.append))
    assert resp.content == "recovered"
    assert any(d.kind == "retry" for d in retries)


def test_gives_up_after_retries_with_the_servers_message(server: ScriptedServer) -> None:
    server.add(*[ScriptedReply(status=503, error="overloaded")] * 3)
    with pytest.raises(ModelError) as info:
        asyncio.run(client(server.url, retries=2).complete(REQ))
    assert "503" in info.value.message and "overloaded" in info.value.message
    assert len(server.requests) == 3


def test_a_400_is_not_retried(server: ScriptedServer) -> None:
    server.add(ScriptedReply(status=400, error="bad request shape"), ScriptedReply(text="never"))
    with pytest.raises(ModelError, match="bad request shape"):
        asyncio.run(client(server.url).complete(REQ))
    assert len(server.requests) == 1


def test_context_overflow_is_recognised(server: ScriptedServer) -> None:
    server.add(ScriptedReply(status=400, error="the request exceeds the available context size (n_ctx 4096)"))
    with pytest.raises(ContextOverflow):
        asyncio.run(client(server.url).complete(REQ))


def test_dropped_stream_is_retried(server: ScriptedServer) -> None:
    server.add(ScriptedReply(text="this reply will be cut off", drop_after=6), ScriptedReply(text="complete"))
    resp = asyncio.run(client(server.url).complete(REQ))
    assert resp.content == "complete"


def test_a_stream_closed_before_its_first_chunk_is_asked_again_plainly(server: ScriptedServer) -> None:
    server.add(ScriptedReply(raw_sse=[]), ScriptedReply(text="complete"))
    resp = asyncio.run(client(server.url, retries=0).complete(REQ))
    assert resp.content == "complete"
    assert [b.get("stream") for b in server.requests] == [True, False]


def test_an_overflow_that_breaks_the_stream_states_the_window() -> None:
    """llama-cpp-python's server: the stream breaks; asked plainly, the 400 says the window."""
    big = ModelRequest(messages=[Message(role="user", content="word " * 4000)], max_tokens=512)
    with ScriptedServer(context_window=2048, flavor="llama-cpp-python") as srv:
        with pytest.raises(ContextOverflow) as info:
            asyncio.run(client(srv.url, retries=0).complete(big))
        assert srv.overflows == [True, False]
    assert info.value.window == 2048


def test_idle_timeout_between_chunks(server: ScriptedServer) -> None:
    server.add(ScriptedReply(text="slow reply", chunk_size=2, delay=0.5))
    with pytest.raises(ModelError, match="sent nothing for"):
        asyncio.run(client(server.url, idle_timeout=0.2, retries=0).complete(REQ))


def test_slow_but_steady_stream_is_not_cut_by_a_total_timeout(server: ScriptedServer) -> None:
    # 25 chunks 0.1 s apart: 2.5 s in all, longer than the 2 s idle timeout, while each gap stays
    # far under it (a wide margin, so a loaded machine's late chunk is not taken for a stall).
    server.add(ScriptedReply(text="x" * 50, chunk_size=2, delay=0.1))
    resp = asyncio.run(client(server.url, idle_timeout=2.0, retries=0).complete(REQ))
    assert resp.content == "x" * 50


def test_unreachable_server_says_which_url_and_what_to_do() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again: nothing listens there
    with pytest.raises(ModelError) as info:
        asyncio.run(client(f"http://127.0.0.1:{port}/v1", retries=1).complete(REQ))
    text = str(info.value)
    assert f"127.0.0.1:{port}" in text and "HEARTH_LLM_URL" in text


def test_null_content_never_goes_out_next_to_tool_calls(server: ScriptedServer) -> None:
    from hearth.core.types import ToolCall

    server.add(ScriptedReply(text="ok"))
    call = ToolCall(id="c1", name="ls", arguments={})
    req = ModelRequest(
        messages=[
            Message(role="user", content="x"),
            Message(role="assistant", content="", tool_calls=(call,)),
            Message(role="tool", content="a\nb", tool_call_id="c1"),
        ]
    )
    asyncio.run(client(server.url).complete(req))
    assert server.requests[0]["messages"][1]["content"] == ""
    assert server.violations == []


@pytest.mark.parametrize(
    ("given", "base"),
    [
        ("http://127.0.0.1:1234/v1", "http://127.0.0.1:1234/v1"),
        ("http://127.0.0.1:1234/v1/", "http://127.0.0.1:1234/v1"),
        ("http://localhost:1234/v1/chat/completions", "http://localhost:1234/v1"),
        ("http://127.0.0.1:11434", "http://127.0.0.1:11434/v1"),
        ("127.0.0.1:8080/v1", "http://127.0.0.1:8080/v1"),
        ("https://openrouter.ai/api/v1", "https://openrouter.ai/api/v1"),
    ],
)
def test_base_and_full_urls_are_accepted(given: str, base: str) -> None:
    assert normalize_base_url(given) == base


@pytest.mark.parametrize(
    ("flavor", "source"),
    [
        ("llamacpp", "llama.cpp /props"),
        ("ollama", "Ollama /api/show"),
        ("lmstudio", "LM Studio /api/v0/models"),
        ("vllm", "/v1/models max_model_len"),
    ],
)
def test_context_window_actually_loaded_is_read_from_each_server_family(flavor: str, source: str) -> None:
    with ScriptedServer(context_window=6144, flavor=flavor) as srv:
        info = asyncio.run(probe_server(srv.url))
    assert (info.context_window, info.source) == (6144, source)
    assert info.models == ("scripted-model",)


def test_a_server_that_does_not_say_gives_no_window() -> None:
    with ScriptedServer(context_window=None) as srv:
        assert asyncio.run(probe_server(srv.url)).context_window is None


def test_a_chunk_that_is_not_json_is_an_error_not_a_crash(server: ScriptedServer) -> None:
    server.add(*[ScriptedReply(raw_sse=['{"choices": [', "[DONE]"])] * 2)
    with pytest.raises(ModelError, match="not JSON"):
        asyncio.run(client(server.url, retries=1).complete(REQ))
    assert len(server.requests) == 2  # retried once


@pytest.mark.parametrize(
    ("error", "window"),
    [
        ("Requested tokens (5210) exceed context window of 4096", 4096),  # llama-cpp-python
        (
            "This model's maximum context length is 2048 tokens. However, you requested 2300 tokens "
            "(2300 in the messages, 0 in the completion).",
            2048,
        ),  # llama-cpp-python's server, vLLM
        ("the request exceeds the available context size, try increasing it", None),  # llama.cpp, no number
    ],
)
def test_a_context_overflow_states_the_window(server: ScriptedServer, error: str, window: int | None) -> None:
    server.add(ScriptedReply(status=400, error=error))
    with pytest.raises(ContextOverflow) as info:
        asyncio.run(client(server.url, retries=0).complete(REQ))
    assert info.value.window == window


def test_max_tokens_is_sent_when_the_request_has_a_cap(server: ScriptedServer) -> None:
    server.add(ScriptedReply(text="a"), ScriptedReply(text="b"))
    model = client(server.url)
    asyncio.run(model.complete(ModelRequest(messages=REQ.messages, max_tokens=1024)))
    asyncio.run(model.complete(REQ))
    assert server.requests[0]["max_tokens"] == 1024 and "max_tokens" not in server.requests[1]


def test_a_native_call_whose_arguments_repeat_is_cut(server: ScriptedServer) -> None:
    looping = '{"path": "a.txt", "content": "' + "ha" * 5000 + '"}'
    server.add(ScriptedReply(tool_calls=[ScriptedCall(name="write", arguments=looping)], chunk_size=4))
    resp = asyncio.run(client(server.url).complete(REQ))
    assert resp.finish_reason == "repetition"
    assert len(resp.tool_calls[0].arguments) < 1200


def test_a_write_of_many_identical_lines_is_not_cut(server: ScriptedServer) -> None:
    body = "INSERT INTO t VALUES (0, 'same row');\n" * 80
    args = json.dumps({"path": "rows.sql", "content": body})
    server.add(ScriptedReply(tool_calls=[ScriptedCall(name="write", arguments=args)], chunk_size=4))
    resp = asyncio.run(client(server.url).complete(REQ))
    assert resp.finish_reason != "repetition"
    assert json.loads(resp.tool_calls[0].arguments)["content"] == body
    fenced = "```json\n" + json.dumps({"name": "write", "arguments": {"path": "r.sql", "content": body}})
    server.add(ScriptedReply(text=fenced + "\n```", chunk_size=4))  # a call written as text
    resp = asyncio.run(client(server.url).complete(REQ))
    assert resp.finish_reason != "repetition" and body.replace("\n", "\\n") in resp.content


def test_a_runaway_of_repeated_lines_is_still_stopped() -> None:
    from hearth.llm.repetition import RepeatWatch

    for line in ("I will now check the file again.\n", "x = 1\\n", "-\n"):
        watch = RepeatWatch()
        fed = 0
        while not watch.feed(line) and fed < 5000:
            fed += 1
        assert watch.cut_at is not None and fed * len(line) < 8000, (line, fed)  # not to the cap


def test_ordinary_text_and_code_are_not_taken_for_repetition() -> None:
    from hearth.llm.repetition import RepeatWatch

    code = "\n".join(f"def f{i}(x):\n    return x + {i}\n" for i in range(200))
    table = "\n".join(f"| {i:3} | {i * i:6} | ok |" for i in range(300))
    rule = "=" * 79 + "\n" + "text\n" + "-" * 79
    for text in (code, table, rule):
        watch = RepeatWatch()
        assert not any(watch.feed(text[i : i + 7]) for i in range(0, len(text), 7)), text[:40]
    looping = RepeatWatch()
    assert any(looping.feed("Let me check again. ") for _ in range(100))


def test_a_server_that_refuses_max_tokens_is_asked_again_without_it(server: ScriptedServer) -> None:
    refusal = "Unsupported parameter: 'max_tokens' is not supported with this model."
    server.add(ScriptedReply(status=400, error=refusal), ScriptedReply(text="a"), ScriptedReply(text="b"))
    model = client(server.url, retries=0)
    capped = ModelRequest(messages=REQ.messages, max_tokens=512)
    assert asyncio.run(model.complete(capped)).content == "a"
    assert asyncio.run(model.complete(capped)).content == "b"
    assert [("max_tokens" in b) for b in server.requests] == [True, False, False]


FENCE_READ = '```json\n{"name": "read", "arguments": {"path": "a.txt"}}\n```'
FENCE_WRITE = '```json\n{"name": "write", "arguments": {"path": "a.txt", "content": "x"}}\n```'


def test_a_reply_can_be_stopped_once_a_call_that_would_run_is_complete(server: ScriptedServer) -> None:
    """A small model's plan: many calls and a finish in one reply, of which one call would run.
    The stream ends when the request says the text so far holds enough, and the server is left."""
    plan = FENCE_READ + "\n\n" + FENCE_WRITE + "\n\nTASK_COMPLETE" + " and more" * 200
    server.add(ScriptedReply(text=plan, chunk_size=4, delay=0.002))
    asked: list[str] = []

    def enough(text: str) -> bool:
        asked.append(text)
        return True

    deltas: list[Delta] = []
    req = ModelRequest(messages=REQ.messages, stop_after_call=enough)
    resp = asyncio.run(client(server.url).complete(req, deltas.append))
    assert resp.content.rstrip() == FENCE_READ  # the next fence, the claim and the rest never came
    assert resp.finish_reason == "one_call"
    assert asked == [FENCE_READ]  # asked once, when the first call closed
    assert "".join(d.text for d in deltas if d.kind == "text") == resp.content


def test_a_reply_that_ends_right_after_its_call_keeps_its_own_finish(server: ScriptedServer) -> None:
    server.add(ScriptedReply(text=FENCE_READ, chunk_size=5))
    resp = asyncio.run(
        client(server.url).complete(ModelRequest(messages=REQ.messages, stop_after_call=lambda t: True))
    )
    assert resp.content == FENCE_READ and resp.finish_reason == "stop"


def test_a_call_the_request_does_not_count_lets_the_stream_go_on(server: ScriptedServer) -> None:
    """A re-sent plan: the calls already done are skipped by the loop, so the stream goes on to
    the first new one."""
    text = FENCE_READ + "\n" + FENCE_WRITE + "\nTASK_COMPLETE"
    server.add(ScriptedReply(text=text, chunk_size=4))
    req = ModelRequest(messages=REQ.messages, stop_after_call=lambda t: '"write"' in t)
    resp = asyncio.run(client(server.url).complete(req))
    assert resp.content.rstrip() == FENCE_READ + "\n" + FENCE_WRITE and resp.finish_reason == "one_call"
