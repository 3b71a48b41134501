"""A session's events as Markdown (archives, `hearth sessions export`) or as JSON.

Both are made from the one encoding of hearth.runtime.wire: the JSON export is those messages,
and the Markdown lays them out for reading. A message type this layout does not know yet is
still written, as a quoted line with its fields.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from hearth.core.events import Event
from hearth.runtime.wire import encode_all

# Messages left out of the Markdown: streaming details, bookkeeping and the audit trail.
QUIET = frozenset({"thinking", "usage", "permission", "task_update", "checkpoint", "budget_set"})
CALL_ARGS = 500
OUTPUT = 4000


def to_json(events: Sequence[Event], session_id: str, title: str) -> dict[str, Any]:
    return {"id": session_id, "title": title, "events": encode_all(events)}


def to_markdown(events: Sequence[Event], title: str = "Hearth session") -> str:
    out = [f"# {title}", ""]
    for m in encode_all(events):
        kind = m["type"]
        when = _when(m["ts"])
        if kind in QUIET:
            continue
        if kind == "session_started":
            out.append(f"*{when}: started in `{m['workspace']}` with {m['model']} ({m['server']})*\n")
        elif kind == "user_message":
            out.append(f"## User ({when})\n\n{m['text']}\n")
        elif kind == "hearth_message":
            out.append(f"## Hearth ({when})\n\n{m['text']}\n")
        elif kind == "text":
            if m["text"]:
                out.append(f"## Agent ({when})\n\n{m['text']}\n")
        elif kind == "tool_call":
            out.append(f"- call `{m['tool']}` {json.dumps(m['input'], ensure_ascii=False)[:CALL_ARGS]}")
        elif kind == "tool_result":
            fence = _fence(m["output"])
            label = "result" if m["success"] else "failed"
            out.append(f"\n{label} `{m['tool']}`:\n{fence}\n{m['output'][:OUTPUT]}\n{fence}\n")
        elif kind == "notice":
            out.append(f"> {m['text']}\n")
        elif kind == "error":
            out.append(f"> {m['message']}\n")
        elif kind == "plan_ready":
            steps = "\n".join(f"{i}. {s}" for i, s in enumerate(m["steps"], start=1))
            out.append(f"## Plan\n\n{steps}\n")
        elif kind == "compacted":
            if m["summary"]:
                out.append(f"> compacted: {m['summary']}\n")
        elif kind == "done":
            out.append(f"**{m['status']}**{': ' + m['reason'] if m['reason'] else ''}\n")
        else:
            rest = {k: v for k, v in m.items() if k not in ("type", "ts")}
            out.append(f"> {kind} ({when}): {json.dumps(rest, ensure_ascii=False)[:CALL_ARGS]}\n")
    return "\n".join(out)


def _when(ts: str) -> str:
    return datetime.fromisoformat(ts).strftime("%Y-%m-%d %H:%M:%S")


def _fence(text: str) -> str:
    """A code fence longer than any run of backticks in the text, so the text cannot close it."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    return "`" * max(3, longest + 1)
