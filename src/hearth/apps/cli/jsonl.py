"""`--json` and `hearth sessions show`: each event as JSON Lines, for scripts and other programs.

The lines are the one encoding of hearth.history.wire (the WebSocket's messages), each with the
`session` it belongs to.
"""

from __future__ import annotations

import json
from typing import Any

from hearth.core.events import Event
from hearth.history.wire import Encoder, in_session

# One encoder per session for the life of the process (a CLI run has one or a few sessions):
# it numbers the model's steps within a task and totals their tokens for `done`.
_ENCODERS: dict[str, Encoder] = {}


def event_lines(session_id: str, event: Event) -> list[dict[str, Any]]:
    encoder = _ENCODERS.setdefault(session_id, Encoder())
    return [in_session(message, session_id) for message in encoder.encode(event)]


def dumps(line: dict[str, Any]) -> str:
    return json.dumps(line, ensure_ascii=False, default=str)
