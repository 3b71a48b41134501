"""Local stand-ins for messaging platforms, over real HTTP on 127.0.0.1, for the bridges' tests.

`FakeTelegram` speaks the part of the Telegram Bot API a long-polling bot uses (getMe,
getUpdates with offsets and a long-poll timeout, sendMessage), refuses a wrong token with 401 as
Telegram does, and can answer errors or `retry_after` floods on demand. `FakeTwilio` takes the
REST call that sends an SMS and records it. `FakeGreenApi` is Green API's WhatsApp instance:
a notification queue (receive, delete) and sendMessage. `FakeDiscord` is Discord for one
application: it signs interactions with its own Ed25519 key and POSTs them to the bridge's
endpoint, as Discord does, and takes the slash commands, the interactions' webhook messages and
channel messages sent with the bot token.

    with FakeTelegram("123:abc") as tg:
        tg.say(user_id=42, text="hello")   # an update from user 42 in their private chat
        ... point the bridge at tg.url ...
        tg.sent                             # what the bot sent: [{"chat_id": 42, "text": ...}]
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit


class _Server(ThreadingHTTPServer):
    daemon_threads = True


class _Base:
    def __init__(self) -> None:
        handler = type("Handler", (_Handler,), {"owner": self})
        self._httpd = _Server(("127.0.0.1", 0), handler)
        self._thread: threading.Thread | None = None
        self.lock = threading.Condition()
        self.requests: list[tuple[str, dict[str, Any]]] = []  # (path, fields), every request
        self.local = threading.local()  # .headers: those of the request this thread answers
        self.sent: list[dict[str, Any]] = []  # the messages the platform was asked to deliver

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}"

    def start(self) -> _Base:
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05})
        self._thread.daemon = True
        self._thread.start()
        return self

    def stop(self) -> None:
        with self.lock:
            self.lock.notify_all()
        self._httpd.shutdown()
        self._httpd.server_close()

    what = "messages"  # as a failed wait names them

    def wait_sent(self, count: int, timeout: float = 30) -> list[dict[str, Any]]:
        """The messages sent, once there are `count` of them (AssertionError after `timeout`)."""
        deadline = time.monotonic() + timeout
        with self.lock:
            while len(self.sent) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"{len(self.sent)} {self.what} sent, not {count}: {self.sent}")
                self.lock.wait(left)
            return list(self.sent)

    def answer(self, method: str, path: str, fields: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        raise NotImplementedError


class FakeTelegram(_Base):
    what = "Telegram messages"

    def __init__(self, token: str, *, bot_name: str = "hearth_test_bot") -> None:
        super().__init__()
        self.token = token
        self.bot_name = bot_name
        self.updates: list[dict[str, Any]] = []
        self.errors: list[tuple[int, dict[str, Any]]] = []  # answered to the next getUpdates calls
        self._next_update = 1
        self._next_message = 1
        self.webhook: tuple[str, str] | None = None  # (url, secret) from setWebhook

    def __enter__(self) -> FakeTelegram:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def say(
        self, user_id: int, text: str, *, username: str | None = None, chat_id: int | None = None
    ) -> None:
        """A message from a user (in their private chat unless `chat_id` names a group)."""
        with self.lock:
            sender: dict[str, Any] = {"id": user_id, "is_bot": False, "first_name": f"user{user_id}"}
            if username:
                sender["username"] = username
            chat = chat_id if chat_id is not None else user_id
            self.updates.append(
                {
                    "update_id": self._next_update,
                    "message": {
                        "message_id": self._next_update,
                        "date": int(time.time()),
                        "chat": {"id": chat, "type": "private" if chat == user_id else "group"},
                        "from": sender,
                        "text": text,
                    },
                }
            )
            self._next_update += 1
            self.lock.notify_all()

    def deliver(self, *, secret: str | None = None) -> list[int]:
        """POST each pending update to the registered webhook, as Telegram does (with the secret
        given to setWebhook, unless `secret` says otherwise); the HTTP statuses."""
        import urllib.error
        import urllib.request

        with self.lock:
            assert self.webhook is not None, "no webhook is set"
            url, real = self.webhook
            updates, self.updates = list(self.updates), []
        statuses = []
        for update in updates:
            request = urllib.request.Request(url, data=json.dumps(update).encode(), method="POST")
            request.add_header("Content-Type", "application/json")
            token = real if secret is None else secret
            if token:
                request.add_header("X-Telegram-Bot-Api-Secret-Token", token)
            try:
                with urllib.request.urlopen(request, timeout=30) as answer:
                    statuses.append(answer.status)
            except urllib.error.HTTPError as exc:
                statuses.append(exc.code)
        return statuses

    def answer(self, method: str, path: str, fields: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        prefix = f"/bot{self.token}/"
        if not path.startswith(prefix):
            return 401, {"ok": False, "error_code": 401, "description": "Unauthorized"}
        name = path[len(prefix) :]
        if name == "getMe":
            return 200, {
                "ok": True,
                "result": {"id": 1, "is_bot": True, "first_name": "Hearth", "username": self.bot_name},
            }
        if name == "getUpdates":
            return self._get_updates(fields)
        if name == "setWebhook":
            with self.lock:
                self.webhook = (str(fields["url"]), str(fields.get("secret_token") or ""))
            return 200, {"ok": True, "result": True, "description": "Webhook was set"}
        if name == "deleteWebhook":
            with self.lock:
                self.webhook = None
            return 200, {"ok": True, "result": True, "description": "Webhook was deleted"}
        if name == "sendMessage":
            with self.lock:
                chat = int(fields["chat_id"])
                self.sent.append({"chat_id": chat, "text": str(fields["text"])})
                result = {
                    "message_id": 1000 + self._next_message,
                    "date": int(time.time()),
                    "chat": {"id": chat, "type": "private"},
                    "text": str(fields["text"]),
                }
                self._next_message += 1
                self.lock.notify_all()
            return 200, {"ok": True, "result": result}
        return 404, {"ok": False, "error_code": 404, "description": "Not Found: method not found"}

    def _get_updates(self, fields: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        offset = int(fields.get("offset") or 0)
        timeout = min(float(fields.get("timeout") or 0), 1.0)  # long polls kept short in tests
        deadline = time.monotonic() + timeout
        with self.lock:
            if self.errors:
                return self.errors.pop(0)
            self.updates = [u for u in self.updates if u["update_id"] >= offset]  # confirmed: gone
            while not self.updates and time.monotonic() < deadline:
                self.lock.wait(deadline - time.monotonic())
            return 200, {"ok": True, "result": list(self.updates)}


class FakeTwilio(_Base):
    """Twilio's REST API for sending an SMS; what was sent is in `sent`."""

    what = "SMS"

    def __init__(self, account_sid: str, auth_token: str) -> None:
        super().__init__()
        self.account_sid = account_sid
        self.auth_token = auth_token

    def __enter__(self) -> FakeTwilio:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def answer(self, method: str, path: str, fields: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        if path != f"/2010-04-01/Accounts/{self.account_sid}/Messages.json" or method != "POST":
            return 404, {"code": 20404, "message": "The requested resource was not found", "status": 404}
        with self.lock:
            n = len(self.sent) + 1
            self.sent.append(
                {"To": str(fields["To"]), "From": str(fields["From"]), "Body": str(fields["Body"])}
            )
            self.lock.notify_all()
        return 201, {
            "sid": f"SM{n:032d}",
            "account_sid": self.account_sid,
            "to": fields["To"],
            "from": fields["From"],
            "body": fields["Body"],
            "status": "queued",
        }


class FakeGreenApi(_Base):
    """Green API (WhatsApp) for one instance: a notification queue the bot long-polls and deletes
    from, and sendMessage; a wrong instance or token gets 401."""

    what = "WhatsApp messages"

    def __init__(self, instance: str, token: str, *, state: str = "authorized") -> None:
        super().__init__()
        self.instance = instance
        self.token = token
        self.state = state
        self.notifications: list[dict[str, Any]] = []
        self.deleted: list[int] = []
        self._receipt = 1

    def __enter__(self) -> FakeGreenApi:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def say(self, number: str, text: str, *, name: str = "") -> None:
        chat = f"{number}@c.us"
        with self.lock:
            self.notifications.append(
                {
                    "receiptId": self._receipt,
                    "body": {
                        "typeWebhook": "incomingMessageReceived",
                        "idMessage": f"M{self._receipt}",
                        "timestamp": int(time.time()),
                        "senderData": {"chatId": chat, "sender": chat, "senderName": name or number},
                        "messageData": {
                            "typeMessage": "textMessage",
                            "textMessageData": {"textMessage": text},
                        },
                    },
                }
            )
            self._receipt += 1
            self.lock.notify_all()

    def answer(self, method: str, path: str, fields: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        parts = path.strip("/").split("/")
        if len(parts) < 3 or parts[0] != f"waInstance{self.instance}" or parts[2] != self.token:
            return 401, {"error": "Unauthorized"}
        name = parts[1]
        if name == "getStateInstance":
            return 200, {"stateInstance": self.state}
        if name == "receiveNotification":
            timeout = min(float(fields.get("receiveTimeout") or 5), 1.0)
            deadline = time.monotonic() + timeout
            with self.lock:
                while not self.notifications and time.monotonic() < deadline:
                    self.lock.wait(deadline - time.monotonic())
                return 200, (self.notifications[0] if self.notifications else None)  # type: ignore[return-value]
        if name == "deleteNotification" and len(parts) == 4:
            receipt = int(parts[3])
            with self.lock:
                self.notifications = [n for n in self.notifications if n["receiptId"] != receipt]
                self.deleted.append(receipt)
            return 200, {"result": True}
        if name == "sendMessage":
            with self.lock:
                self.sent.append({"chatId": str(fields["chatId"]), "message": str(fields["message"])})
                self.lock.notify_all()
                return 200, {"idMessage": f"OUT{len(self.sent)}"}
        return 404, {"error": "Not Found"}


class FakeDiscord(_Base):
    """Discord's HTTP API for one application, and Discord's side of its interactions endpoint."""

    what = "Discord messages"

    def __init__(self, token: str, application_id: str = "4242") -> None:
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
        from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

        super().__init__()
        self.token = token
        self.application_id = application_id
        self.key = Ed25519PrivateKey.generate()
        self.public_key = self.key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
        self.commands: list[Any] = []
        self.expired: set[str] = set()  # interaction tokens whose webhook is gone (after 15 minutes)
        self.answered: list[str] = []  # the interaction token of each message sent through a webhook
        self.limited = 0  # the next this many sends get 429 (retry_after)
        self._tokens: dict[str, str] = {}  # interaction token -> its channel
        self._next = 1

    def __enter__(self) -> FakeDiscord:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def sign(self, timestamp: str, body: bytes) -> str:
        return self.key.sign(timestamp.encode() + body).hex()

    def interaction(
        self,
        user_id: str,
        channel: str,
        command: str,
        text: str | None = None,
        *,
        username: str = "",
        guild: bool = False,
    ) -> dict[str, Any]:
        """A slash command as Discord sends it (`command` is "ask" or "new")."""
        with self.lock:
            n = self._next
            self._next += 1
            token = f"itoken-{n}-" + "x" * 40
            self._tokens[token] = channel
        user = {"id": user_id, "username": username or f"user{user_id}", "global_name": None}
        data: dict[str, Any] = {"id": "1", "name": command, "type": 1}
        if text is not None:
            data["options"] = [{"name": "text", "type": 3, "value": text}]
        interaction: dict[str, Any] = {
            "id": str(9000 + n),
            "application_id": self.application_id,
            "type": 2,
            "token": token,
            "version": 1,
            "channel_id": channel,
            "data": data,
        }
        if guild:
            interaction["guild_id"] = "77"
            interaction["member"] = {"user": user, "roles": []}
        else:
            interaction["user"] = user
        return interaction

    def post(
        self,
        url: str,
        interaction: dict[str, Any],
        *,
        signature: str | None = None,
        timestamp: str | None = None,
    ) -> tuple[int, str]:
        """POST an interaction to the bridge, signed with this application's key unless
        `signature` says otherwise; the HTTP status and body."""
        import urllib.error
        import urllib.request

        body = json.dumps(interaction).encode()
        stamp = timestamp if timestamp is not None else str(int(time.time()))
        request = urllib.request.Request(url, data=body, method="POST")
        request.add_header("Content-Type", "application/json")
        request.add_header("X-Signature-Timestamp", stamp)
        request.add_header("X-Signature-Ed25519", self.sign(stamp, body) if signature is None else signature)
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return answer.status, answer.read().decode()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode()

    def answer(self, method: str, path: str, fields: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        parts = path.strip("/").split("/")
        if parts[:2] == ["webhooks", self.application_id] and len(parts) == 3 and method == "POST":
            token = parts[2]  # the interaction's token is the credential here, not the bot token
            with self.lock:
                if token not in self._tokens or token in self.expired:
                    return 404, {"message": "Unknown Webhook", "code": 10015}
                status, answer = self._record("webhook", self._tokens[token], fields)
                if status == 200:
                    self.answered.append(token)
                return status, answer
        if self.local.headers.get("authorization") != f"Bot {self.token}":
            return 401, {"message": "401: Unauthorized", "code": 0}
        if parts == ["applications", self.application_id, "commands"] and method == "PUT":
            with self.lock:
                self.commands = list(fields.get("_json") or [])
            return 200, {"_json": self.commands}
        if len(parts) == 3 and parts[0] == "channels" and parts[2] == "messages" and method == "POST":
            with self.lock:
                return self._record("channel", parts[1], fields)
        return 404, {"message": "404: Not Found", "code": 0}

    def _record(self, via: str, channel: str, fields: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        if self.limited > 0:
            self.limited -= 1
            return 429, {"message": "You are being rate limited.", "retry_after": 0.2, "global": False}
        content = str(fields.get("content", ""))
        if len(content) > 2000:
            return 400, {"message": "Invalid Form Body", "code": 50035}
        self.sent.append(
            {"via": via, "channel": channel, "content": content, "mentions": fields.get("allowed_mentions")}
        )
        self.lock.notify_all()
        return 200, {"id": str(100000 + len(self.sent)), "channel_id": channel, "content": content}


class _Handler(BaseHTTPRequestHandler):
    owner: _Base
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        self._handle("GET")

    def do_POST(self) -> None:
        self._handle("POST")

    def do_DELETE(self) -> None:
        self._handle("DELETE")

    def do_PUT(self) -> None:
        self._handle("PUT")

    def do_PATCH(self) -> None:
        self._handle("PATCH")

    def _handle(self, method: str) -> None:
        parts = urlsplit(self.path)
        fields: dict[str, Any] = {k: v[-1] for k, v in parse_qs(parts.query).items()}
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        kind = self.headers.get("Content-Type", "")
        if body and "json" in kind:
            data = json.loads(body)
            fields.update(data if isinstance(data, dict) else {"_json": data})
        elif body:
            fields.update({k: v[-1] for k, v in parse_qs(body.decode()).items()})
        with self.owner.lock:
            self.owner.requests.append((parts.path, fields))
        self.owner.local.headers = {k.lower(): v for k, v in self.headers.items()}
        status, answer = self.owner.answer(method, parts.path, fields)
        data = json.dumps(answer.get("_json", answer) if isinstance(answer, dict) else answer).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
