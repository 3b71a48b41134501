"""A turn's end in time: work still going when the turn's deadline comes is cancelled (a slow
server must not keep a run past its --max-seconds)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable
from typing import TypeVar

T = TypeVar("T")


class DeadlinePassed(Exception):
    """The deadline came before the work ended (the work was cancelled)."""


def has_time(deadline: float | None, needed: float = 0.0) -> bool:
    """Whether work taking `needed` seconds from now ends before `deadline` (time.monotonic());
    None: no deadline."""
    return deadline is None or time.monotonic() + needed < deadline


async def until(deadline: float | None, work: Awaitable[T]) -> T:
    """`work`'s result, or DeadlinePassed when `deadline` (time.monotonic()) comes first; None:
    no deadline. A TimeoutError of the work's own goes through as it is."""
    if deadline is None:
        return await work
    limit = asyncio.timeout(max(0.0, deadline - time.monotonic()))
    try:
        async with limit:
            return await work
    except TimeoutError:
        if not limit.expired():
            raise
        raise DeadlinePassed from None
