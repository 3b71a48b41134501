"""What every messaging bridge does with a message, whatever the platform.

Only allow-listed senders are answered; anyone else is ignored (no reply at all, so a stranger
learns nothing) and logged. Each chat has a persistent session (kept in the store across
restarts); `/new` starts a fresh one. The session runs through the hub, so `Conversation.send`
drives it as from every interface; with no one watching it in the web UI, a call that needs
approval is refused as in a headless run. Replies are split to the platform's length limit.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from hearth.core.errors import HearthError
from hearth.core.events import Finished, Status
from hearth.runtime.hub import Busy, Hub
from hearth.store.bridges import ChatSessions

Log = Callable[[str], None]
NEW = ("/new",)


@dataclass(frozen=True)
class Incoming:
    platform: str
    chat: str
    sender: str  # the platform's stable id for the sender
    names: tuple[str, ...]  # other names the allow-list may use (@username)
    text: str
    reply_from: str = ""  # where a reply is sent from, when the platform needs it (our SMS number)


class ChatBridge:
    def __init__(self, hub: Hub, chats: ChatSessions, allow: Sequence[str], limit: int, log: Log) -> None:
        self.hub = hub
        self.chats = chats
        self.allow = {a.strip().lower() for a in allow if a.strip()}
        self.limit = limit
        self.log = log

    def allowed(self, msg: Incoming) -> bool:
        return any(name.lower() in self.allow for name in (msg.sender, *msg.names) if name)

    async def handle(self, msg: Incoming) -> list[str]:
        """The replies to send (none for a sender not on the allow-list)."""
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
                replies = await self.core.handle(incoming)
            except Exception as exc:  # a bug: said in the log, the bridge stays up
                self.log(
                    f"{incoming.platform}: chat {incoming.chat}: internal error {type(exc).__name__}: {exc}"
                )
                replies = ["Something went wrong on my side; the error is in Hearth's log."]
            for text in replies:
                await self.deliver(incoming, text)
