"""What `hearth run --resume ID` with no new message says, and whether a waiting session may go on yet."""

from __future__ import annotations

from datetime import UTC, datetime

from hearth.core.errors import HearthError
from hearth.core.events import Event, Finished, Status
from hearth.prompts import render


class StillWaiting(HearthError):
    """The session asked to wait until a time that has not come yet."""


def continuation(history: list[Event], now: datetime | None = None) -> str:
    now = now or datetime.now(UTC)
    last = next((e for e in reversed(history) if isinstance(e, Finished)), None)
    if last is not None and last.status is Status.WAITING and last.wake_at is not None:
        if now < last.wake_at:
            raise StillWaiting(
                f"This session is waiting until {last.wake_at.isoformat()} ({last.reason}).",
                "Resume it after that time, or give it a new message to go on now.",
            )
        return render(
            "resume_after_wait",
            now=now.isoformat(timespec="minutes"),
            wake=last.wake_at.isoformat(timespec="minutes"),
            reason=last.reason,
        )
    return render("resume_continue")
