"""OpenAI-compatible chat completions over HTTP, streamed.

Local inference is slow, so there is no total timeout: a long prefill is
allowed up to `first_token_timeout`, then the stream may not stall for more
than `idle_timeout` between chunks. Connection errors, 5xx, 429 and dropped
streams are retried with backoff.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx

from hearth.core.errors import ContextOverflow, ModelError, ServerGone, StreamBroken
from hearth.core.protocols import Delta, DeltaSink, ModelRequest, ModelResponse, RawToolCall
from hearth.core.types import Timings, Usage
from hearth.llm.repetition import RepeatWatch
from hearth.llm.tls import context_for

_OVERFLOW_HINTS = (
    "context length",
    "context window",
    "exceeds",
    "too long",
    "n_ctx",
    "maximum context",
    "context_length",
)

_WINDOW_STATED = (
    re.compile(r"context window of\s*(\d+)", re.IGNORECASE),  # llama-cpp-python's own ValueError
    re.compile(
        r"maximum context length is\s*(\d+)", re.IGNORECASE
    ),  # llama-cpp-python's server, vLLM, OpenAI
    re.compile(r"\bn_ctx\b\D{0,12}(\d+)", re.IGNORECASE),  # llama.cpp: "n_ctx": 4096 / n_ctx = 4096
    re.compile(r"context (?:size|length)(?: is| of)?\s*\(?(\d+)", re.IGNORECASE),
)


@dataclass(frozen=True)
class ClientSettings:
    base_url: str
    api_key: str = ""
    model: str = ""
    connect_timeout: float = 10.0
    first_token_timeout: float = 600.0
    idle_timeout: float = 120.0
    retries: int = 3
    backoff: float = 1.0
    parallel: int = 4  # requests in flight at once; a local server runs only a few at a time


class OpenAICompatModel:
    """A `Model` backed by any OpenAI-compatible server."""

    def __init__(self, settings: ClientSettings, transport: httpx.AsyncBaseTransport | None = None) -> None:
        self.settings = settings
        self._transport = transport
        self._http: httpx.AsyncClient | None = None
        self._http_loop: asyncio.AbstractEventLoop | None = None
        self._slots: asyncio.Semaphore | None = None
        self._no_max_tokens = False  # the server refused `max_tokens` once: it is not sent again

    @property
    def name(self) -> str:
        return self.settings.model or "(server default)"

    def _client(self) -> httpx.AsyncClient:
        """One pooled client per event loop: making one costs ~40 ms (its TLS context), per step."""
        loop = asyncio.get_running_loop()
        if self._http is None or self._http.is_closed or self._http_loop is not loop:
            headers = {"Accept": "text/event-stream"}
            if self.settings.api_key:
                headers["Authorization"] = f"Bearer {self.settings.api_key}"
            timeout = httpx.Timeout(connect=self.settings.connect_timeout, read=None, write=60.0, pool=10.0)
            limits = httpx.Limits(max_connections=256, max_keepalive_connections=256)
            self._http = httpx.AsyncClient(
                headers=headers,
                timeout=timeout,
                transport=self._transport,
                limits=limits,
                verify=context_for(self.settings.base_url),
            )
            self._http_loop = loop
            self._slots = asyncio.Semaphore(max(1, self.settings.parallel))
        return self._http

    async def aclose(self) -> None:
        if self._http is not None and self._http_loop is asyncio.get_running_loop():
            await self._http.aclose()
        self._http = None

    def request_body(self, request: ModelRequest) -> dict[str, Any]:
        body: dict[str, Any] = {
            "messages": [m.to_wire() for m in request.messages],
            "stream": True,
            "stream_options": {"include_usage": True},
        }
        if self.settings.model:
            body["model"] = self.settings.model
        if request.tools:
            body["tools"] = [t.to_wire() for t in request.tools]
        if request.temperature is not None:
            body["temperature"] = request.temperature
        if request.max_tokens is not None and not self._no_max_tokens:
            body["max_tokens"] = request.max_tokens
        body.update(request.extra)
        return body

    async def complete(self, request: ModelRequest, on_delta: DeltaSink | None = None) -> ModelResponse:
        try:
            return await self._complete(self.request_body(request), request, on_delta)
        except ModelError as exc:
            if request.max_tokens is None or self._no_max_tokens or not _rejects_max_tokens(exc.message):
                raise
        # Some servers (OpenAI's reasoning models) refuse the cap: ask again, and send none from now on.
        self._no_max_tokens = True
        return await self._complete(self.request_body(request), request, on_delta)

    async def _complete(
        self, body: dict[str, Any], request: ModelRequest, on_delta: DeltaSink | None
    ) -> ModelResponse:
        url = self.settings.base_url + "/chat/completions"
        last: ModelError | None = None
        client = self._client()
        for attempt in range(self.settings.retries + 1):
            if attempt:
                await asyncio.sleep(self.settings.backoff * 2 ** (attempt - 1))
                if on_delta:
                    on_delta(
                        Delta(
                            "retry",
                            f"retrying ({attempt}/{self.settings.retries}): {last.message if last else ''}",
                        )
                    )
            try:
                assert self._slots is not None
                async with self._slots:
                    try:
                        return await self._stream_once(
                            client, url, body, on_delta, request.headers, request.stop_after_call
                        )
                    except _ClosedEmpty:
                        return await self._ask_plainly(client, url, body, request.headers)
            except ModelError as exc:
                if not exc.retryable:
                    raise
                last = exc
        assert last is not None
        raise last

    async def _stream_once(
        self,
        client: httpx.AsyncClient,
        url: str,
        body: dict[str, Any],
        on_delta: DeltaSink | None,
        headers: dict[str, str] | None = None,
        stop_after_call: Callable[[str], bool] | None = None,
    ) -> ModelResponse:
        started = time.perf_counter()
        acc = _Accumulator(stop_after_call=stop_after_call)
        try:
            async with client.stream("POST", url, json=body, headers=headers or None) as resp:
                if resp.status_code >= 400:
                    await resp.aread()
                    raise _http_error(url, resp)
                lines = resp.aiter_lines()
                first = True
                done = False
                while True:
                    limit = self.settings.first_token_timeout if first else self.settings.idle_timeout
                    try:
                        async with asyncio.timeout(limit):
                            line = await anext(lines)
                    except StopAsyncIteration:
                        break
                    except TimeoutError:
                        what = "first token" if first else "next chunk"
                        raise ModelError(
                            f"The model server sent nothing for {limit:.0f}s while waiting for the {what}.",
                            "The server may be overloaded or stuck; raise HEARTH_IDLE_TIMEOUT or "
                            "HEARTH_FIRST_TOKEN_TIMEOUT if your hardware is slow.",
                            retryable=True,
                        ) from None
                    if not line.startswith("data:"):
                        continue
                    data = line[5:].strip()
                    if data == "[DONE]":
                        done = True
                        break
                    if first:
                        acc.ttft = time.perf_counter() - started
                        first = False
                    acc.add(_parse_chunk(data), on_delta)
                    if acc.repeating or acc.call_complete:
                        break  # leaving the stream closes it: the server stops generating
        except (httpx.ConnectError, httpx.ConnectTimeout) as exc:
            raise ServerGone(
                f"Cannot reach the model server at {url} ({_reason(exc)}).",
                "Start LM Studio, Ollama or llama.cpp's server there, or point HEARTH_LLM_URL at a "
                "running one (e.g. http://127.0.0.1:1234/v1); `hearth config` shows what is in use.",
            ) from exc
        except (httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError) as exc:
            raise StreamBroken(
                f"The model server at {url} dropped the connection mid-reply ({_reason(exc)}).",
                "Check the server's log; it may have crashed or run out of memory.",
            ) from exc
        except httpx.TimeoutException as exc:
            raise ModelError(f"Timed out talking to {url} ({_reason(exc)}).", retryable=True) from exc
        if not done and not acc.finish_reason:
            if first:
                raise _ClosedEmpty(
                    f"The model server at {url} closed the stream before sending anything.",
                    "Check the server's log; it may have crashed or run out of memory.",
                )
            raise StreamBroken(
                f"The model server at {url} closed the stream before the reply was complete.",
                "Check the server's log; it may have crashed or run out of memory.",
            )
        return acc.response(body, time.perf_counter() - started)

    async def _ask_plainly(
        self, client: httpx.AsyncClient, url: str, body: dict[str, Any], headers: dict[str, str] | None
    ) -> ModelResponse:
        """The same request without streaming, after a stream that closed before its first chunk.
        Some servers (llama-cpp-python's) can only break a stream when the request fails, e.g. a
        prompt past the window; asked plainly they answer with the error, which says what went
        wrong (an overflow states the window, so the context is compacted to fit)."""
        started = time.perf_counter()
        plain = {k: v for k, v in body.items() if k != "stream_options"} | {"stream": False}
        try:
            resp = await client.post(url, json=plain, headers=headers or None)
        except (httpx.ConnectError, httpx.ConnectTimeout, httpx.RemoteProtocolError, httpx.ReadError) as exc:
            raise StreamBroken(
                f"The model server at {url} closed the stream before sending anything, and a plain "
                f"request failed too ({_reason(exc)}).",
                "Check the server's log; it may have crashed or run out of memory.",
            ) from exc
        if resp.status_code >= 400:
            raise _http_error(url, resp)
        payload = _json_or_none(resp)
        if not isinstance(payload, dict):
            raise ModelError(f"Unexpected answer from the model server: {resp.text[:200]!r}", retryable=True)
        acc = _Accumulator()
        acc.add(payload, None)
        return acc.response(body, time.perf_counter() - started)


class _ClosedEmpty(ServerGone):
    """A stream that ended before its first chunk (asked again without streaming)."""


STOPPED_AFTER_CALL = "one_call"  # the finish reason of a reply Hearth stopped after its first call
# A tool call written as text, complete: a fence holding a JSON object, or Qwen's tags.
_CLOSED_CALL = re.compile(r"```[\w-]*[ \t]*\r?\n\s*\{.*?\n\s*```|<tool_call>.*?</tool_call>", re.DOTALL)


class _Accumulator:
    def __init__(self, *, stop_after_call: Callable[[str], bool] | None = None) -> None:
        self.stop_after_call = stop_after_call
        self.call_complete = False
        self._closed_calls = 0  # complete calls seen in the text so far
        self._call_closed = False  # the text holds a complete call that would run
        self.content: list[str] = []
        self.reasoning: list[str] = []
        self.calls: dict[int, dict[str, str]] = {}
        self.finish_reason: str | None = None
        self.usage: dict[str, Any] | None = None
        self.timings: dict[str, Any] | None = None
        self.model = ""
        self.ttft: float | None = None
        self.watches: dict[str, RepeatWatch] = {}
        self.repeating = False

    def _watch(self, channel: str, piece: str) -> None:
        if self.watches.setdefault(channel, RepeatWatch()).feed(piece):
            self.repeating = True
            self.finish_reason = "repetition"

    @property
    def empty(self) -> bool:
        return not (self.content or self.reasoning or self.calls)

    def add(self, chunk: dict[str, Any], on_delta: DeltaSink | None) -> None:  # noqa: C901
        if isinstance(chunk.get("error"), dict | str):
            err = chunk["error"]
            message = err.get("message", str(err)) if isinstance(err, dict) else err
            raise classify_error(str(message), stream=True)
        self.model = chunk.get("model") or self.model
        if chunk.get("usage"):
            self.usage = chunk["usage"]
        if chunk.get("timings"):
            self.timings = chunk["timings"]
        for choice in chunk.get("choices") or []:
            delta = choice.get("delta") or choice.get("message") or {}
            if choice.get("finish_reason"):
                self.finish_reason = choice["finish_reason"]
            reasoning = delta.get("reasoning_content") or delta.get("reasoning")
            if reasoning:
                self._watch("reasoning", reasoning)
                self.reasoning.append(reasoning)
                if on_delta:
                    on_delta(Delta("thinking", reasoning))
            if delta.get("content"):
                if self._call_closed and delta["content"].strip():
                    # More text after a complete call that would run: the reply is stopped here
                    # (the end of the stream right after the call is a reply that ended by itself).
                    self.call_complete = True
                    self.finish_reason = STOPPED_AFTER_CALL
                    return
                piece = delta["content"]
                self._watch("content", piece)
                before = sum(len(c) for c in self.content)
                self.content.append(piece)
                if self.stop_after_call and not self._call_closed and any(c in piece for c in "`>"):
                    self._check_call_complete()
                    piece = "".join(self.content)[before:]  # less, when the stream stopped mid-piece
                if on_delta and piece:
                    on_delta(Delta("text", piece))
            for tc in delta.get("tool_calls") or []:
                index = tc.get("index", len(self.calls))
                slot = self.calls.setdefault(index, {"id": "", "name": "", "arguments": ""})
                if tc.get("id"):
                    slot["id"] = tc["id"]
                fn = tc.get("function") or {}
                if fn.get("name"):
                    slot["name"] += fn["name"]
                if fn.get("arguments"):
                    args = fn["arguments"]
                    piece = args if isinstance(args, str) else json.dumps(args)
                    self._watch(f"call{index}", piece)
                    slot["arguments"] += piece

    def _check_call_complete(self) -> None:
        """Ask the request whether to stop, each time one more call written as text is complete."""
        assert self.stop_after_call is not None
        text = "".join(self.content)
        ends = [m.end() for m in _CLOSED_CALL.finditer(text)]
        if len(ends) <= self._closed_calls:
            return
        self._closed_calls = len(ends)
        end = ends[-1]
        rest = text[end:]
        kept = text[:end] + rest[: len(rest) - len(rest.lstrip())]
        if not self.stop_after_call(kept):
            return
        self._call_closed = True
        if len(kept) < len(text):  # text after the call came in the same piece: stop at once
            self.content = [kept]
            self.call_complete = True
            self.finish_reason = STOPPED_AFTER_CALL

    def _kept(self, channel: str, text: str) -> str:
        """The text of a channel, without the repeated rounds past the second."""
        watch = self.watches.get(channel)
        return text[: watch.cut_at] if watch is not None and watch.cut_at is not None else text

    def response(self, body: dict[str, Any], elapsed: float) -> ModelResponse:
        content = self._kept("content", "".join(self.content))
        calls = tuple(
            RawToolCall(
                id=slot["id"], name=slot["name"], arguments=self._kept(f"call{index}", slot["arguments"])
            )
            for index, slot in sorted(self.calls.items())
        )
        return ModelResponse(
            content=content,
            reasoning=self._kept("reasoning", "".join(self.reasoning)),
            tool_calls=calls,
            finish_reason=self.finish_reason,
            usage=self._usage(body, content, calls),
            timings=Timings(
                ttft_ms=None if self.ttft is None else round(self.ttft * 1000, 1),
                total_ms=round(elapsed * 1000, 1),
            ),
            model=self.model,
        )

    def _usage(self, body: dict[str, Any], content: str, calls: tuple[RawToolCall, ...]) -> Usage:
        u = self.usage or {}
        t = self.timings or {}
        cached = (u.get("prompt_tokens_details") or {}).get("cached_tokens")
        if cached is None and "cache_n" in t:
            cached = t["cache_n"]
        if u:
            return Usage(
                prompt_tokens=int(u.get("prompt_tokens") or 0),
                cached_tokens=int(cached or 0),
                completion_tokens=int(u.get("completion_tokens") or 0),
            )
        if "prompt_n" in t:  # llama.cpp's own timings: prompt_n is what it evaluated
            return Usage(
                prompt_tokens=int(t["prompt_n"]) + int(cached or 0),
                cached_tokens=int(cached or 0),
                completion_tokens=int(t.get("predicted_n") or 0),
            )
        # The server gave no counts (llama-cpp-python ignores include_usage): estimate.
        prompt_chars = len(json.dumps(body.get("messages", []))) + len(json.dumps(body.get("tools", [])))
        out_chars = len(content) + sum(len(c.arguments) + len(c.name) for c in calls)
        return Usage(
            prompt_tokens=prompt_chars // 4,
            completion_tokens=max(1, out_chars // 4),
            estimated=True,
        )


def _parse_chunk(data: str) -> dict[str, Any]:
    try:
        value = json.loads(data)
    except json.JSONDecodeError as exc:
        raise ModelError(
            f"The model server sent a chunk that is not JSON: {data[:200]!r}",
            "Is HEARTH_LLM_URL really an OpenAI-compatible endpoint?",
            retryable=True,
        ) from exc
    if not isinstance(value, dict):
        raise ModelError(f"Unexpected chunk from the model server: {data[:200]!r}", retryable=True)
    return value


def _http_error(url: str, resp: httpx.Response) -> ModelError:
    text = resp.text[:500]
    try:
        payload = resp.json()
        err = payload.get("error", payload) if isinstance(payload, dict) else payload
        message = err.get("message", text) if isinstance(err, dict) else str(err)
    except (json.JSONDecodeError, ValueError):
        message = text
    status = resp.status_code
    if status in (401, 403):
        return ModelError(
            f"The model server at {url} refused the request ({status}): {message}",
            "Check HEARTH_API_KEY.",
        )
    if status == 404:
        return ModelError(
            f"{url} was not found (404): {message}",
            "Check HEARTH_LLM_URL (it should end in /v1) and HEARTH_MODEL (blank uses the server's default).",
        )
    window = None
    if isinstance(payload := _json_or_none(resp), dict):
        detail = payload.get("error", payload)
        if isinstance(detail, dict) and isinstance(detail.get("n_ctx"), int):
            window = detail["n_ctx"]  # llama.cpp's exceed_context_size_error says it as a field
    err = classify_error(f"HTTP {status}: {message}", stream=False, window=window)
    if isinstance(err, ContextOverflow):
        return err
    return ModelError(
        f"The model server at {url} answered HTTP {status}: {message}",
        "Check the server's log.",
        retryable=status >= 500 or status == 429,
    )


def classify_error(message: str, *, stream: bool, window: int | None = None) -> ModelError:
    low = message.lower()
    if "context" in low and any(h in low for h in _OVERFLOW_HINTS):
        return ContextOverflow(
            f"The prompt does not fit the model's context window: {message}",
            window=window or stated_window(message),
        )
    return ModelError(f"The model server reported an error: {message}", retryable=stream)


def stated_window(message: str) -> int | None:
    """The context window an overflow error states, in the wordings servers use."""
    for pattern in _WINDOW_STATED:
        m = pattern.search(message)
        if m:
            return int(m.group(1))
    return None


def _rejects_max_tokens(message: str) -> bool:
    low = message.lower()
    return "max_tokens" in low and any(
        w in low for w in ("unsupported", "not supported", "unrecognized", "unknown")
    )


def _json_or_none(resp: httpx.Response) -> Any:
    try:
        return resp.json()
    except (json.JSONDecodeError, ValueError):
        return None


def _reason(exc: Exception) -> str:
    return str(exc) or type(exc).__name__
