"""What every messaging bridge does with a message, whatever the platform.

Only allow-listed senders are answered, matched by the platform's immutable id of the sender
(allowlist.py; never a display name or username, which anyone can set); anyone else is ignored (no reply at all, so a stranger
learns nothing) and logged. Each chat has a persistent session (kept in the store across
restarts); `/new` starts a fresh one. The session runs through the hub, so `Conversation.send`
drives it as from every interface. A call that needs approval is refused as in a headless run,
unless the user turned on asking in the chat (`<bridge>_ask_approvals`): then the bridge watches
the session as a person would in the web UI, sends the hub's question to the chat, and answers it
through the hub's one approval path (`Hub.approve`) with what the sender who started the task
replies (yes or no); anyone else's reply, or none within `bridge_approval_timeout`, refuses. The
answer comes only from an incoming platform message of that sender: nothing the model writes is
read as one. Replies are split to the platform's length limit.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from hearth.apps.bridges.allowlist import allowed_ids, sender_key
from hearth.core.errors import HearthError
from hearth.core.events import Finished, Status
from hearth.runtime.api import ApprovalRequest, Busy, Hub, PlanRequest
from hearth.store.bridges import ChatSessions

Log = Callable[[str], None]
NEW = ("/new",)
YES = frozenset({"yes", "y", "allow", "ok", "approve"})
NO = frozenset({"no", "n", "deny", "refuse", "reject"})
APPROVAL_TIMEOUT = 300.0


@dataclass(frozen=True)
class Incoming:
    platform: str
    chat: str
    sender: str  # the platform's immutable id for the sender: the only thing the allow-list matches
    names: tuple[str, ...]  # names to show in the log (@username, display name); never matched
    text: str
    reply_from: str = ""  # where a reply is sent from, when the platform needs it (our SMS number)
    handle: str = field(default="", repr=False)  # the platform's handle to answer this one message


Send = Callable[[Incoming, str], Awaitable[None]]


@dataclass
class _Question:
    """A question of the hub's, sent to a chat, waiting for the reply of the sender who asked."""

    sender: str
    answer: asyncio.Future[bool]
    reply: Incoming | None = None  # the answering message, where the bridge says what it did


class ChatBridge:
    def __init__(
        self,
        hub: Hub,
        chats: ChatSessions,
        allow: Sequence[str],
        limit: int,
        log: Log,
        *,
        platform: str,
        ask_approvals: bool = False,
        approval_timeout: float = APPROVAL_TIMEOUT,
    ) -> None:
        self.hub = hub
        self.chats = chats
        self.platform = platform
        self.allow = allowed_ids(platform, allow)  # a clear error for an entry that is not an id
        self.limit = limit
        self.log = log
        self.ask_approvals = ask_approvals
        self.approval_timeout = approval_timeout
        self.questions: dict[str, _Question] = {}  # platform:chat -> the open question there
        self._sending: set[asyncio.Future[None]] = set()

    def allowed(self, msg: Incoming) -> bool:
        return msg.platform == self.platform and sender_key(msg.platform, msg.sender) in self.allow

    def answer(self, msg: Incoming, send: Send) -> bool:
        """True when `msg` is the asked sender's reply to an open question in its chat (then it
        is taken as the answer, or a reminder goes back); any other message goes its usual way."""
        question = self.questions.get(f"{msg.platform}:{msg.chat}")
        if question is None or question.answer.done() or msg.sender != question.sender:
            return False
        if not self.allowed(msg):  # the asked sender was taken off the allow-list meanwhile
            return False
        words = msg.text.strip().lower().rstrip(".!").split()
        word = words[0] if len(words) == 1 else ""
        if word in YES or word in NO:
            question.reply = msg
            question.answer.set_result(word in YES)
            return True
        reminder = asyncio.ensure_future(send(msg, "Please answer yes or no to the question above."))
        self._sending.add(reminder)
        reminder.add_done_callback(self._sending.discard)
        return True

    async def handle(self, msg: Incoming, send: Send | None = None) -> list[str]:
        """The replies to send (none for a sender not on the allow-list). With `send`, and asking
        in the chat turned on, a question for approval goes to the chat while the task runs."""
        if not self.allowed(msg):
            self.log(
                f"{msg.platform}: ignored a message from {msg.sender} "
                f"({', '.join(msg.names) or 'no name'}): not on the allow-list"
            )
            return []
        text = msg.text.strip()
        if not text:
            return []
        if text.split()[0].lower() in NEW:
            self.chats.forget(msg.platform, msg.chat)
            self.log(f"{msg.platform}: chat {msg.chat} starts a new session")
            return ["Started a new session. What should I do?"]
        session = self.chats.get(msg.platform, msg.chat)
        try:
            if self.ask_approvals and send is not None:
                session_id, finished = await self._chat_asking(session, text, msg, send)
            else:
                session_id, finished = await self.hub.chat(session, text)
        except Busy:
            return ["I am still working on the last message in this chat; send this again when I reply."]
        except HearthError as exc:
            self.log(f"{msg.platform}: chat {msg.chat}: {exc.message}")
            return split(f"Error: {exc.message}" + (f"\n{exc.hint}" if exc.hint else ""), self.limit)
        if session != session_id:
            self.chats.set(msg.platform, msg.chat, session_id)
            self.log(f"{msg.platform}: chat {msg.chat} talks to session {session_id}")
        return split(reply_text(finished), self.limit)

    async def _chat_asking(
        self, session: str | None, text: str, msg: Incoming, send: Send
    ) -> tuple[str, Finished]:
        """Run the task watched (so the hub asks instead of refusing), each question to the chat."""
        with self.hub.watch(session) as (live, sub):
            running = asyncio.ensure_future(self.hub.chat(live.id, text))
            while True:
                getter = asyncio.ensure_future(sub.get())
                done, _ = await asyncio.wait({getter, running}, return_when=asyncio.FIRST_COMPLETED)
                if getter not in done:
                    getter.cancel()
                    return running.result()
                _, update = getter.result()
                if isinstance(update, ApprovalRequest | PlanRequest):
                    await self._ask(live.id, update, msg, send, running)

    async def _ask(
        self,
        session_id: str,
        question: ApprovalRequest | PlanRequest,
        msg: Incoming,
        send: Send,
        running: asyncio.Future[Any],
    ) -> None:
        key = f"{msg.platform}:{msg.chat}"
        answer: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self.questions[key] = question_here = _Question(msg.sender, answer)
        minutes = max(1, round(self.approval_timeout / 60))
        if isinstance(question, ApprovalRequest):
            asked = f"Hearth asks to use {question.tool}: {question.shown}"
            asked += f"\nWhy it asks: {question.reason}" if question.reason else ""
        else:
            asked = "Hearth made a plan:\n" + "\n".join(f"{i}. {s}" for i, s in enumerate(question.steps, 1))
        asked += f"\n\nReply yes to allow it, or no to refuse. No answer within {minutes} min refuses."
        self.log(f"{msg.platform}: chat {msg.chat}: asked {msg.sender} for approval")
        try:
            for piece in split(asked, self.limit):
                await send(msg, piece)
            waiting: set[asyncio.Future[Any]] = {answer, running}
            done, _ = await asyncio.wait(
                waiting, timeout=self.approval_timeout, return_when=asyncio.FIRST_COMPLETED
            )
            allowed = answer in done and answer.result()
        finally:
            if self.questions.get(key) is not None and self.questions[key].answer is answer:
                del self.questions[key]
        timed_out = not answer.done()
        answer.cancel()
        self.log(
            f"{msg.platform}: chat {msg.chat}: "
            + ("no answer in time: refused" if timed_out else "allowed" if allowed else "refused")
        )
        try:
            if isinstance(question, ApprovalRequest):
                why = "no answer in time" if timed_out else "refused in the chat"
                self.hub.approve(
                    session_id, question.id, "allow" if allowed else "deny", "" if allowed else why
                )
            else:
                self.hub.decide_plan(session_id, question.id, "approve" if allowed else "reject", [])
        except HearthError:
            return  # the task stopped meanwhile; the question went with it
        said = "No answer in time: refused." if timed_out else "Allowed." if allowed else "Refused."
        await send(question_here.reply or msg, said)


