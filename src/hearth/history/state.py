"""A session's state, derived from its events (see agent/state.py): resuming a session, from any
interface, replays its stored events through the same `SessionState.apply` that changed the
state while it ran, so it is back as it was.
"""

from __future__ import annotations

from collections.abc import Sequence

from hearth.agent.modes import PermissionMode
from hearth.agent.state import IMPORTED, PLAN_APPROVED, PLAN_END, PLAN_START, SessionState
from hearth.core.events import Event

__all__ = ["IMPORTED", "PLAN_APPROVED", "PLAN_END", "PLAN_START", "SessionState", "session_state"]


def session_state(events: Sequence[Event], default_mode: PermissionMode) -> SessionState:
    """The state `events` leave a session in; `default_mode`: the mode before any event names one."""
    return SessionState.replay(events, default_mode)
