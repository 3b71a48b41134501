"""A turn's deadline cuts off work still going, and only its own timeout counts as the deadline."""

from __future__ import annotations

import asyncio
import time

import pytest

from hearth.agent.deadline import DeadlinePassed, has_time, until


async def _slow() -> str:
    await asyncio.sleep(30)
    return "late"


async def _own_timeout() -> str:
    async with asyncio.timeout(0):
        await asyncio.sleep(30)
    return "never"


def test_work_still_going_at_the_deadline_is_cancelled() -> None:
    with pytest.raises(DeadlinePassed):
        asyncio.run(until(time.monotonic() + 0.05, _slow()))


def test_a_deadline_already_past_cancels_at_once() -> None:
    with pytest.raises(DeadlinePassed):
        asyncio.run(until(time.monotonic() - 5, _slow()))


def test_the_works_own_timeout_is_not_the_deadline() -> None:
    with pytest.raises(TimeoutError):
        asyncio.run(until(time.monotonic() + 60, _own_timeout()))


def test_work_that_ends_in_time_gives_its_result() -> None:
    async def quick() -> str:
        return "done"

    assert asyncio.run(until(time.monotonic() + 60, quick())) == "done"
    assert asyncio.run(until(None, quick())) == "done"


def test_work_has_time_only_when_it_would_end_before_the_deadline() -> None:
    now = time.monotonic()
    assert has_time(None, 3600)  # no deadline: always
    assert has_time(now + 600, 30)  # a version and its checks fit in ten minutes
    assert not has_time(now + 20, 30)  # but not in twenty seconds
    assert not has_time(now - 1)  # a deadline past leaves no time for anything
