"""Keep a bridge's secrets (bot tokens, auth tokens) out of everything it prints or logs.

The Telegram Bot API puts the token in every URL, and HTTP libraries log URLs and put them in
their exceptions' text. So, as a class: every line the bridge writes goes through `scrub`, the
logging system gets a filter that scrubs every record (whichever library made it), and the HTTP
libraries' request logs are kept below INFO.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable, Iterable
from datetime import datetime
from urllib.parse import quote

MASK = "[secret]"
CHATTY = ("httpx", "httpcore", "telegram", "twilio", "urllib3", "aiohttp", "whatsapp-api-client-python")


class Scrubber(logging.Filter):
    def __init__(self, secrets: Iterable[str]) -> None:
        super().__init__()
        spellings: set[str] = set()
        for secret in secrets:
            if len(secret) >= 6:
                spellings.update({secret, quote(secret, safe=""), quote(secret)})
        self.spellings = sorted(spellings, key=len, reverse=True)

    def scrub(self, text: str) -> str:
        for spelling in self.spellings:
            text = text.replace(spelling, MASK)
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cleaned = self.scrub(message)
        if cleaned != message or record.exc_info:
            record.msg = cleaned
            record.args = None
            if record.exc_info:
                import traceback

                record.msg = (
                    cleaned + "\n" + self.scrub("".join(traceback.format_exception(*record.exc_info)))
                )
                record.exc_info = None
                record.exc_text = None
        return True


def quiet_logging(scrubber: Scrubber) -> None:
    """Log warnings and worse to stderr, every record scrubbed; the HTTP libraries' chatter off."""
    handler = logging.StreamHandler(sys.stderr)
    handler.addFilter(scrubber)
    root = logging.getLogger()
    for old in list(root.handlers):
        old.addFilter(scrubber)
    root.addHandler(handler)
    root.setLevel(logging.WARNING)
    guard_loggers(scrubber)


def guard_loggers(scrubber: Scrubber) -> None:
    """The HTTP and platform libraries' loggers: below INFO off, every record scrubbed (the filter
    on the logger works before any handler, their own ones too)."""
    for name in CHATTY:
        logger = logging.getLogger(name)
        logger.setLevel(logging.WARNING)
        logger.addFilter(scrubber)


def printer(scrubber: Scrubber) -> Callable[[str], None]:
    def log(line: str) -> None:
        sys.stdout.write(f"{datetime.now().strftime('%H:%M:%S')} {scrubber.scrub(line)}\n")
        sys.stdout.flush()

    return log
