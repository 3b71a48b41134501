"""When a job runs: the seeds' schedule formats and standard cron expressions, in a time zone.

    every 30m | every 2h | every 1d | every 90s   an interval, counted from the job's creation
    daily 09:00                                    each day at that time
    hourly :15                                     each hour at that minute
    startup                                        each time the scheduler starts
    */5 * * * *   (or any 5-field cron expression) through croniter

Times are in the job's time zone (an IANA name such as Europe/Berlin), so `daily 09:00` stays at
nine across daylight-saving changes. Every time returned is aware.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from croniter import croniter

from hearth.core import environment
from hearth.core.errors import HearthError

_EVERY = re.compile(r"^every\s+(\d+)\s*([smhd])$", re.IGNORECASE)
_DAILY = re.compile(r"^daily\s+(\d{1,2}):(\d{2})$", re.IGNORECASE)
_HOURLY = re.compile(r"^hourly\s+:(\d{1,2})$", re.IGNORECASE)
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
FORMATS = "every 30m, daily 09:00, hourly :15, startup, or a cron expression such as '*/15 * * * *'"


class BadSchedule(HearthError):
    pass


@dataclass(frozen=True)
class Schedule:
    text: str
    interval: timedelta | None = None
    cron: str | None = None
    startup: bool = False

    def next_after(self, after: datetime, tz: ZoneInfo, anchor: datetime) -> datetime | None:
        """The first time strictly after `after` (None for `startup`, which has no clock time).
        `anchor`: where intervals are counted from (the job's creation)."""
        if self.startup:
            return None
        if self.interval is not None:
            if after < anchor:
                return anchor + self.interval
            steps = (after - anchor) // self.interval + 1
            return anchor + steps * self.interval
        assert self.cron is not None
        start = after.astimezone(tz)
        found: datetime = croniter(self.cron, start).get_next(datetime)
        return found


def parse_schedule(text: str) -> Schedule:
    """A schedule from its text, or a BadSchedule that names the formats."""
    spec = " ".join(text.split())
    if not spec:
        raise BadSchedule("The schedule is empty.", f"Use {FORMATS}.")
    if spec.lower() == "startup":
        return Schedule(spec, startup=True)
    if m := _EVERY.match(spec):
        amount = int(m.group(1))
        if amount <= 0:
            raise BadSchedule(f"{text!r} never repeats.", "Use an interval above zero, e.g. every 30m.")
        return Schedule(spec, interval=timedelta(seconds=amount * _UNITS[m.group(2).lower()]))
    if m := _DAILY.match(spec):
        hour, minute = int(m.group(1)), int(m.group(2))
        if hour > 23 or minute > 59:
            raise BadSchedule(f"{text!r} is not a time of day.", "Use daily HH:MM from 00:00 to 23:59.")
        return Schedule(spec, cron=f"{minute} {hour} * * *")
    if m := _HOURLY.match(spec):
        minute = int(m.group(1))
        if minute > 59:
            raise BadSchedule(f"{text!r} is not a minute of the hour.", "Use hourly :MM from :00 to :59.")
        return Schedule(spec, cron=f"{minute} * * * *")
    if spec.split()[0].lower() in ("every", "daily", "hourly"):
        raise BadSchedule(f"Cannot read the schedule {text!r}.", f"Use {FORMATS}.")
    if len(spec.split()) != 5 or not croniter.is_valid(spec):
        raise BadSchedule(
            f"{text!r} is not a schedule Hearth knows.",
            f"Use {FORMATS} (cron: minute hour day-of-month month day-of-week).",
        )
    return Schedule(spec, cron=spec)


def zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise HearthError(
            f"Unknown time zone {name!r}.", "Use an IANA name such as UTC, Europe/Berlin or America/New_York."
        ) from None


def local_zone_name() -> str:
    """This machine's time zone as an IANA name (UTC when it cannot be told)."""
    env = environment.zone()
    if env:
        try:
            ZoneInfo(env)
            return env
        except (ZoneInfoNotFoundError, ValueError):
            pass
    try:
        target = str(Path("/etc/localtime").resolve())
    except OSError:
        return "UTC"
    marker = "/zoneinfo/"
    if marker in target:
        name = target.split(marker, 1)[1]
        try:
            ZoneInfo(name)
            return name
        except (ZoneInfoNotFoundError, ValueError):
            pass
    return "UTC"


_IN = re.compile(r"^(?:\+|in\s+)(\d+)\s*([smhd])$", re.IGNORECASE)
_CLOCK = re.compile(r"^(\d{1,2}):(\d{2})$")


def parse_at(text: str, now: datetime, tz: ZoneInfo) -> datetime:
    """When `hearth submit --at` means: an ISO time (in `tz` unless it says its own), `HH:MM`
    (its next occurrence), or `+30m` / `in 2h` from now."""
    spec = text.strip()
    if m := _IN.match(spec):
        return now + timedelta(seconds=int(m.group(1)) * _UNITS[m.group(2).lower()])
    if m := _CLOCK.match(spec):
        hour, minute = int(m.group(1)), int(m.group(2))
        if hour > 23 or minute > 59:
            raise HearthError(f"{text!r} is not a time of day.", "Use HH:MM from 00:00 to 23:59.")
        local = now.astimezone(tz)
        when = local.replace(hour=hour, minute=minute, second=0, microsecond=0)
        return when if when > local else when + timedelta(days=1)
    try:
        when = datetime.fromisoformat(spec)
    except ValueError:
        raise HearthError(
            f"Cannot read the time {text!r}.", "Use 2026-03-01T09:00, 09:00 (its next occurrence), or +30m."
        ) from None
    return when if when.tzinfo is not None else when.replace(tzinfo=tz)
