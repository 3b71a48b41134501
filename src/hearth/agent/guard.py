"""A simple loop guard: the same failing call, or empty replies, over and over.

First a nudge naming the pattern, then a stop with the reason.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from hearth.core.errors import LimitReached
from hearth.core.types import ToolCall

NUDGE_AT = 2
STOP_AT = 3


@dataclass
class LoopGuard:
    _last_failure: str | None = None
    _failure_repeats: int = 0
    _empty_replies: int = 0
    _refused_finishes: int = 0

    def empty_reply(self) -> bool:
        """Count an empty reply; True means nudge, raises when it is time to stop."""
        self._empty_replies += 1
        if self._empty_replies >= STOP_AT:
            raise LimitReached(f"the model gave {self._empty_replies} empty replies in a row")
        return True

    def refused_finish(self, open_items: int) -> None:
        """Count a finish refused because work remains; stop when the model insists."""
        self._refused_finishes += 1
        if self._refused_finishes >= STOP_AT:
            raise LimitReached(
                f"the model tried to finish {self._refused_finishes} times with {open_items} item(s) still open"
            )

    def reply_with_content(self) -> None:
        self._empty_replies = 0

    def call_result(self, call: ToolCall, ok: bool, output: str) -> str | None:
        """Record one result; returns a description to nudge with, raises to stop."""
        if ok:
            self._last_failure, self._failure_repeats = None, 0
            return None
        key = f"{call.name} {json.dumps(call.arguments, sort_keys=True)} -> {output}"
        if key == self._last_failure:
            self._failure_repeats += 1
        else:
            self._last_failure, self._failure_repeats = key, 1
        short = f"{call.name} {json.dumps(call.arguments, sort_keys=True)[:120]}"
        if self._failure_repeats >= STOP_AT:
            raise LimitReached(f"the same failing call was repeated {self._failure_repeats} times: {short}")
        if self._failure_repeats >= NUDGE_AT:
            return short
        return None

    @property
    def failure_repeats(self) -> int:
        return self._failure_repeats
