"""A messaging bridge run inside `hearth web`, switched from the UI: one active at a time.

Starting one stops the one before. The bridge's chats go through the web server's own hub, so
their sessions show in the session browser and the activity feed like any other. What the bridge
logs is kept (the last lines, scrubbed of its tokens) for the UI's messaging panel. Telegram and
WhatsApp run here (they poll); the SMS bridge needs Twilio to reach a webhook, which runs as
`hearth bridge sms`.
"""

from __future__ import annotations

import asyncio
import collections
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from hearth.apps.bridges.chat import ChatBridge
from hearth.apps.bridges.redact import Scrubber, guard_loggers
from hearth.core.errors import HearthError
from hearth.runtime.config import Settings
from hearth.runtime.hub import Hub
from hearth.store.bridges import ChatSessions

BridgeName = Literal["telegram", "whatsapp"]
NAMES: tuple[BridgeName, ...] = ("telegram", "whatsapp")


@dataclass
class Bridges:
    settings: Settings
    hub: Hub
    active: BridgeName | None = None
    since: datetime | None = None
    lines: collections.deque[str] = field(default_factory=lambda: collections.deque(maxlen=200))
    _stop: asyncio.Event | None = None
    _task: asyncio.Task[None] | None = None
    _chats: ChatSessions | None = None

    def __post_init__(self) -> None:
        s = self.settings
        self.scrubber = Scrubber(
            [
                s.telegram_token.get_secret_value(),
                s.whatsapp_token.get_secret_value(),
                s.api_key.get_secret_value(),
            ]
        )
        guard_loggers(self.scrubber)

    def log(self, line: str) -> None:
        self.lines.append(f"{datetime.now().strftime('%H:%M:%S')} {self.scrubber.scrub(line)}")

    def configured(self, name: BridgeName) -> bool:
        s = self.settings
        if name == "telegram":
            return bool(s.telegram_token.get_secret_value().strip() and s.telegram_allow)
        return bool(
            s.whatsapp_instance.strip() and s.whatsapp_token.get_secret_value().strip() and s.whatsapp_allow
        )

    async def start(self, name: BridgeName) -> None:
        """Stop the active bridge (if any), then start `name`; a clear error if it cannot start."""
        if not self.configured(name):
            raise HearthError(
                f"The {name} bridge is not set up.",
                f"Set its token and allow-list ({name}_allow) in your config, then restart hearth web.",
            )
        await self.stop()
        self._chats = ChatSessions(self.hub.rt.store.path)
        stop = asyncio.Event()
        if name == "telegram":
            runner = await self._telegram()
        else:
            runner = await self._whatsapp()
        self._stop = stop
        self._task = asyncio.ensure_future(self._guard(name, runner(stop)))
        self.active, self.since = name, datetime.now().astimezone()
        self.log(f"{name} bridge started")

    async def stop(self) -> None:
        if self._stop is not None and self._task is not None:
            self._stop.set()
            await asyncio.gather(self._task, return_exceptions=True)
            self.log(f"{self.active} bridge stopped")
        if self._chats is not None:
            self._chats.close()
        self.active = self.since = None
        self._stop = self._task = self._chats = None

    async def _guard(self, name: str, running: object) -> None:
        try:
            await running  # type: ignore[misc]
        except HearthError as exc:
            self.log(f"{name} bridge stopped: {exc.message}")
            self.active = None
        except Exception as exc:  # a bug: said in the panel, the web server stays up
            self.log(f"{name} bridge failed: {type(exc).__name__}: {exc}")
            self.active = None

    def _core(self, allow: list[str], limit: int) -> ChatBridge:
        assert self._chats is not None
        return ChatBridge(self.hub, self._chats, allow, limit, self.log)

    async def _telegram(self):  # type: ignore[no-untyped-def]
        from telegram import Bot

        from hearth.apps.bridges.telegram import LIMIT, TelegramBridge

        s = self.settings
        base = s.telegram_api.rstrip("/")
        bot = Bot(
            s.telegram_token.get_secret_value().strip(),
            base_url=f"{base}/bot",
            base_file_url=f"{base}/file/bot",
        )
        bridge = TelegramBridge(bot, self._core(s.telegram_allow, LIMIT), self.log)
        self.log(f"telegram: logged in as {await bridge.check()}")
        return bridge.run

    async def _whatsapp(self):  # type: ignore[no-untyped-def]
        from whatsapp_api_client_python.API import GreenAPI

        from hearth.apps.bridges.whatsapp import LIMIT, WhatsAppBridge

        s = self.settings
        api = GreenAPI(
            s.whatsapp_instance.strip(),
            s.whatsapp_token.get_secret_value().strip(),
            host=s.whatsapp_api.rstrip("/"),
            host_timeout=60,
        )
        bridge = WhatsAppBridge(api, self._core(s.whatsapp_allow, LIMIT), self.log, poll_seconds=5)
        self.log(f"whatsapp: instance {await bridge.check()}")
        return bridge.run
