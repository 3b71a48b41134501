"""Many live sessions in one process, for the web UI, its API and (later) chat bridges.

Each session runs one task at a time; a second message while it works is refused with
`Busy`. Everything a session does (its events, its streamed deltas, the questions it asks
a person) is published to its subscribers as it happens; the events also go to the
activity feed across sessions. A session asks for approval only when someone is
subscribed to it; with no one there, the call is refused, and a plan is made but not carried
out, as in a headless run. Sessions are driven through `Conversation`, the one entry every
interface uses.
"""

from __future__ import annotations

import asyncio
import re
import secrets
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Literal

from hearth.agent.policy import Approval, PermissionMode
from hearth.agent.rules import Rule
from hearth.core.errors import HearthError
from hearth.core.events import Event, Finished, SessionStarted, Status
from hearth.history.wire import Answered, ApprovalRequest, PlanRequest, Update
from hearth.runtime.conversation import Conversation, Decision, open_conversation
from hearth.runtime.reflection import reflect
from hearth.runtime.roles import Role
from hearth.runtime.session import Runtime
from hearth.tools.base import Tool

SESSION_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
QUEUE_LIMIT = 20_000  # updates a subscriber may fall behind before it is cut off
REFLECTION_WAIT = 60.0  # seconds the server waits, when it stops, for reflections still running


class Busy(HearthError):
    """The session is working on a task already."""


class Subscription:
    """Updates for one viewer, in order. `overflowed` is set if the viewer fell too far behind."""

    def __init__(self, *, answers: bool = True, limit: int = QUEUE_LIMIT) -> None:
        self.answers = answers  # a person behind it can answer questions
        self.queue: asyncio.Queue[tuple[str, Update]] = asyncio.Queue(limit)
        self.overflowed = False

    def put(self, session_id: str, update: Update) -> None:
        if self.overflowed:
            return
        try:
            self.queue.put_nowait((session_id, update))
        except asyncio.QueueFull:
            self.overflowed = True

    async def get(self) -> tuple[str, Update]:
        return await self.queue.get()

    async def until_done(self, live: LiveSession) -> AsyncIterator[tuple[str, Update]]:
        """The updates of the session's current task, ending once it has finished."""
        task = live.task
        while task is not None:
            getter = asyncio.ensure_future(self.queue.get())
            done, _ = await asyncio.wait({getter, task}, return_when=asyncio.FIRST_COMPLETED)
            if getter in done:
                yield getter.result()
                continue
            getter.cancel()
            while not self.queue.empty():
                yield self.queue.get_nowait()
            return


@dataclass
class LiveSession:
    id: str
    conversation: Conversation
    task: asyncio.Task[Finished] | None = None
    subscribers: set[Subscription] = field(default_factory=set)
    questions: dict[str, tuple[ApprovalRequest | PlanRequest, asyncio.Future[Any]]] = field(
        default_factory=dict
    )

    @property
    def running(self) -> bool:
        return self.task is not None and not self.task.done()

    @property
    def mode(self) -> str:
        return self.conversation.mode.value

    def open_questions(self) -> list[ApprovalRequest | PlanRequest]:
        return [q for q, _ in self.questions.values()]


