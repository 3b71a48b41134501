"""`get_time`: the current date and time, with the machine's time zone."""

from __future__ import annotations

from datetime import datetime

from hearth.tools.base import RunContext, Tool, ToolInput


class GetTimeInput(ToolInput):
    """The current date, time and time zone."""


def get_time(args: GetTimeInput, ctx: RunContext) -> str:
    now = datetime.now().astimezone()
    zone = now.tzname() or "local"
    return f"{now:%A %Y-%m-%d %H:%M:%S} {zone} (UTC{now:%z}); ISO {now.isoformat(timespec='seconds')}"


def clock_tools() -> list[Tool]:
    return [Tool("get_time", GetTimeInput, get_time, read_only=True)]
