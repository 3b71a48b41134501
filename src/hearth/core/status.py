"""How a run ended, with its exit code. Light: errors and settings import it without pydantic."""

from __future__ import annotations

from enum import StrEnum


class Status(StrEnum):
    """How a run ended; each has its one-shot exit code."""

    DONE = "done"
    ERROR = "error"
    LIMIT = "limit"
    BLOCKED = "blocked"
    WAITING = "waiting"
    INTERRUPTED = "interrupted"

    @property
    def exit_code(self) -> int:
        return _EXIT_CODES[self]


_EXIT_CODES = {
    Status.DONE: 0,
    Status.ERROR: 1,
    Status.LIMIT: 2,
    Status.BLOCKED: 3,
    Status.WAITING: 4,
    Status.INTERRUPTED: 130,
}
