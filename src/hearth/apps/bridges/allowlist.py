"""Who a bridge answers: the platform's immutable id of each sender, never a name.

A display name (Discord's `global_name`), a username (`@name` on Telegram or Discord) or a
contact name can be set, changed or taken over by anyone, so the allow-lists hold ids only:
Discord and Telegram user ids (digits), phone numbers for SMS and WhatsApp. An entry that is not
an id is a configuration error, said with what to put instead, so a list written for the old
name matching cannot quietly let no one (or the wrong one) in.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from hearth.core.errors import HearthError

_DIGITS = re.compile(r"\d{1,20}")
_PHONE_NOISE = re.compile(r"[\s\-().]")

WHAT = {
    "telegram": "Telegram user ids (digits, e.g. 123456789; a bot such as @userinfobot tells you yours)",
    "discord": "Discord user ids (digits, e.g. 80351110224678912; Developer Mode, right-click, Copy User ID)",
    "sms": "phone numbers such as +15551234567",
    "whatsapp": "phone numbers such as 79001234567 (or 79001234567@c.us)",
}


def sender_key(platform: str, sender: str) -> str:
    """The form an id is compared in: phone numbers without `+`, separators or `@c.us`."""
    text = sender.strip()
    if platform in ("sms", "whatsapp"):
        if platform == "whatsapp" and text.endswith("@c.us"):
            text = text[: -len("@c.us")]
        text = _PHONE_NOISE.sub("", text).removeprefix("+")
    return text


def allowed_ids(platform: str, entries: Iterable[str]) -> frozenset[str]:
    """The ids an allow-list names; a HearthError naming every entry that is not an id."""
    ids: set[str] = set()
    bad: list[str] = []
    for entry in entries:
        if not entry.strip():
            continue
        key = sender_key(platform, entry)
        if _DIGITS.fullmatch(key):
            ids.add(key)
        else:
            bad.append(entry.strip())
    if bad:
        shown = ", ".join(repr(b) for b in bad)
        raise HearthError(
            f"{platform}_allow holds {shown}, which is not an id: the bridge matches senders by "
            "their immutable id only, never by a name anyone can set or take over.",
            f"Put {WHAT.get(platform, 'ids')} in {platform}_allow (HEARTH_{platform.upper()}_ALLOW).",
        )
    return frozenset(ids)
