"""Reflection: after a session that did work, ask a model what is worth remembering and store it.

Knowledge (facts that worked), learnings (mistake -> correction -> rule, the mistake ledger) and
candidate skills each become a memory item linked to the session. The `summarizer` role answers
when one is configured, else the session's model. What was stored (or why nothing could be) is a
`Reflected` event in the session's log; a later reflection on the same session covers only the
events after it. It never raises: a failing model or memory is recorded and the session ends as
it would have."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from hearth.core.events import Event, ModelReply, Reflected, ToolResult, UserMessage
from hearth.core.protocols import ModelRequest
from hearth.core.types import Message
from hearth.llm.thinking import split_thinking
from hearth.prompts import render
from hearth.runtime.conversation import Conversation
from hearth.runtime.memory_scopes import ScopedMemory, memory_embedder
from hearth.runtime.session import Runtime

REFLECTION_HEADER = "X-Hearth-Reflection"  # marks the request (a test server answers it apart)
MAX_TRANSCRIPT = 40_000  # characters of the session shown to the reflecting model (the end kept)
MAX_ITEMS = 5  # per kind
REPLY_TOKENS = 1024


@dataclass(frozen=True)
class Lesson:
    kind: str  # fact | learning | skill_candidate
    text: str


def did_work(events: Sequence[Event]) -> bool:
    """A session did work when the model called a tool (chat alone leaves nothing to learn)."""
    return any(isinstance(e, ModelReply) and e.tool_calls for e in events)


def since_last(events: Sequence[Event]) -> Sequence[Event]:
    """The events a new reflection covers: those after the last one's."""
    start = max((e.upto for e in events if isinstance(e, Reflected)), default=0)
    return events[start:]


def transcript(events: Sequence[Event]) -> str:
    lines = []
    for e in events:
        if isinstance(e, UserMessage):
            lines.append(f"USER: {e.text[:2000]}")
        elif isinstance(e, ModelReply):
            calls = "; ".join(f"{c.name}({json.dumps(c.arguments)[:300]})" for c in e.tool_calls)
            lines.append(f"AGENT: {e.text[:1000]}" + (f" CALLS: {calls}" if calls else ""))
        elif isinstance(e, ToolResult):
            lines.append(f"RESULT {e.name} ({'ok' if e.ok else 'failed'}): {e.output[:400]}")
    return "\n".join(lines)[-MAX_TRANSCRIPT:]


def parse_lessons(reply: str) -> list[Lesson]:
    """The items of the model's JSON answer (fenced or bare); malformed entries are skipped."""
    text = split_thinking(reply)[0]
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end <= start:
        return []
    try:
        data = json.loads(text[start : end + 1])
    except ValueError:
        return []
    if not isinstance(data, dict):
        return []
    out: list[Lesson] = []
    for fact in _list(data.get("knowledge"))[:MAX_ITEMS]:
        if isinstance(fact, str) and fact.strip():
            out.append(Lesson("fact", fact.strip()))
    for item in _list(data.get("learnings"))[:MAX_ITEMS]:
        if isinstance(item, dict) and _s(item, "mistake") and _s(item, "rule"):
            parts = [f"Mistake: {_s(item, 'mistake')}"]
            if _s(item, "correction"):
                parts.append(f"Correction: {_s(item, 'correction')}")
            parts.append(f"Rule: {_s(item, 'rule')}")
            out.append(Lesson("learning", "\n".join(parts)))
    for item in _list(data.get("skills"))[:MAX_ITEMS]:
        name = re.sub(r"[^a-z0-9._-]+", "-", _s(item, "name").lower()).strip("-.")[:64]
        if isinstance(item, dict) and name and _s(item, "description") and _s(item, "body"):
            desc = " ".join(_s(item, "description").split())
            out.append(
                Lesson("skill_candidate", f"---\nname: {name}\ndescription: {desc}\n---\n{_s(item, 'body')}")
            )
    return out


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _s(item: Any, key: str) -> str:
    value = item.get(key) if isinstance(item, dict) else None
    return value.strip() if isinstance(value, str) else ""


def wanted(rt: Runtime, history: Sequence[Event]) -> bool:
    """Whether `reflect` would ask a model: reflection is on, and the session did work since the last one."""
    summarizer, _ = rt.summarizer()
    on = (
        rt.settings.memory.reflect
        if rt.settings.memory.reflect is not None
        else summarizer is not None or not rt.profile.small
    )
    return bool(on) and did_work(since_last(history))


async def reflect(
    rt: Runtime, conversation: Conversation, current: Callable[[], bool] | None = None
) -> Reflected | None:
    """Reflect on the session's work since its last reflection; None when off or nothing was done.
    `current` (reflecting from another process) says whether the session is still as it was read:
    when it moved on meanwhile, nothing is stored and its next end reflects on all of it."""
    history = conversation.agent.history
    if not wanted(rt, history):
        return None
    events = since_last(history)
    summarizer, sampling = rt.summarizer()
    model = summarizer or rt.model
    asked = [e.text for e in history if isinstance(e, UserMessage)]
    task = next((e.text for e in events if isinstance(e, UserMessage)), asked[-1] if asked else "")
    request = ModelRequest(
        messages=[
            Message(role="system", content=render("reflection_system")),
            Message(
                role="user", content=render("reflection_request", task=task, transcript=transcript(events))
            ),
        ],
        max_tokens=REPLY_TOKENS,
        extra=dict(sampling),
        headers={REFLECTION_HEADER: "1"},
    )
    upto = len(history)
    try:
        response = await model.complete(request)
    except Exception as e:  # the session is over either way; say why nothing was learned
        return _record(conversation, Reflected(upto=upto, model=model.name, error=f"the model failed: {e}"))
    if current is not None and not current():
        return None
    conversation.agent.record(response.used("reflection", model.name))
    lessons = parse_lessons(response.content)
    stored: list[str] = []
    refused: list[str] = []
    memory = ScopedMemory(rt.workspace, memory_embedder(rt.settings) if lessons else None)
    try:
        for lesson in lessons:
            res = memory.store(lesson.text, lesson.kind, ["reflection"], conversation.id)
            if res.id is None:
                refused.extend(res.notices)
            else:
                stored.append(str(res.id))
    except Exception as e:  # a corrupt or locked memory database
        return _record(
            conversation, Reflected(upto=upto, model=model.name, error=f"memory is unavailable: {e}")
        )
    finally:
        memory.close()
    return _record(
        conversation, Reflected(stored=tuple(stored), refused=tuple(refused), upto=upto, model=model.name)
    )


def _record(conversation: Conversation, event: Reflected) -> Reflected:
    conversation.agent.record(event)
    return event
