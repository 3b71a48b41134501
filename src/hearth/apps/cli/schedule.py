"""`hearth scheduler`, `hearth submit` and `hearth jobs ...`: work that runs without a person."""

from __future__ import annotations

import sys
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from hearth.apps.cli.common import WorkspaceOpt, fail, load_cli_settings
from hearth.core.text import shown_url

if TYPE_CHECKING:
    from hearth.runtime.config import Settings
    from hearth.schedule.jobs import JobBook
    from hearth.schedule.store import Job

jobs_app = typer.Typer(
    help="Scheduled jobs: list, add, show, run, pause, resume, approve, rm, export, import."
)
JobArg = Annotated[str, typer.Argument(help="The job's name")]


def _open(workspace: Path | None) -> tuple[JobBook, Path]:
    """The workspace's jobs, and the workspace."""
    from hearth.core.errors import HearthError
    from hearth.schedule.jobs import open_book

    try:
        settings = load_cli_settings(workspace=workspace).settings
        return open_book(settings.workspace, settings.schedule.timezone), settings.workspace
    except HearthError as exc:
        fail(exc)


def _when(when: datetime | None) -> str:
    return when.astimezone().strftime("%Y-%m-%d %H:%M %Z") if when else "-"


def _state(job: Job) -> str:
    if not job.is_approved:
        return "needs approval"
    return "enabled" if job.enabled else "paused"


def scheduler(
    workspace: WorkspaceOpt = None,
    poll: Annotated[float | None, typer.Option("--poll", help="Seconds between looks (default 30)")] = None,
    parallel: Annotated[int | None, typer.Option("--parallel", help="Runs worked at once")] = None,
) -> None:
    """Run only the scheduler (foreground): jobs, WAIT wake-ups, the inbox and `hearth submit`."""
    import asyncio

    from hearth.core.errors import HearthError

    try:
        loaded = load_cli_settings(workspace=workspace, scheduler_poll=poll, scheduler_parallel=parallel)
        for line in loaded.ignored_report():
            sys.stderr.write(f"warning: {line}\n")
        asyncio.run(_serve(loaded.settings))
    except HearthError as exc:
        fail(exc)
    except KeyboardInterrupt:
        raise typer.Exit(130) from None


async def _serve(settings: Settings) -> None:
    import asyncio
    import signal

    from hearth.runtime.session import open_runtime
    from hearth.schedule.scheduler import Scheduler, SchedulerOptions

    def log(line: str) -> None:
        sys.stdout.write(f"{datetime.now().strftime('%H:%M:%S')} {line}\n")
        sys.stdout.flush()

    rt = await open_runtime(settings)
    try:
        options = SchedulerOptions(
            settings.schedule.poll, settings.schedule.parallel, settings.schedule.timezone
        )
        sched = Scheduler(rt, options, log=log)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        log(
            f"scheduler for {settings.workspace} · poll {options.poll:g}s · {options.parallel} at once · "
            f"model {rt.model.name} @ {shown_url(rt.server_url)} · sandbox {rt.sandbox.runner.name}"
        )
        await sched.serve(stop)
        log("scheduler stopped")
    finally:
        await rt.aclose()


def submit(
    task: Annotated[str, typer.Argument(help="What to do, in plain language")],
    at: Annotated[
        str | None, typer.Option("--at", help="When: 2026-03-01T09:00, 09:00 (next), or +30m")
    ] = None,
    workspace: WorkspaceOpt = None,
    repo: Annotated[
        str | None,
        typer.Option("--repo", help="A git remote the worker clones and works in, instead of a folder"),
    ] = None,
    ref: Annotated[
        str, typer.Option("--ref", help="With --repo: the branch, tag or commit to check out")
    ] = "",
    push: Annotated[
        str, typer.Option("--push", help="With --repo: push the result to this branch of the remote")
    ] = "",
) -> None:
    """Queue a task for the workspace's running scheduler (`hearth scheduler` or `hearth web`), or
    for `hearth worker`s when queue_url names a distributed queue (in a folder they all see, or in
    a clone of a git remote with --repo)."""
    from hearth.core.errors import HearthError
    from hearth.schedule.formats import parse_at, zone
    from hearth.schedule.scheduler import SchedulerLock

    try:
        settings = load_cli_settings(workspace=workspace).settings
        if (ref or push) and not repo:
            raise HearthError("--ref and --push go with --repo.", "Name the git remote: --repo URL.")
        if repo and not settings.schedule.queue_url:
            raise HearthError(
                "--repo is for hearth workers on a distributed queue.",
                "Set queue_url (HEARTH_QUEUE_URL=postgresql://...), or work in a folder with --workspace.",
            )
    except HearthError as exc:
        fail(exc)
    if settings.schedule.queue_url:
        _submit_to_engine(settings, task, at, repo, ref, push)
        return
    book, ws = _open(workspace)
    try:
        if not task.strip():
            raise HearthError("The task is empty.", 'Say what to do: hearth submit "task".')
        now = book.clock()
        when = parse_at(at, now, zone(book.default_tz)) if at else now
        run_id = book.store.enqueue("submit", task.strip(), when, now)
    except HearthError as exc:
        fail(exc)
    finally:
        book.store.close()
    print(f"Queued run {run_id} for {_when(when)}.")
    if not SchedulerLock.held(ws):
        print("No scheduler is running for this workspace; start one: hearth scheduler")


