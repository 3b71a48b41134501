"""The one JSON encoding of a session's events and live updates.

`hearth run --json` and `hearth sessions show` (JSON Lines), `hearth sessions export --format
json`, the WebSocket, the SSE chat stream, the history and activity routes all send what
`Encoder.encode` makes: flat JSON objects, each with a `type` and a `ts` (ISO 8601, UTC). Only
the envelope differs: JSON Lines, the live WebSocket and the activity feed add `session`.

The rule: an event becomes one message whose `type` is the event's `kind` and whose fields are
the event's own fields under their own names (nested models as objects, tuples as lists). A new
event type in core/events.py is therefore sent without any change here. The one mapping on top
(`TYPES`, `RENAMES`) gives agent_computer's WebSocket names, which its clients rely on:

    event kind      message type   fields renamed (and added)
    work            task_update    state -> tasks (the todos), plan, task, and `summary` (as text)
    finished        done           final_text -> text; adds exit_code, and the task's iterations,
                                   model and usage totals
    tool_result     tool_result    call_id -> tool_call_id, name -> tool, ok -> success; adds
                                   result_preview (the first 400 characters of output)
    permission      permission     call_id -> tool_call_id

A model reply is the one event that becomes several messages, in this order:

    thinking   iteration (the model's step within the task), text (its thinking), tokens_used
    text       text: the reply as a reader wants it (finish markers and calls written as text
               removed); sent whenever the reply had text, even if nothing is left to show
    tool_call  one per call: tool_call_id, tool, input (the arguments), format, repaired, error
    usage      prompt_tokens, cached_tokens, completion_tokens, estimated, ttft_ms, total_ms,
               model, finish_reason, format

Tool output is sent with ANSI escapes and control characters removed (`strip_control`); the raw
text of a tool call as the model wrote it (`raw_arguments`) stays in the store only.

Live updates that are not stored events: `delta` (kind, text: a streamed piece of text or
thinking), `approval_request` (id, tool, input, shown, reason), `plan_approval` (id, steps),
and `answered` (id).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from hearth.agent.finish import strip_markers
from hearth.core.events import (
    Event,
    EventBase,
    Finished,
    HearthMessage,
    ModelReply,
    ModelUsed,
    ToolResult,
    UserMessage,
    WorkUpdated,
)
from hearth.core.protocols import Delta
from hearth.core.text import strip_control
from hearth.core.types import CallFormat
from hearth.core.work import WorkState

# The questions a live session asks a person (hub.py asks them), and the updates its watchers get.


@dataclass(frozen=True)
class ApprovalRequest:
    id: str
    tool: str
    arguments: dict[str, Any]
    shown: str  # the exact command, or the arguments
    reason: str


@dataclass(frozen=True)
class PlanRequest:
    id: str
    steps: tuple[str, ...]


@dataclass(frozen=True)
class Answered:
    """A question was answered (or dropped); other viewers remove its buttons."""

    id: str


Update = Event | Delta | ApprovalRequest | PlanRequest | Answered


PREVIEW = 400
ENVELOPE = ("type", "ts", "session")

# The documented mapping (see the module's docstring): message types and field names that
# differ from the events' own.
TYPES = {"work": "task_update", "finished": "done"}
RENAMES: dict[str, dict[str, str]] = {
    "tool_result": {"call_id": "tool_call_id", "name": "tool", "ok": "success"},
    "permission": {"call_id": "tool_call_id"},
    "finished": {"final_text": "text"},
}
CALL_RENAMES = {"id": "tool_call_id", "name": "tool", "arguments": "input"}
NOT_SENT = frozenset({"raw_arguments"})  # fields of a tool call kept in the store only
# Live updates (core.protocols.Delta and the hub's questions), by class name.
UPDATE_TYPES = {
    "Delta": "delta",
    "ApprovalRequest": "approval_request",
    "PlanRequest": "plan_approval",
    "Answered": "answered",
}
UPDATE_RENAMES = {"approval_request": {"arguments": "input"}}
SHOWN_AS_TEXT = frozenset({"shown"})  # fields of an update cleaned like tool output


class Encoder:
    """Encodes one session's updates in order; it numbers the model's steps within each task and
    totals their tokens for `done`, so use one encoder per session and feed it every event."""

    def __init__(self) -> None:
        self.iteration = 0
        self.model = ""
        self.usage = {"prompt_tokens": 0, "cached_tokens": 0, "completion_tokens": 0}

    def encode(self, update: Update) -> list[dict[str, Any]]:
        if isinstance(update, EventBase):
            return self._event(update)
        return [_update(update)]

    def _event(self, event: EventBase) -> list[dict[str, Any]]:
        if isinstance(event, ModelReply):
            return self._reply(event)
        message = fields(event)
        if isinstance(event, UserMessage | HearthMessage):  # a turn starts
            self.iteration = 0
            self.usage = dict.fromkeys(self.usage, 0)
        elif isinstance(event, WorkUpdated):
            del message["state"]
            message.update(work_json(event.state))
        elif isinstance(event, ModelUsed):  # counted in the task's totals like a reply
            self._count(event)
        elif isinstance(event, ToolResult):
            message["output"] = strip_control(event.output)
            message["result_preview"] = message["output"][:PREVIEW]
        elif isinstance(event, Finished):
            message["exit_code"] = event.exit_code
            message["iterations"] = self.iteration
            message["model"] = self.model
            message["usage"] = dict(self.usage)
        return [message]

    def _count(self, event: ModelReply | ModelUsed) -> None:
        for key in self.usage:
            self.usage[key] += getattr(event.usage, key)

    def _reply(self, event: ModelReply) -> list[dict[str, Any]]:
        self.iteration += 1
        self.model = event.model or self.model
        self._count(event)
        ts = event.model_dump(mode="json", include={"ts"})["ts"]
        tokens_used = self.usage["prompt_tokens"] + self.usage["completion_tokens"]
        out: list[dict[str, Any]] = [
            {
                "type": "thinking",
                "ts": ts,
                "iteration": self.iteration,
                "text": event.thinking,
                "tokens_used": tokens_used,
            }
        ]
        if event.text.strip():
            out.append({"type": "text", "ts": ts, "text": shown_text(event)})
        for call in event.tool_calls:
            data = call.model_dump(mode="json", exclude=set(NOT_SENT))
            out.append(
                {
                    "type": "tool_call",
                    "ts": ts,
                    **{CALL_RENAMES.get(k, k): v for k, v in data.items()},
                    "format": event.call_format.value,
                }
            )
        out.append(
            {
                "type": "usage",
                "ts": ts,
                **event.usage.model_dump(mode="json"),
                **event.timings.model_dump(mode="json"),
                "model": event.model,
                "finish_reason": event.finish_reason,
                "format": event.call_format.value,
            }
        )
        return out


def fields(event: EventBase) -> dict[str, Any]:
    """An event as one message by the general rule: its kind (mapped) and its fields (renamed)."""
    data = event.model_dump(mode="json")
    kind = str(data.pop("kind"))
    renames = RENAMES.get(kind, {})
    message: dict[str, Any] = {"type": TYPES.get(kind, kind), "ts": data.pop("ts")}
    for key, value in data.items():
        name = renames.get(key, key)
        if name in ENVELOPE:
            raise TypeError(
                f"{type(event).__name__}.{key} would hide the message's {name!r}; rename it in RENAMES"
            )
        message[name] = value
    return message


def _update(update: Any) -> dict[str, Any]:
    if not dataclasses.is_dataclass(update) or isinstance(update, type):
        raise TypeError(f"Cannot encode {update!r}")
    name = type(update).__name__
    kind = UPDATE_TYPES.get(name) or _snake(name)
    renames = UPDATE_RENAMES.get(kind, {})
    data: dict[str, Any] = {}
    for key, value in dataclasses.asdict(update).items():
        if isinstance(value, tuple):
            value = list(value)
        elif key in SHOWN_AS_TEXT and isinstance(value, str):
            value = strip_control(value)
        data[renames.get(key, key)] = value
    return {"type": kind, **data}


def work_json(work: WorkState) -> dict[str, Any]:
    """Tracked work as agent_computer's `tasks` and `summary`, with Hearth's plan and task state."""
    return {
        "tasks": [t.model_dump(mode="json") for t in work.todos],
        "plan": [p.model_dump(mode="json") for p in work.plan],
        "task": work.task.model_dump(mode="json"),
        "summary": work.render(),
    }


def encode_all(events: Iterable[Update]) -> list[dict[str, Any]]:
    """A session's events (in order) as messages, as a live viewer saw them."""
    encoder = Encoder()
    return [message for event in events for message in encoder.encode(event)]


def in_session(message: dict[str, Any], session_id: str) -> dict[str, Any]:
    """The message with the session it belongs to (the envelope of JSON Lines and live sockets)."""
    return {**message, "session": session_id}


_EMPTY_FENCE = re.compile(r"```[\w-]*\s*```")
_EMPTY_TAG = re.compile(r"<tool_call>\s*(?:</tool_call>)?")


def shown_text(reply: ModelReply) -> str:
    """The reply as a reader wants it: without finish markers, and without the tool calls a model
    wrote as text (they show as tool cards)."""
    if reply.call_format is CallFormat.ACTION:
        return ""  # the action is shown as its tool card, or as the turn's end
    text = strip_markers(reply.text)
    if reply.call_format is CallFormat.TEXT:
        for call in reply.tool_calls:
            if call.raw_arguments and len(call.raw_arguments) > 2:
                text = text.replace(call.raw_arguments, "")
        text = _EMPTY_TAG.sub("", _EMPTY_FENCE.sub("", text))
    return text.strip()


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()
