"""The terminal view of a run: streamed text, dimmed thinking, tool calls as they go."""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.text import Text

from hearth.apps.cli.shown import ShownText, shown
from hearth.core.events import (
    Compacted,
    ErrorRaised,
    Event,
    Finished,
    ModelReply,
    Notice,
    Reflected,
    SessionStarted,
    Status,
    ToolResult,
)
from hearth.core.protocols import Delta
from hearth.core.text import strip_control

if TYPE_CHECKING:
    from rich.live import Live

_STATUS_STYLE = {
    Status.DONE: ("✔ done", "green"),
    Status.BLOCKED: ("■ blocked", "yellow"),
    Status.WAITING: ("◷ waiting", "cyan"),
    Status.LIMIT: ("■ limit reached", "yellow"),
    Status.ERROR: ("✘ error", "red"),
    Status.INTERRUPTED: ("■ interrupted", "yellow"),
}


class TerminalView:
    def __init__(self, console: Console) -> None:
        self.console = console
        self._streaming: str | None = None  # "text" | "thinking" while a reply streams
        self._streamed_text = False
        self._children: set[str] = set()  # sessions of sub-agents working for the shown one
        self._said_error: str | None = None  # an error already shown: the end line does not repeat it
        self._text = ShownText()  # the streamed reply without its finish marker and written calls

    def on_session_event(self, session_id: str, event: Event) -> None:
        """An event of the session shown, or (one line each) of a sub-agent working for it."""
        if isinstance(event, SessionStarted) and event.parent:
            self._children.add(session_id)
        if session_id in self._children:
            self.on_sub_event(session_id, event)
        else:
            self.on_event(event)

    def on_sub_event(self, session_id: str, event: Event) -> None:
        """A sub-agent's progress: started, its tool calls and their results, how it ended."""
        who = f"  ┊ sub-agent {session_id[-6:]}"
        if isinstance(event, SessionStarted):
            self._end_stream()
            self.console.print(Text(f"{who} started ({event.model}) · session {session_id}", style="magenta"))
        elif isinstance(event, ModelReply):
            for call in event.tool_calls:
                self.console.print(
                    Text(f"{who} → {call.name}({_short_args(call.arguments, 60)})", style="magenta")
                )
        elif isinstance(event, ToolResult):
            mark, style = ("✓", "green") if event.ok else ("✗", "red")
            self.console.print(Text(f"{who} {mark} {event.name}", style=style))
        elif isinstance(event, Finished):
            label = "finished" if event.status is Status.DONE else f"{event.status.value}: {event.reason}"
            self.console.print(Text(f"{who} {label}", style="magenta"))
            self._children.discard(session_id)

    def on_delta(self, delta: Delta) -> None:
        if delta.kind == "retry":
            self._end_stream()
            self.console.print(Text(f"  ↻ {delta.text}", style="yellow"))
            return
        if self._streaming != delta.kind:
            self._end_stream()
            self._streaming = delta.kind
        style = "dim italic" if delta.kind == "thinking" else None
        text = self._text.feed(delta.text) if delta.kind == "text" else delta.text
        self.console.print(Text(strip_control(text), style=style or ""), end="")
        if delta.kind == "text":
            self._streamed_text = True

    def _end_stream(self) -> None:
        if self._streaming == "text":
            self.console.print(Text(strip_control(self._text.flush())), end="")
        if self._streaming is not None:
            self.console.print()
            self._streaming = None

    def on_event(self, event: Event) -> None:
        if isinstance(event, ModelReply):
            self._end_stream()
            if event.text and not self._streamed_text and shown(event.text):
                self.console.print(Text(strip_control(shown(event.text))))
            self._streamed_text = False
            for call in event.tool_calls:
                self.console.print(Text(f"→ {call.name}({_short_args(call.arguments)})", style="bold cyan"))
        elif isinstance(event, ToolResult):
            mark, style = ("✓", "green") if event.ok else ("✗", "red")
            first = strip_control(event.output).strip().splitlines()
            summary = first[0][:160] if first else ""
            more = f" (+{len(first) - 1} lines)" if len(first) > 1 else ""
            self.console.print(Text(f"  {mark} {event.duration_ms:.0f}ms {summary}{more}", style=style))
        elif isinstance(event, Notice):
            self._end_stream()
            # the whole notice: its later lines carry the open items and what to do about them
            lines = strip_control(event.text).strip().splitlines() or [""]
            body = "\n".join([f"  ! {lines[0]}", *(f"    {line}" for line in lines[1:])])
            self.console.print(Text(body, style="yellow"))
        elif isinstance(event, ErrorRaised):
            self._end_stream()
            self.console.print(Text(f"✘ {event.message}", style="bold red"))
            self._said_error = event.message
            if event.hint:
                self.console.print(Text(f"  → {event.hint}", style="red"))
        elif isinstance(event, Compacted):
            what = "summarised older turns" if event.summary else f"hid {len(event.masked)} old tool outputs"
            self.console.print(
                Text(
                    f"  ⇣ compacted: {what} ({event.tokens_before} → {event.tokens_after} tokens)",
                    style="dim",
                )
            )
        elif isinstance(event, Reflected):
            self._end_stream()
            if event.error:
                self.console.print(Text(f"  reflection: nothing stored ({event.error})", style="dim"))
            elif event.stored:
                refs = ", ".join(event.stored)
                self.console.print(
                    Text(f"  reflection: remembered items {refs} (hearth memory list)", style="dim")
                )
        elif isinstance(event, Finished):
            self._end_stream()
            label, style = _STATUS_STYLE[event.status]
            said = event.reason and self._said_error and event.reason.startswith(self._said_error)
            reason = (
                f": {event.reason}" if event.reason and event.status is not Status.DONE and not said else ""
            )
            when = f" until {event.wake_at.isoformat()}" if event.wake_at else ""
            self.console.print(Text(f"{label}{when}{reason}", style=f"bold {style}"))

    def usage_line(self, prompt: int, cached: int, completion: int, estimated: bool) -> None:
        approx = "~" if estimated else ""
        self.console.print(
            Text(f"tokens: {approx}{prompt} in ({cached} cached), {approx}{completion} out", style="dim")
        )