@jobs_app.command("list")
def jobs_list(workspace: WorkspaceOpt = None) -> None:
    """The workspace's jobs with their next and last runs."""
    book, _ws = _open(workspace)
    jobs = book.store.jobs()
    book.store.close()
    if not jobs:
        print('No jobs. Add one: hearth jobs add NAME "daily 09:00" "what to do"')
        return
    print(f"{'job':<20} {'schedule':<16} {'state':<15} {'next':<22} {'last':<22} last session")
    for j in jobs:
        last = f"{_when(j.last_run)} {j.last_status or ''}".strip()
        print(
            f"{j.id:<20} {j.schedule:<16} {_state(j):<15} {_when(j.next_run):<22} {last:<22} "
            f"{j.last_session or '-'}"
        )


@jobs_app.command("add")
def jobs_add(
    name: JobArg,
    schedule: Annotated[str, typer.Argument(help="every 30m | daily 09:00 | hourly :15 | startup | cron")],
    prompt: Annotated[str, typer.Argument(help="What the job does")],
    tz: Annotated[str | None, typer.Option("--tz", help="Time zone (IANA name)")] = None,
    missed: Annotated[
        str, typer.Option("--missed", help="After downtime: skip missed runs, or run once")
    ] = "skip",
    workspace: WorkspaceOpt = None,
) -> None:
    """Add a job (yours: approved as added)."""
    from hearth.core.errors import HearthError

    book, _ws = _open(workspace)
    try:
        job = book.add(name, schedule, prompt, tz=tz, missed=missed)
    except HearthError as exc:
        fail(exc)
    finally:
        book.store.close()
    print(f"Added job {job.id}: {job.schedule} ({job.tz}); next run {_when(job.next_run)}.")


@jobs_app.command("show")
def jobs_show(name: JobArg, workspace: WorkspaceOpt = None) -> None:
    """A job in full, and its recent runs with their sessions."""
    from hearth.core.errors import HearthError

    book, _ws = _open(workspace)
    try:
        j = book.store.job(name)
        runs = book.store.runs(name, limit=20)
    except HearthError as exc:
        fail(exc)
    finally:
        book.store.close()
    print(f"job       {j.id}\nschedule  {j.schedule} ({j.tz}); missed runs: {j.missed}")
    print(f"state     {_state(j)} (from {j.origin})\nnext run  {_when(j.next_run)}")
    print(f"prompt    {j.prompt}")
    for r in runs:
        print(
            f"  run {r.id:<5} {_when(r.started or r.run_at):<22} {r.status:<12} {r.session or '-'} {r.error}"
        )


def _act(name: str, workspace: Path | None, action: str) -> None:
    from hearth.core.errors import HearthError

    book, _ws = _open(workspace)
    try:
        if action == "run":
            run_id = book.run_now(name)
            print(f"Queued run {run_id} of {name}; the running scheduler starts it.")
            return
        if action == "rm":
            book.remove(name)
            print(f"Removed job {name}.")
            return
        job = {"pause": book.pause, "resume": book.resume, "approve": book.approve}[action](name)
        print(f"Job {job.id}: {_state(job)}; next run {_when(job.next_run)}.")
    except HearthError as exc:
        fail(exc)
    finally:
        book.store.close()


