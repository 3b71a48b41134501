"""`hearth bridge sms`: SMS through Twilio, with each webhook request's signature checked.

Twilio POSTs each incoming SMS to the webhook, signed (`X-Twilio-Signature`) with the account's
auth token over the URL Twilio called (`twilio_public_url`) and the form's fields; a request
without a valid signature is refused with 403 and never reaches the agent. The webhook answers at
once (an empty TwiML reply) and the agent's reply goes out afterwards through Twilio's REST API
(the `twilio` library; its address is a setting so tests use a local server), split to Twilio's
1,600 characters per message. The phone number is the chat: one persistent session per number.
Twilio's signature covers no time, so a captured request stays valid: each message is taken once
by its `MessageSid`, remembered in the bridge store (across restarts); a replay gets an empty
answer and runs nothing.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from urllib.parse import parse_qsl

from fastapi import FastAPI, Request
from fastapi.responses import Response
from twilio.request_validator import RequestValidator
from twilio.rest import Client

from hearth.apps.bridges.chat import ChatBridge, Incoming, PerChat

SMS_LIMIT = 1600
MAX_BODY = 64_000  # Twilio's form for one SMS is a few hundred bytes
EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>'

Log = Callable[[str], None]


class TwilioSender:
    def __init__(self, account_sid: str, auth_token: str, api: str, log: Log) -> None:
        self.client = Client(account_sid, auth_token)
        self.client.api.base_url = api.rstrip("/")
        self.log = log

    async def send(self, to: str, from_: str, text: str) -> None:
        try:
            await asyncio.to_thread(self.client.messages.create, to=to, from_=from_, body=text)
        except Exception as exc:  # the platform's error: logged (scrubbed), the bridge goes on
            self.log(f"sms: cannot send to {to}: {type(exc).__name__}: {exc}")


class SmsWebhook:
    """Twilio's webhook: checks each request's signature, answers Twilio, hands the SMS to its chat.
    Served by `hearth bridge sms` (sms_app) or, when SMS is the active bridge, by `hearth web`."""

    def __init__(self, core: ChatBridge, sender: TwilioSender, auth_token: str, public_url: str, log: Log):
        self.validator = RequestValidator(auth_token)
        self.seen = core.chats
        self.public_url = public_url
        self.log = log

        async def deliver(msg: Incoming, text: str) -> None:
            await sender.send(msg.chat, msg.reply_from, text)

        self.chats = PerChat(core, deliver, log)

    async def handle(self, request: Request) -> Response:
        body = await request.body()
        if len(body) > MAX_BODY:
            return Response("Too large.", status_code=413)
        fields = dict(parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True))
        signature = request.headers.get("X-Twilio-Signature", "")
        if not signature or not self.validator.validate(self.public_url, fields, signature):
            self.log(f"sms: refused a request with {'a bad' if signature else 'no'} signature")
            return Response("The request's signature is not Twilio's.", status_code=403)
        sid = fields.get("MessageSid") or fields.get("SmsSid") or ""
        if not sid:
            return Response("A message without MessageSid.", status_code=400)
        if not self.seen.first_time("sms", sid):
            self.log(f"sms: refused message {sid} sent again (a replay)")
            return Response(EMPTY_TWIML, media_type="application/xml")
        number = fields.get("From", "")
        self.chats.put(Incoming("sms", number, number, (), fields.get("Body", ""), fields.get("To", "")))
        return Response(EMPTY_TWIML, media_type="application/xml")


def sms_app(webhook: SmsWebhook) -> FastAPI:
    app = FastAPI(title="Hearth SMS bridge", docs_url=None, redoc_url=None, openapi_url=None)
    app.state.chats = webhook.chats

    @app.post("/sms")
    async def incoming(request: Request) -> Response:
        return await webhook.handle(request)

    return app
