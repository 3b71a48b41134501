"""What a scripted model says, and the protocol rules every request must keep."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Sequence
from typing import Any

from pydantic import BaseModel, Field


class ScriptedCall(BaseModel):
    name: str
    arguments: dict[str, Any] | str = Field(default_factory=dict)  # a str is sent verbatim (may be broken)
    id: str | None = None


class ScriptedReply(BaseModel):
    """One model turn. With `status` >= 400 the server answers that HTTP error instead."""

    text: str = ""
    reasoning: str = ""  # sent as `reasoning_content`
    tool_calls: list[ScriptedCall] = Field(default_factory=list)
    status: int = 200
    error: str = "scripted server error"
    drop_after: int | None = None  # cut the connection after this many characters of text
    chunk_size: int = 8
    delay: float = 0.0  # seconds between chunks
    usage: dict[str, int] | None = None  # override the computed usage
    include_usage: bool = True
    finish_reason: str | None = None
    stamp: bool = False  # "{t}" in each text chunk becomes its send time in ns (latency benchmarks)
    raw_sse: list[str] | None = None  # send these `data:` payloads verbatim instead (garbage tests)


Responder = Callable[[dict[str, Any]], ScriptedReply]
ScriptItem = ScriptedReply | Responder


def load_script(data: str | Sequence[dict[str, Any]]) -> list[ScriptedReply]:
    items = json.loads(data) if isinstance(data, str) else data
    return [ScriptedReply.model_validate(item) for item in items]


def check_request(body: dict[str, Any]) -> list[str]:
    """Protocol violations in one chat-completions request body (empty when it is fine)."""
    problems: list[str] = []
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        return ["`messages` must be a non-empty list"]
    pending: list[str] = []
    seen_ids: set[str] = set()
    previous: str | None = None
    for i, msg in enumerate(messages):
        role = msg.get("role")
        if role not in ("system", "user", "assistant", "tool"):
            problems.append(f"message {i}: unknown role {role!r}")
            continue
        if role in ("user", "assistant") and role == previous:
            problems.append(f"message {i}: two {role} messages in a row (strict chat templates reject this)")
        if role == "assistant" and previous == "system":
            problems.append(f"message {i}: the conversation starts with an assistant message")
        previous = role
        if role == "system" and i != 0:
            problems.append(f"message {i}: system message after the start")
        if role == "tool":
            cid = msg.get("tool_call_id")
            if cid not in pending:
                problems.append(f"message {i}: tool result {cid!r} answers no pending tool call")
            else:
                pending.remove(cid)
            continue
        if pending:
            problems.append(
                f"message {i}: tool call(s) {pending} were never answered before a {role} message"
            )
            pending = []
        content = msg.get("content")
        if role == "assistant":
            problems += _assistant_problems(i, msg, seen_ids, pending)
        elif role == "user" and isinstance(content, list):
            problems += [f"message {i}: {p}" for p in _part_problems(content)]
        elif not isinstance(content, str):
            problems.append(f"message {i}: {role} content must be a string")
    if pending:
        problems.append(f"tool call(s) {pending} were never answered")
    return problems


def _assistant_problems(i: int, msg: dict[str, Any], seen_ids: set[str], pending: list[str]) -> list[str]:
    """An assistant message's problems; its call ids join `seen_ids` and `pending`."""
    problems = []
    content = msg.get("content")
    if content is None:
        problems.append(f"message {i}: assistant content is null (llama.cpp servers reject this)")
    if isinstance(content, str) and ("<think>" in content or "</think>" in content):
        problems.append(f"message {i}: thinking was sent back to the model")
    for call in msg.get("tool_calls") or []:
        cid = call.get("id")
        if not cid or cid in seen_ids:
            problems.append(f"message {i}: tool call id {cid!r} is missing or not unique")
        seen_ids.add(cid)
        pending.append(cid)
        args = (call.get("function") or {}).get("arguments")
        try:
            json.loads(args if isinstance(args, str) else "")
        except json.JSONDecodeError:
            problems.append(f"message {i}: tool call {cid!r} arguments are not a JSON string")
    return problems


def _part_problems(parts: list[Any]) -> list[str]:
    """A user message's content as parts (OpenAI's shape): text and image_url parts only."""
    problems = []
    for j, part in enumerate(parts):
        kind = part.get("type") if isinstance(part, dict) else None
        if kind == "text" and isinstance(part.get("text"), str):
            continue
        url = (part.get("image_url") or {}).get("url") if kind == "image_url" else None
        if not (isinstance(url, str) and url.startswith(("data:image/", "http://", "https://"))):
            problems.append(f"content part {j} is neither text nor an image_url with a URL")
    if not parts:
        problems.append("content is an empty list of parts")
    return problems


def prompt_text(body: dict[str, Any]) -> str:
    """The request's prompt as the server would see it, for prefix comparisons."""
    return json.dumps(body.get("tools") or [], sort_keys=True) + json.dumps(body.get("messages") or [])


def estimate_tokens(text: str) -> int:
    return max(1, len(text) // 4)


def common_prefix(a: str, b: str) -> str:
    """The longest start the two prompts share, byte for byte (what a prefix cache can reuse)."""
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return a[:i]


def prefix_reuse(requests: Sequence[dict[str, Any]]) -> list[tuple[float, float]]:
    """For each request after the first: (share of the previous prompt it repeats byte for byte,
    share of its own prompt that is such a repeat)."""
    out = []
    for before, after in itertools.pairwise(requests):
        a, b = prompt_text(before), prompt_text(after)
        n = len(common_prefix(a, b))
        out.append((n / len(a), n / len(b)))
    return out


def reuse_summary(shares: Sequence[tuple[float, float]]) -> str:
    """Two lines for a report: (a) share of the previous prompt repeated, (b) share of the new one."""
    prev, new = sorted(a for a, _ in shares), sorted(b for _, b in shares)
    return (
        f"  (a) share of the previous prompt repeated:   min {prev[0]:.2%}, median {prev[len(prev) // 2]:.2%}\n"
        f"  (b) share of the new prompt that is repeated: min {new[0]:.2%}, median {new[len(new) // 2]:.2%}, "
        f"last {shares[-1][1]:.2%}"
    )
