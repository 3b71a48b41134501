"""What the log file says about each event: its kind and measurements, never its text.

Prompts, replies, tool output and file contents stay in the session store; the log carries
what operations need (models, token counts, durations, outcomes) at `info` level.
"""

from __future__ import annotations

import logging
from typing import Any

from hearth.core.events import (
    Compacted,
    ErrorRaised,
    Event,
    Finished,
    ModelReply,
    ModelUsed,
    PermissionDecided,
    SessionStarted,
    ToolResult,
)

log = logging.getLogger("hearth.events")


def fields(event: Event) -> dict[str, Any]:
    if isinstance(event, SessionStarted):
        return {
            "model": event.model,
            "server": event.server,
            "context_window": event.context_window,
            "tool_mode": event.tool_mode,
            "permission_mode": event.permission_mode,
        }
    if isinstance(event, ModelReply):
        return {
            "model": event.model,
            "prompt_tokens": event.usage.prompt_tokens,
            "cached_tokens": event.usage.cached_tokens,
            "completion_tokens": event.usage.completion_tokens,
            "estimated": event.usage.estimated,
            "duration_ms": round(event.timings.total_ms, 1),
            "ttft_ms": None if event.timings.ttft_ms is None else round(event.timings.ttft_ms, 1),
            "tool_calls": [c.name for c in event.tool_calls],
            "finish_reason": event.finish_reason,
        }
    if isinstance(event, ModelUsed):
        return {
            "purpose": event.purpose,
            "model": event.model,
            "prompt_tokens": event.usage.prompt_tokens,
            "cached_tokens": event.usage.cached_tokens,
            "completion_tokens": event.usage.completion_tokens,
            "estimated": event.usage.estimated,
            "duration_ms": round(event.timings.total_ms, 1),
        }
    if isinstance(event, ToolResult):
        return {"tool": event.name, "success": event.ok, "duration_ms": round(event.duration_ms, 1)}
    if isinstance(event, PermissionDecided):
        return {"tool": event.tool, "allowed": event.allowed, "by": event.by}
    if isinstance(event, Compacted):
        return {"tokens_before": event.tokens_before, "tokens_after": event.tokens_after}
    if isinstance(event, Finished):
        return {"status": str(event.status), "reason": event.reason}
    if isinstance(event, ErrorRaised):
        return {"error": event.message}
    return {}


def log_event(session_id: str, event: Event) -> None:
    level = logging.WARNING if isinstance(event, ErrorRaised) else logging.INFO
    if log.isEnabledFor(level):
        log.log(level, event.kind, extra={"session": session_id, "event": event.kind, **fields(event)})
