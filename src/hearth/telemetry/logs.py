"""Structured logs: one JSON object per line in a file, every secret masked.

`log_level` (debug, info, warning, error, off) and `log_file` (default: `logs/hearth.log` in the
workspace's state folder, outside the workspace) come from the settings (`--log-level`, `--log-file`,
HEARTH_LOG_LEVEL, HEARTH_LOG_FILE). Masking is done on each finished line, so it covers the
message, its arguments, extra fields and tracebacks alike: the configured keys (the model
server's, the search provider's, every role's, the web token) by value, and anything shaped like
a key (`sk-...`, `Bearer ...`, `api_key=...`, `"token": "..."`, a URL's password) by pattern.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from hearth.core import environment
from hearth.core.text import shown_url
from hearth.runtime.config import Settings, state_dir

MASK = "***"
LEVELS = {"debug": logging.DEBUG, "info": logging.INFO, "warning": logging.WARNING, "error": logging.ERROR}
_STANDARD = set(logging.makeLogRecord({}).__dict__) | {"message", "asctime"}
_PATTERNS = [
    re.compile(r"\bsk-[A-Za-z0-9_\-]{6,}"),  # OpenAI-style keys
    re.compile(r"(?i)\b(bearer|basic)\s+[A-Za-z0-9._~+/=\-]{6,}"),
    re.compile(  # key=value, key: value, "key": "value"
        r"""(?i)((?:api[_-]?key|apikey|access[_-]?token|auth[_-]?token|token|secret|password|passwd)"""
        r"""\\?["']?\s*[:=]\s*\\?["']?)([^\s"'\\&,;}]{4,})"""
    ),
    re.compile(
        r"(?i)(x-api-key|x-subscription-token|authorization)(\\?[\"']?\s*[:=]\s*\\?[\"']?)"
        r"((?:bearer|basic)\s+)?([^\s\"'\\]+)"
    ),
    re.compile(r"(?<=://)([^/\s:@]+):([^/\s@]+)@"),  # user:password@host
]


def secrets_of(settings: Settings) -> list[str]:
    """The secret values the settings hold (model, search and role keys; the web token)."""
    values = [settings.model.api_key.get_secret_value(), settings.web.search_api_key.get_secret_value()]
    values += [row.api_key.get_secret_value() for row in settings.model.roles.values()]
    values.append(environment.web_token())
    return [v for v in values if len(v) >= 4]


def mask(text: str, secrets: Iterable[str] = ()) -> str:
    for value in sorted(set(secrets), key=len, reverse=True):
        text = text.replace(value, MASK)
    text = shown_url(text)  # a URL's user or password, its api_key= / token= query
    text = _PATTERNS[0].sub(MASK, text)
    text = _PATTERNS[1].sub(lambda m: f"{m.group(1)} {MASK}", text)
    text = _PATTERNS[2].sub(lambda m: m.group(1) + MASK, text)
    text = _PATTERNS[3].sub(lambda m: m.group(1) + m.group(2) + (m.group(3) or "") + MASK, text)
    return _PATTERNS[4].sub(lambda m: f"{m.group(1)}:{MASK}@", text)


class JsonLines(logging.Formatter):
    """{"ts", "level", "logger", "message", ...extra fields, "error"?} with secrets masked."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        super().__init__()
        self.secrets = list(secrets)

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        out |= {k: v for k, v in record.__dict__.items() if k not in _STANDARD and not k.startswith("_")}
        if record.exc_info:
            out["error"] = self.formatException(record.exc_info)
        return mask(json.dumps(out, ensure_ascii=False, default=str), self.secrets)


class _HearthHandler(logging.FileHandler):
    """Marks the handler Hearth installed, so configuring again replaces it."""


def configure_logging(settings: Settings) -> Path | None:
    """Send log records (Hearth's and its libraries') to the log file; the file, or None when off."""
    root = logging.getLogger()
    for old in [h for h in root.handlers if isinstance(h, _HearthHandler)]:
        root.removeHandler(old)
        old.close()
    level = settings.telemetry.log_level.lower()
    if level == "off":
        return None
    path = Path(settings.telemetry.log_file).expanduser() if settings.telemetry.log_file else None
    if path is None:
        path = state_dir(settings.workspace) / "logs" / "hearth.log"
    path.parent.mkdir(parents=True, exist_ok=True)
    handler = _HearthHandler(path, encoding="utf-8", delay=True)
    handler.setFormatter(JsonLines(secrets_of(settings)))
    handler.setLevel(LEVELS[level])
    root.addHandler(handler)
    if root.level > LEVELS[level] or root.level == logging.NOTSET:
        root.setLevel(LEVELS[level])
    return path
