"""Notice a streamed reply that has started repeating itself, so it can be cut.

A small model sometimes falls into a loop and would generate until the token cap
or the client's timeout. A reply whose last stretch is one
piece of text over and over (a line, a sentence, a few characters) is cut after
that piece has come round enough times; nothing of it is lost that the model
had not already said.

Whole lines repeated are judged more leniently: a file can hold dozens of identical
lines (a table's filler rows, a test's fixtures) that a model legitimately writes in
a tool call's arguments, while a runaway goes on for thousands of rounds. A piece
holding a line break (raw, or escaped as in JSON arguments) counts only after
LINE_REPEATS rounds covering LINE_SPAN characters.
"""

from __future__ import annotations

MIN_SPAN = 800  # characters the repetition must cover before it counts
MIN_REPEATS = 6  # and at least this many rounds of the repeated piece
MAX_PERIOD = 400  # longest repeated piece looked for
CHECK_EVERY = 64  # characters between checks
LINE_SPAN = 6000  # for whole repeated lines: characters the repetition must cover
LINE_REPEATS = 150  # and rounds of the repeated lines
KEEP = LINE_REPEATS * MAX_PERIOD  # characters of the stream kept for the check


class RepeatWatch:
    def __init__(self) -> None:
        self._text = ""
        self._unchecked = 0
        self._total = 0
        self.cut_at: int | None = None  # where the text stops being new, once repetition is found

    def feed(self, piece: str) -> bool:
        """Add streamed text; True once the stream is repeating itself."""
        if self.cut_at is not None:
            return True
        self._total += len(piece)
        self._text = (self._text + piece)[-KEEP:]
        self._unchecked += len(piece)
        if self._unchecked < CHECK_EVERY or len(self._text) < MIN_SPAN:
            return False
        self._unchecked = 0
        span = _repeating_span(self._text)
        if span is None:
            return False
        period, length = span
        self.cut_at = self._total - length + 2 * period  # keep two rounds, drop the rest
        return True


def _repeating_span(text: str) -> tuple[int, int] | None:
    """(period, length) of a repetition covering the end of `text`, if there is one long enough."""
    for period in range(1, MAX_PERIOD + 1):
        if 2 * period > len(text):
            return None
        if text[-period:] != text[-2 * period : -period]:
            continue  # not even two rounds: the cheap test first
        piece = text[-period:] * 2  # twice: the escaped break may be split across the round's ends
        lines = "\n" in piece or "\\n" in piece
        length = max(LINE_SPAN, LINE_REPEATS * period) if lines else max(MIN_SPAN, MIN_REPEATS * period)
        if length > len(text):
            continue
        tail = text[-length:]
        if tail[period:] == tail[:-period]:
            return period, length
    return None
