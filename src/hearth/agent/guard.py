"""The loop guard, after OpenHands' stuck detector.

Patterns: the same failing call (nudge at 2, stop at 3); the same call giving
the same result (nudge at 3, stop at 4); the same error from different calls
(nudge at 3, stop at 4); two calls alternating (A B A B A B: nudge, two more: stop), or a
cycle of three or four calls (nudge at three rounds, stop at four), whatever their results;
the same file written again and again (nudge at 4, stop at 6); empty replies (nudge, stop
at 3); finishing while work remains (stop at 3).
A nudge names the pattern so the model can break out of it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from hearth.core.errors import LimitReached, Stuck
from hearth.core.types import ToolCall

T = TypeVar("T")
STOP_AT = 3
REWRITES = frozenset({"write"})  # the same file written whole over and over is a loop too (edits are not)
REWRITE_NUDGE = 4
REWRITE_STOP = 6


@dataclass
class LoopGuard:
    _steps: list[tuple[str, str, bool]] = field(default_factory=list)  # (call, result, ok)
    _targets: list[str] = field(default_factory=list)  # per call: "write a.txt" for a file written, else ""
    _empty_replies: int = 0
    _refused_finishes: int = 0
    _nudged: set[str] = field(default_factory=set)
    _blocked_pushed_back: int = 0
    _remedies_given: set[str] = field(default_factory=set)
    _failed_checks: set[str] = field(default_factory=set)  # failed runs a finish was pushed back over
    _cut_pushed_back: bool = False

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

    def push_back_blocked(self, *, tried: bool, times: int = 1) -> bool:
        """True (up to `times` per turn) when a BLOCKED came before any tool was tried."""
        if tried or self._blocked_pushed_back >= times:
            return False
        self._blocked_pushed_back += 1
        return True

    def push_back_blocked_after_error(self, error: str) -> bool:
        """True the first time a BLOCKED answers this error (its remedy is then given back)."""
        if error in self._remedies_given:
            return False
        self._remedies_given.add(error)
        return True

    def push_back_failed_check(self, output: str) -> bool:
        """True the first time a finish comes right after this failed check."""
        if output in self._failed_checks:
            return False
        self._failed_checks.add(output)
        return True

    def push_back_after_cut(self) -> bool:
        """True (once per turn) for a finish right after a reply stopped at its first call."""
        if self._cut_pushed_back:
            return False
        self._cut_pushed_back = True
        return True

    def reply_with_content(self) -> None:
        self._empty_replies = 0

    def call_result(self, call: ToolCall, ok: bool, output: str) -> str | None:
        """Record one call and its result. Returns a nudge naming the pattern; raises to stop."""
        key = f"{call.name} {json.dumps(call.arguments, sort_keys=True)}"
        self._steps.append((key, output, ok))
        path = call.arguments.get("path")
        self._targets.append(
            f"{call.name} {path}" if ok and call.name in REWRITES and isinstance(path, str) else ""
        )
        short = key[:160]
        failing = _tail_run(self._steps, lambda a, b: a == b and not a[2])
        if failing >= STOP_AT:
            raise Stuck(f"the same failing call was repeated {failing} times: {short}")
        if failing == STOP_AT - 1:
            return self._nudge("failing", f"the same failing call {failing} times ({short})")
        same = _tail_run(self._steps, lambda a, b: a == b)
        if same >= STOP_AT + 1:
            raise Stuck(f"the same call gave the same result {same} times: {short}")
        if same == STOP_AT:
            return self._nudge("same", f"the same call with the same result {same} times ({short})")
        errors = _tail_run(self._steps, lambda a, b: not a[2] and not b[2] and a[1] == b[1])
        if errors >= STOP_AT + 1:
            raise Stuck(f"the same error came back {errors} times: {output[:160]}")
        if errors == STOP_AT:
            return self._nudge("error", f"calls that all fail with the same error ({output[:120]})")
        period, run = _cycle([step[0] for step in self._steps])
        if period == 2 and run >= 8:
            raise Stuck(f"the model alternated between the same two calls {run} times")
        if period == 2 and run == 6:
            return self._nudge("alternate", "two calls alternating back and forth without progress")
        if period and run >= 4 * period:
            raise Stuck(f"the model repeated the same {period} calls in a cycle {run // period} times")
        if period and run == 3 * period:
            names = " -> ".join(step[0].split(" ", 1)[0] for step in self._steps[-period:])
            return self._nudge("cycle", f"the same {period} calls over and over ({names}) without progress")
        rewrites = _tail_run(self._targets, lambda a, b: bool(a) and a == b)
        if rewrites >= REWRITE_STOP:
            raise Stuck(f"the model wrote {path} {rewrites} times in a row")
        if rewrites == REWRITE_NUDGE:
            return self._nudge("rewrite", f"writing {path} again and again ({rewrites} times in a row)")
        return None

    def _nudge(self, kind: str, text: str) -> str | None:
        if kind in self._nudged:
            return None
        self._nudged.add(kind)
        return text

    @property
    def failure_repeats(self) -> int:
        return _tail_run(self._steps, lambda a, b: a == b and not a[2])


def _tail_run(steps: Sequence[T], same: Callable[[T, T], bool]) -> int:
    """How many of the last steps are 'the same' as the last one, counting back without a gap."""
    if not steps:
        return 0
    last = steps[-1]
    n = 0
    for step in reversed(steps):
        if not same(step, last):
            break
        n += 1
    return n


MAX_PERIOD = 4


def _cycle(calls: list[str]) -> tuple[int, int]:
    """The trailing cycle of calls: its period (2 to MAX_PERIOD, the shortest that fits; 0 for
    none) and how many steps it has run, whatever the results (`write append` then `read`
    shows a longer file each round and is still a loop; so does ls, read, write the same)."""
    for period in range(2, MAX_PERIOD + 1):
        if len(calls) < 2 * period or len(set(calls[-period:])) < 2:
            continue
        n = period
        while n < len(calls) and calls[-n - 1] == calls[-n - 1 + period]:
            n += 1
        if n >= 2 * period:
            return period, n
    return 0, 0