def reply_text(finished: Finished) -> str:
    text = finished.final_text.strip()
    if finished.status is Status.DONE:
        return text or "Done."
    if finished.status is Status.WAITING and finished.wake_at is not None:
        return (
            text + "\n\n" if text else ""
        ) + f"(waiting until {finished.wake_at.isoformat(timespec='minutes')})"
    why = f"({finished.status.value}: {finished.reason})" if finished.reason else f"({finished.status.value})"
    return f"{text}\n\n{why}" if text else why


_BREAKS = (re.compile(r"\n\n"), re.compile(r"\n"), re.compile(r"\s"))


def split(text: str, limit: int) -> list[str]:
    """`text` in pieces of at most `limit` characters, cut at a paragraph, line or space where
    there is one in the second half of a piece, else hard."""
    pieces: list[str] = []
    rest = text.strip()
    while len(rest) > limit:
        window = rest[:limit]
        cut = 0
        for pattern in _BREAKS:
            found = [m.start() for m in pattern.finditer(window) if m.start() >= limit // 2]
            if found:
                cut = found[-1]
                break
        if cut == 0:
            cut = limit
        pieces.append(rest[:cut].rstrip())
        rest = rest[cut:].lstrip()
    if rest:
        pieces.append(rest)
    return pieces


Deliver = Callable[[Incoming, str], Awaitable[None]]


class PerChat:
    """Messages of one chat are worked one after another, in order, none dropped while the agent
    works; different chats run side by side. Each reply goes to `deliver`."""

    def __init__(self, core: ChatBridge, deliver: Deliver, log: Log) -> None:
        self.core = core
        self.deliver = deliver
        self.log = log
        self.queues: dict[str, asyncio.Queue[Incoming]] = {}
        self.workers: dict[str, asyncio.Task[None]] = {}

    def put(self, incoming: Incoming) -> None:
        if self.core.answer(incoming, self.deliver):
            return  # the reply to a question the running task asked: not a message of its own
        key = f"{incoming.platform}:{incoming.chat}"
        queue = self.queues.setdefault(key, asyncio.Queue())
        queue.put_nowait(incoming)
        worker = self.workers.get(key)
        if worker is None or worker.done():
            self.workers[key] = asyncio.ensure_future(self._work(queue))

    async def idle(self) -> None:
        while pending := [t for t in self.workers.values() if not t.done()]:
            await asyncio.gather(*pending, return_exceptions=True)

    async def close(self) -> None:
        for task in self.workers.values():
            task.cancel()
        await asyncio.gather(*self.workers.values(), return_exceptions=True)

    async def _work(self, queue: asyncio.Queue[Incoming]) -> None:
        while not queue.empty():
            incoming = queue.get_nowait()
            try:
                replies = await self.core.handle(incoming, self.deliver)
            except Exception as exc:  # a bug: said in the log, the bridge stays up
                self.log(
                    f"{incoming.platform}: chat {incoming.chat}: internal error {type(exc).__name__}: {exc}"
                )
                replies = ["Something went wrong on my side; the error is in Hearth's log."]
            for text in replies:
                await self.deliver(incoming, text)
