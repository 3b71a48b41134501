"""What the scheduler's tests share: a clock they move, and a runtime against the scripted server."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from hearth.runtime.config import Settings, load_settings
from hearth.testing.script import ScriptedCall, ScriptedReply
from hearth.testing.server import ScriptedServer


class FakeClock:
    """The scheduler's clock, moved by the test (no sleeps)."""

    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> datetime:
        self.now += timedelta(**delta)
        return self.now

    def set(self, when: datetime) -> datetime:
        self.now = when.astimezone(UTC)
        return self.now


def settings_for(
    workspace: Path, home: Path, server: ScriptedServer, monkeypatch: pytest.MonkeyPatch, **flags: Any
) -> Settings:
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local/share"))
    given = {"workspace": workspace, "llm_url": server.url, "tool_mode": "native", "retries": 0, **flags}
    return load_settings(given, environ={}, cwd=workspace, user_file=home / "none.toml").settings


def call(name: str, **arguments: Any) -> ScriptedReply:
    return ScriptedReply(tool_calls=[ScriptedCall(name=name, arguments=arguments)])


def done(text: str = "All done.") -> ScriptedReply:
    return ScriptedReply(text=f"{text}\nTASK_COMPLETE")


def user_texts(request: dict[str, Any]) -> list[str]:
    return [str(m.get("content")) for m in request["messages"] if m.get("role") == "user"]
