"""`mcp.json` files in the common format: `{"mcpServers": {name: {...}}}`.

A server is a command (`command`, `args`, `env`, `cwd`) spoken to over stdio, or a
`url` (with `headers`) for Streamable HTTP. Each may also set `enabled`,
`enabled_tools`, `disabled_tools`, `startup_timeout` and `tool_timeout` (seconds),
and `network` (may the sandboxed command use the network; off by default).

The user's file lives in their config folder. A workspace's files
(`.hearth/mcp.json`, `.mcp.json`) are read only once the user approved them as they
are now (their fingerprint): a workspace file can name a command, and starting it
unapproved would run code from whoever wrote the folder.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hearth.core.errors import ConfigError

WORKSPACE_FILES = (".hearth/mcp.json", ".mcp.json")
NAME = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
DEFAULT_STARTUP_TIMEOUT = 10.0
DEFAULT_TOOL_TIMEOUT = 60.0
KNOWN = {
    "command",
    "args",
    "env",
    "cwd",
    "url",
    "headers",
    "enabled",
    "enabled_tools",
    "disabled_tools",
    "startup_timeout",
    "tool_timeout",
    "network",
    "type",
    "transport",
}


@dataclass(frozen=True)
class ServerConfig:
    name: str
    source: str  # the file it came from
    command: str = ""
    args: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)
    cwd: str | None = None
    url: str = ""
    headers: dict[str, str] = field(default_factory=dict)
    enabled: bool = True
    enabled_tools: tuple[str, ...] | None = None
    disabled_tools: tuple[str, ...] = ()
    startup_timeout: float = DEFAULT_STARTUP_TIMEOUT
    tool_timeout: float = DEFAULT_TOOL_TIMEOUT
    network: bool = False

    @property
    def transport(self) -> str:
        return "http" if self.url else "stdio"

    def wants(self, tool: str) -> bool:
        if self.enabled_tools is not None and tool not in self.enabled_tools:
            return False
        return tool not in self.disabled_tools

    def describe(self) -> str:
        return self.url if self.url else " ".join([self.command, *self.args])


def read_servers(path: Path) -> list[ServerConfig]:
    """The servers a file names; a missing file names none. Errors say the file and the entry."""
    if not path.is_file():
        return []
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ConfigError(f"Cannot read {path}: {exc}", "Fix the JSON in that file.") from None
    servers = data.get("mcpServers", {}) if isinstance(data, dict) else None
    if not isinstance(servers, dict):
        raise ConfigError(f"{path}: `mcpServers` must be an object of servers.", 'Write {"mcpServers": {}}.')
    return [_server(name, entry, path) for name, entry in servers.items()]


def _server(name: str, entry: Any, path: Path) -> ServerConfig:
    where = f"{path}: server {name!r}"
    if not NAME.match(name):
        raise ConfigError(f"{where}: a name is 1-32 letters, digits, _ or -.", "Rename the server.")
    if not isinstance(entry, dict):
        raise ConfigError(f"{where} must be an object.", "See README, MCP servers.")
    unknown = sorted(set(entry) - KNOWN)
    if unknown:
        raise ConfigError(
            f"{where}: unknown setting {', '.join(unknown)}.", f"Known: {', '.join(sorted(KNOWN))}."
        )
    command, url = entry.get("command", ""), entry.get("url", "")
    if bool(command) == bool(url):
        raise ConfigError(f"{where} needs either `command` or `url`.", "Give exactly one of them.")
    try:
        return ServerConfig(
            name=name,
            source=str(path),
            command=_text(command),
            args=tuple(_text(a) for a in _list(entry.get("args", []))),
            env={_text(k): _text(v) for k, v in _dict(entry.get("env", {})).items()},
            cwd=_text(entry["cwd"]) if entry.get("cwd") else None,
            url=_text(url),
            headers={_text(k): _text(v) for k, v in _dict(entry.get("headers", {})).items()},
            enabled=_bool(entry.get("enabled", True)),
            enabled_tools=tuple(_text(t) for t in _list(entry["enabled_tools"]))
            if entry.get("enabled_tools") is not None
            else None,
            disabled_tools=tuple(_text(t) for t in _list(entry.get("disabled_tools", []))),
            startup_timeout=_seconds(entry.get("startup_timeout", DEFAULT_STARTUP_TIMEOUT)),
            tool_timeout=_seconds(entry.get("tool_timeout", DEFAULT_TOOL_TIMEOUT)),
            network=_bool(entry.get("network", False)),
        )
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"{where}: {exc}", "See README, MCP servers.") from None


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"expected text, got {value!r}")
    return value


def _list(value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise TypeError(f"expected a list, got {value!r}")
    return value


def _dict(value: Any) -> dict[Any, Any]:
    if not isinstance(value, dict):
        raise TypeError(f"expected an object, got {value!r}")
    return value


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"expected true or false, got {value!r}")
    return value


def _seconds(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= 3600:
        raise ValueError(f"a timeout is a number of seconds (0-3600), got {value!r}")
    return float(value)


def workspace_files(workspace: Path) -> list[Path]:
    return [workspace / rel for rel in WORKSPACE_FILES if (workspace / rel).is_file()]


def workspace_fingerprint(workspace: Path) -> str:
    """Changes whenever a workspace's MCP files are added, removed or changed."""
    digest = hashlib.sha256()
    for rel in WORKSPACE_FILES:
        path = workspace / rel
        digest.update(rel.encode() + b"\0")
        with contextlib.suppress(OSError):
            digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


def edit_user_file(path: Path, name: str, entry: dict[str, Any] | None) -> bool:
    """Add or replace (`entry`) or remove (None) one server in the user's file; False if absent."""
    data: dict[str, Any] = {"mcpServers": {}}
    if path.is_file():
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise ConfigError(f"Cannot read {path}: {exc}", "Fix the JSON in that file.") from None
    servers = data.setdefault("mcpServers", {})
    if entry is None:
        if servers.pop(name, None) is None:
            return False
    else:
        _server(name, entry, path)  # refuse what could not be read back
        servers[name] = entry
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".mcp-", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh, indent=2)
            fh.write("\n")
        os.chmod(tmp, 0o600)  # may hold tokens in env or headers
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return True


def workspace_servers(workspace: Path) -> list[ServerConfig]:
    out: list[ServerConfig] = []
    for path in workspace_files(workspace):
        out += read_servers(path)
    return out
