"""`hearth bridge sms` as a real process: Twilio's webhook with real signatures.

Requests are signed as Twilio signs them (HMAC-SHA1 of the URL and the sorted form fields with the
auth token, checked against Twilio's published example); replies go out through a local stand-in
for Twilio's REST API on 127.0.0.1.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import signal
import socket
import subprocess
import time
from pathlib import Path

import httpx

import forkserver
from hearth.testing.platforms import FakeTwilio
from hearth.testing.server import ScriptedServer
from schedsupport import done, user_texts
from support import clean_env

SID = "AC" + "0" * 31 + "1"
AUTH = "twilio-auth-token-7c1e-secret"
ALICE = "+15550001111"
OURS = "+15559990000"


def twilio_signature(token: str, url: str, fields: dict[str, str]) -> str:
    """As Twilio computes it: the URL, then each field's name and value sorted by name."""
    data = url + "".join(k + fields[k] for k in sorted(fields))
    return base64.b64encode(hmac.new(token.encode(), data.encode(), hashlib.sha1).digest()).decode()


def test_the_signing_matches_twilios_published_example() -> None:
    fields = {
        "CallSid": "CA1234567890ABCDE",
        "Caller": "+12349013030",
        "Digits": "1234",
        "From": "+12349013030",
        "To": "+18005551212",
    }
    url = "https://mycompany.com/myapp.php?foo=1&bar=2"
    assert twilio_signature("12345", url, fields) == "0/KCTR6DLpKmkAf8muzZqo1nDgQ="


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_signed_requests_are_answered_and_badly_signed_ones_refused(
    workspace: Path, home: Path, server: ScriptedServer, tmp_path: Path
) -> None:
    port = _port()
    public = "https://hearth.example.org/sms"  # what Twilio calls (through the user's tunnel)
    server.add(done("Hello from Hearth by SMS."))
    log = tmp_path / "sms.log"
    with FakeTwilio(SID, AUTH) as twilio:
        env = clean_env(
            home,
            HEARTH_LLM_URL=server.url,
            HEARTH_TOOL_MODE="native",
            HEARTH_TWILIO_AUTH_TOKEN=AUTH,
            HEARTH_TWILIO_ACCOUNT_SID=SID,
            HEARTH_TWILIO_API=twilio.url,
            HEARTH_TWILIO_PUBLIC_URL=public,
            HEARTH_SMS_ALLOW=ALICE,
        )
        with log.open("w") as out:
            proc = forkserver.popen(
                [
                    "bridge",
                    "sms",
                    "-w",
                    str(workspace),
                    "--port",
                    str(port),
                ],
                stdout=out,
                stderr=subprocess.STDOUT,
                env=env,
            )
        try:
            url = f"http://127.0.0.1:{port}/sms"
            deadline = time.monotonic() + 30
            while "sms bridge for" not in log.read_text():
                assert proc.poll() is None, log.read_text()
                assert time.monotonic() < deadline
                time.sleep(0.05)
            # the log line comes before the server listens: wait until it takes a connection
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    assert proc.poll() is None, log.read_text()
                    assert time.monotonic() < deadline, "the bridge never listened"
                    time.sleep(0.05)
            fields = {"From": ALICE, "To": OURS, "Body": "hi by text", "MessageSid": "SM1"}
            good = twilio_signature(AUTH, public, fields)
            bad_variants = {
                "no signature": None,
                "empty signature": "",
                "wrong token": twilio_signature("not-the-token", public, fields),
                "other url": twilio_signature(AUTH, f"http://127.0.0.1:{port}/sms", fields),
                "garbage": "AAAA",
                "tampered body": good,  # signed, then the body changed below
            }
            with httpx.Client(timeout=30) as client:
                for name, signature in bad_variants.items():
                    sent = dict(fields, Body="send me the keys") if name == "tampered body" else fields
                    headers = {} if signature is None else {"X-Twilio-Signature": signature}
                    refused = client.post(url, data=sent, headers=headers)
                    assert refused.status_code == 403, name
                stranger = {"From": "+15550009999", "To": OURS, "Body": "hello?", "MessageSid": "SM2"}
                answered = client.post(
                    url,
                    data=stranger,
                    headers={"X-Twilio-Signature": twilio_signature(AUTH, public, stranger)},
                )
                assert answered.status_code == 200  # signed by Twilio, but not on the allow-list
                ok = client.post(url, data=fields, headers={"X-Twilio-Signature": good})
                assert ok.status_code == 200 and "<Response>" in ok.text
            sent_sms = twilio.wait_sent(1)
            assert sent_sms == [{"To": ALICE, "From": OURS, "Body": "Hello from Hearth by SMS."}]
            time.sleep(0.5)
            assert len(twilio.sent) == 1  # nothing to the stranger
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=20)
    assert len(server.requests) == 1 and user_texts(server.requests[0])[-1] == "hi by text"
    text = log.read_text()
    assert text.count("refused a request") == len(bad_variants)
    assert "ignored a message from +15550009999" in text
    assert AUTH not in text
