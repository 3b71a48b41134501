"""A scripted OpenAI-compatible server on 127.0.0.1, over real HTTP with SSE.

It answers `/v1/chat/completions` from a script, records every request, and
checks protocol invariants on each one (a violating request gets HTTP 400
and is listed in `violations`). It simulates a prefix cache: `cached_tokens`
is the part of the prompt that repeats the previous request byte for byte.

    with ScriptedServer([ScriptedReply(text="hi")]) as server:
        ...  # point the client at server.url

or from a shell: `python -m hearth.testing.server script.json --port 8089`.

Replies can be routed per request: `route(marker, *replies)` answers a request whose first user
message contains `marker` from its own queue, so the scripts of a parent and of the sub-agents it
starts (running at the same time, in any order) interleave. `request_delay` holds every answer
for that many seconds first (a fixed model latency, for benchmarks).
"""

from __future__ import annotations

import argparse
import json
import socket
import threading
import time
from collections.abc import Iterator, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from hearth.testing.script import (
    ScriptedCall,
    ScriptedReply,
    ScriptItem,
    check_request,
    common_prefix,
    estimate_tokens,
    load_script,
    prompt_text,
)

NOTHING_LEARNED = '{"knowledge": [], "learnings": [], "skills": []}'


class ScriptedServer:
    def __init__(
        self,
        script: Sequence[ScriptItem] = (),
        *,
        model: str = "scripted-model",
        context_window: int | None = 8192,
        flavor: str = "llamacpp",
        port: int = 0,
        tool_style: str = "native",
        request_delay: float = 0.0,
        more_models: Sequence[str] = (),
        transcriptions: bool = False,
        formats: Sequence[str] = (),
        refused_formats: Sequence[str] = (),
        overflow_style: str = "empty",
    ) -> None:
        """`flavor` chooses how the context window is told: `llamacpp` (/props), `ollama`
        (/api/show), `lmstudio` (/api/v0/models), `vllm` (max_model_len in /v1/models), or
        `llama-cpp-python` (nowhere; a prompt past it breaks a stream before its first chunk, and
        is refused with HTTP 400 and the window in the message when not streamed).
        `tool_style` is how the simulated model answers Hearth's tool-calling probe: `native`
        (a structured call), `text` (a fenced JSON call) or `none` (prose); probes are kept
        in `probes`, apart from the scripted conversation.
        `formats`: the `response_format` types honoured with a JSON schema (`json_object` as
        llama-cpp-python, `json_schema` as llama.cpp's server); one in `refused_formats` gets
        HTTP 500 (llama-cpp-python 0.3.36 and `json_schema`), any other is ignored. A scripted
        reply that breaks an honoured schema is listed in `schema_breaks` (a grammar could not
        have produced it). `overflow_style` (llama-cpp-python flavor): `empty` breaks the stream
        before its first chunk and states the window when asked plainly; `broken` sends the first
        chunk, then breaks the stream, and a plain request gets its connection dropped."""
        self.script: list[ScriptItem] = list(script)
        self.model = model
        self.more_models = list(more_models)  # listed by /v1/models after `model`
        self.transcriptions = transcriptions  # offer /v1/audio/transcriptions (whisper's API)
        self.audio: list[tuple[dict[str, str], bytes]] = []  # (form fields, file bytes) received
        self.context_window = context_window
        self.flavor = flavor
        self.routes: dict[str, list[ScriptItem]] = {}
        self.request_delay = request_delay
        self.requests: list[dict[str, Any]] = []
        self.violations: list[str] = []
        self.cached_tokens: list[int] = []
        self.tool_style = tool_style
        self.probes: list[dict[str, Any]] = []
        # Reflection at the end of a session (marked X-Hearth-Reflection) is answered apart, like
        # the probe: from `reflection_replies` when a test scripted some, else with nothing learned.
        self.reflections: list[dict[str, Any]] = []
        self.reflection_replies: list[ScriptedReply] = []
        self.formats = tuple(formats)
        self.refused_formats = tuple(refused_formats)
        self.overflow_style = overflow_style
        self.schema_breaks: list[str] = []
        self.overflows: list[bool] = []  # llama-cpp-python flavor: requests past the window (streamed?)
        self.busy = 0  # chat requests being answered right now (each held for `request_delay`)
        self.most_busy = 0  # the most at one time
        self._lock = threading.Lock()
        self._previous_prompt = ""
        handler = type("Handler", (_Handler,), {"owner": self})
        self._httpd = _QuietServer(("127.0.0.1", port), handler)
        self._httpd.daemon_threads = True
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        return int(self._httpd.server_address[1])

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> ScriptedServer:
        self._thread = threading.Thread(
            target=self._httpd.serve_forever,
            kwargs={"poll_interval": 0.05},
            name="scripted-server",
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        if self._thread:
            self._thread.join(timeout=5)

    def __enter__(self) -> ScriptedServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def add(self, *items: ScriptItem) -> None:
        with self._lock:
            self.script.extend(items)

    def route(self, marker: str, *items: ScriptItem) -> None:
        """Answer requests whose first user message contains `marker` with these, in order."""
        with self._lock:
            self.routes.setdefault(marker, []).extend(items)

    @property
    def remaining(self) -> int:
        return len(self.script) + sum(len(q) for q in self.routes.values())

    def _queue(self, body: dict[str, Any]) -> tuple[str, list[ScriptItem]]:
        messages: list[dict[str, Any]] = body.get("messages") or []
        first: dict[str, Any] = next((m for m in messages if m.get("role") == "user"), {})
        content = first.get("content")
        text = content if isinstance(content, str) else ""
        for marker, queue in self.routes.items():
            if marker in text:
                return f"the route {marker!r}", queue
        return "the script", self.script

    def _next_reply(self, body: dict[str, Any]) -> tuple[ScriptedReply | None, list[str], int]:
        problems = check_request(body)
        with self._lock:
            self.requests.append(body)
            prompt = prompt_text(body)
            cached = (
                estimate_tokens(common_prefix(prompt, self._previous_prompt)) if self._previous_prompt else 0
            )
            self._previous_prompt = prompt
            self.cached_tokens.append(cached)
            if problems:
                self.violations.extend(problems)
                return None, problems, cached
            where, queue = self._queue(body)
            if not queue:
                problem = f"{where} has no more replies"
                self.violations.append(problem)
                return None, [problem], cached
            item = queue.pop(0)
        reply = item if isinstance(item, ScriptedReply) else item(body)
        return reply, [], cached

    def _check_schema(self, reply: ScriptedReply, schema: dict[str, Any]) -> None:
        import jsonschema  # type: ignore[import-untyped]

        try:
            value = json.loads(reply.text)
            jsonschema.validate(value, schema)
        except (json.JSONDecodeError, jsonschema.ValidationError) as exc:
            with self._lock:
                self.schema_breaks.append(f"{reply.text[:200]!r}: {str(exc).splitlines()[0]}")


def _format(body: dict[str, Any]) -> tuple[str, dict[str, Any] | None]:
    """The request's response_format type and the JSON schema it carries, in either spelling."""
    fmt = body.get("response_format")
    if not isinstance(fmt, dict):
        return "", None
    kind = str(fmt.get("type", ""))
    schema = fmt.get("schema")
    if kind == "json_schema":
        schema = (fmt.get("json_schema") or {}).get("schema")
    return kind, schema if isinstance(schema, dict) else None


class _QuietServer(ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client closing its kept-alive connection is normal; anything else is printed."""
        import sys

        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class _Handler(BaseHTTPRequestHandler):
    owner: ScriptedServer
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # else each small SSE write waits ~40 ms for a delayed ACK

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    def do_GET(self) -> None:
        path = self.path.split("?")[0].rstrip("/")
        owner, window = self.owner, self.owner.context_window
        if path in ("/v1/models", "/models"):
            entry: dict[str, Any] = {"id": owner.model, "object": "model"}
            if owner.flavor == "vllm" and window:
                entry["max_model_len"] = window
            more = [{"id": name, "object": "model"} for name in owner.more_models]
            self._json(200, {"object": "list", "data": [entry, *more]})
        elif path == "/props" and owner.flavor == "llamacpp" and window:
            self._json(200, {"default_generation_settings": {"n_ctx": window}})
        elif path == "/api/v0/models" and owner.flavor == "lmstudio" and window:
            self._json(
                200,
                {
                    "data": [
                        {
                            "id": owner.model,
                            "state": "loaded",
                            "loaded_context_length": window,
                            "max_context_length": window * 4,
                        }
                    ]
                },
            )
        elif path == "/v1/audio/transcriptions" and owner.transcriptions:
            self._json(405, {"error": {"message": "use POST"}})
        else:
            self._json(404, {"error": {"message": f"no route {self.path}"}})

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        if self.path.rstrip("/") == "/v1/audio/transcriptions" and self.owner.transcriptions:
            fields, audio = _multipart(self.headers.get("Content-Type", ""), raw)
            self.owner.audio.append((fields, audio))
            if not audio:
                self._json(400, {"error": {"message": "no file in the form"}})
                return
            self._json(200, {"text": f"heard {len(audio)} bytes"})
            return
        if self.path.rstrip("/") == "/api/show" and self.owner.flavor == "ollama":
            window = self.owner.context_window
            self._json(
                200,
                {
                    "parameters": f"num_ctx {window}\nstop <|im_end|>" if window else "",
                    "model_info": {"qwen2.context_length": 32768},
                },
            )
            return
        if self.path.rstrip("/") not in ("/v1/chat/completions", "/chat/completions"):
            self._json(404, {"error": {"message": f"no route {self.path}"}})
            return
        try:
            body = json.loads(raw)
        except json.JSONDecodeError:
            self._json(400, {"error": {"message": "body is not JSON"}})
            return
        honoured = self._schema_or_refusal(body)
        if honoured is False:
            return
        if self.headers.get("X-Hearth-Reflection"):
            owner = self.owner
            with owner._lock:
                owner.reflections.append(body)
                scripted = owner.reflection_replies.pop(0) if owner.reflection_replies else None
            answer = scripted or ScriptedReply(text=NOTHING_LEARNED)
            if answer.status >= 400:
                self._json(answer.status, {"error": {"message": answer.error}})
            else:
                self._stream(answer, {"prompt_tokens": 100, "completion_tokens": 20}, False)
            return
        if self.owner.request_delay:
            with self.owner._lock:
                self.owner.busy += 1
                self.owner.most_busy = max(self.owner.most_busy, self.owner.busy)
            time.sleep(self.owner.request_delay)
            with self.owner._lock:
                self.owner.busy -= 1
        if self._overflows(body):
            return
        reply, problems, cached = self.owner._next_reply(body)
        if reply is None:
            self._json(400, {"error": {"message": "; ".join(problems)}})
            return
        if reply.status >= 400:
            self._json(reply.status, {"error": {"message": reply.error}})
            return
        if isinstance(honoured, dict) and reply.raw_sse is None:
            self.owner._check_schema(reply, honoured)
        usage = reply.usage or {
            "prompt_tokens": estimate_tokens(prompt_text(body)),
            "completion_tokens": estimate_tokens(
                reply.text + json.dumps([c.model_dump() for c in reply.tool_calls])
            ),
            "prompt_tokens_details": {"cached_tokens": cached},  # type: ignore[dict-item]
        }
        if body.get("stream"):
            self._stream(reply, usage, bool((body.get("stream_options") or {}).get("include_usage")))
        else:
            self._json(200, _completion(reply, self.owner.model, usage))

    def _schema_or_refusal(self, body: dict[str, Any]) -> dict[str, Any] | bool | None:
        """The JSON schema the request's response_format carries, if honoured (None if not).
        False when this handler answered already: a refused format, or a probe."""
        kind, schema = _format(body)
        probe = self.headers.get("X-Hearth-Probe")
        if probe:
            self.owner.probes.append(body)
        if kind in self.owner.refused_formats:
            self._json(500, {"error": {"message": f"response_format type {kind!r} is not supported"}})
            return False
        honoured = schema if kind in self.owner.formats else None
        if not probe:
            return honoured
        answer = _probe_reply(self.owner.tool_style)
        if probe == "actions" and honoured is not None:
            answer = ScriptedReply(text='{"tool": "ls", "args": {"path": "src"}}')
        self._stream(answer, {"prompt_tokens": 50, "completion_tokens": 10}, False)
        return False

    def _overflows(self, body: dict[str, Any]) -> bool:
        """As llama-cpp-python's server: a prompt and max_tokens past the window fail."""
        owner, window = self.owner, self.owner.context_window
        if owner.flavor != "llama-cpp-python" or not window:
            return False
        prompt = estimate_tokens(prompt_text(body))
        wanted = prompt + int(body.get("max_tokens") or 0)
        if wanted <= window:
            return False
        with owner._lock:
            owner.overflows.append(bool(body.get("stream")))
        if body.get("stream"):  # the error is raised inside the stream's generator
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            if owner.overflow_style == "broken":  # the first chunk, then the connection breaks
                data = f"data: {_chunk(owner.model, {'role': 'assistant', 'content': ''})}\n\n".encode()
                self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
                self.wfile.flush()
                self.connection.shutdown(socket.SHUT_RDWR)
                self.close_connection = True
                return True
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
            return True
        if owner.overflow_style == "broken":  # the plain request fails too
            self.connection.shutdown(socket.SHUT_RDWR)
            self.close_connection = True
            return True
        message = (
            f"This model's maximum context length is {window} tokens. However, you requested "
            f"{wanted} tokens ({prompt} in the messages, {wanted - prompt} in the completion). "
            "Please reduce the length of the messages or completion."
        )
        self._json(400, {"error": {"message": message, "type": "invalid_request_error"}})
        return True

    def _json(self, status: int, payload: Any) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _stream(self, reply: ScriptedReply, usage: dict[str, Any], include_usage: bool) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        try:
            for event in _sse_events(reply, self.owner.model, usage, include_usage):
                if event is None:  # scripted drop: close without finishing the chunked body
                    self.wfile.flush()
                    self.connection.shutdown(socket.SHUT_RDWR)
                    self.close_connection = True
                    return
                data = f"data: {event}\n\n".encode()
                self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
                self.wfile.flush()
                if reply.delay:
                    time.sleep(reply.delay)
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True


def _probe_reply(style: str) -> ScriptedReply:
    if style == "native":
        return ScriptedReply(tool_calls=[ScriptedCall(name="ls", arguments={"path": "src"})])
    if style == "text":
        return ScriptedReply(text='```json\n{"name": "ls", "arguments": {"path": "src"}}\n```')
    return ScriptedReply(text="The folder src holds the sources.")


def _chunk(model: str, delta: dict[str, Any] | None = None, finish: str | None = None, **extra: Any) -> str:
    choices = [] if delta is None else [{"index": 0, "delta": delta, "finish_reason": finish}]
    return json.dumps(
        {
            "id": "chatcmpl-scripted",
            "object": "chat.completion.chunk",
            "model": model,
            "choices": choices,
            **extra,
        }
    )


def _sse_events(
    reply: ScriptedReply, model: str, usage: dict[str, Any], include_usage: bool
) -> Iterator[str | None]:
    if reply.raw_sse is not None:
        yield from reply.raw_sse
        return
    size = max(1, reply.chunk_size)
    yield _chunk(model, {"role": "assistant", "content": ""})
    for i in range(0, len(reply.reasoning), size):
        yield _chunk(model, {"reasoning_content": reply.reasoning[i : i + size]})
    sent = 0
    for i in range(0, len(reply.text), size):
        piece = reply.text[i : i + size]
        if reply.drop_after is not None and sent + len(piece) > reply.drop_after:
            yield _chunk(model, {"content": piece[: reply.drop_after - sent]})
            yield None
            return
        sent += len(piece)
        if reply.stamp:  # generated lazily, so the stamp is the moment this chunk is sent
            piece = piece.replace("{t}", str(time.time_ns()))
        yield _chunk(model, {"content": piece})
    if reply.drop_after is not None:
        yield None
        return
    for index, call in enumerate(reply.tool_calls):
        args = call.arguments if isinstance(call.arguments, str) else json.dumps(call.arguments)
        head = {
            "index": index,
            "id": call.id or f"call_s{index}_{int(time.time() * 1e6) % 10**9}",
            "type": "function",
            "function": {"name": call.name, "arguments": ""},
        }
        yield _chunk(model, {"tool_calls": [head]})
        for i in range(0, len(args), size * 4):
            yield _chunk(
                model, {"tool_calls": [{"index": index, "function": {"arguments": args[i : i + size * 4]}}]}
            )
    finish = reply.finish_reason or ("tool_calls" if reply.tool_calls else "stop")
    yield _chunk(model, {}, finish)
    if include_usage and reply.include_usage:
        yield _chunk(model, None, usage=usage)
    yield "[DONE]"


def _completion(reply: ScriptedReply, model: str, usage: dict[str, Any]) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": reply.text}
    if reply.reasoning:
        message["reasoning_content"] = reply.reasoning
    if reply.tool_calls:
        message["tool_calls"] = [
            {
                "id": c.id or f"call_s{i}",
                "type": "function",
                "function": {
                    "name": c.name,
                    "arguments": c.arguments if isinstance(c.arguments, str) else json.dumps(c.arguments),
                },
            }
            for i, c in enumerate(reply.tool_calls)
        ]
    finish = reply.finish_reason or ("tool_calls" if reply.tool_calls else "stop")
    return {
        "id": "chatcmpl-scripted",
        "object": "chat.completion",
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": usage,
    }


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Serve a scripted OpenAI-compatible model on 127.0.0.1.")
    parser.add_argument(
        "script", help="JSON file: a list of replies (see hearth.testing.script.ScriptedReply)"
    )
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args(argv)
    with open(args.script, encoding="utf-8") as fh:
        replies = load_script(fh.read())
    server = ScriptedServer(replies, port=args.port).start()
    print(server.url, flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        server.stop()


if __name__ == "__main__":
    main()


def _multipart(content_type: str, raw: bytes) -> tuple[dict[str, str], bytes]:
    """A multipart/form-data body's text fields and its `file` part's bytes."""
    from email.parser import BytesParser
    from email.policy import HTTP

    message = BytesParser(policy=HTTP).parsebytes(f"Content-Type: {content_type}\r\n\r\n".encode() + raw)
    fields: dict[str, str] = {}
    audio = b""
    for part in message.iter_parts() if message.is_multipart() else []:
        name = part.get_param("name", header="content-disposition") or ""
        data = part.get_payload(decode=True) or b""
        if name == "file":
            audio = bytes(data)
        else:
            fields[str(name)] = bytes(data).decode("utf-8", "replace")
    return fields, audio
