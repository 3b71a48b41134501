"""One queued run, worked as a headless session through `Conversation.send`.

No one is there to ask: a call that needs approval is refused (as in `hearth run` without a
terminal), and a plan is made but not carried out. A run that has a session already (a waiting
session's wake-up, or a run the scheduler was stopped in) resumes that session where it left off.
"""

from __future__ import annotations

from collections.abc import Callable

from hearth.core.events import Event, Finished
from hearth.runtime.api import Runtime, check_workspace, open_conversation
from hearth.schedule.store import Run, ScheduleStore


async def work_run(
    rt: Runtime,
    store: ScheduleStore,
    run: Run,
    on_event: Callable[[str, Event], None] | None = None,
) -> Finished:
    """Work `run` to its end and return how its session finished. Raises HearthError when it
    cannot start (the workspace is gone, the session is still waiting, the store refuses)."""
    check_workspace(rt.workspace)
    conversation = open_conversation(
        rt, resume=run.session, on_event=on_event, approver=None, plan_approver=None
    )
    if run.session is None:
        store.set_session(run.id, conversation.id)
    if run.session is not None:
        return await conversation.send(None)  # a session still waiting raises StillWaiting
    return await conversation.send(run.task)
