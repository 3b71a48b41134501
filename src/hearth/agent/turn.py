"""Facts about the current turn, read from the session's events (nothing kept beside them)."""

from __future__ import annotations

from collections.abc import Sequence

from hearth.agent.finish import claims_completion
from hearth.core.events import Event, HearthMessage, ModelReply, ToolResult, UserMessage


def claims_in_a_row(history: Sequence[Event]) -> int:
    """How many of this turn's latest replies (the last one included) claim completion next to
    calls that all worked (the last one's results are not checked: it is the current reply)."""
    n = 0
    failed: set[str] = {e.call_id for e in history if isinstance(e, ToolResult) and not e.ok}
    latest = True
    for event in reversed(history):
        if isinstance(event, UserMessage):
            break
        if not isinstance(event, ModelReply):
            continue
        worked = latest or not any(c.id in failed for c in event.tool_calls)
        if not (event.tool_calls and claims_completion(event.text) and worked):
            break
        n += 1
        latest = False
    return n


def last_result(history: Sequence[Event]) -> ToolResult | None:
    """The result of this turn's most recent call, if any."""
    for event in reversed(history):
        if isinstance(event, ToolResult):
            return event
        if isinstance(event, UserMessage):
            return None
    return None


def tried_a_tool(history: Sequence[Event]) -> bool:
    """Whether any call was made since the last message from the user or Hearth."""
    for event in reversed(history):
        if isinstance(event, ToolResult):
            return True
        if isinstance(event, UserMessage | HearthMessage):
            return False
    return False


def not_run_before(history: Sequence[Event], not_run: str) -> list[str]:
    """The calls of the reply before the latest one that were not run (their result is the
    `not_run` text of the one-call rule), if that reply is in this turn."""
    replies = 0
    for i in range(len(history) - 1, -1, -1):
        event = history[i]
        if isinstance(event, UserMessage):
            return []
        if isinstance(event, ModelReply):
            replies += 1
            if replies == 2:
                ids = {c.id: c.name for c in event.tool_calls}
                return [ids[e.call_id] for e in history[i + 1 :] if isinstance(e, ToolResult)
                        and e.call_id in ids and e.output == not_run]  # fmt: skip
    return []


def seen_unchanged(
    history: Sequence[Event], name: str, arguments: dict[str, object], writes: set[str]
) -> bool:
    """Whether this exact call already worked in this turn with no other call from `writes`
    (tools that change things) working after it: done, and its result is above."""
    ok = {e.call_id for e in history if isinstance(e, ToolResult) and e.ok}
    for event in reversed(history):
        if isinstance(event, UserMessage):
            return False
        if not isinstance(event, ModelReply):
            continue
        for call in reversed(event.tool_calls):
            if call.id not in ok:
                continue
            if call.name == name and call.arguments == arguments:
                return True
            if call.name in writes:
                return False
    return False


def stopped_after_a_call(history: Sequence[Event], reason: str) -> bool:
    """Whether this turn's reply before the latest one was stopped after its first call (finish
    reason `reason`): whatever the model meant to write after that call was never seen."""
    replies = 0
    for event in reversed(history):
        if isinstance(event, UserMessage):
            return False
        if isinstance(event, ModelReply):
            replies += 1
            if replies == 2:
                return event.finish_reason == reason
    return False
