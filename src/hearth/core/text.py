"""Text cleaners every layer uses: for a prompt, a terminal, a web page or a JSON message."""

from __future__ import annotations

import re

_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def cap_text(text: str, limit: int) -> str:
    """Keep the head and the tail; mark what was left out in the middle."""
    if len(text) <= limit:
        return text
    head = limit * 2 // 3
    tail = limit - head
    cut = len(text) - head - tail
    return f"{text[:head]}\n[… {cut} characters cut …]\n{text[-tail:]}"


def strip_control(text: str) -> str:
    """Remove ANSI escapes, control and bidi characters (keeps newlines and tabs).

    A carriage return that would overwrite a line becomes a newline, so nothing hides.
    """
    text = _ANSI.sub("", text)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return _CONTROL.sub("", text)


_URL_USERINFO = re.compile(r"(?i)\b([a-z][a-z0-9+.\-]*://)([^/\s@?#]*)@")
_URL_SECRET_PARAM = re.compile(
    r"(?i)([?&;](?:api[_-]?key|apikey|key|access[_-]?token|auth[_-]?token|token|secret|password|passwd|pass"
    r"|sig|signature|code|client[_-]?secret|x-api-key)=)[^&#\s]*"
)


def shown_url(text: str) -> str:
    """`text` with the credentials of every URL in it masked: `user:pass@` becomes `***@`, and a
    query's `api_key=`, `token=`, `key=`, `password=` ... values become `***`.

    For everything that shows or keeps a server address: events (SessionStarted), banners, logs,
    exports. The user name is masked too, as some services take the key as the user name."""
    text = _URL_USERINFO.sub(lambda m: f"{m.group(1)}***@", text)
    return _URL_SECRET_PARAM.sub(lambda m: f"{m.group(1)}***", text)
