"""`get_time`: the machine's time with its zone."""

from __future__ import annotations

import asyncio
import os
import time
from datetime import datetime
from pathlib import Path

from hearth.sandbox.paths import SafePaths
from hearth.tools.base import RunContext
from hearth.tools.builtin.clock import GetTimeInput, clock_tools


def test_get_time_names_the_zone(workspace: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("TZ", "Asia/Tokyo")
    time.tzset()
    try:
        (tool,) = clock_tools()
        out = asyncio.run(tool.run(GetTimeInput(), RunContext(paths=SafePaths(workspace))))
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()
    assert "JST" in out and "UTC+0900" in out
    stamp = out.rsplit("ISO ", 1)[1]
    assert abs((datetime.fromisoformat(stamp) - datetime.now().astimezone()).total_seconds()) < 5
    assert tool.read_only and os.environ.get("TZ") is None
