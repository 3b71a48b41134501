"""Derive the messages sent to the model from the session's events.

The system prompt comes first and never changes within a session, so the
server's prefix cache holds. Calls the model wrote as text go back as text,
with their results in one user message, as the model wrote them; structured
calls go back structured, each answered by exactly one tool message.
"""

from __future__ import annotations

from collections.abc import Sequence

from hearth.core.events import (
    Compacted,
    Event,
    HearthMessage,
    ModelReply,
    Notice,
    ToolResult,
    UserMessage,
    WorkUpdated,
)
from hearth.core.types import CallFormat, Message
from hearth.prompts import render

INTERRUPTED_RESULT = "Not run: the session was interrupted before this call finished."


def build_messages(system_prompt: str, events: Sequence[Event]) -> list[Message]:
    """The conversation so far; consecutive user messages are merged, since strict chat
    templates (Gemma's, Mistral's) reject two in a row. Merging appends, so the prefix holds."""
    messages = [Message(role="system", content=system_prompt)]
    masked: set[str] = set()
    start = 0
    for i, event in enumerate(events):
        if isinstance(event, Compacted):
            masked.update(event.masked)
            if event.summary:
                start = event.summary_upto
                summary_at = i
    if start:
        # The summary replaces events[:start]; the task and the tracked work are restated.
        task = next(((j, e) for j, e in enumerate(events) if isinstance(e, UserMessage)), None)
        if task is not None and task[0] < start:
            messages.append(Message(role="user", content=task[1].text))
        summary = events[summary_at]
        assert isinstance(summary, Compacted)
        messages.append(Message(role="user", content=render("context_summary", summary=summary.summary)))
        work = next((e.state for e in reversed(events[:start]) if isinstance(e, WorkUpdated)), None)
        if work is not None:
            messages.append(Message(role="user", content=render("context_work_state", state=work.render())))
    results = {e.call_id: _shown(e, masked) for e in events if isinstance(e, ToolResult)}
    for event in events[start:]:
        if isinstance(event, UserMessage):
            messages.append(Message(role="user", content=event.text))
        elif isinstance(event, HearthMessage | Notice):
            messages.append(Message(role="user", content=f"[hearth] {event.text}"))
        elif isinstance(event, ModelReply):
            messages.extend(_reply_messages(event, results))
    return _merge_user_runs(messages)


def _shown(result: ToolResult, masked: set[str]) -> ToolResult:
    if result.call_id not in masked:
        return result
    stub = render("masked_output", name=result.name, size=len(result.output))
    return result.model_copy(update={"output": stub})


def _merge_user_runs(messages: list[Message]) -> list[Message]:
    out: list[Message] = []
    for msg in messages:
        if out and msg.role == "user" and out[-1].role == "user":
            out[-1] = Message(role="user", content=out[-1].content + "\n\n" + msg.content)
        else:
            out.append(msg)
    return out


def _reply_messages(reply: ModelReply, results: dict[str, ToolResult]) -> list[Message]:
    if not reply.tool_calls:
        return [Message(role="assistant", content=reply.text)] if reply.text.strip() else []
    outputs = [
        (call.id, call.name, results[call.id].output if call.id in results else INTERRUPTED_RESULT)
        for call in reply.tool_calls
    ]
    if reply.call_format is CallFormat.NATIVE:
        out = [Message(role="assistant", content=reply.text, tool_calls=reply.tool_calls)]
        out.extend(Message(role="tool", content=o, tool_call_id=i, name=n) for i, n, o in outputs)
        return out
    parts = [render("tool_result_text", name=n, output=o) for _, n, o in outputs]
    footer = (
        "tool_results_action_footer" if reply.call_format is CallFormat.ACTION else "tool_results_text_footer"
    )
    parts.append(render(footer))
    return [Message(role="assistant", content=reply.text), Message(role="user", content="\n\n".join(parts))]
