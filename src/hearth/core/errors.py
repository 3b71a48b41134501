"""Typed exceptions. Stopping the loop is an exception that carries its reason."""

from __future__ import annotations

from datetime import datetime

from hearth.core.status import Status


class HearthError(Exception):
    """An error a person must act on: says what went wrong and what to do."""

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return f"{self.message}\n  → {self.hint}" if self.hint else self.message


class ConfigError(HearthError):
    pass


class NotFound(HearthError):
    """What was asked for (a session, a file) does not exist."""


class ModelError(HearthError):
    """The model server failed (after retries) or answered something unusable."""

    def __init__(self, message: str, hint: str = "", *, retryable: bool = False) -> None:
        super().__init__(message, hint)
        self.retryable = retryable


class ServerGone(ModelError):
    """The model server could not be reached, or it went away in the middle of a request (the
    connection refused, reset or closed before the reply was complete): nothing the model did."""

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message, hint, retryable=True)


class StreamBroken(ServerGone):
    """The server answered, then the reply's stream broke (and, asked again plainly, no answer
    came). llama-cpp-python does this when the prompt is past its window."""


class ContextOverflow(ModelError):
    """The server said the prompt does not fit its context window (`window`, when it said how big)."""

    def __init__(self, message: str, hint: str = "", *, window: int | None = None) -> None:
        super().__init__(message, hint)
        self.window = window


class ToolError(Exception):
    """A tool failed in a way the model can fix; the text goes back to the model."""


class StopRun(Exception):
    """Ends the agent loop with a status."""

    status: Status = Status.DONE

    def __init__(self, reason: str = "", final_text: str = "") -> None:
        super().__init__(reason)
        self.reason = reason
        self.final_text = final_text


class TaskDone(StopRun):
    status = Status.DONE


class Blocked(StopRun):
    status = Status.BLOCKED


class LimitReached(StopRun):
    status = Status.LIMIT


class Stuck(LimitReached):
    """A limit hit while the model still had time: going in circles, or out of steps. The loop
    judges from the turn's evidence (agent/verdict) whether it ended done, blocked or at the limit."""


class Waiting(StopRun):
    status = Status.WAITING

    def __init__(self, reason: str, wake_at: datetime, final_text: str = "") -> None:
        super().__init__(reason, final_text)
        self.wake_at = wake_at
