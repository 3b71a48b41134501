"""Session updates as the JSON messages of the WebSocket protocol (agent_computer's event types).

`thinking`, `tool_call`, `tool_result`, `text`, `task_update`, `plan_ready`, `approval_request`,
`mode_changed`, `done` and `error` keep their seed names and fields; Hearth adds `delta` (a
streamed piece of text or thinking), `user`, `notice`, `permission`, `answered`, `compacted`,
`checkpoint` and `session`. A `Translator` numbers the model's iterations within a task.
"""

from __future__ import annotations

import re
from typing import Any

from hearth.agent.finish import strip_markers
from hearth.core.events import (
    BudgetSet,
    Checkpointed,
    Compacted,
    ErrorRaised,
    Finished,
    HearthMessage,
    ModeChanged,
    ModelReply,
    Notice,
    PermissionDecided,
    PlanReady,
    RuleRemembered,
    SessionStarted,
    ToolResult,
    UserMessage,
    WorkUpdated,
)
from hearth.core.protocols import Delta
from hearth.core.types import CallFormat
from hearth.core.work import WorkState
from hearth.runtime.hub import Answered, ApprovalRequest, PlanRequest, Update
from hearth.sandbox.output import strip_control

PREVIEW = 400
OUTPUT_LIMIT = 20_000


class Translator:
    def __init__(self) -> None:
        self.iteration = 0
        self.model = ""
        self.usage = {"prompt_tokens": 0, "cached_tokens": 0, "completion_tokens": 0}

    def messages(self, update: Update) -> list[dict[str, Any]]:
        if isinstance(update, Delta):
            return [{"type": "delta", "kind": update.kind, "text": update.text}]
        if isinstance(update, ApprovalRequest):
            return [
                {
                    "type": "approval_request",
                    "id": update.id,
                    "tool": update.tool,
                    "input": update.arguments,
                    "shown": strip_control(update.shown),
                    "reason": update.reason,
                }
            ]
        if isinstance(update, PlanRequest):
            return [{"type": "plan_approval", "id": update.id, "steps": list(update.steps)}]
        if isinstance(update, Answered):
            return [{"type": "answered", "id": update.id}]
        if isinstance(update, ModeChanged):
            return [{"type": "mode_changed", "mode": update.mode}]
        return self._event(update)

    def _event(self, event: Any) -> list[dict[str, Any]]:
        ts = event.ts.isoformat()
        if isinstance(event, SessionStarted):
            return [{"type": "session", "model": event.model, "mode": event.permission_mode, "ts": ts}]
        if isinstance(event, UserMessage):
            self.iteration = 0
            self.usage = dict.fromkeys(self.usage, 0)
            return [{"type": "user", "text": event.text, "ts": ts}]
        if isinstance(event, HearthMessage):
            return [{"type": "hearth", "reason": event.reason, "text": event.text, "ts": ts}]
        if isinstance(event, RuleRemembered):
            rule = event.tool if event.pattern is None else f"{event.tool}({event.pattern})"
            return [{"type": "rule_remembered", "rule": rule, "ts": ts}]
        if isinstance(event, BudgetSet):
            return [{"type": "budget", "tokens": event.tokens, "ts": ts}]
        if isinstance(event, ModelReply):
            return self._reply(event, ts)
        if isinstance(event, ToolResult):
            output = strip_control(event.output)
            return [
                {
                    "type": "tool_result",
                    "tool": event.name,
                    "tool_call_id": event.call_id,
                    "success": event.ok,
                    "duration_ms": event.duration_ms,
                    "result_preview": output[:PREVIEW],
                    "output": output[:OUTPUT_LIMIT],
                    "ts": ts,
                }
            ]
        if isinstance(event, WorkUpdated):
            return [{"type": "task_update", **work_json(event.state), "ts": ts}]
        if isinstance(event, PlanReady):
            return [{"type": "plan_ready", "steps": list(event.steps), "text": event.text, "ts": ts}]
        if isinstance(event, PermissionDecided):
            return [
                {
                    "type": "permission",
                    "tool": event.tool,
                    "tool_call_id": event.call_id,
                    "allowed": event.allowed,
                    "by": event.by,
                    "reason": event.reason,
                    "ts": ts,
                }
            ]
        if isinstance(event, Notice):
            return [{"type": "notice", "reason": event.reason, "text": event.text, "ts": ts}]
        if isinstance(event, Compacted):
            return [{"type": "compacted", "reason": event.reason, "ts": ts}]
        if isinstance(event, Checkpointed):
            return [{"type": "checkpoint", "id": event.id, "step": event.step, "ts": ts}]
        if isinstance(event, ErrorRaised):
            return [{"type": "error", "message": event.message, "hint": event.hint, "ts": ts}]
        if isinstance(event, Finished):
            return [
                {
                    "type": "done",
                    "text": event.final_text,
                    "status": event.status.value,
                    "reason": event.reason,
                    "wake_at": event.wake_at.isoformat() if event.wake_at else None,
                    "iterations": self.iteration,
                    "model": self.model,
                    "usage": dict(self.usage),
                    "ts": ts,
                }
            ]
        return []

    def _reply(self, event: ModelReply, ts: str) -> list[dict[str, Any]]:
        self.iteration += 1
        self.model = event.model or self.model
        self.usage["prompt_tokens"] += event.usage.prompt_tokens
        self.usage["cached_tokens"] += event.usage.cached_tokens
        self.usage["completion_tokens"] += event.usage.completion_tokens
        out: list[dict[str, Any]] = [
            {
                "type": "thinking",
                "iteration": self.iteration,
                "text": event.thinking,
                "tokens_used": self.usage["prompt_tokens"] + self.usage["completion_tokens"],
                "ts": ts,
            }
        ]
        if event.text.strip():
            out.append({"type": "text", "text": shown_text(event), "ts": ts})
        for call in event.tool_calls:
            out.append(
                {
                    "type": "tool_call",
                    "tool": call.name,
                    "input": call.arguments,
                    "tool_call_id": call.id,
                    "ts": ts,
                }
            )
        return out


def work_json(work: WorkState) -> dict[str, Any]:
    return {
        "tasks": [t.model_dump() for t in work.todos],
        "plan": [p.model_dump() for p in work.plan],
        "summary": work.render(),
    }


_EMPTY_FENCE = re.compile(r"```[\w-]*\s*```")
_EMPTY_TAG = re.compile(r"<tool_call>\s*(?:</tool_call>)?")


def shown_text(reply: ModelReply) -> str:
    """The reply as a reader wants it: without finish markers, and without the tool calls a model
    wrote as text (they show as tool cards)."""
    text = strip_markers(reply.text)
    if reply.call_format is CallFormat.TEXT:
        for call in reply.tool_calls:
            if call.raw_arguments and len(call.raw_arguments) > 2:
                text = text.replace(call.raw_arguments, "")
        text = _EMPTY_TAG.sub("", _EMPTY_FENCE.sub("", text))
    return text.strip()


def history(events: list[Any]) -> list[dict[str, Any]]:
    translator = Translator()
    return [message for event in events for message in translator.messages(event)]
