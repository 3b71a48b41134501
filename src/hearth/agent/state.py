"""A session's state, and the one way it changes: an event applied to it.

`SessionState.apply(event)` is called by `Agent.record` for each event as it happens, and by
`SessionState.replay` for each stored event when a session is resumed, so the live state and
the resumed one cannot drift apart: a new piece of state is one new branch in `apply`.

What it holds: the events themselves, the permission mode (and the mode a running plan will
give back), the rules allowed for the session, the token budget, the folders whose nested
instructions were given, todos and plan, the work open when the person last wrote (carried over:
it does not hold up a finish), the context window learned from the server, and the models chosen
for its roles. A session carried over from an older Hearth's store in the workspace resumes in
the default mode with no remembered rules (its modes and rules came from a file anyone could write).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass, field

from hearth.agent.budget import TokenBudget
from hearth.agent.modes import PermissionMode
from hearth.agent.rules import Rule
from hearth.core.events import (
    BudgetSet,
    Event,
    ModeChanged,
    ModelChosen,
    ModelReply,
    ModelUsed,
    Notice,
    NoticeReason,
    RuleRemembered,
    SessionStarted,
    UserMessage,
    WindowLearned,
    WorkUpdated,
)
from hearth.core.work import WorkState

IMPORTED = NoticeReason.IMPORTED  # the Notice reason closing a session carried over from an older store

# ModeChanged reasons of a plan: the switch to plan mode, the switch to carry it out, the end.
PLAN_START = "plan"
PLAN_APPROVED = "plan approved"
PLAN_END = "plan ended"


@dataclass(eq=False)
class SessionState:
    """What the events say about how the session stands now. Change it only by `apply`."""

    default_mode: PermissionMode
    mode: PermissionMode = PermissionMode.NORMAL
    events: list[Event] = field(default_factory=list)
    rules: tuple[Rule, ...] = ()
    # A sub-agent's state holds its parent's budget object: the child's replies count against it.
    budget: TokenBudget | None = None
    seen_folders: frozenset[str] = frozenset()
    work: WorkState = field(default_factory=WorkState)
    carried: frozenset[str] = frozenset()  # unfinished work when the person's latest message came
    window: int | None = None  # learned during the session (WindowLearned), when the server did not say
    models: dict[str, str] = field(default_factory=dict)  # role -> model chosen at run time
    before_plan: PermissionMode | None = None  # the mode to give back, while a plan runs

    @classmethod
    def new(cls, default_mode: PermissionMode) -> SessionState:
        return cls(default_mode, default_mode)

    @classmethod
    def replay(cls, events: Iterable[Event], default_mode: PermissionMode) -> SessionState:
        """The state a session's stored events leave it in (a resume). The process ended during a
        plan: the plan's mode was only for the plan, so the mode before it comes back."""
        state = cls.new(default_mode)
        for event in events:
            state.apply(event)
        if state.before_plan is not None:
            state.mode, state.before_plan = state.before_plan, None
        return state

    def apply(self, event: Event) -> None:
        """Take one event into the state (as it is recorded, or as it is read back)."""
        self.events.append(event)
        if isinstance(event, SessionStarted | ModeChanged):
            self._mode(event)
        elif isinstance(event, RuleRemembered):
            self.rules = (*self.rules, Rule(event.tool, event.pattern))
        elif isinstance(event, ModelChosen):
            self.models[event.role] = event.model
        elif isinstance(event, BudgetSet):
            self.budget = TokenBudget(event.tokens)
        elif isinstance(event, ModelReply | ModelUsed) and self.budget is not None:
            self.budget.spend(event.usage)
        elif isinstance(event, WorkUpdated):
            self.work = event.state.model_copy(deep=True)
        elif isinstance(event, UserMessage):
            # work open when the person writes may be about something else: it does not hold up a finish
            self.carried = frozenset(self.work.unfinished())
        elif isinstance(event, WindowLearned):
            self.window = event.window
        elif isinstance(event, Notice):
            self._notice(event)

    def spent_elsewhere(self, tokens: int) -> None:
        """Tokens the session's sub-agents spent against its budget (their replies are in their own
        sessions' events, so a resume counts them from there)."""
        if self.budget is not None and tokens:
            self.budget = TokenBudget.resumed(self.budget.limit, self.budget.used + tokens)

    def snapshot(self) -> dict[str, object]:
        """Everything the state holds, comparable (what a test of live against resumed compares)."""
        fields = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        fields["work"] = self.work.model_dump()
        fields["budget"] = None if self.budget is None else (self.budget.limit, self.budget.used)
        fields["models"] = dict(self.models)
        fields["events"] = [e.model_dump() for e in self.events]
        return fields

    def _mode(self, event: SessionStarted | ModeChanged) -> None:
        if isinstance(event, SessionStarted):
            self.mode = _known_mode(event.permission_mode, self.mode)
            return
        if event.reason == PLAN_START:
            self.before_plan = self.mode if self.before_plan is None else self.before_plan
        elif event.reason != PLAN_APPROVED:
            self.before_plan = None
        self.mode = _known_mode(event.mode, self.mode)

    def _notice(self, event: Notice) -> None:
        if event.reason == NoticeReason.INSTRUCTIONS and event.folder:
            self.seen_folders = self.seen_folders | {event.folder}
        elif event.reason == IMPORTED:
            # Carried over from a store in the workspace (runtime.carryover), which anyone could
            # have written: what it says about modes and rules is history, not permission.
            self.mode, self.before_plan, self.rules = self.default_mode, None, ()


def _known_mode(value: str, current: PermissionMode) -> PermissionMode:
    """The mode an event names; one this version does not know (a newer Hearth's) changes nothing."""
    try:
        return PermissionMode(value)
    except ValueError:
        return current
