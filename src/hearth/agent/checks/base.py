"""The protocol every check follows: look at the step, return nothing, a nudge, or a stop.

A check is one defence against a mistake models make (small ones above all): a reply cut off,
a call that cannot be read, a finish with work still open. It reads the reply and the session's
events and returns
- None: nothing to say, the step goes on;
- a `Nudge`: text for the model, recorded as a `Notice` with the nudge's reason; the step ends
  there unless the nudge `goes_on`;
- a `StopRun` (`LimitReached`, `Stuck`, ...): the turn ends with it.

A check keeps nothing between steps. What it counts (nudges given, replies in a row) it counts in
the turn's events, so an agent made again over the same events counts the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import ClassVar, Protocol

from hearth.core.errors import StopRun
from hearth.core.events import Event, ModelReply, Notice, NoticeReason
from hearth.core.work import WorkState
from hearth.llm.profiles import ModelProfile
from hearth.tools.toolset import Toolset


class Stage(Enum):
    """Where in the step a check looks, in the order the step reaches them."""

    REPLY = "reply"  # the reply as recorded, before anything runs
    ANSWER = "answer"  # a reply with no call (and not cut short): its text is the answer
    CALL = "call"  # after each call that ran
    CALLS = "calls"  # after all the reply's calls, when the reply asks for no stop
    FINISH = "finish"  # the reply asks to end the turn (`StepView.stop`): the stop stands unless one objects


@dataclass(frozen=True)
class Nudge:
    """Text Hearth tells the model, recorded as a `Notice`."""

    reason: NoticeReason
    text: str
    goes_on: bool = False  # False: the step ends here (the reply is not acted on further)


Outcome = Nudge | StopRun | None


@dataclass(frozen=True)
class StepView:
    """What a check may look at. `events` is the session's list itself: it grows as the step records."""

    events: Sequence[Event]
    start: int  # where this turn's events begin in `events`
    reply: ModelReply
    toolset: Toolset
    profile: ModelProfile
    workspace: Path
    work: WorkState  # the live todos and plan
    carried: frozenset[str] = frozenset()  # open items carried over from an earlier turn
    unparsed: str | None = None  # why a call the reply tried could not be read
    grammar: bool = False  # the reply was one action held to a schema (grammar mode)
    cap_raised: int | None = None  # the reply cap this reply raised (cut in the middle of a call)
    stop: StopRun | None = None  # FINISH: the stop the reply asks for

    @property
    def turn(self) -> Sequence[Event]:
        return self.events[self.start :]

    def notices(self, reason: NoticeReason) -> list[int]:
        """The indices (in `events`) of this turn's notices with this reason."""
        return [
            i
            for i in range(self.start, len(self.events))
            if isinstance(e := self.events[i], Notice) and e.reason == reason
        ]


class Check(Protocol):
    name: ClassVar[str]  # what a profile's `checks` lists
    stage: ClassVar[Stage]

    def check(self, view: StepView) -> Outcome: ...