@jobs_app.command("run")
def jobs_run(name: JobArg, workspace: WorkspaceOpt = None) -> None:
    """Queue a run of the job now, outside its schedule."""
    _act(name, workspace, "run")


@jobs_app.command("pause")
def jobs_pause(name: JobArg, workspace: WorkspaceOpt = None) -> None:
    _act(name, workspace, "pause")


@jobs_app.command("resume")
def jobs_resume(name: JobArg, workspace: WorkspaceOpt = None) -> None:
    _act(name, workspace, "resume")


@jobs_app.command("approve")
def jobs_approve(name: JobArg, workspace: WorkspaceOpt = None) -> None:
    """Let a job read from .hearth/schedules.toml run (read it first: hearth jobs show NAME)."""
    _act(name, workspace, "approve")


@jobs_app.command("rm")
def jobs_rm(name: JobArg, workspace: WorkspaceOpt = None) -> None:
    _act(name, workspace, "rm")


@jobs_app.command("export")
def jobs_export(workspace: WorkspaceOpt = None) -> None:
    """Write the jobs to .hearth/schedules.toml."""
    from hearth.schedule.schedfile import export_file, schedules_path

    book, ws = _open(workspace)
    path = schedules_path(ws)
    export_file(book.store.jobs(), path)
    book.store.close()
    print(f"Wrote {path}.")


@jobs_app.command("import")
def jobs_import(workspace: WorkspaceOpt = None) -> None:
    """Read .hearth/schedules.toml; new or changed jobs wait for your approval."""
    from hearth.core.errors import HearthError
    from hearth.schedule.schedfile import load_file, schedules_path

    book, ws = _open(workspace)
    try:
        loaded = load_file(book, schedules_path(ws))
    except HearthError as exc:
        fail(exc)
    finally:
        book.store.close()
    for job in [*loaded.added, *loaded.changed]:
        print(f"job {job.id}: {job.schedule}: {job.prompt[:80]}")
        print(f"  needs approval: hearth jobs approve {job.id}")
    print(f"{len(loaded.added)} new, {len(loaded.changed)} changed, {len(loaded.same)} unchanged.")
    for line in loaded.errors:
        sys.stderr.write(f"error: {line}\n")
    if loaded.errors:
        raise typer.Exit(1)


def _submit_to_engine(
    settings: Settings, task: str, at: str | None, repo: str | None = None, ref: str = "", push: str = ""
) -> None:
    import asyncio

    from hearth.core.errors import HearthError
    from hearth.runtime.session import check_workspace
    from hearth.schedule.distributed import submit as defer
    from hearth.schedule.remote import Remote

    try:
        if at:
            raise HearthError(
                "--at is for the embedded queue; the distributed queue starts work as soon as a worker is free.",
                "Leave out --at, or add a job: hearth jobs add.",
            )
        if repo:
            job_id = asyncio.run(defer(settings.schedule.queue_url, task, None, Remote(repo, ref, push)))
        else:
            check_workspace(settings.workspace)
            job_id = asyncio.run(defer(settings.schedule.queue_url, task, settings.workspace))
    except HearthError as exc:
        fail(exc)
    print(f"Queued job {job_id} in the distributed queue; a `hearth worker` takes it.")


def worker(
    workspace: WorkspaceOpt = None,
    concurrency: Annotated[int, typer.Option("--concurrency", help="Jobs worked at once")] = 2,
) -> None:
    """Work jobs from the distributed queue (queue_url) until stopped; run one on each machine."""
    import asyncio
    import signal

    from hearth.core.errors import HearthError
    from hearth.schedule.distributed import serve_worker

    def log(line: str) -> None:
        sys.stdout.write(f"{datetime.now().strftime('%H:%M:%S')} {line}\n")
        sys.stdout.flush()

    async def main(settings: Settings) -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        log(f"worker on {settings.schedule.queue_url.split('@')[-1]} · {concurrency} at once")
        await serve_worker(settings, concurrency, log, stop)
        log("worker stopped")

    try:
        settings = load_cli_settings(workspace=workspace).settings
        if not settings.schedule.queue_url:
            raise HearthError(
                "hearth worker needs a distributed queue.",
                "Set queue_url (HEARTH_QUEUE_URL=postgresql://...); without one, run hearth scheduler.",
            )
        asyncio.run(main(settings))
    except HearthError as exc:
        fail(exc)
