"""Scheduled jobs (agent_computer's `/api/cron`): list, add, run, toggle, approve, remove, reload."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from fastapi import APIRouter
from pydantic import BaseModel, Field

from hearth.apps.web.errors import Refused
from hearth.apps.web.schemas import Ok
from hearth.apps.web.state import State, WebState
from hearth.schedule.schedfile import load_file, schedules_path
from hearth.schedule.store import Job, Run

router = APIRouter(prefix="/cron", tags=["cron"])


class RunOut(BaseModel):
    id: int
    kind: str  # job, submit, inbox, wake
    status: str  # queued, running, done, failed, skipped, or how its session ended
    run_at: datetime
    started: datetime | None
    ended: datetime | None
    session: str | None
    error: str


class JobOut(BaseModel):
    id: str
    name: str  # agent_computer's field; the same as id
    schedule: str
    prompt: str
    tz: str
    missed: Literal["skip", "once"]
    enabled: bool
    approved: bool  # jobs from .hearth/schedules.toml run only once a person approved them
    origin: str
    next_run: datetime | None
    last_run: datetime | None
    last_status: str | None
    last_session: str | None


class JobDetail(JobOut):
    runs: list[RunOut]


class CronOut(BaseModel):
    scheduler: bool  # a scheduler runs in this server
    note: str  # why not, when it does not
    jobs: list[JobOut]
    queued: list[RunOut]


class JobIn(BaseModel):
    id: str = Field(min_length=1, max_length=64)
    schedule: str = Field(min_length=1, max_length=200)
    prompt: str = Field(min_length=1, max_length=20_000)
    tz: str | None = None
    missed: Literal["skip", "once"] = "skip"


class Queued(BaseModel):
    run: int


class Reloaded(BaseModel):
    added: list[str]
    changed: list[str]
    errors: list[str]


def job_out(job: Job) -> JobOut:
    return JobOut(
        id=job.id,
        name=job.id,
        schedule=job.schedule,
        prompt=job.prompt,
        tz=job.tz,
        missed=job.missed,
        enabled=job.enabled,
        approved=job.is_approved,
        origin=job.origin,
        next_run=job.next_run,
        last_run=job.last_run,
        last_status=job.last_status,
        last_session=job.last_session,
    )


def run_out(run: Run) -> RunOut:
    return RunOut(
        id=run.id,
        kind=run.kind,
        status=run.status,
        run_at=run.run_at,
        started=run.started,
        ended=run.ended,
        session=run.session,
        error=run.error,
    )


def _nudge(state: WebState) -> None:
    if state.scheduler is not None:
        state.scheduler.nudge()


@router.get("")
async def cron(state: State) -> CronOut:
    """Every job with its next and last run and the session that run produced, and the queue."""
    return CronOut(
        scheduler=state.scheduler is not None,
        note=state.scheduler_note,
        jobs=[job_out(j) for j in state.jobs.store.jobs()],
        queued=[run_out(r) for r in state.jobs.store.queued()],
    )


@router.post("")
async def add_job(body: JobIn, state: State) -> JobOut:
    """A job added by the person logged in (approved as added)."""
    return job_out(state.jobs.add(body.id, body.schedule, body.prompt, tz=body.tz, missed=body.missed))


@router.post("/reload")
async def reload(state: State) -> Reloaded:
    """Read .hearth/schedules.toml again; new or changed jobs wait for approval."""
    path = schedules_path(state.rt.workspace)
    if not path.exists():
        raise Refused(404, f"There is no {path}.", "Write jobs there, or add them with POST /api/cron.")
    loaded = load_file(state.jobs, path)
    return Reloaded(
        added=[j.id for j in loaded.added], changed=[j.id for j in loaded.changed], errors=loaded.errors
    )


@router.get("/{job_id}")
async def job(job_id: str, state: State) -> JobDetail:
    found = state.jobs.store.job(job_id)
    runs = [run_out(r) for r in state.jobs.store.runs(job_id, limit=50)]
    return JobDetail(**job_out(found).model_dump(), runs=runs)


@router.post("/{job_id}/run")
async def run_job(job_id: str, state: State) -> Queued:
    """Queue a run now, outside the schedule (refused for a job not approved)."""
    if not state.jobs.store.job(job_id).is_approved:
        raise Refused(
            403,
            f"Job {job_id!r} has not been approved.",
            f"Read it, then approve it: POST /api/cron/{job_id}/approve.",
        )
    run_id = state.jobs.run_now(job_id)
    _nudge(state)
    return Queued(run=run_id)


@router.post("/{job_id}/toggle")
async def toggle(job_id: str, state: State) -> JobOut:
    """Pause a running job, or resume a paused one (from now on: the pause missed nothing)."""
    return job_out(state.jobs.toggle(job_id))


@router.post("/{job_id}/approve")
async def approve(job_id: str, state: State) -> JobOut:
    return job_out(state.jobs.approve(job_id))


@router.delete("/{job_id}")
async def remove(job_id: str, state: State) -> Ok:
    state.jobs.remove(job_id)
    return Ok()
