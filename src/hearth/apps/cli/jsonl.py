"""`--json`: each event as one or more JSON Lines, for scripts and other programs."""

from __future__ import annotations

import json
from typing import Any

from hearth.core.events import (
    BudgetSet,
    Checkpointed,
    Compacted,
    ErrorRaised,
    Event,
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


def event_lines(session_id: str, event: Event) -> list[dict[str, Any]]:
    base = {"session_id": session_id, "ts": event.ts.isoformat()}
    out: list[dict[str, Any]] = []
    if isinstance(event, SessionStarted):
        out.append(
            {
                "type": "session_started",
                "workspace": event.workspace,
                "model": event.model,
                "server": event.server,
                "context_window": event.context_window,
                "permission_mode": event.permission_mode,
                "tool_mode": event.tool_mode,
                "instructions": list(event.instructions),
            }
        )
    elif isinstance(event, UserMessage):
        out.append({"type": "user_message", "text": event.text})
    elif isinstance(event, HearthMessage):
        out.append({"type": "hearth_message", "reason": event.reason, "text": event.text})
    elif isinstance(event, ModeChanged):
        out.append({"type": "mode_changed", "mode": event.mode, "reason": event.reason})
    elif isinstance(event, RuleRemembered):
        out.append({"type": "rule_remembered", "tool": event.tool, "pattern": event.pattern})
    elif isinstance(event, BudgetSet):
        out.append({"type": "budget_set", "tokens": event.tokens})
    elif isinstance(event, ModelReply):
        if event.thinking:
            out.append({"type": "thinking", "text": event.thinking})
        if event.text:
            out.append({"type": "text", "text": event.text})
        out.extend(
            {
                "type": "tool_call",
                "id": c.id,
                "name": c.name,
                "arguments": c.arguments,
                "format": event.call_format.value,
                **({"error": c.error} if c.error else {}),
            }
            for c in event.tool_calls
        )
        out.append({"type": "usage", **event.usage.model_dump(), **event.timings.model_dump()})
    elif isinstance(event, ToolResult):
        out.append(
            {
                "type": "tool_result",
                "id": event.call_id,
                "name": event.name,
                "ok": event.ok,
                "output": event.output,
                "duration_ms": event.duration_ms,
            }
        )
    elif isinstance(event, Checkpointed):
        out.append({"type": "checkpoint", "id": event.id, "step": event.step})
    elif isinstance(event, PlanReady):
        out.append({"type": "plan_ready", "steps": list(event.steps), "text": event.text})
    elif isinstance(event, WorkUpdated):
        out.append({"type": "task_update", "state": event.state.model_dump()})
    elif isinstance(event, Compacted):
        out.append(
            {
                "type": "compacted",
                "masked": len(event.masked),
                "summarised": bool(event.summary),
                "reason": event.reason,
                "tokens_before": event.tokens_before,
                "tokens_after": event.tokens_after,
            }
        )
    elif isinstance(event, PermissionDecided):
        out.append(
            {
                "type": "permission",
                "id": event.call_id,
                "tool": event.tool,
                "subject": event.subject,
                "allowed": event.allowed,
                "by": event.by,
                "reason": event.reason,
            }
        )
    elif isinstance(event, Notice):
        out.append({"type": "notice", "reason": event.reason, "text": event.text})
    elif isinstance(event, ErrorRaised):
        out.append({"type": "error", "message": event.message, "hint": event.hint})
    elif isinstance(event, Finished):
        out.append(
            {
                "type": "finished",
                "status": event.status.value,
                "reason": event.reason,
                "exit_code": event.exit_code,
                "final_text": event.final_text,
                "wake_at": event.wake_at.isoformat() if event.wake_at else None,
            }
        )
    return [{**line, **base} for line in out]


def dumps(line: dict[str, Any]) -> str:
    return json.dumps(line, ensure_ascii=False, default=str)
