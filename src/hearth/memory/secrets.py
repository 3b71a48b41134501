"""What memory refuses to keep: text holding a key-shaped string or a secret assignment, or any
value the caller knows to be secret (`SecretValues`: the values in the workspace's secret files,
found by the file tools' own predicate, and in secret-named environment variables)."""

from __future__ import annotations

import re
from collections.abc import Iterable

# Known key prefixes (cloud, forge, chat and model-provider tokens), private key blocks,
# JWTs, and `password = ...`-style assignments with a value.
_PATTERNS = [
    r"-----BEGIN [A-Z ]*PRIVATE KEY-----",
    r"\bAKIA[0-9A-Z]{16}\b",
    r"\bASIA[0-9A-Z]{16}\b",
    r"\bgh[pousr]_[A-Za-z0-9]{20,}\b",
    r"\bgithub_pat_[A-Za-z0-9_]{20,}\b",
    r"\bglpat-[A-Za-z0-9_-]{16,}\b",
    r"\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{16,}\b",
    r"\bxox[abposr]-[A-Za-z0-9-]{10,}\b",
    r"\bAIza[0-9A-Za-z_-]{30,}\b",
    r"\bhf_[A-Za-z0-9]{20,}\b",
    r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}",
    r"(?i:\b(?:password|passwd|pwd|secret|api[_-]?key|access[_-]?key|auth[_-]?token|token|private[_-]?key)"
    r"\s*[:=]\s*['\"]?[^\s'\"]{6,})",
]
_SECRET = re.compile("|".join(f"(?:{p})" for p in _PATTERNS))
# A long unbroken run of mixed letters and digits looks like a key even without a known prefix.
_LONG_TOKEN = re.compile(r"[A-Za-z0-9+/_=-]{32,}")


def _looks_random(tok: str) -> bool:
    classes = sum(bool(re.search(p, tok)) for p in (r"[a-z]", r"[A-Z]", r"[0-9]"))
    return classes >= 3 or (classes == 2 and bool(re.search(r"[0-9]", tok)) and len(tok) >= 40)


MIN_VALUE = 8  # shorter values (`true`, `5432`) are too common to be told apart from ordinary text


class SecretValues:
    """Known secret values; `in_text` finds any of them in a text (case-sensitive, as written)."""

    def __init__(self, values: Iterable[str] = ()) -> None:
        self.values = frozenset(v for v in (x.strip() for x in values) if len(v) >= MIN_VALUE)

    def in_text(self, text: str) -> bool:
        return any(v in text for v in self.values)


def assigned_values(content: str) -> list[str]:
    """The values a secret file holds: the right side of each `NAME=value` / `name: value` line
    (quotes and `export` dropped), and every other non-comment line whole (key material)."""
    out = []
    for raw in content.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";", "[", "-----")):
            continue
        m = re.match(r"(?:export\s+)?[\w.\-\[\] ]{1,80}?\s*[=:]\s*(.*)$", line)
        value = m.group(1) if m else line
        out.append(value.strip().strip("'\""))
    return out


def holds_secret(text: str, known: SecretValues | None = None) -> bool:
    if known is not None and known.in_text(text):
        return True
    if _SECRET.search(text):
        return True
    return any(_looks_random(m.group(0)) for m in _LONG_TOKEN.finditer(text))
