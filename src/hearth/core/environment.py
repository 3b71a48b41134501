"""What Hearth reads from its own process environment, in one place.

The settings (`HEARTH_*` and the seeds' names such as `LLM_URL`) are read by
`hearth.runtime.config.load_settings` from `variables()`. The few other variables Hearth
honours are read here, each through a function named for what it means. Environments built
for child processes (the sandbox's, git's, the embedded server's, the bench's agents') are
not reads of settings and stay with the code that builds them; so do the test suite's own
switches.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

# The web UI's login token, when the person chose one (else Hearth keeps its own in the data folder).
WEB_TOKEN = "HEARTH_WEB_TOKEN"
# How a session hands the server and model it used to its detached reflection (a child process).
REFLECT_FLAGS = "HEARTH_REFLECT_FLAGS"
# OpenTelemetry's own variables for the exporter's timeout: set, they win over Hearth's short one.
OTEL_TIMEOUT_VARIABLES = ("OTEL_EXPORTER_OTLP_TRACES_TIMEOUT", "OTEL_EXPORTER_OTLP_TIMEOUT")


def variables() -> Mapping[str, str]:
    """The whole environment, for the settings loader."""
    return os.environ


def web_token() -> str:
    return os.environ.get(WEB_TOKEN, "").strip()


def reflect_flags() -> str:
    return os.environ.get(REFLECT_FLAGS, "")


def zone() -> str:
    """`TZ` as an IANA name ("" when unset): the machine's time zone when it is set."""
    return os.environ.get("TZ", "").lstrip(":")


def otel_service_named() -> bool:
    """The person named this service for OpenTelemetry (their name wins over Hearth's)."""
    return bool(os.environ.get("OTEL_SERVICE_NAME"))


def otel_timeout_set() -> bool:
    return any(os.environ.get(name) for name in OTEL_TIMEOUT_VARIABLES)


def values_named(pattern: re.Pattern[str]) -> list[str]:
    """The values of the variables whose names match `pattern` (e.g. every `*_API_KEY`)."""
    return [value for name, value in os.environ.items() if pattern.search(name)]
