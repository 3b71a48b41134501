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
