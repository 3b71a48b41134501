"""Schedule formats fire at their times; missed runs follow each job's policy.

A real SQLite store file and the real JobBook, with a clock the test moves instead of sleeping.
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from hearth.core.errors import HearthError
from hearth.schedule.formats import BadSchedule, parse_at, parse_schedule, zone
from hearth.schedule.jobs import Broken, Fired, JobBook, Skipped
from hearth.schedule.store import ScheduleStore, job_fingerprint
from schedsupport import FakeClock

BERLIN = "Europe/Berlin"


def _book(tmp_path: Path, clock: FakeClock, tz: str = "UTC") -> JobBook:
    return JobBook(ScheduleStore(tmp_path / "sessions.db"), tz, clock)


def _fired_ids(results: list[Fired | Skipped | Broken]) -> list[str]:
    return [r.job.id for r in results if isinstance(r, Fired)]


def _at(text: str) -> datetime:
    return datetime.fromisoformat(text)


GRACE = timedelta(seconds=60)


def test_each_format_fires_at_its_time(tmp_path: Path) -> None:
    clock = FakeClock(_at("2026-06-01T08:05:00+00:00"))
    book = _book(tmp_path, clock)
    book.add("every", "every 30m", "interval")
    book.add("daily", "daily 09:00", "morning", tz=BERLIN)  # 07:00 UTC in summer
    book.add("hourly", "hourly :15", "quarter past")
    book.add("cron", "*/10 * * * *", "every ten minutes")
    book.add("boot", "startup", "on start")
    nexts = {j.id: j.next_run for j in book.store.jobs()}
    assert nexts == {
        "boot": None,
        "cron": _at("2026-06-01T08:10:00+00:00"),
        "daily": _at("2026-06-02T07:00:00+00:00"),
        "every": _at("2026-06-01T08:35:00+00:00"),
        "hourly": _at("2026-06-01T08:15:00+00:00"),
    }
    assert book.due(GRACE) == []  # nothing before its time
    clock.set(_at("2026-06-01T08:10:00+00:00"))
    assert _fired_ids(book.due(GRACE)) == ["cron"]
    assert book.due(GRACE) == []  # fired once per time, however often the scheduler looks
    clock.set(_at("2026-06-01T08:15:30+00:00"))
    assert _fired_ids(book.due(GRACE)) == ["hourly"]
    clock.set(_at("2026-06-01T08:35:00+00:00"))
    assert sorted(_fired_ids(book.due(GRACE))) == ["every"]
    clock.set(_at("2026-06-02T07:00:00+00:00"))
    assert "daily" in _fired_ids(book.due(GRACE))
    assert book.store.job("daily").next_run == _at("2026-06-03T07:00:00+00:00")
    assert [f.job.id for f in book.startup()] == ["boot"]
    queued = [r for r in book.store.runs() if r.status == "queued"]
    assert {r.job_id for r in queued} >= {"cron", "hourly", "every", "daily", "boot"}


def test_a_daily_time_stays_put_across_daylight_saving(tmp_path: Path) -> None:
    clock = FakeClock(_at("2026-03-28T12:00:00+00:00"))  # Berlin moves to summer time on 29 March
    book = _book(tmp_path, clock)
    job = book.add("daily", "daily 09:00", "morning", tz=BERLIN)
    assert job.next_run == _at("2026-03-29T07:00:00+00:00")  # 09:00 CEST
    clock.set(_at("2026-03-29T07:00:00+00:00"))
    assert _fired_ids(book.due(GRACE)) == ["daily"]
    assert book.store.job("daily").next_run == _at("2026-03-30T07:00:00+00:00")
    clock.set(_at("2026-10-24T12:00:00+00:00"))
    book.resume("daily")  # recomputed from now: the winter change on 25 October
    assert book.store.job("daily").next_run == _at("2026-10-25T08:00:00+00:00")  # 09:00 CET


@pytest.mark.parametrize(
    "text",
    [
        "",
        "every",
        "every 0m",
        "every 5 weeks",
        "daily 25:00",
        "daily 9",
        "hourly 15",
        "hourly :75",
        "* * *",
        "61 * * * *",
        "*/5 * * * * * * *",
        "tomorrow",
        "rm -rf /",
    ],
)
def test_a_malformed_schedule_is_refused_with_the_formats(text: str, tmp_path: Path) -> None:
    with pytest.raises(BadSchedule) as err:
        parse_schedule(text)
    assert err.value.hint.startswith("Use ")  # the hint says what works
    book = _book(tmp_path, FakeClock(_at("2026-06-01T08:00:00+00:00")))
    with pytest.raises(HearthError):
        book.add("bad", text, "never")
    assert book.store.jobs() == []


def test_bad_names_zones_and_policies_are_refused(tmp_path: Path) -> None:
    book = _book(tmp_path, FakeClock(_at("2026-06-01T08:00:00+00:00")))
    with pytest.raises(HearthError, match="time zone"):
        book.add("a", "daily 09:00", "x", tz="Mars/Olympus")
    with pytest.raises(HearthError, match="missed-run policy"):
        book.add("a", "daily 09:00", "x", missed="twice")
    with pytest.raises(HearthError, match="job name"):
        book.add("../etc", "daily 09:00", "x")
    with pytest.raises(HearthError, match="no prompt"):
        book.add("a", "daily 09:00", "   ")
    book.add("a", "daily 09:00", "x")
    with pytest.raises(HearthError, match="already"):
        book.add("a", "hourly :00", "y")


def test_missed_runs_follow_each_jobs_policy(tmp_path: Path) -> None:
    clock = FakeClock(_at("2026-06-01T08:00:00+00:00"))
    book = _book(tmp_path, clock)
    book.add("skipper", "hourly :30", "skip what was missed", missed="skip")
    book.add("catcher", "hourly :30", "catch up once", missed="once")
    clock.set(_at("2026-06-01T13:10:00+00:00"))  # down from 08:00 to 13:10: five :30s missed
    results = book.due(GRACE)
    fired = [r for r in results if isinstance(r, Fired)]
    skipped = [r for r in results if isinstance(r, Skipped)]
    assert [f.job.id for f in fired] == ["catcher"] and fired[0].late
    assert [s.job.id for s in skipped] == ["skipper"]
    runs = {(r.job_id, r.status) for r in book.store.runs()}
    assert runs == {("catcher", "queued"), ("skipper", "skipped")}
    assert len(book.store.runs("catcher")) == 1  # once, not five times
    for job in book.store.jobs():
        assert job.next_run == _at("2026-06-01T13:30:00+00:00")  # the next time after now
    assert book.due(GRACE) == []
    clock.set(_at("2026-06-01T13:30:20+00:00"))  # on time again: both run
    assert sorted(_fired_ids(book.due(GRACE))) == ["catcher", "skipper"]


def test_a_paused_job_does_not_run_and_resumes_without_a_backlog(tmp_path: Path) -> None:
    clock = FakeClock(_at("2026-06-01T08:00:00+00:00"))
    book = _book(tmp_path, clock)
    book.add("j", "every 10m", "tick", missed="once")
    book.pause("j")
    clock.advance(hours=2)
    assert book.due(GRACE) == []
    job = book.resume("j")
    assert job.next_run is not None and job.next_run > clock.now
    assert book.due(GRACE) == []


def test_submit_times_are_read_in_the_zone() -> None:
    now = _at("2026-06-01T08:00:00+00:00")
    berlin = zone(BERLIN)
    assert parse_at("+30m", now, berlin) == _at("2026-06-01T08:30:00+00:00")
    assert parse_at("in 2h", now, berlin) == _at("2026-06-01T10:00:00+00:00")
    assert parse_at("09:00", now, berlin) == _at("2026-06-02T07:00:00+00:00")  # 10:00 there: tomorrow
    assert parse_at("11:00", now, berlin) == _at("2026-06-01T09:00:00+00:00")
    assert parse_at("2026-07-01T09:00", now, berlin) == _at("2026-07-01T07:00:00+00:00")
    assert parse_at("2026-07-01T09:00+00:00", now, berlin) == _at("2026-07-01T09:00:00+00:00")
    with pytest.raises(HearthError, match="Cannot read the time"):
        parse_at("next tuesday", now, berlin)


def test_the_store_keeps_jobs_and_runs_across_opens(tmp_path: Path) -> None:
    clock = FakeClock(datetime(2026, 6, 1, 8, 0, tzinfo=UTC))
    book = _book(tmp_path, clock)
    book.add("j", "every 10m", "tick")
    book.run_now("j")
    book.store.close()
    again = ScheduleStore(tmp_path / "sessions.db")
    assert [j.id for j in again.jobs()] == ["j"]
    run = again.claim(clock.now)
    assert run is not None and run.job_id == "j"
    assert again.claim(clock.now) is None  # claimed once


def test_a_job_that_cannot_be_scheduled_any_more_does_not_stop_the_others(tmp_path: Path) -> None:
    clock = FakeClock(_at("2026-06-01T08:00:00+00:00"))
    book = _book(tmp_path, clock)
    book.add("good", "hourly :30", "fine")
    book.add("gone", "hourly :30", "its zone disappears", tz=BERLIN)
    # The zone database on this machine no longer knows the job's zone (or the row was edited).
    db = sqlite3.connect(tmp_path / "sessions.db")
    still_approved = job_fingerprint("hourly :30", "its zone disappears", "Atlantis/Capital", "skip")
    db.execute("UPDATE jobs SET tz='Atlantis/Capital', approved=? WHERE id='gone'", (still_approved,))
    db.commit()
    db.close()
    clock.set(_at("2026-06-01T08:30:00+00:00"))
    results = book.due(GRACE)
    assert _fired_ids(results) == ["good"]
    (broken,) = [r for r in results if isinstance(r, Broken)]
    assert broken.job.id == "gone" and "Atlantis/Capital" in broken.why
