"""A messaging bridge run inside `hearth web`, switched from the UI: one active at a time.

Starting one stops the one before. The bridge's chats go through the web server's own hub, so
their sessions show in the session browser and the activity feed like any other. What the bridge
logs is kept (the last lines, scrubbed of its tokens) for the UI's messaging panel. Telegram and
WhatsApp poll their platform; SMS (Twilio) and Discord are called by theirs: while one of them is
the active bridge, the web server itself answers its webhook (`/hooks/sms`, `/hooks/discord`),
each request checked by the platform's signature instead of the web login, so a user running
`hearth web` points Twilio or Discord at it (through a tunnel or a reverse proxy). While the
bridge is not active, its webhook answers 404.
"""

from __future__ import annotations

import asyncio
import collections
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal, Protocol

from fastapi import Request
from fastapi.responses import Response

from hearth.apps.bridges.chat import ChatBridge, PerChat
from hearth.apps.bridges.redact import Scrubber, guard_loggers
from hearth.core.errors import HearthError
from hearth.runtime.config import Settings
from hearth.runtime.hub import Hub
from hearth.store.bridges import ChatSessions

BridgeName = Literal["telegram", "whatsapp", "sms", "discord"]
NAMES: tuple[BridgeName, ...] = ("telegram", "whatsapp", "sms", "discord")
WEBHOOKS = ("sms", "discord")  # called by their platform, at /hooks/<name>


class Webhook(Protocol):
    chats: PerChat

    async def handle(self, request: Request) -> Response: ...


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
    webhook: Webhook | None = None  # the active bridge's, when its platform calls it

    def __post_init__(self) -> None:
        s = self.settings
        self.scrubber = Scrubber(
            [
                s.bridges.telegram.token.get_secret_value(),
                s.bridges.whatsapp.token.get_secret_value(),
                s.bridges.sms.auth_token.get_secret_value(),
                s.bridges.discord.token.get_secret_value(),
                s.model.api_key.get_secret_value(),
            ]
        )
        guard_loggers(self.scrubber)

    def log(self, line: str) -> None:
        self.lines.append(f"{datetime.now().strftime('%H:%M:%S')} {self.scrubber.scrub(line)}")

    def configured(self, name: BridgeName) -> bool:
        s = self.settings
        if name == "telegram":
            return bool(s.bridges.telegram.token.get_secret_value().strip() and s.bridges.telegram.allow)
        if name == "sms":
            return bool(
                s.bridges.sms.auth_token.get_secret_value().strip()
                and s.bridges.sms.account_sid.strip()
                and s.bridges.sms.public_url.strip()
                and s.bridges.sms.allow
            )
        if name == "discord":
            return bool(
                s.bridges.discord.token.get_secret_value().strip()
                and s.bridges.discord.application_id.strip()
                and s.bridges.discord.public_key.strip()
                and s.bridges.discord.allow
            )
        return bool(
            s.bridges.whatsapp.instance.strip()
            and s.bridges.whatsapp.token.get_secret_value().strip()
            and s.bridges.whatsapp.allow
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
        try:
            if name == "telegram":
                runner = await self._telegram()
            elif name == "whatsapp":
                runner = await self._whatsapp()
            elif name == "sms":
                runner = self._serve(self._sms())
            else:
                runner = self._serve(await self._discord())
        except BaseException:
            self._chats.close()
            self._chats = None
            raise
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
        self.webhook = None

    def answering(self, name: str) -> Webhook | None:
        """The webhook of `name` while it is the active bridge."""
        return self.webhook if self.active == name else None

    async def _guard(self, name: str, running: object) -> None:
        try:
            await running  # type: ignore[misc]
        except HearthError as exc:
            self.log(f"{name} bridge stopped: {exc.message}")
            self.active = None
        except Exception as exc:  # a bug: said in the panel, the web server stays up
            self.log(f"{name} bridge failed: {type(exc).__name__}: {exc}")
            self.active = None

    def _core(self, name: BridgeName, limit: int) -> ChatBridge:
        assert self._chats is not None
        s = self.settings
        return ChatBridge(
            self.hub,
            self._chats,
            s.get(f"{name}_allow"),
            limit,
            self.log,
            platform=name,
            ask_approvals=bool(s.get(f"{name}_ask_approvals")),
            approval_timeout=s.bridges.approval_timeout,
        )

    def _serve(self, webhook: Webhook):  # type: ignore[no-untyped-def]
        """A bridge its platform calls: its webhook answers until the bridge is stopped."""
        self.webhook = webhook

        async def run(stop: asyncio.Event) -> None:
            try:
                await stop.wait()
            finally:
                await webhook.chats.close()
                closing = getattr(webhook, "aclose", None)
                if closing is not None:
                    await closing()

        return run

    def _sms(self) -> Webhook:
        from hearth.apps.bridges.sms import SMS_LIMIT, SmsWebhook, TwilioSender

        s = self.settings
        token = s.bridges.sms.auth_token.get_secret_value()
        sender = TwilioSender(s.bridges.sms.account_sid, token, s.bridges.sms.api, self.log)
        self.log(f"sms: answering Twilio at /hooks/sms (signed for {s.bridges.sms.public_url})")
        return SmsWebhook(self._core("sms", SMS_LIMIT), sender, token, s.bridges.sms.public_url, self.log)

    async def _discord(self) -> Webhook:
        from hearth.apps.bridges.discord import LIMIT, DiscordApi, DiscordWebhook

        s = self.settings
        api = DiscordApi(
            s.bridges.discord.token.get_secret_value().strip(),
            s.bridges.discord.application_id.strip(),
            s.bridges.discord.api,
            self.log,
        )
        try:
            webhook = DiscordWebhook(
                self._core("discord", LIMIT), api, s.bridges.discord.public_key, self.log
            )
            await api.register()
        except BaseException:
            await api.aclose()
            raise
        self.log("discord: slash commands /ask and /new registered; answering at /hooks/discord")
        return webhook

    async def _telegram(self):  # type: ignore[no-untyped-def]
        from telegram import Bot

        from hearth.apps.bridges.telegram import LIMIT, TelegramBridge

        s = self.settings
        base = s.bridges.telegram.api.rstrip("/")
        bot = Bot(
            s.bridges.telegram.token.get_secret_value().strip(),
            base_url=f"{base}/bot",
            base_file_url=f"{base}/file/bot",
        )
        bridge = TelegramBridge(bot, self._core("telegram", LIMIT), self.log)
        self.log(f"telegram: logged in as {await bridge.check()}")
        return bridge.run

    async def _whatsapp(self):  # type: ignore[no-untyped-def]
        from whatsapp_api_client_python.API import GreenAPI

        from hearth.apps.bridges.whatsapp import LIMIT, WhatsAppBridge

        s = self.settings
        api = GreenAPI(
            s.bridges.whatsapp.instance.strip(),
            s.bridges.whatsapp.token.get_secret_value().strip(),
            host=s.bridges.whatsapp.api.rstrip("/"),
            host_timeout=60,
        )
        bridge = WhatsAppBridge(api, self._core("whatsapp", LIMIT), self.log, poll_seconds=5)
        self.log(f"whatsapp: instance {await bridge.check()}")
        return bridge.run