def _short_args(args: dict[str, Any], limit: int = 100) -> str:
    parts = []
    for k, v in args.items():
        s = json.dumps(v, ensure_ascii=False)
        parts.append(f"{k}={s if len(s) <= 40 else s[:37] + '…'}")
    text = ", ".join(parts)
    return strip_control(text if len(text) <= limit else text[: limit - 1] + "…")


class MarkdownView(TerminalView):
    """The REPL's view: reply text is rendered as Markdown while it streams (Rich Live).

    Finished blocks (up to the last blank line outside a code fence) are printed once above the
    live area; only the block still arriving is re-rendered, so a long reply costs no more per
    chunk than a short one."""

    def __init__(self, console: Console) -> None:
        super().__init__(console)
        # Only the REPL renders Markdown: `hearth run` does not pay for rich.markdown and pygments.
        from rich.live import Live
        from rich.markdown import Markdown

        self._Live, self._Markdown = Live, Markdown
        self._live: Live | None = None
        self._buffer = ""
        self._last_refresh = 0.0
        self._thinking_live: Live | None = None
        self._thinking = ""

    def on_delta(self, delta: Delta) -> None:
        if delta.kind == "thinking":
            self._stop_live()
            self._think(delta.text)
            return
        self._fold_thinking()
        if delta.kind != "text":
            self._stop_live()
            super().on_delta(delta)
            return
        if self._streaming is not None and self._streaming != "text":
            super()._end_stream()
        self._buffer += strip_control(self._text.feed(delta.text))
        self._streamed_text = True
        cut = _finished_blocks(self._buffer)
        if cut:
            done, self._buffer = self._buffer[:cut], self._buffer[cut:]
            self.console.print(self._Markdown(done))  # above the live area, printed once
        if self._live is None:
            self._live = self._Live(
                self._Markdown(self._buffer),
                console=self.console,
                auto_refresh=False,
                vertical_overflow="visible",
            )
            self._live.start()
        now = time.monotonic()
        if now - self._last_refresh >= 0.01:  # at most 100 redraws a second, each of one block only
            self._live.update(self._Markdown(self._buffer), refresh=True)
            self._last_refresh = now

    def _think(self, text: str) -> None:
        """Thinking shows live (its last lines, dimmed) and folds to one line when it ends."""
        self._thinking += strip_control(text)
        tail = "\n".join(self._thinking.rstrip().splitlines()[-3:])
        shown = Text(f"thinking…\n{tail}", style="dim italic")
        if self._thinking_live is None:
            self._thinking_live = self._Live(shown, console=self.console, auto_refresh=False, transient=True)
            self._thinking_live.start()
        now = time.monotonic()
        if now - self._last_refresh >= 0.02:
            self._thinking_live.update(shown, refresh=True)
            self._last_refresh = now

    def _fold_thinking(self) -> None:
        if self._thinking_live is None:
            return
        self._thinking_live.stop()
        self._thinking_live = None
        lines = len(self._thinking.strip().splitlines())
        self.console.print(Text(f"▸ thought for {lines} lines (/thinking shows it)", style="dim italic"))
        self._thinking = ""

    def on_event(self, event: Event) -> None:
        self._fold_thinking()
        super().on_event(event)

    def _stop_live(self) -> None:
        if self._live is not None:
            self._buffer += strip_control(self._text.flush())
            self._live.update(self._Markdown(self._buffer), refresh=True)
            self._live.stop()
            self._live = None
            self._buffer = ""

    def _end_stream(self) -> None:
        self._fold_thinking()
        self._stop_live()
        super()._end_stream()


def _finished_blocks(text: str) -> int:
    """Where the finished Markdown blocks end: the last blank line not inside a code fence."""
    cut = text.rfind("\n\n")
    while cut > 0 and text[:cut].count("```") % 2:
        cut = text.rfind("\n\n", 0, cut)
    return cut + 2 if cut > 0 else 0
