"""`hearth bridge telegram`: a Telegram bot through the Bot API's long polling (python-telegram-bot).

The Bot API's address is a setting (`telegram_api`), so tests talk to a local server. Messages of
one chat are worked one after another (a queue per chat, none lost while the agent works); chats
run side by side. Replies are split to Telegram's 4,096 characters. The platform's errors and
floods (HTTP errors, `retry_after`) are waited out with a growing pause; a refused token stops
the bridge with a clear error. The token is a secret: it is never logged or shown (the Bot API
puts it in every URL, so the HTTP libraries' request logs are kept below INFO and every log line
is scrubbed of it).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

from telegram import Bot, Update
from telegram.constants import MessageLimit
from telegram.error import Forbidden, InvalidToken, NetworkError, RetryAfter, TelegramError

from hearth.apps.bridges.chat import ChatBridge, Incoming, PerChat
from hearth.core.errors import HearthError

LIMIT = int(MessageLimit.MAX_TEXT_LENGTH)  # 4096
POLL_SECONDS = 25
LONGEST_PAUSE = 60.0

Log = Callable[[str], None]


class TelegramBridge:
    def __init__(self, bot: Bot, core: ChatBridge, log: Log, *, poll_seconds: int = POLL_SECONDS) -> None:
        self.bot = bot
        self.core = core
        self.log = log
        self.poll_seconds = poll_seconds
        self.chats = PerChat(core, self._deliver, log)

    async def check(self) -> str:
        """The bot's @name; a clear error when the token is refused or the API cannot be reached."""
        try:
            await self.bot.initialize()
            me = await self.bot.get_me()
        except (InvalidToken, Forbidden):
            raise HearthError(
                "Telegram refused the bot token.",
                "Set telegram_token (HEARTH_TELEGRAM_TOKEN) to the token @BotFather gave you.",
            ) from None
        except TelegramError as exc:
            raise HearthError(
                f"Cannot reach the Telegram Bot API: {type(exc).__name__}: {exc.message}",
                "Check the network, or telegram_api if you set it.",
            ) from None
        return f"@{me.username}"

    async def run(self, stop: asyncio.Event) -> None:
        offset: int | None = None
        pause = 1.0
        try:
            while not stop.is_set():
                try:
                    updates = await self._poll(offset, stop)
                except RetryAfter as exc:
                    wait = _seconds(exc.retry_after)
                    self.log(f"telegram: asked to slow down; waiting {wait:g}s")
                    await _sleep(stop, wait)
                    continue
                except (InvalidToken, Forbidden):
                    raise HearthError(
                        "Telegram refused the bot token while running.",
                        "Check telegram_token; the bridge stopped.",
                    ) from None
                except TelegramError as exc:  # NetworkError, BadRequest, server errors
                    self.log(f"telegram: {type(exc).__name__}: {exc.message}; trying again in {pause:g}s")
                    await _sleep(stop, pause)
                    pause = min(LONGEST_PAUSE, pause * 2)
                    continue
                pause = 1.0
                for update in updates or ():
                    offset = update.update_id + 1
                    self._dispatch(update)
        finally:
            await self.chats.close()
            with contextlib.suppress(TelegramError):
                await self.bot.shutdown()

    async def _poll(self, offset: int | None, stop: asyncio.Event) -> tuple[Update, ...] | None:
        """The next updates, or None when `stop` came first."""
        poll = asyncio.ensure_future(
            self.bot.get_updates(offset=offset, timeout=self.poll_seconds, allowed_updates=["message"])
        )
        stopped = asyncio.ensure_future(stop.wait())
        done, _ = await asyncio.wait({poll, stopped}, return_when=asyncio.FIRST_COMPLETED)
        if poll not in done:
            poll.cancel()
            with contextlib.suppress(asyncio.CancelledError, TelegramError):
                await poll
            return None
        stopped.cancel()
        return poll.result()

    def _dispatch(self, update: Update) -> None:
        msg = update.message
        if msg is None or msg.text is None or msg.from_user is None:
            return
        user = msg.from_user
        names = (f"@{user.username}",) if user.username else ()
        self.chats.put(Incoming("telegram", str(msg.chat_id), str(user.id), names, msg.text))

    async def _deliver(self, incoming: Incoming, text: str) -> None:
        await self._send(incoming.chat, text)

    async def _send(self, chat: str, text: str) -> None:
        for attempt in range(5):
            try:
                await self.bot.send_message(chat_id=int(chat), text=text)
                return
            except RetryAfter as exc:
                await asyncio.sleep(_seconds(exc.retry_after))
            except NetworkError as exc:
                self.log(f"telegram: sending to chat {chat} failed ({exc.message}); attempt {attempt + 1}")
                await asyncio.sleep(min(LONGEST_PAUSE, 2.0**attempt))
            except TelegramError as exc:
                self.log(f"telegram: cannot send to chat {chat}: {exc.message}")
                return
        self.log(f"telegram: gave up sending a reply to chat {chat}")


def _seconds(value: object) -> float:
    total = getattr(value, "total_seconds", None)
    return float(total()) if callable(total) else float(value)  # type: ignore[arg-type]


async def _sleep(stop: asyncio.Event, seconds: float) -> None:
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), seconds)