class Hub:
    def __init__(self, rt: Runtime) -> None:
        self.rt = rt
        self.sessions: dict[str, LiveSession] = {}
        self.activity: set[Subscription] = set()
        self.parents: dict[str, str] = {}  # a running sub-agent's session -> the one that delegated it
        self.reflecting: set[asyncio.Task[object]] = set()  # reflections on sessions that ended here
        self.ending: dict[str, LiveSession] = {}  # sessions being reflected on, taken up again if asked for

    # -- sessions -----------------------------------------------------------------

    def session(self, session_id: str | None = None) -> LiveSession:
        """The live session with this id: already running here, resumed from the store, or new."""
        if session_id is not None and session_id in self.sessions:
            return self.sessions[session_id]
        if session_id is not None and session_id in self.ending:
            # Still being reflected on: the same conversation goes on, so its events stay in order.
            live = self.sessions[session_id] = self.ending.pop(session_id)
            return live
        if session_id is not None and not SESSION_ID.match(session_id):
            raise HearthError(
                f"{session_id!r} is not a usable session id.",
                "Use 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit.",
            )
        live = LiveSession(id="", conversation=None)  # type: ignore[arg-type]
        resume = session_id if session_id is not None and self.rt.store.exists(session_id) else None
        live.conversation = open_conversation(
            self.rt,
            resume=resume,
            new_id=None if resume else session_id,
            on_event=self._on_event,
            on_delta=lambda delta: self._publish(live, delta),
            approver=lambda tool, args, reason: self._approve(live, tool, args, reason),
            plan_approver=lambda steps: self._decide_plan(live, steps),
        )
        live.id = live.conversation.id
        self.sessions[live.id] = live
        return live

    def delete(self, session_id: str) -> None:
        live = self.sessions.get(session_id)
        if live and live.running:
            raise Busy(f"Session {session_id} is running a task.", "Stop it first, then delete it.")
        self.sessions.pop(session_id, None)
        self.rt.store.get(session_id)  # raises a clear error when there is no such session
        self.rt.store.delete(session_id)

    def set_mode(self, session_id: str, mode: str) -> None:
        """Recorded as an event, which goes to the viewers; a resumed session keeps it."""
        try:
            chosen = PermissionMode(mode)
        except ValueError:
            raise HearthError(f"Unknown mode {mode!r}.", "Use auto, normal, manual or plan.") from None
        live = self.session(session_id)
        live.conversation.set_mode(chosen)
        self._release(live)

    def set_model(self, session_id: str, role: str, model: str) -> Role:
        """The session's `role` uses `model` from its next request on; recorded as an event."""
        live = self.session(session_id)
        try:
            live.conversation.set_model(role, model)
            return self.rt.role(role.strip() or "main", live.conversation.models)
        finally:
            self._release(live)

    def roles(self, session_id: str) -> list[Role]:
        """Every role as the session uses it now (its own choices of model included)."""
        live = self.session(session_id)
        try:
            return self.rt.roles_table(live.conversation.models)
        finally:
            self._release(live)

    # -- running ------------------------------------------------------------------

    def start(
        self,
        session_id: str | None,
        text: str,
        *,
        plan: bool = False,
        deep: bool = False,
        budget: int | None = None,
        earlier: str = "",
    ) -> LiveSession:
        """Start a task in the background (see Conversation.send); its progress goes to the subscribers."""
        if not text.strip():
            raise HearthError("The message is empty.", "Say what you want done.")
        live = self.session(session_id)
        if live.running:
            raise Busy(
                f"Session {live.id} is busy with a task.",
                "Wait for it to finish, stop it, or use another session.",
            )
        live.conversation.reload()  # another process (the scheduler, a bridge) may have added to it
        coro = live.conversation.send(text, plan=plan, deep=deep, budget=budget, earlier=earlier)
        live.task = asyncio.ensure_future(coro)
        live.task.add_done_callback(lambda _: self._release(live))
        return live

    async def chat(
        self,
        session_id: str | None,
        text: str,
        *,
        plan: bool = False,
        deep: bool = False,
        budget: int | None = None,
        earlier: str = "",
    ) -> tuple[str, Finished]:
        """Run a task to its end; the session id and how it ended."""
        live = self.start(session_id, text, plan=plan, deep=deep, budget=budget, earlier=earlier)
        assert live.task is not None
        try:
            return live.id, await asyncio.shield(live.task)
        except asyncio.CancelledError:
            if live.task.cancelled():
                return live.id, _last_finished(live)
            raise

    def stop(self, session_id: str) -> bool:
        """Interrupt the running step. The agent records the interruption; the session stays usable."""
        live = self.sessions.get(session_id)
        if live is None or not live.running:
            return False
        assert live.task is not None
        live.task.cancel()
        return True

    def approve(
        self,
        session_id: str,
        question_id: str,
        decision: Literal["allow", "session", "deny"],
        message: str = "",
    ) -> None:
        """A person's answer to an approval request: allow once, allow for this session, or deny."""
        question, future = self._question(session_id, question_id, ApprovalRequest)
        assert isinstance(question, ApprovalRequest)
        if decision == "allow":
            answer = Approval(allowed=True)
        elif decision == "session":
            answer = Approval(allowed=True, remember=Rule.exact(question.tool, question.arguments))
        else:
            answer = Approval(allowed=False, message=message.strip())
        if not future.done():
            future.set_result(answer)

    def decide_plan(
        self, session_id: str, question_id: str, decision: Literal["approve", "reject"], steps: list[str]
    ) -> None:
        question, future = self._question(session_id, question_id, PlanRequest)
        assert isinstance(question, PlanRequest)
        chosen = [s.strip() for s in steps if s.strip()] or list(question.steps)
        if not future.done():
            future.set_result((decision, chosen))

    def _question(
        self, session_id: str, question_id: str, kind: type
    ) -> tuple[ApprovalRequest | PlanRequest, asyncio.Future[Any]]:
        live = self.sessions.get(session_id)
        entry = live.questions.get(question_id) if live else None
        if entry is None or not isinstance(entry[0], kind):
            raise HearthError(
                f"No open question {question_id!r} in session {session_id}.",
                "It was answered already, or the task stopped.",
            )
        return entry

    async def aclose(self) -> None:
        tasks = [live.task for live in self.sessions.values() if live.task and not live.task.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for live in list(self.sessions.values()):  # still watched when the server stops: they end now
            self._reflect(live)
        if self.reflecting:
            await asyncio.wait(self.reflecting, timeout=REFLECTION_WAIT)

    # -- viewers ------------------------------------------------------------------

    @contextmanager
    def watch(
        self, session_id: str | None, *, answers: bool = True
    ) -> Iterator[tuple[LiveSession, Subscription]]:
        live = self.session(session_id)
        sub = Subscription(answers=answers)
        live.subscribers.add(sub)
        try:
            yield live, sub
        finally:
            live.subscribers.discard(sub)
            self._release(live)

    @contextmanager
    def watch_all(self) -> Iterator[Subscription]:
        sub = Subscription()
        self.activity.add(sub)
        try:
            yield sub
        finally:
            self.activity.discard(sub)

    def _release(self, live: LiveSession) -> None:
        """A session no one watches and nothing runs is dropped from memory; the store keeps it,
        and it is resumed from there when asked for again."""
        if not live.running and not live.subscribers and self.sessions.get(live.id) is live:
            del self.sessions[live.id]
            self._reflect(live)

    def _reflect(self, live: LiveSession) -> None:
        """A session ends here when no one watches it and nothing runs (or the server stops):
        reflection on its work, in the background (it records its own event, or nothing)."""
        task: asyncio.Task[object] = asyncio.ensure_future(reflect(self.rt, live.conversation))
        self.reflecting.add(task)
        self.ending[live.id] = live

        def ended(_: object) -> None:
            self.reflecting.discard(task)
            if self.ending.get(live.id) is live:
                del self.ending[live.id]

        task.add_done_callback(ended)

    def publish(self, session_id: str, event: Event) -> None:
        """An event of a session worked outside the hub (by the scheduler), for its viewers."""
        self._on_event(session_id, event)

    def is_running(self, session_id: str) -> bool:
        live = self.sessions.get(session_id)
        return live is not None and live.running

    def _on_event(self, session_id: str, event: Event) -> None:
        """An event to the session's viewers; a sub-agent's goes to the viewers of the session it
        works for (marked with its own session id), live while it runs."""
        if isinstance(event, SessionStarted) and event.parent:
            self.parents[session_id] = event.parent
        live = self.sessions.get(session_id) or self._working_for(session_id)
        if live is not None:
            self._publish(live, event, session_id)
        for sub in list(self.activity):
            sub.put(session_id, event)
        if isinstance(event, Finished):
            self.parents.pop(session_id, None)

    def _working_for(self, session_id: str) -> LiveSession | None:
        """The live session a sub-agent (or its sub-agent, ...) works for."""
        seen: set[str] = set()
        while session_id in self.parents and session_id not in seen:
            seen.add(session_id)
            session_id = self.parents[session_id]
            if session_id in self.sessions:
                return self.sessions[session_id]
        return None

    def _publish(self, live: LiveSession, update: Update, session_id: str | None = None) -> None:
        for sub in list(live.subscribers):
            sub.put(session_id or live.id, update)

    # -- questions to a person ----------------------------------------------------

    async def _ask(self, live: LiveSession, question: ApprovalRequest | PlanRequest) -> Any:
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        live.questions[question.id] = (question, future)
        self._publish(live, question)
        try:
            return await future
        finally:
            live.questions.pop(question.id, None)
            self._publish(live, Answered(question.id))

    async def _approve(
        self, live: LiveSession, tool: Tool, arguments: dict[str, Any], reason: str
    ) -> Approval:
        if not any(sub.answers for sub in live.subscribers):
            return Approval(allowed=False, by="headless")  # refused as in any headless run
        shown = str(arguments.get("command") or arguments)
        request = ApprovalRequest(_question_id(), tool.name, arguments, shown[:4000], reason)
        answer: Approval = await self._ask(live, request)
        return answer

    async def _decide_plan(self, live: LiveSession, steps: list[str]) -> Decision | None:
        if not any(sub.answers for sub in live.subscribers):
            return None  # no one to approve it: as in a headless run, the plan is the result
        decision: Decision = await self._ask(live, PlanRequest(_question_id(), tuple(steps)))
        return decision


def _question_id() -> str:
    return "q_" + secrets.token_hex(6)


def _last_finished(live: LiveSession) -> Finished:
    for event in reversed(live.conversation.events):
        if isinstance(event, Finished):
            return event
    return Finished(status=Status.INTERRUPTED, reason="interrupted")
