"""`hearth bridge telegram|sms|whatsapp|discord`: answer allow-listed senders on a messaging platform (foreground)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated

import typer

from hearth.apps.cli.common import WorkspaceOpt, fail, load_cli_settings

if TYPE_CHECKING:
    from hearth.apps.bridges.chat import ChatBridge, Log
    from hearth.apps.bridges.redact import Scrubber
    from hearth.runtime.config import Settings
    from hearth.runtime.hub import Hub
    from hearth.store.bridges import ChatSessions

bridge_app = typer.Typer(help="Messaging bridges: answer allow-listed senders in a chat app.")


@bridge_app.command("telegram")
def telegram(
    workspace: WorkspaceOpt = None,
    webhook: Annotated[
        str | None,
        typer.Option("--webhook", help="Public HTTPS URL Telegram posts to (default: long polling)"),
    ] = None,
    port: Annotated[int, typer.Option("--port", help="Port the webhook listens on")] = 8788,
    host: Annotated[str, typer.Option("--host", help="Address the webhook listens on")] = "127.0.0.1",
) -> None:
    """Telegram through long polling: needs telegram_token and telegram_allow (user ids)."""
    import asyncio

    from hearth.core.errors import HearthError

    try:
        settings = _settings(workspace)
        token = settings.bridges.telegram.token.get_secret_value().strip()
        if not token:
            raise HearthError(
                "No Telegram bot token.", "Set HEARTH_TELEGRAM_TOKEN (or telegram_token in your config)."
            )
        _require_allow(settings.bridges.telegram.allow, "telegram")
        asyncio.run(_telegram(settings, token, webhook, host, port))
    except HearthError as exc:
        fail(exc)


@bridge_app.command("sms")
def sms(
    workspace: WorkspaceOpt = None,
    port: Annotated[int, typer.Option("--port", help="Port for Twilio's webhook")] = 8787,
    host: Annotated[str, typer.Option("--host", help="Address to listen on")] = "127.0.0.1",
) -> None:
    """SMS through Twilio: a webhook (signatures checked) for twilio_public_url; needs sms_allow."""
    import asyncio

    from hearth.core.errors import HearthError

    try:
        settings = _settings(workspace)
        for name in ("twilio_auth_token", "twilio_account_sid", "twilio_public_url"):
            value = settings.get(name)
            text = value.get_secret_value() if hasattr(value, "get_secret_value") else value
            if not str(text).strip():
                raise HearthError(f"The SMS bridge needs {name}.", f"Set HEARTH_{name.upper()}.")
        _require_allow(settings.bridges.sms.allow, "sms")
        asyncio.run(_sms(settings, host, port))
    except HearthError as exc:
        fail(exc)


@bridge_app.command("whatsapp")
def whatsapp(workspace: WorkspaceOpt = None) -> None:
    """WhatsApp through Green API: needs whatsapp_instance, whatsapp_token and whatsapp_allow."""
    import asyncio

    from hearth.core.errors import HearthError

    try:
        settings = _settings(workspace)
        if (
            not settings.bridges.whatsapp.instance.strip()
            or not settings.bridges.whatsapp.token.get_secret_value().strip()
        ):
            raise HearthError(
                "The WhatsApp bridge needs a Green API instance.",
                "Set HEARTH_WHATSAPP_INSTANCE and HEARTH_WHATSAPP_TOKEN (green-api.com console).",
            )
        _require_allow(settings.bridges.whatsapp.allow, "whatsapp")
        asyncio.run(_whatsapp(settings))
    except HearthError as exc:
        fail(exc)


@bridge_app.command("discord")
def discord(
    workspace: WorkspaceOpt = None,
    port: Annotated[int, typer.Option("--port", help="Port for Discord's interactions endpoint")] = 8789,
    host: Annotated[str, typer.Option("--host", help="Address to listen on")] = "127.0.0.1",
) -> None:
    """Discord through slash commands (/ask, /new) posted to an interactions endpoint (signatures
    checked); needs discord_token, discord_application_id, discord_public_key and discord_allow."""
    import asyncio

    from hearth.core.errors import HearthError

    try:
        settings = _settings(workspace)
        missing = discord_missing(settings)
        if missing:
            raise HearthError(f"The Discord bridge needs {missing}.", f"Set HEARTH_{missing.upper()}.")
        asyncio.run(_discord(settings, host, port))
    except HearthError as exc:
        fail(exc)


def discord_missing(settings: Settings) -> str:
    """The first setting the Discord bridge needs that is blank ('' when none is)."""
    for name in ("discord_token", "discord_application_id", "discord_public_key"):
        value = settings.get(name)
        text = value.get_secret_value() if hasattr(value, "get_secret_value") else value
        if not str(text).strip():
            return str(name)
    _require_allow(settings.bridges.discord.allow, "discord")
    return ""


def _settings(workspace: object) -> Settings:
    loaded = load_cli_settings(workspace=workspace)
    for line in loaded.ignored_report():
        sys.stderr.write(f"warning: {line}\n")
    return loaded.settings


def _require_allow(allow: list[str], platform: str) -> None:
    """A clear error, before anything starts, for an empty allow-list or an entry that is not an id."""
    from hearth.apps.bridges.allowlist import WHAT, allowed_ids
    from hearth.core.errors import HearthError

    name = f"{platform}_allow"
    if not allowed_ids(platform, allow):
        raise HearthError(
            f"No one is allowed to talk to the bridge ({name} is empty).",
            f"Set HEARTH_{name.upper()} to {WHAT[platform]}, separated by commas. Everyone else is ignored.",
        )


def _core(settings: Settings, name: str, hub: Hub, chats: ChatSessions, limit: int, log: Log) -> ChatBridge:
    """What every bridge does with a message, with the bridge's allow-list and approval setting."""
    from hearth.apps.bridges.chat import ChatBridge

    return ChatBridge(
        hub,
        chats,
        settings.get(f"{name}_allow"),
        limit,
        log,
        platform=name,
        ask_approvals=bool(settings.get(f"{name}_ask_approvals")),
        approval_timeout=settings.bridges.approval_timeout,
    )


