"""`hearth bridge discord`: Discord through its HTTP Interactions endpoint and its HTTP API.

Discord POSTs each use of the bot's slash commands (`/ask text`, `/new`) to the endpoint the user
set in the developer portal (its "Interactions Endpoint URL"), signed with Ed25519: the
`X-Signature-Ed25519` header over `X-Signature-Timestamp` + the body, with the application's key
(`discord_public_key`). A request that is not signed by it, signed more than 5 minutes from now,
or an interaction seen already (a replay; ids are kept in the bridge store, so across a restart
too) is refused with 401 and never reaches the agent. The endpoint answers at once ("thinking...", as
Discord wants an answer within 3 seconds) and the agent's reply follows through the interaction's
webhook (valid 15 minutes), or, for a longer run, as a message in the channel sent with the bot
token; both split to Discord's 2,000 characters, with mentions turned off. The channel (a DM or a
server channel) is the chat: one persistent session per channel.

Why plain HTTP (httpx) and not discord.py: discord.py reads messages through the Gateway, a
WebSocket whose address and protocol are fixed in the library (a test could only point it at a
local server by patching its internals), and it needs the privileged message-content intent.
Interactions are Discord's documented way for a bot without a Gateway connection, the signature
check is the `cryptography` library's Ed25519, and every address is a setting (`discord_api`), so
tests use a local stand-in. The bot token is a secret: it is never logged or shown (redact.py),
and neither are the interactions' tokens (they are in the webhook URLs).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from typing import Any

import httpx
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response

from hearth.apps.bridges.chat import ChatBridge, Incoming, PerChat
from hearth.core.errors import HearthError

LIMIT = 2000  # Discord's longest message
MAX_BODY = 256_000
SIGNED_WITHIN = 300.0  # seconds: an interaction signed longer ago than this is a replay
PING, COMMAND = 1, 2
PONG, DEFERRED = 1, 5
NO_MENTIONS: dict[str, list[str]] = {"parse": []}
COMMANDS = [
    {
        "name": "ask",
        "type": 1,
        "description": "Give Hearth a task or a message",
        "options": [{"name": "text", "description": "What to do", "type": 3, "required": True}],
    },
    {"name": "new", "type": 1, "description": "Start a new Hearth session in this channel"},
]

Log = Callable[[str], None]


class DiscordApi:
    """The part of Discord's HTTP API the bridge uses, with the bot token."""

    def __init__(self, token: str, application_id: str, api: str, log: Log) -> None:
        self.application_id = application_id
        self.log = log
        self.client = httpx.AsyncClient(
            base_url=api.rstrip("/"),
            headers={
                "Authorization": f"Bot {token}",
                "User-Agent": "DiscordBot (https://github.com/hearth, 0.1)",
            },
            timeout=30,
        )

    async def aclose(self) -> None:
        await self.client.aclose()

    async def register(self) -> None:
        """Put the bot's slash commands in place; a clear error when the token is refused."""
        try:
            answer = await self.client.put(f"/applications/{self.application_id}/commands", json=COMMANDS)
        except httpx.HTTPError as exc:
            raise HearthError(
                f"Cannot reach the Discord API: {type(exc).__name__}",
                "Check the network, or discord_api if you set it.",
            ) from None
        if answer.status_code in (401, 403):
            raise HearthError(
                "Discord refused the bot token.",
                "Set discord_token (HEARTH_DISCORD_TOKEN) to the bot's token from the developer portal.",
            )
        if answer.status_code == 404:
            raise HearthError(
                f"Discord knows no application {self.application_id}.",
                "Set discord_application_id to the application id from the developer portal.",
            )
        if answer.status_code >= 300:
            raise HearthError(
                f"Discord did not accept the slash commands (status {answer.status_code}).",
                "Check discord_application_id and the bot's permissions.",
            )

    async def send(self, incoming: Incoming, text: str) -> None:
        """Through the interaction's webhook while it lasts; else to the channel."""
        if incoming.handle:
            status = await self._post(f"/webhooks/{self.application_id}/{incoming.handle}", text)
            if status is not None and status < 300:
                return
        status = await self._post(f"/channels/{incoming.chat}/messages", text)
        if status is None or status >= 300:
            self.log(f"discord: cannot send to channel {incoming.chat}: status {status}")

    async def _post(self, path: str, text: str) -> int | None:
        """The status of sending `text` (None when Discord cannot be reached); 429s are waited out."""
        body = {"content": text, "allowed_mentions": NO_MENTIONS}
        for _ in range(5):
            try:
                answer = await self.client.post(path, json=body)
            except httpx.HTTPError as exc:
                self.log(f"discord: sending failed: {type(exc).__name__}")
                await asyncio.sleep(1.0)
                continue
            if answer.status_code == 429:
                await asyncio.sleep(_retry_after(answer))
                continue
            return answer.status_code
        return None


