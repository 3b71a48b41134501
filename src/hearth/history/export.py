"""A session's events as Markdown (archives, `hearth sessions export`) or as JSON.

Both are made from the one encoding of hearth.history.wire: the JSON export is those messages,
and the Markdown lays them out for reading. A message type this layout does not know yet is
still written, as a quoted line with its fields.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from hearth.core.events import Event
from hearth.history.wire import encode_all
from hearth.store.sessions import SessionInfo, SessionStore

# Messages left out of the Markdown: streaming details, bookkeeping and the audit trail.
QUIET = frozenset(
    {"thinking", "usage", "model_used", "permission", "task_update", "checkpoint", "budget_set"}
)
CALL_ARGS = 500
OUTPUT = 4000


def export_session(store: SessionStore, session_id: str, fmt: str = "md") -> str:
    """A stored session as Markdown or JSON, linked to its parent and to its sub-agents' sessions
    (`hearth sessions export` and the web API's export)."""
    info = store.get(session_id)
    events = store.events(session_id)
    children = [store.get(c) for c in store.children(session_id)]
    if fmt == "json":
        data = to_json(events, session_id, info.title, parent=info.parent, children=children)
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    return to_markdown(events, f"{info.title} ({session_id})", parent=info.parent, children=children)


def to_json(
    events: Sequence[Event],
    session_id: str,
    title: str,
    *,
    parent: str | None = None,
    children: Sequence[SessionInfo] = (),
) -> dict[str, Any]:
    return {
        "id": session_id,
        "title": title,
        "parent": parent,
        "children": [{"id": c.id, "title": c.title, "status": c.status} for c in children],
        "events": encode_all(events),
    }


def to_markdown(
    events: Sequence[Event],
    title: str = "Hearth session",
    *,
    parent: str | None = None,
    children: Sequence[SessionInfo] = (),
) -> str:
    out = [f"# {title}", ""]
    if parent:
        out.append(f"*A sub-agent of session `{parent}` (`hearth sessions export {parent}`).*\n")
    for m in encode_all(events):
        kind = m["type"]
        if kind in QUIET:
            continue
        when = _when(m["ts"])
        line = _MARKDOWN.get(kind, _other)(m, when)
        if line is not None:
            out.append(line)
    if children:
        out.append("## Sub-agents\n")
        out += [f"- `{c.id}` ({c.status}): {c.title} (`hearth sessions export {c.id}`)" for c in children]
        out.append("")
    return "\n".join(out)


def _tool_result(m: dict[str, Any], when: str) -> str:
    fence = _fence(m["output"])
    label = "result" if m["success"] else "failed"
    return f"\n{label} `{m['tool']}`:\n{fence}\n{m['output'][:OUTPUT]}\n{fence}\n"


def _plan(m: dict[str, Any], when: str) -> str:
    steps = "\n".join(f"{i}. {s}" for i, s in enumerate(m["steps"], start=1))
    return f"## Plan\n\n{steps}\n"


def _other(m: dict[str, Any], when: str) -> str:
    rest = {k: v for k, v in m.items() if k not in ("type", "ts")}
    return f"> {m['type']} ({when}): {json.dumps(rest, ensure_ascii=False)[:CALL_ARGS]}\n"


# How each kind of message reads in the Markdown export (None: left out); any other kind is shown
# with its fields as JSON.
_MARKDOWN: dict[str, Callable[[dict[str, Any], str], str | None]] = {
    "session_started": lambda m, when: (
        f"*{when}: started in `{m['workspace']}` with {m['model']} ({m['server']})*\n"
    ),
    "model_chosen": lambda m, when: f"> {when}: the {m['role']} role uses {m['model']} from here on\n",
    "user_message": lambda m, when: f"## User ({when})\n\n{m['text']}\n",
    "hearth_message": lambda m, when: f"## Hearth ({when})\n\n{m['text']}\n",
    "text": lambda m, when: f"## Agent ({when})\n\n{m['text']}\n" if m["text"] else None,
    "tool_call": lambda m, when: (
        f"- call `{m['tool']}` {json.dumps(m['input'], ensure_ascii=False)[:CALL_ARGS]}"
    ),
    "tool_result": _tool_result,
    "notice": lambda m, when: f"> {m['text']}\n",
    "error": lambda m, when: f"> {m['message']}\n",
    "plan_ready": _plan,
    "compacted": lambda m, when: f"> compacted: {m['summary']}\n" if m["summary"] else None,
    "done": lambda m, when: f"**{m['status']}**{': ' + m['reason'] if m['reason'] else ''}\n",
}


def _when(ts: str) -> str:
    return datetime.fromisoformat(ts).strftime("%Y-%m-%d %H:%M:%S")


def _fence(text: str) -> str:
    """A code fence longer than any run of backticks in the text, so the text cannot close it."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    return "`" * max(3, longest + 1)
