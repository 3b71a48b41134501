"""`hearth` with no command: an interactive session in the current workspace.

The prompt keeps its history across runs and completes slash commands and file paths.
Replies stream as they arrive, tool calls show as they start and end, permission
prompts appear in line. Ctrl+C stops the current step (the session stays consistent);
Ctrl+C again at an empty prompt, or Ctrl+D, leaves.
"""

from __future__ import annotations

import asyncio
import dataclasses
import signal
from collections.abc import Coroutine, Iterable
from pathlib import Path
from typing import Any

from prompt_toolkit import PromptSession
from prompt_toolkit.completion import CompleteEvent, Completer, Completion, PathCompleter
from prompt_toolkit.document import Document
from prompt_toolkit.history import FileHistory
from rich.console import Console

from hearth.agent.loop import Agent
from hearth.agent.policy import PermissionMode
from hearth.apps.cli.approve import ask_in_terminal, ask_plan_in_terminal
from hearth.apps.cli.render import MarkdownView, TerminalView
from hearth.apps.cli.slash import COMMANDS, SlashCommands
from hearth.runtime.config import LoadedSettings, user_data_path
from hearth.runtime.session import Runtime, open_runtime, start_agent


class SlashAndPathCompleter(Completer):
    def __init__(self, workspace: Path) -> None:
        self._paths = PathCompleter(get_paths=lambda: [str(workspace)])

    def get_completions(self, document: Document, event: CompleteEvent) -> Iterable[Completion]:
        text = document.text_before_cursor
        if text.startswith("/") and " " not in text:
            for name, help_text in COMMANDS.items():
                if name.startswith(text[1:]):
                    yield Completion("/" + name, start_position=-len(text), display_meta=help_text)
            return
        word = document.get_word_before_cursor(WORD=True)
        if "/" in word or "." in word:
            yield from self._paths.get_completions(Document(word, len(word)), event)


class Repl:
    def __init__(self, rt: Runtime, console: Console) -> None:
        self.rt = rt
        self.console = console
        self.view = MarkdownView(console) if console.is_terminal else TerminalView(console)
        self.agent = self.new_agent()
        self.commands = SlashCommands(self)
        self.running: asyncio.Task[object] | None = None

    def new_agent(self, resume: str | None = None) -> Agent:
        return start_agent(
            self.rt,
            resume=resume,
            on_event=lambda _sid, e: self.view.on_event(e),
            on_delta=self.view.on_delta,
            approver=ask_in_terminal(self.console),
        )

    def status_line(self) -> str:
        usage = self.rt.store.usage(session_id=self.agent.session_id)
        return (
            f"{self.rt.model.name} · context {self.rt.profile.context_window} · "
            f"{usage.prompt_tokens} in / {usage.cached_tokens} cached / {usage.completion_tokens} out · "
            f"{self.agent.dispatcher.policy.mode.value} · session {self.agent.session_id}"
        )

    async def run_step(self, coro: Coroutine[Any, Any, object]) -> None:
        """Run an agent turn; Ctrl+C cancels it (the agent records the interruption)."""
        loop = asyncio.get_running_loop()
        self.running = asyncio.ensure_future(coro)
        loop.add_signal_handler(signal.SIGINT, self.running.cancel)
        try:
            await self.running
        except asyncio.CancelledError:
            self.console.print("[yellow]■ stopped (Ctrl+C); the session is saved[/]")
        finally:
            loop.remove_signal_handler(signal.SIGINT)
            self.running = None

    async def loop(self) -> None:
        history = user_data_path() / "repl_history"
        history.parent.mkdir(parents=True, exist_ok=True)
        prompt: PromptSession[str] = PromptSession(
            history=FileHistory(str(history)), completer=SlashAndPathCompleter(self.rt.workspace)
        )
        self.console.print(f"[bold]Hearth[/] in {self.rt.workspace} · /help for commands · Ctrl+D to leave")
        self.console.print(f"[dim]{self.status_line()} · sandbox {self.rt.sandbox.runner.name}[/]")
        if self.rt.sandbox.warning:
            self.console.print(f"[bold yellow]warning:[/] {self.rt.sandbox.warning}")
        armed = False
        while True:
            try:
                text = (await prompt.prompt_async("› ")).strip()
            except KeyboardInterrupt:
                if armed:
                    return
                armed = True
                self.console.print("[dim](Ctrl+C again or Ctrl+D to leave)[/]")
                continue
            except EOFError:
                return
            armed = False
            if not text:
                continue
            if text.startswith("/"):
                if not await self.commands.run(text):
                    return
                continue
            await self.run_step(self.agent.run(text))
            self.console.print(f"[dim]{self.status_line()}[/]")

    async def plan(self, task: str) -> None:
        from hearth.runtime.plan_mode import run_plan

        mode = self.agent.dispatcher.policy.mode
        await self.run_step(run_plan(self.agent, task, ask_plan_in_terminal(self.console), mode))

    def set_mode(self, mode: PermissionMode) -> None:
        policy = self.agent.dispatcher.policy
        self.agent.dispatcher.policy = dataclasses.replace(policy, mode=mode)


async def repl(loaded: LoadedSettings) -> None:
    console = Console(highlight=False, soft_wrap=True)
    rt = await open_runtime(loaded.settings)
    try:
        await Repl(rt, console).loop()
    finally:
        await rt.aclose()
