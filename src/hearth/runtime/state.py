"""A session's state, derived from its events: permission mode, rules allowed for the session,
token budget, folders whose nested instructions were given, todos and plan, the context window
learned from the server, the models chosen for its roles.

Nothing about a session lives outside its events, so resuming it (from any interface) puts it
back as it was; a session carried over from an older Hearth's store in the workspace resumes in
the default mode with no remembered rules (its modes and rules came from a file anyone could write).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from hearth.agent.budget import TokenBudget
from hearth.agent.policy import PermissionMode
from hearth.agent.rules import Rule
from hearth.core.events import (
    BudgetSet,
    Event,
    ModeChanged,
    ModelChosen,
    ModelReply,
    Notice,
    NoticeReason,
    RuleRemembered,
    SessionStarted,
    WindowLearned,
    latest_work,
)
from hearth.core.work import WorkState

IMPORTED = NoticeReason.IMPORTED  # the Notice reason closing a session carried over from an older store

# ModeChanged reasons of a plan: the switch to plan mode, the switch to carry it out, the end.
PLAN_START = "plan"
PLAN_APPROVED = "plan approved"
PLAN_END = "plan ended"


@dataclass(frozen=True)
class SessionState:
    """What the events say about how the session stands now."""

    mode: PermissionMode
    rules: tuple[Rule, ...] = ()
    budget: int | None = None  # tokens
    budget_used: int = 0
    seen_folders: frozenset[str] = frozenset()
    work: WorkState = dataclasses.field(default_factory=WorkState)
    window: int | None = None  # learned during the session (WindowLearned), when the server did not say
    models: dict[str, str] = dataclasses.field(default_factory=dict)  # role -> model chosen at run time


def session_state(events: Sequence[Event], default_mode: PermissionMode) -> SessionState:
    mode = default_mode
    before_plan: PermissionMode | None = None  # set while a plan runs
    rules: list[Rule] = []
    budget: int | None = None
    used = 0
    seen: set[str] = set()
    window: int | None = None
    models: dict[str, str] = {}
    for event in events:
        if isinstance(event, SessionStarted):
            mode = _mode(event.permission_mode, mode)
        elif isinstance(event, ModeChanged):
            if event.reason == PLAN_START:
                before_plan = mode if before_plan is None else before_plan
            elif event.reason != PLAN_APPROVED:
                before_plan = None
            mode = _mode(event.mode, mode)
        elif isinstance(event, ModelChosen):
            models[event.role] = event.model
        elif isinstance(event, RuleRemembered):
            rules.append(Rule(event.tool, event.pattern))
        elif isinstance(event, BudgetSet):
            budget, used = event.tokens, 0
        elif isinstance(event, ModelReply) and budget is not None:
            used += TokenBudget.cost(event.usage)
        elif isinstance(event, Notice) and event.reason == NoticeReason.INSTRUCTIONS and event.folder:
            seen.add(event.folder)
        elif isinstance(event, Notice) and event.reason == IMPORTED:
            # Carried over from a store in the workspace (runtime.carryover), which anyone could
            # have written: what it says about modes and rules is history, not permission.
            mode, before_plan, rules = default_mode, None, []
        elif isinstance(event, WindowLearned):
            window = event.window
    if before_plan is not None:  # the process ended during a plan: its mode was only for the plan
        mode = before_plan
    return SessionState(
        mode, tuple(rules), budget, used, frozenset(seen), latest_work(list(events)), window, models
    )


def _mode(value: str, current: PermissionMode) -> PermissionMode:
    """The mode an event names; one this version does not know (a newer Hearth's) changes nothing."""
    try:
        return PermissionMode(value)
    except ValueError:
        return current