def _retry_after(answer: httpx.Response) -> float:
    try:
        return min(60.0, float(answer.json().get("retry_after", 1.0)))
    except (ValueError, AttributeError):
        return 1.0


class Signatures:
    """Checks Discord's Ed25519 signature of an interaction."""

    def __init__(self, public_key: str, clock: Callable[[], float] = time.time) -> None:
        try:
            self.key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_key.strip()))
        except ValueError:
            raise HearthError(
                "discord_public_key is not a public key.",
                "Copy the application's PUBLIC KEY (64 hex digits) from the developer portal.",
            ) from None
        self.clock = clock

    def valid(self, signature: str, timestamp: str, body: bytes) -> bool:
        try:
            signed = float(timestamp)
            self.key.verify(bytes.fromhex(signature), timestamp.encode() + body)
        except (ValueError, InvalidSignature):
            return False
        return abs(self.clock() - signed) <= SIGNED_WITHIN


class DiscordWebhook:
    """The Interactions endpoint: checks each request, answers Discord, hands commands to the chats."""

    def __init__(self, core: ChatBridge, api: DiscordApi, public_key: str, log: Log) -> None:
        self.signatures = Signatures(public_key)
        self.api = api
        self.log = log
        self.chats = PerChat(core, api.send, log)
        self.seen = core.chats  # interaction ids: each is taken once

    def _first_time(self, interaction_id: str) -> bool:
        # Past the signing window the timestamp refuses a replay; a day covers clock skew.
        return self.seen.first_time("discord", interaction_id, keep=86400.0)

    async def aclose(self) -> None:
        await self.api.aclose()

    async def handle(self, request: Request) -> Response:
        body = await request.body()
        if len(body) > MAX_BODY:
            return Response("Too large.", status_code=413)
        signature = request.headers.get("X-Signature-Ed25519", "")
        timestamp = request.headers.get("X-Signature-Timestamp", "")
        if not signature or not timestamp or not self.signatures.valid(signature, timestamp, body):
            self.log(f"discord: refused a request with {'a bad' if signature else 'no'} signature")
            return Response("invalid request signature", status_code=401)
        try:
            interaction = json.loads(body)
            kind = int(interaction["type"])
        except (ValueError, TypeError, KeyError):
            return Response("Bad interaction.", status_code=400)
        if kind == PING:
            return JSONResponse({"type": PONG})
        if kind != COMMAND:
            return Response("Only slash commands are used.", status_code=400)
        if not self._first_time(str(interaction.get("id") or "")):
            self.log("discord: refused an interaction sent again (a replay)")
            return Response("invalid request signature", status_code=401)
        incoming = _incoming(interaction)
        if incoming is None:
            return Response("Bad interaction.", status_code=400)
        self.chats.put(incoming)
        return JSONResponse({"type": DEFERRED})


def _incoming(interaction: dict[str, Any]) -> Incoming | None:
    """The command as a chat message: `/ask text` is the text, `/new` is `/new`."""
    user = (interaction.get("member") or {}).get("user") or interaction.get("user") or {}
    channel = interaction.get("channel_id") or (interaction.get("channel") or {}).get("id")
    data = interaction.get("data") or {}
    token = interaction.get("token")
    if not user.get("id") or not channel or not isinstance(token, str):
        return None
    name = data.get("name")
    if name == "new":
        text = "/new"
    elif name == "ask":
        options = {o.get("name"): o.get("value") for o in data.get("options") or [] if isinstance(o, dict)}
        text = str(options.get("text") or "")
    else:
        return None
    names = tuple(str(n) for n in (user.get("username"), user.get("global_name")) if n)
    return Incoming("discord", str(channel), str(user["id"]), names, text, handle=token)


def discord_app(webhook: DiscordWebhook) -> FastAPI:
    app = FastAPI(title="Hearth Discord bridge", docs_url=None, redoc_url=None, openapi_url=None)

    @app.post("/discord")
    async def interactions(request: Request) -> Response:
        return await webhook.handle(request)

    return app
