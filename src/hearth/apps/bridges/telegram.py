"""`hearth bridge telegram`: a Telegram bot through the Bot API's long polling (python-telegram-bot).

The Bot API's address is a setting (`telegram_api`), so tests talk to a local server. With
`--webhook URL` the bridge registers URL with Telegram instead (with a secret that each of
Telegram's requests must carry) and serves it; long polling is the default, as it needs no
public address. Messages of
one chat are worked one after another (a queue per chat, none lost while the agent works); chats
run side by side. Replies are split to Telegram's 4,096 characters. The platform's errors and
floods (HTTP errors, `retry_after`) are waited out with a growing pause; a refused token stops
the bridge with a clear error. The token is a secret: it is never logged or shown (the Bot API
puts it in every URL, so the HTTP libraries' request logs are kept below INFO and every log line
is scrubbed of it). Each update is taken once by its `update_id` (kept in the bridge store per
bot), so an update delivered again, by polling after a restart or a replayed webhook request,
runs nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import secrets
from collections.abc import Callable

from fastapi import FastAPI, Request
from fastapi.responses import Response
from telegram import Bot, Update
from telegram.constants import MessageLimit
from telegram.error import Forbidden, InvalidToken, NetworkError, RetryAfter, TelegramError

from hearth.apps.bridges.chat import ChatBridge, Incoming, PerChat
from hearth.core.errors import HearthError

LIMIT = int(MessageLimit.MAX_TEXT_LENGTH)  # 4096
POLL_SECONDS = 25
LONGEST_PAUSE = 60.0
MAX_UPDATE = 1_000_000

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
        bot_id = self.bot.token.split(":", 1)[0]  # update ids count per bot
        if not self.core.chats.first_time(f"telegram:{bot_id}", str(update.update_id)):
            self.log(f"telegram: refused update {update.update_id} delivered again")
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


def webhook_app(bridge: TelegramBridge, secret: str) -> FastAPI:
    """Telegram's webhook: Telegram POSTs each update with the secret given to setWebhook in
    `X-Telegram-Bot-Api-Secret-Token`; a request without it is refused (403) and never read."""
    app = FastAPI(title="Hearth Telegram webhook", docs_url=None, redoc_url=None, openapi_url=None)

    @app.post("/telegram")
    async def update(request: Request) -> Response:
        given = request.headers.get("X-Telegram-Bot-Api-Secret-Token", "")
        if not given or not hmac.compare_digest(given.encode(), secret.encode()):
            bridge.log("telegram: refused a webhook request without the secret token")
            return Response("Forbidden.", status_code=403)
        body = await request.body()
        if len(body) > MAX_UPDATE:
            return Response("Too large.", status_code=413)
        try:
            data = json.loads(body)
            bridge._dispatch(Update.de_json(data, bridge.bot))
        except (ValueError, TypeError, KeyError) as exc:
            bridge.log(f"telegram: an update that cannot be read: {type(exc).__name__}")
            return Response("Bad update.", status_code=400)
        return Response("", status_code=200)

    return app


async def serve_webhook(bridge: TelegramBridge, url: str, host: str, port: int, stop: asyncio.Event) -> None:
    """Register `url` with Telegram (with a fresh secret), serve it until `stop`, then remove it."""
    import uvicorn

    secret = secrets.token_urlsafe(32)
    try:
        await bridge.bot.set_webhook(url=url, secret_token=secret, allowed_updates=["message"])
    except TelegramError as exc:
        raise HearthError(
            f"Telegram did not accept the webhook {url}: {exc.message}",
            "The URL must be HTTPS and reach this machine (a tunnel or a reverse proxy).",
        ) from None
    server = uvicorn.Server(
        uvicorn.Config(
            webhook_app(bridge, secret), host=host, port=port, log_level="warning", access_log=False
        )
    )
    serving = asyncio.ensure_future(server.serve())
    try:
        await stop.wait()
    finally:
        server.should_exit = True
        await asyncio.gather(serving, return_exceptions=True)
        with contextlib.suppress(TelegramError):
            await bridge.bot.delete_webhook()
        await bridge.chats.close()
        with contextlib.suppress(TelegramError):
            await bridge.bot.shutdown()
