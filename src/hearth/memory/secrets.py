"""What memory refuses to keep: text holding a key-shaped string or a secret assignment."""

from __future__ import annotations

import re

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


def holds_secret(text: str) -> bool:
    if _SECRET.search(text):
        return True
    return any(_looks_random(m.group(0)) for m in _LONG_TOKEN.finditer(text))
