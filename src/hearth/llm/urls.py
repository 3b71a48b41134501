"""Accept the URL forms users paste: a base URL or a full chat-completions URL."""

from __future__ import annotations

from urllib.parse import urlsplit

from hearth.core.errors import ConfigError

_SUFFIXES = ("/chat/completions", "/completions", "/models")


def normalize_base_url(url: str) -> str:
    """`http://h:1234/v1/chat/completions` and `http://h:1234` both give `http://h:1234/v1`."""
    raw = url.strip()
    if "://" not in raw:
        raw = "http://" + raw
    parts = urlsplit(raw)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConfigError(
            f"Model server URL {url!r} is not an http(s) URL.",
            "Set HEARTH_LLM_URL to something like http://127.0.0.1:1234/v1",
        )
    path = parts.path.rstrip("/")
    for suffix in _SUFFIXES:
        if path.endswith(suffix):
            path = path[: -len(suffix)]
            break
    if not path:
        path = "/v1"
    netloc = parts.netloc
    return f"{parts.scheme}://{netloc}{path}"


def server_root(base_url: str) -> str:
    """`http://h:1234/v1` gives `http://h:1234` (where /props and /api/show live)."""
    parts = urlsplit(base_url)
    return f"{parts.scheme}://{parts.netloc}"
