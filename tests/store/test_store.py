"""The SQLite event store: real files, real concurrent processes."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from hearth.core.errors import HearthError
from hearth.core.events import Finished, ModelReply, Status, UserMessage
from hearth.core.types import Usage
from hearth.store.sessions import SessionStore


def test_events_round_trip_in_order(tmp_path: Path) -> None:
    store = SessionStore(tmp_path / "s.db")
    sid = store.create("/w", "m")
    store.append(sid, UserMessage(text="fix the bug"))
    store.append(
        sid, ModelReply(text="ok", usage=Usage(prompt_tokens=100, cached_tokens=80, completion_tokens=5))
    )
    store.append(sid, Finished(status=Status.DONE))
    events = SessionStore(tmp_path / "s.db").events(sid)
    assert [e.kind for e in events] == ["user_message", "model_reply", "finished"]
    assert isinstance(events[1], ModelReply) and events[1].usage.cached_tokens == 80
    info = store.get(sid)
    assert (info.title, info.status, info.prompt_tokens, info.cached_tokens) == (
        "fix the bug",
        "done",
        100,
        80,
    )


def test_database_uses_wal(tmp_path: Path) -> None:
    SessionStore(tmp_path / "s.db")
    mode = sqlite3.connect(tmp_path / "s.db").execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


def test_resolve_by_unique_prefix(tmp_path: Path) -> None:
    store = SessionStore(tmp_path / "s.db")
    a = store.create("/w", "m", session_id="20260101-000000-aaaaaa")
    store.create("/w", "m", session_id="20260101-000000-abbbbb")
    assert store.resolve("20260101-000000-aa") == a
    with pytest.raises(HearthError, match="matches 2 sessions"):
        store.resolve("20260101-000000-a")
    with pytest.raises(HearthError, match="No session"):
        store.resolve("zzz")
    # LIKE wildcards in the prefix are taken literally:
    with pytest.raises(HearthError):
        store.resolve("%")


def test_usage_by_time_range(tmp_path: Path) -> None:
    store = SessionStore(tmp_path / "s.db")
    sid = store.create("/w", "m")
    old = datetime.now(UTC) - timedelta(days=3)
    store.append(sid, ModelReply(ts=old, usage=Usage(prompt_tokens=1000, completion_tokens=10)))
    store.append(sid, ModelReply(usage=Usage(prompt_tokens=200, cached_tokens=150, completion_tokens=20)))
    today = store.usage(since=datetime.now(UTC) - timedelta(hours=1))
    assert (today.prompt_tokens, today.cached_tokens, today.completion_tokens, today.requests) == (
        200,
        150,
        20,
        1,
    )
    assert store.usage().prompt_tokens == 1200


def test_two_processes_append_to_one_session_without_losing_events(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    store = SessionStore(db)
    sid = store.create("/w", "m")
    code = (
        "import sys; from pathlib import Path\n"
        "from hearth.store.sessions import SessionStore\n"
        "from hearth.core.events import UserMessage\n"
        "s = SessionStore(Path(sys.argv[1]))\n"
        "for i in range(150): s.append(sys.argv[2], UserMessage(text=sys.argv[3] + str(i)))\n"
    )
    procs = [subprocess.Popen([sys.executable, "-c", code, str(db), sid, tag]) for tag in ("a", "b", "c")]
    assert [p.wait(timeout=60) for p in procs] == [0, 0, 0]
    events = store.events(sid)
    assert len(events) == 450
    texts = {e.text for e in events if isinstance(e, UserMessage)}
    assert len(texts) == 450


def test_a_damaged_database_gets_a_clear_message(tmp_path: Path) -> None:
    bad = tmp_path / "s.db"
    bad.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(HearthError, match="Cannot open the session database"):
        SessionStore(bad)
