"""A session's events as Markdown (archives, and `sessions export` later)."""

from __future__ import annotations

import json
from collections.abc import Sequence

from hearth.core.events import (
    BudgetSet,
    Compacted,
    ErrorRaised,
    Event,
    Finished,
    HearthMessage,
    ModeChanged,
    ModelReply,
    Notice,
    PlanReady,
    RuleRemembered,
    SessionStarted,
    ToolResult,
    UserMessage,
)


def to_markdown(events: Sequence[Event], title: str = "Hearth session") -> str:
    out = [f"# {title}", ""]
    for e in events:
        when = e.ts.strftime("%Y-%m-%d %H:%M:%S")
        if isinstance(e, SessionStarted):
            out.append(f"*{when}: started in `{e.workspace}` with {e.model} ({e.server})*\n")
        elif isinstance(e, UserMessage):
            out.append(f"## User ({when})\n\n{e.text}\n")
        elif isinstance(e, HearthMessage):
            out.append(f"## Hearth ({when})\n\n{e.text}\n")
        elif isinstance(e, ModeChanged):
            out.append(f"*mode: {e.mode}*\n")
        elif isinstance(e, RuleRemembered):
            rule = e.tool if e.pattern is None else f"{e.tool}({e.pattern})"
            out.append(f"*allowed for the rest of the session: `{rule}`*\n")
        elif isinstance(e, BudgetSet):
            out.append(f"*token budget: {e.tokens}*\n")
        elif isinstance(e, ModelReply):
            if e.text:
                out.append(f"## Agent ({when})\n\n{e.text}\n")
            for c in e.tool_calls:
                out.append(f"- call `{c.name}` {json.dumps(c.arguments, ensure_ascii=False)[:500]}")
        elif isinstance(e, ToolResult):
            fence = "```"
            out.append(
                f"\n{'result' if e.ok else 'failed'} `{e.name}`:\n{fence}\n{e.output[:4000]}\n{fence}\n"
            )
        elif isinstance(e, Notice | ErrorRaised):
            text = e.text if isinstance(e, Notice) else e.message
            out.append(f"> {text}\n")
        elif isinstance(e, PlanReady):
            out.append("## Plan\n\n" + "\n".join(f"{i}. {s}" for i, s in enumerate(e.steps, start=1)) + "\n")
        elif isinstance(e, Compacted) and e.summary:
            out.append(f"> compacted: {e.summary}\n")
        elif isinstance(e, Finished):
            out.append(f"**{e.status.value}**{': ' + e.reason if e.reason else ''}\n")
    return "\n".join(out)
