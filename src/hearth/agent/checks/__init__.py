"""The loop's defences, as a pipeline of checks (see `base` for the protocol).

`STANDARD` is the one place that lists them, in the order they run: by stage as the step reaches
it, and within a stage in this order. A model profile chooses its set (`ModelProfile.checks`);
`for_profile` reads it, or picks from `STANDARD` what applies to the profile.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from hearth.agent.checks.answer import BadWaitTime, EmptyReply
from hearth.agent.checks.base import Check, Nudge, Outcome, Stage, StepView
from hearth.agent.checks.calls import ClaimWithCalls, Loop, claimed_stop
from hearth.agent.checks.finish import (
    BlockedAfterError,
    BlockedEarly,
    CallsNotRun,
    FinishAfterFailure,
    FinishRefused,
    ReplyStopped,
)
from hearth.agent.checks.reply import ReplyCut, UnparsedCall, is_cut, raised_cap
from hearth.core.errors import StopRun
from hearth.core.events import Notice
from hearth.llm.profiles import ModelProfile, ToolMode

__all__ = [
    "STANDARD",
    "Check",
    "Checks",
    "Nudge",
    "Outcome",
    "Stage",
    "StepView",
    "claimed_stop",
    "for_profile",
    "is_cut",
    "raised_cap",
]

STANDARD: tuple[type[Check], ...] = (
    ReplyCut,  # REPLY: cut by the cap or for repeating itself (the step goes on)
    UnparsedCall,  # REPLY: a call that cannot be read (the same reply a third time in a row: stop)
    EmptyReply,  # ANSWER: nothing at all (the third in a row stops)
    BadWaitTime,  # ANSWER: a WAIT: whose time cannot be read
    Loop,  # CALL: calls going in circles (nudge, then stop)
    ClaimWithCalls,  # CALLS: "done" next to calls whose results the model has not seen
    BlockedEarly,  # FINISH: BLOCKED before trying anything
    BlockedAfterError,  # FINISH: BLOCKED on an error that says what to do
    CallsNotRun,  # FINISH: a finish right after calls the one-call rule did not run
    ReplyStopped,  # FINISH: a finish right after a reply stopped at its first call
    FinishAfterFailure,  # FINISH: a finish right after a failed check (twice: stop)
    FinishRefused,  # FINISH: a finish with tracked work open (third time: stop)
)
BY_NAME: dict[str, type[Check]] = {check.name: check for check in STANDARD}
# Only a model held to one call per reply meets these (the loop and the client cause them).
ONE_CALL = frozenset({CallsNotRun.name, ReplyStopped.name})
# In grammar mode a finish is its own action, never a claim read from the text.
TEXT_CLAIMS = frozenset({ClaimWithCalls.name})


def standard_names(profile: ModelProfile) -> tuple[str, ...]:
    """The checks that apply to a profile that names none, in order."""
    skip: set[str] = set()
    if not profile.one_call_per_reply:
        skip |= ONE_CALL
    if profile.tool_mode is ToolMode.GRAMMAR and profile.action_format:
        skip |= TEXT_CLAIMS
    return tuple(check.name for check in STANDARD if check.name not in skip)


def for_profile(profile: ModelProfile) -> Checks:
    """The checks a model profile runs: those it names, in its order, else the standard set."""
    names = profile.checks or standard_names(profile)
    unknown = [name for name in names if name not in BY_NAME]
    if unknown:
        raise ValueError(
            f"Unknown check(s) in the model profile: {', '.join(unknown)}. "
            f"Known checks: {', '.join(BY_NAME)}."
        )
    return Checks([BY_NAME[name]() for name in names])


class Checks:
    """A chosen set of checks, run stage by stage."""

    def __init__(self, checks: Sequence[Check]) -> None:
        self.checks = list(checks)

    @property
    def names(self) -> list[str]:
        return [check.name for check in self.checks]

    def run(self, stage: Stage, view: StepView, record: Callable[[Notice], None]) -> bool:
        """Run the stage's checks in order, recording each nudge. True when one ends the step;
        raises the stop one returns."""
        for check in self.checks:
            if check.stage is not stage:
                continue
            outcome = check.check(view)
            if isinstance(outcome, StopRun):
                raise outcome
            if outcome is None:
                continue
            record(Notice(reason=outcome.reason, text=outcome.text))
            if not outcome.goes_on:
                return True
        return False