def _scrubber(settings: Settings) -> Scrubber:
    from hearth.apps.bridges.redact import Scrubber, quiet_logging

    scrubber = Scrubber(
        [
            settings.bridges.telegram.token.get_secret_value(),
            settings.bridges.sms.auth_token.get_secret_value(),
            settings.bridges.whatsapp.token.get_secret_value(),
            settings.bridges.discord.token.get_secret_value(),
            settings.model.api_key.get_secret_value(),
        ]
    )
    quiet_logging(scrubber)
    return scrubber


async def _telegram(settings: Settings, token: str, webhook: str | None, host: str, port: int) -> None:
    import asyncio
    import signal

    from telegram import Bot

    from hearth.apps.bridges.redact import printer
    from hearth.apps.bridges.telegram import LIMIT, TelegramBridge, serve_webhook
    from hearth.runtime.hub import Hub
    from hearth.runtime.session import open_runtime
    from hearth.store.bridges import ChatSessions

    log = printer(_scrubber(settings))
    base = settings.bridges.telegram.api.rstrip("/")
    bot = Bot(token, base_url=f"{base}/bot", base_file_url=f"{base}/file/bot")
    rt = await open_runtime(settings)
    hub = Hub(rt)
    chats = ChatSessions(rt.store.path)
    try:
        core = _core(settings, "telegram", hub, chats, LIMIT, log)
        bridge = TelegramBridge(bot, core, log)
        name = await bridge.check()
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        log(
            f"telegram bridge {name} for {settings.workspace} · answers {len(core.allow)} allowed sender(s) · "
            f"model {rt.model.name} · sandbox {rt.sandbox.runner.name}"
        )
        if webhook:
            log(f"telegram webhook {webhook} served on http://{host}:{port}/telegram")
            await serve_webhook(bridge, webhook, host, port, stop)
        else:
            await bridge.run(stop)
        log("telegram bridge stopped")
    finally:
        await hub.aclose()
        chats.close()
        await rt.aclose()


async def _serve(app: object, host: str, port: int) -> None:
    """Serve a webhook until SIGTERM or SIGINT, then return (so the bridge closes its sessions).
    uvicorn sends a caught signal on to the handler there was before it: here, one that ignores it."""
    import signal

    import uvicorn

    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: None)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False)  # type: ignore[arg-type]
    await uvicorn.Server(config).serve()


