"""`hearth web` runs the workspace's scheduler beside the UI (unless `web_scheduler` is off, or
another process, such as `hearth scheduler`, holds the workspace's scheduler already)."""

from __future__ import annotations

import asyncio
import logging

from hearth.apps.web.state import WebState
from hearth.schedule.jobs import open_book
from hearth.schedule.scheduler import AlreadyRunning, Scheduler, SchedulerOptions

log = logging.getLogger("hearth.scheduler")


async def start_scheduler(state: WebState) -> tuple[asyncio.Event, asyncio.Task[None]] | None:
    settings = state.settings
    state.jobs_ = open_book(state.rt.workspace, settings.schedule.timezone)
    if not settings.web.scheduler:
        state.scheduler_note = "turned off (web_scheduler = false)"
        return None
    options = SchedulerOptions(settings.schedule.poll, settings.schedule.parallel, settings.schedule.timezone)
    hub = state.hub
    scheduler = Scheduler(state.rt, options, log=log.info, on_event=hub.publish, busy=hub.is_running)
    try:
        await scheduler.start()
    except AlreadyRunning as exc:
        scheduler.store.close()
        state.scheduler_note = exc.message
        return None
    state.scheduler = scheduler
    stop = asyncio.Event()
    task = asyncio.ensure_future(scheduler.loop(stop))
    return stop, task


async def stop_scheduler(
    state: WebState, background: tuple[asyncio.Event, asyncio.Task[None]] | None
) -> None:
    if background is not None:
        stop, task = background
        stop.set()
        await asyncio.gather(task, return_exceptions=True)
    if state.scheduler is not None:
        await state.scheduler.close()
    if state.jobs_ is not None:
        state.jobs.store.close()
