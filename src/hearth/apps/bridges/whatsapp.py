"""`hearth bridge whatsapp`: WhatsApp through Green API (its `whatsapp-api-client-python` library).

Green API keeps a queue of notifications per instance: the bridge long-polls it
(`receiveNotification`), answers text messages from allow-listed numbers, and deletes each
notification once it is handed to its chat's queue (`deleteNotification`), so a notification is
neither lost nor taken twice; each message is also taken once by its `idMessage` (kept in the
bridge store), so one delivered again, after a restart or a failed delete, runs nothing. The API's address is a setting (`whatsapp_api`), so tests use a local
server. A refused instance token stops the bridge with a clear error; other errors are waited
out. The token is in every URL, like Telegram's: never logged (see redact.py).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

from whatsapp_api_client_python.API import GreenAPI

from hearth.apps.bridges.chat import ChatBridge, Incoming, PerChat
from hearth.core.errors import HearthError

LIMIT = 20_000  # Green API's longest text message
POLL_SECONDS = 20
LONGEST_PAUSE = 60.0
TEXT_TYPES = ("textMessage", "extendedTextMessage")

Log = Callable[[str], None]


class WhatsAppBridge:
    def __init__(
        self, api: GreenAPI, core: ChatBridge, log: Log, *, poll_seconds: int = POLL_SECONDS
    ) -> None:
        self.api = api
        self.core = core
        self.log = log
        self.poll_seconds = poll_seconds
        self.chats = PerChat(core, self._deliver, log)

    async def check(self) -> str:
        """The instance's state; a clear error when the token is refused or it is not logged in."""
        answer = await asyncio.to_thread(self.api.account.getStateInstance)
        if answer.code in (401, 403):
            raise HearthError(
                "Green API refused the WhatsApp instance id or token.",
                "Set HEARTH_WHATSAPP_INSTANCE and HEARTH_WHATSAPP_TOKEN to your instance's (green-api.com console).",
            )
        if answer.code != 200 or not isinstance(answer.data, dict):
            raise HearthError(
                f"Cannot reach Green API (status {answer.code}).",
                "Check the network, or whatsapp_api if you set it.",
            )
        state = str(answer.data.get("stateInstance", "unknown"))
        if state != "authorized":
            raise HearthError(
                f"The WhatsApp instance is {state!r}, not logged in to WhatsApp.",
                "Scan the QR code in the Green API console, then start the bridge again.",
            )
        return state

    async def run(self, stop: asyncio.Event) -> None:
        pause = 1.0
        try:
            while not stop.is_set():
                answer = await asyncio.to_thread(self.api.receiving.receiveNotification, self.poll_seconds)
                if answer.code in (401, 403):
                    raise HearthError(
                        "Green API refused the WhatsApp token while running.",
                        "Check whatsapp_token; the bridge stopped.",
                    )
                if answer.code != 200:
                    self.log(f"whatsapp: Green API answered {answer.code}; trying again in {pause:g}s")
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(stop.wait(), pause)
                    pause = min(LONGEST_PAUSE, pause * 2)
                    continue
                pause = 1.0
                if not isinstance(answer.data, dict):
                    continue  # no notification within the poll
                self._dispatch(answer.data.get("body") or {})
                receipt = answer.data.get("receiptId")
                if receipt is not None:
                    await asyncio.to_thread(self.api.receiving.deleteNotification, int(receipt))
        finally:
            await self.chats.close()

    def _dispatch(self, body: dict[str, Any]) -> None:
        if body.get("typeWebhook") != "incomingMessageReceived":
            return
        message = body.get("messageData") or {}
        kind = message.get("typeMessage")
        if kind not in TEXT_TYPES:
            return
        text = (
            (message.get("textMessageData") or {}).get("textMessage")
            if kind == "textMessage"
            else (message.get("extendedTextMessageData") or {}).get("text")
        )
        sender = body.get("senderData") or {}
        chat = str(sender.get("chatId") or "")
        who = str(sender.get("sender") or chat)
        if not chat or not isinstance(text, str):
            return
        if not self.core.chats.first_time("whatsapp", str(body.get("idMessage") or "")):
            self.log(
                f"whatsapp: refused a message without an id or delivered again ({body.get('idMessage')})"
            )
            return
        name = str(sender.get("senderName") or "")
        self.chats.put(Incoming("whatsapp", chat, who, (name,) if name else (), text))

    async def _deliver(self, incoming: Incoming, text: str) -> None:
        answer = await asyncio.to_thread(self.api.sending.sendMessage, incoming.chat, text)
        if answer.code != 200:
            self.log(f"whatsapp: cannot send to {incoming.chat}: status {answer.code}")
