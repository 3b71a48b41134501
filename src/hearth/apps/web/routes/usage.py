"""Token use over a range of days, and the recent activity across sessions."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Literal

from fastapi import APIRouter, Query
from pydantic import BaseModel

from hearth.apps.web.schemas import WireMessage
from hearth.apps.web.state import State
from hearth.core.events import ToolResult
from hearth.history.wire import Encoder, in_session

router = APIRouter(tags=["usage"])

Range = Literal["today", "7d", "30d", "all"]
DAYS = {"7d": 7, "30d": 30}


class DayUsage(BaseModel):
    day: str
    prompt_tokens: int
    cached_tokens: int
    completion_tokens: int
    requests: int


class UsageOut(BaseModel):
    range: Range
    prompt_tokens: int
    cached_tokens: int
    completion_tokens: int
    requests: int
    days: list[DayUsage]


@router.get("/usage")
async def usage(state: State, range: Range = "today") -> UsageOut:
    """Tokens the server reported (prompt, cached, completion) and requests, in all and per UTC day."""
    since = _since(range)
    totals = state.rt.store.usage(since=since)
    return UsageOut(
        range=range,
        prompt_tokens=totals.prompt_tokens,
        cached_tokens=totals.cached_tokens,
        completion_tokens=totals.completion_tokens,
        requests=totals.requests,
        days=[
            DayUsage(
                day=day,
                prompt_tokens=t.prompt_tokens,
                cached_tokens=t.cached_tokens,
                completion_tokens=t.completion_tokens,
                requests=t.requests,
            )
            for day, t in state.rt.store.usage_by_day(since=since)
        ],
    )


@router.get("/activity")
async def activity(state: State, limit: int = Query(50, ge=1, le=1000)) -> list[WireMessage]:
    """The newest tool results, permission decisions and ends across sessions, with their `session`."""
    out = []
    for sid, event in state.rt.store.recent(("tool_result", "permission", "finished"), limit):
        for message in Encoder().encode(event):
            if isinstance(event, ToolResult):
                del message["output"]  # the preview is enough for a feed
            out.append(WireMessage.model_validate(in_session(message, sid)))
    return out


def _since(range_name: str) -> datetime | None:
    now = datetime.now(UTC)
    if range_name == "today":
        return now.replace(hour=0, minute=0, second=0, microsecond=0)
    days = DAYS.get(range_name)
    return now - timedelta(days=days) if days else None
