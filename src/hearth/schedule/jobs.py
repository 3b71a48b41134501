"""Jobs as a person manages them: add, pause, resume, approve, remove; and when each is due.

A job a person adds (`hearth jobs add`, the web API) is approved as added. A job that comes
from a file in the workspace (`.hearth/schedules.toml`, which a cloned repository or the agent
may have written) is a control file's content: it is recorded but never runs until a person
approves it (`hearth jobs approve ID`), and any change to its schedule, prompt, time zone or
missed-run policy takes the approval away again.

Missed runs (the scheduler was not running at a job's time, or the machine slept): a run is
late when it is more than `grace` past its time. Policy `skip` drops late runs and waits for the
next time; `once` runs the job once, however many times were missed (systemd's `Persistent=`).
Either way the next run is the first time after now.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import cast

from hearth.core.errors import HearthError
from hearth.schedule.formats import parse_schedule, zone
from hearth.schedule.store import Job, Missed, Origin, ScheduleStore

Clock = Callable[[], datetime]
JOB_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
MISSED = ("skip", "once")


def system_clock() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class Fired:
    job: Job
    run_id: int
    late: bool


@dataclass(frozen=True)
class Broken:
    """A job that cannot be scheduled any more (said each look; the other jobs go on)."""

    job: Job
    why: str


@dataclass(frozen=True)
class Skipped:
    job: Job
    missed_at: datetime


class JobBook:
    def __init__(self, store: ScheduleStore, default_tz: str, clock: Clock = system_clock) -> None:
        self.store = store
        self.default_tz = default_tz
        self.clock = clock

    def add(
        self,
        job_id: str,
        schedule: str,
        prompt: str,
        *,
        tz: str | None = None,
        missed: str = "skip",
        origin: Origin = "user",
    ) -> Job:
        job_id, prompt, tzname, policy = _checked(job_id, schedule, prompt, tz or self.default_tz, missed)
        now = self.clock()
        return self.store.add_job(
            job_id,
            " ".join(schedule.split()),
            prompt,
            tzname,
            missed=policy,
            origin=origin,
            next_run=self._next(schedule, tzname, now, now),
            now=now,
        )

    def replace(self, job: Job, schedule: str, prompt: str, tz: str, missed: str) -> Job:
        _, prompt, tzname, policy = _checked(job.id, schedule, prompt, tz, missed)
        nxt = self._next(schedule, tzname, self.clock(), job.created)
        return self.store.replace_job(job.id, " ".join(schedule.split()), prompt, tzname, policy, nxt)

    def pause(self, job_id: str) -> Job:
        return self.store.set_enabled(job_id, False)

    def resume(self, job_id: str) -> Job:
        """Enabled again; its next run is the first time from now (the pause missed nothing)."""
        job = self.store.set_enabled(job_id, True)
        return self._restart(job)

    def approve(self, job_id: str) -> Job:
        return self._restart(self.store.approve(job_id))

    def toggle(self, job_id: str) -> Job:
        job = self.store.job(job_id)
        return self.pause(job_id) if job.enabled else self.resume(job_id)

    def remove(self, job_id: str) -> None:
        self.store.remove_job(job_id)

    def run_now(self, job_id: str) -> int:
        """Queue a run of the job now, outside its schedule. Refused for an unapproved job."""
        job = self.store.job(job_id)
        if not job.is_approved:
            raise HearthError(
                f"Job {job_id!r} came from {_origin_text(job)} and has not been approved.",
                f"Read it with `hearth jobs show {job_id}`, then `hearth jobs approve {job_id}`.",
            )
        now = self.clock()
        run_id = self.store.enqueue("job", job.prompt, now, now, job_id=job.id)
        assert run_id is not None
        return run_id

    def due(self, grace: timedelta) -> list[Fired | Skipped | Broken]:
        """Fire every approved, enabled job whose time has come, by its missed-run policy."""
        now = self.clock()
        out: list[Fired | Skipped | Broken] = []
        for job in self.store.jobs():
            if not (job.enabled and job.is_approved) or job.next_run is None or job.next_run > now:
                continue
            late = now - job.next_run > grace
            try:
                nxt = self._next(job.schedule, job.tz, now, job.created)
            except HearthError as exc:  # e.g. a time zone this machine no longer knows
                out.append(Broken(job, exc.message))
                continue
            if late and job.missed == "skip":
                if self.store.skip(job, nxt, now):
                    out.append(Skipped(job, job.next_run))
                continue
            run_id = self.store.fire(job, now if late else job.next_run, nxt, now)
            if run_id:
                out.append(Fired(job, run_id, late))
        return out

    def startup(self) -> list[Fired]:
        """Queue a run of each approved, enabled `startup` job (the scheduler just started)."""
        now = self.clock()
        out = []
        for job in self.store.jobs():
            if job.enabled and job.is_approved and _is_startup(job.schedule):
                run_id = self.store.enqueue("job", job.prompt, now, now, job_id=job.id)
                assert run_id is not None
                out.append(Fired(job, run_id, False))
        return out

    def _restart(self, job: Job) -> Job:
        self.store.set_next(job.id, self._next(job.schedule, job.tz, self.clock(), job.created))
        return self.store.job(job.id)

    def _next(self, schedule: str, tz: str, after: datetime, anchor: datetime) -> datetime | None:
        return parse_schedule(schedule).next_after(after, zone(tz), anchor)


def open_book(workspace: Path, tz: str = "", clock: Clock = system_clock) -> JobBook:
    """The jobs of a workspace (in its session database); `tz` blank: this machine's zone."""
    from hearth.runtime.api import check_workspace, open_store, state_dir
    from hearth.schedule.formats import local_zone_name

    check_workspace(workspace)
    open_store(workspace).close()  # the sessions tables first (made or migrated), the jobs beside them
    store = ScheduleStore(state_dir(workspace) / "sessions.db")
    name = tz or local_zone_name()
    zone(name)
    return JobBook(store, name, clock)


def _is_startup(schedule: str) -> bool:
    try:
        return parse_schedule(schedule).startup
    except HearthError:
        return False


def _checked(job_id: str, schedule: str, prompt: str, tz: str, missed: str) -> tuple[str, str, str, Missed]:
    job_id = job_id.strip()
    if not JOB_ID.match(job_id):
        raise HearthError(
            f"{job_id!r} is not a usable job name.",
            "Use 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit.",
        )
    parse_schedule(schedule)
    zone(tz)
    if not prompt.strip():
        raise HearthError(f"Job {job_id!r} has no prompt.", "Say what the job should do.")
    if missed not in MISSED:
        raise HearthError(
            f"Unknown missed-run policy {missed!r} for job {job_id!r}.",
            "Use skip (drop runs missed while Hearth was off) or once (run once to catch up).",
        )
    return job_id, prompt.strip(), tz, cast(Missed, missed)


def _origin_text(job: Job) -> str:
    return {"file": ".hearth/schedules.toml", "agent": "the agent"}.get(job.origin, "a person")