async def _sms(settings: Settings, host: str, port: int) -> None:
    from hearth.apps.bridges.redact import printer
    from hearth.apps.bridges.sms import SMS_LIMIT, SmsWebhook, TwilioSender, sms_app
    from hearth.runtime.hub import Hub
    from hearth.runtime.session import open_runtime
    from hearth.store.bridges import ChatSessions

    log = printer(_scrubber(settings))
    rt = await open_runtime(settings)
    hub = Hub(rt)
    chats = ChatSessions(rt.store.path)
    try:
        core = _core(settings, "sms", hub, chats, SMS_LIMIT, log)
        sender = TwilioSender(
            settings.bridges.sms.account_sid,
            settings.bridges.sms.auth_token.get_secret_value(),
            settings.bridges.sms.api,
            log,
        )
        webhook = SmsWebhook(
            core,
            sender,
            settings.bridges.sms.auth_token.get_secret_value(),
            settings.bridges.sms.public_url,
            log,
        )
        app = sms_app(webhook)
        log(
            f"sms bridge for {settings.workspace} on http://{host}:{port}/sms (Twilio calls {settings.bridges.sms.public_url})"
        )
        await _serve(app, host, port)
        await webhook.chats.close()
        log("sms bridge stopped")
    finally:
        await hub.aclose()
        chats.close()
        await rt.aclose()


async def _whatsapp(settings: Settings) -> None:
    import asyncio
    import signal

    from whatsapp_api_client_python.API import GreenAPI

    from hearth.apps.bridges.redact import printer
    from hearth.apps.bridges.whatsapp import LIMIT, WhatsAppBridge
    from hearth.runtime.hub import Hub
    from hearth.runtime.session import open_runtime
    from hearth.store.bridges import ChatSessions

    log = printer(_scrubber(settings))
    api = GreenAPI(
        settings.bridges.whatsapp.instance.strip(),
        settings.bridges.whatsapp.token.get_secret_value().strip(),
        host=settings.bridges.whatsapp.api.rstrip("/"),
        host_timeout=60,
    )
    rt = await open_runtime(settings)
    hub = Hub(rt)
    chats = ChatSessions(rt.store.path)
    try:
        core = _core(settings, "whatsapp", hub, chats, LIMIT, log)
        bridge = WhatsAppBridge(api, core, log)
        await bridge.check()
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        log(
            f"whatsapp bridge (instance {settings.bridges.whatsapp.instance}) for {settings.workspace} · "
            f"answers {len(core.allow)} allowed sender(s) · model {rt.model.name}"
        )
        await bridge.run(stop)
        log("whatsapp bridge stopped")
    finally:
        await hub.aclose()
        chats.close()
        await rt.aclose()


async def _discord(settings: Settings, host: str, port: int) -> None:
    from hearth.apps.bridges.discord import LIMIT, DiscordApi, DiscordWebhook, Signatures, discord_app
    from hearth.apps.bridges.redact import printer
    from hearth.runtime.hub import Hub
    from hearth.runtime.session import open_runtime
    from hearth.store.bridges import ChatSessions

    log = printer(_scrubber(settings))
    Signatures(
        settings.bridges.discord.public_key
    )  # a clear error for a key that is not one, before anything starts
    api = DiscordApi(
        settings.bridges.discord.token.get_secret_value().strip(),
        settings.bridges.discord.application_id.strip(),
        settings.bridges.discord.api,
        log,
    )
    try:
        await api.register()
        rt = await open_runtime(settings)
    except BaseException:
        await api.aclose()
        raise
    hub = Hub(rt)
    chats = ChatSessions(rt.store.path)
    try:
        core = _core(settings, "discord", hub, chats, LIMIT, log)
        webhook = DiscordWebhook(core, api, settings.bridges.discord.public_key, log)
        log(
            f"discord bridge for {settings.workspace} on http://{host}:{port}/discord · "
            f"answers {len(core.allow)} allowed sender(s) · model {rt.model.name}"
        )
        await _serve(discord_app(webhook), host, port)
        await webhook.chats.close()
        log("discord bridge stopped")
    finally:
        await hub.aclose()
        chats.close()
        await rt.aclose()
        await api.aclose()
