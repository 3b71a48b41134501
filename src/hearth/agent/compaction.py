"""Keep the context inside the window actually loaded.

First old tool outputs are masked (the events keep them; the context shows a
one-line stub). If that is not enough, the older turns are summarised by the
model. The task, the tracked work and the most recent call/result pairs
survive. Each compaction is a `Compacted` event, so the context after it is
again byte-stable until the next one.

A compaction changes the prompt's prefix (the server's cache is lost from there on), so it is
done in batches: only when the prompt would pass the budget, and then down to half of it (`target`),
so the next several steps append to a stable prefix. The results the model has not acted on yet
(those of its last reply) always stay whole.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from hearth.agent.context import build_messages
from hearth.agent.tracing import NO_TRACING, Tracer
from hearth.core.events import Compacted, Event, ModelReply, Notice, ToolResult, UserMessage
from hearth.core.protocols import Model, ModelRequest
from hearth.core.types import Message, ToolSpec
from hearth.prompts import render

CHARS_PER_TOKEN = 3.5  # conservative for code and JSON; the server's own count is not known before sending


def estimate_tokens(messages: Sequence[Message], tools: Sequence[ToolSpec] = ()) -> int:
    size = len(json.dumps([m.to_wire() for m in messages])) + len(json.dumps([t.to_wire() for t in tools]))
    return int(size / CHARS_PER_TOKEN)


ASSUMED_WINDOW = 32768  # while the server has not said: compact a long session, never a short one
SUMMARY_TOKENS = (256, 1024)  # a summary's cap: a quarter of the budget, within these bounds


@dataclass
class Compactor:
    window: int
    reserve: int = 1024  # room for the reply
    threshold: float = 0.8  # compact when the prompt would use more than this share of the room
    keep_results: int = 4  # the most recent tool results stay visible, when that still fits the target
    free_share: float = 0.5  # a compaction gets the prompt down to (1 - this) of the budget
    keep_events: int = 8  # events kept verbatim after a summary
    known: bool = True  # False: the server never said its window; learn it from an overflow error
    model: Model | None = None  # who writes summaries (the summarizer role); None: the agent's model
    sampling: dict[str, Any] = field(default_factory=dict)  # that role's request settings
    # Who writes summaries now and with what settings, when a session may switch them (its
    # events chose the summarizer role's model); None: `model` and `sampling` above.
    choose: Callable[[], tuple[Model | None, dict[str, Any]]] | None = None
    _stuck_at: int | None = field(default=None, init=False)  # size after a compaction that freed too little

    @property
    def budget(self) -> int:
        window = self.window if self.known else max(self.window, ASSUMED_WINDOW)
        return int(max(window - self.reserve, window // 2) * self.threshold)

    @property
    def target(self) -> int:
        """What a compaction gets the prompt down to: room for several steps before the next one."""
        return int(self.budget * (1 - self.free_share))

    def learn(self, window: int) -> None:
        """The server stated its window (in an overflow error): use it from now on."""
        self.window, self.known = window, True
        self._stuck_at = None

    def due(self, tokens: int) -> bool:
        """Compact now? Not when a compaction just failed to get well under the budget and
        the context has not grown by a quarter of the budget since (it would fail again)."""
        if tokens <= self.budget:
            return False
        return self._stuck_at is None or tokens - self._stuck_at >= self.budget // 4

    def over(self, system_prompt: str, events: Sequence[Event], tools: Sequence[ToolSpec]) -> int:
        """Estimated tokens beyond the budget (0 when it fits)."""
        return max(0, estimate_tokens(build_messages(system_prompt, events), tools) - self.budget)

    def mask(self, events: Sequence[Event], keep: int | None = None) -> tuple[str, ...]:
        """Call ids of tool outputs to hide: all but the most recent few that are not hidden yet."""
        keep = self.keep_results if keep is None else keep
        hidden = {cid for e in events if isinstance(e, Compacted) for cid in e.masked}
        results = [e for e in events if isinstance(e, ToolResult) and e.call_id not in hidden]
        old = results[:-keep] if keep else results
        return tuple(e.call_id for e in old if len(e.output) > 200)

    def _masking(
        self, system_prompt: str, history: list[Event], tools: Sequence[ToolSpec]
    ) -> tuple[tuple[str, ...], int]:
        """The outputs to hide and the size after: the usual few newest results stay visible,
        but when that does not get the prompt down to the target, only those the model has not
        acted on yet do."""
        masked: tuple[str, ...] = ()
        after = 0
        for keep in dict.fromkeys((self.keep_results, _unacted(history))):
            masked = self.mask(history, keep)
            after = estimate_tokens(
                build_messages(system_prompt, [*history, Compacted(masked=masked)]), tools
            )
            if after <= self.target:
                break
        return masked, after

    def boundary(self, events: Sequence[Event]) -> int:
        """Where the verbatim tail starts: never between a call and its results."""
        cut = max(0, len(events) - self.keep_events)
        while (
            cut > 0
            and isinstance(events[cut], ToolResult | Notice)
            and not isinstance(events[cut], UserMessage)
        ):
            cut -= 1
        return cut

    async def summarise(
        self,
        model: Model,
        events: Sequence[Event],
        upto: int,
        tracer: Tracer = NO_TRACING,
        record: Callable[[Event], None] | None = None,
    ) -> str:
        chosen, sampling = self.choose() if self.choose is not None else (self.model, self.sampling)
        model = chosen or model
        task = next((e.text for e in events if isinstance(e, UserMessage)), "")
        transcript = "\n".join(_line(e) for e in events[:upto] if _line(e))
        request = ModelRequest(
            messages=[
                Message(role="system", content=render("compact_summary_system")),
                Message(
                    role="user",
                    content=render("compact_summary_request", task=task, transcript=transcript[-60000:]),
                ),
            ],
            max_tokens=min(max(self.budget // 4, SUMMARY_TOKENS[0]), SUMMARY_TOKENS[1]),
            extra=dict(sampling),
        )
        with tracer.model_request(model.name, request) as span:  # a span of the agent's turn
            response = await model.complete(request)
            span.outcome(response)
        if record is not None:  # what the summary cost counts like a reply
            record(response.used("summary", model.name))
        from hearth.llm.thinking import split_thinking

        return split_thinking(response.content)[0].strip() or "(the summary came back empty)"

    async def compact(
        self,
        model: Model,
        system_prompt: str,
        history: list[Event],
        tools: Sequence[ToolSpec],
        record: Callable[[Event], None],
        *,
        force: bool = False,
        reason: str = "",
        tracer: Tracer = NO_TRACING,
    ) -> bool:
        """Mask, then summarise if still needed (or if forced). True when anything was compacted."""
        before = estimate_tokens(build_messages(system_prompt, history), tools)
        if not force and not self.due(before):
            return False
        done = False
        masked, after = self._masking(system_prompt, history, tools)
        if masked:
            record(
                Compacted(
                    masked=masked,
                    reason=reason or "near the context window",
                    tokens_before=before,
                    tokens_after=after,
                )
            )
            done = True
            before_summary = after
            if not force and after <= self.target:
                return self._settled(after)
        else:
            before_summary = before
        first_task = next((i for i, e in enumerate(history) if isinstance(e, UserMessage)), 0)
        upto = self.boundary(history)
        after = before_summary
        if upto > first_task + 1:
            summary = await self.summarise(model, history, upto, tracer, record)
            event = Compacted(
                summary=summary,
                summary_upto=upto,
                reason=reason or "near the context window",
                tokens_before=before,
            )
            summarised = estimate_tokens(build_messages(system_prompt, [*history, event]), tools)
            if summarised < before_summary:  # a summary larger than what it replaces is dropped
                record(event.model_copy(update={"tokens_after": summarised}))
                after, done = summarised, True
        self._settled(after)
        return done

    def _settled(self, after: int) -> bool:
        """Remember a compaction that could not get well under the budget, so it is not repeated."""
        self._stuck_at = after if after > self.budget * 3 // 4 else None
        return True


def _unacted(events: Sequence[Event]) -> int:
    """How many results came after the model's last reply (it has not seen them yet)."""
    count = 0
    for event in reversed(events):
        if isinstance(event, ModelReply):
            break
        count += isinstance(event, ToolResult)
    return count


def _line(event: Event) -> str:
    if isinstance(event, UserMessage):
        return f"USER: {event.text}"
    if isinstance(event, ModelReply):
        calls = "; ".join(f"{c.name}({json.dumps(c.arguments)[:300]})" for c in event.tool_calls)
        return f"AGENT: {event.text[:1000]}" + (f" CALLS: {calls}" if calls else "")
    if isinstance(event, ToolResult):
        return f"RESULT {event.name} ({'ok' if event.ok else 'failed'}): {event.output[:400]}"
    if isinstance(event, Compacted) and event.summary:
        return f"EARLIER SUMMARY: {event.summary}"
    return ""
