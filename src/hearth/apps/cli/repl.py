"""`hearth` with no command: an interactive session in the current workspace.

The prompt keeps its history across runs and completes slash commands and file paths.
Replies stream as they arrive, tool calls show as they start and end, permission
prompts appear in line. Ctrl+C stops the current step (the session stays consistent);
Ctrl+C again at an empty prompt, or Ctrl+D, leaves.
"""

from __future__ import annotations

import asyncio
import importlib
import signal
from collections.abc import Callable, Coroutine, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from prompt_toolkit import PromptSession
from prompt_toolkit.completion import CompleteEvent, Completer, Completion, PathCompleter
from prompt_toolkit.document import Document
from prompt_toolkit.history import FileHistory
from rich.console import Console

from hearth.apps.cli.commands import COMMANDS

if TYPE_CHECKING:
    from hearth.agent.policy import PermissionMode
    from hearth.apps.cli.render import TerminalView
    from hearth.apps.cli.slash import SlashCommands
    from hearth.runtime.config import LoadedSettings, Settings
    from hearth.runtime.conversation import Conversation
    from hearth.runtime.session import Runtime


@dataclass(frozen=True)
class ReplOptions:
    """What `hearth` accepts of `hearth run`'s flags: the session to open and its mode, and how
    messages are sent (planned first, as deep work, with a token budget)."""

    resume: str | None = None  # a full session id (resolved before the REPL starts)
    permission: PermissionMode | None = None  # given on the command line
    plan: bool = False
    deep: bool = False
    budget: int | None = None


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
    """The prompt is shown at once; the runtime (sandbox self-test, server probe, and the imports
    they need) opens in the background, and the first command waits for it if it must."""

    def __init__(self, settings: Settings, console: Console, options: ReplOptions | None = None) -> None:
        self.settings = settings
        self.console = console
        self.options = options or ReplOptions()
        self.shown = asyncio.Event()  # set once the first prompt is on the screen
        self.opening: asyncio.Task[Runtime] = asyncio.ensure_future(_open_runtime(settings, self.shown))
        self._rt: Runtime | None = None
        self.view: TerminalView | None = None
        self._session: Conversation | None = None  # set once the runtime is open
        self.commands: SlashCommands = None  # type: ignore[assignment]
        self.running: asyncio.Task[object] | None = None
        self._warned = False
        self._failed: Exception | None = None  # opening the session failed: said at the first command
        self.checking: asyncio.Future[None] | None = None  # is the model server there? (said at start)
        self.opening.add_done_callback(self._opened)

    @property
    def rt(self) -> Runtime:
        assert self._rt is not None, "the runtime is not open yet"
        return self._rt

    @property
    def session(self) -> Conversation:
        assert self._session is not None, "the runtime is not open yet"
        return self._session

    def _opened(self, task: asyncio.Task[Runtime]) -> None:
        """Once the runtime is open, the session starts (so the status bar can show it)."""
        if task.cancelled() or task.exception() is not None:
            return
        from hearth.apps.cli.render import MarkdownView, TerminalView
        from hearth.apps.cli.slash import SlashCommands
        from hearth.core.errors import HearthError

        self._rt = task.result()
        self.view = MarkdownView(self.console) if self.console.is_terminal else TerminalView(self.console)
        try:
            self._session = self.open_session(self.options.resume, self.options.permission)
            if self.options.budget is not None:
                self._session.set_budget(self.options.budget)
        except HearthError as exc:
            self._failed = exc
        self.commands = SlashCommands(self)
        if self.settings.model.url:  # the embedded server is started by Hearth: it answers
            self.checking = asyncio.ensure_future(self._warn_if_unreachable(self._rt.server_url))

    async def _warn_if_unreachable(self, base_url: str) -> None:
        """Said at start, not at the first message: a server that is not running is the most common
        first-hour problem, and the prompt would otherwise look ready."""
        import httpx
        from prompt_toolkit.application import run_in_terminal
        from rich.markup import escape

        key = self.settings.model.api_key.get_secret_value()
        try:
            async with httpx.AsyncClient(
                timeout=5, headers={"Authorization": f"Bearer {key}"} if key else {}
            ) as http:
                await http.get(base_url.rstrip("/") + "/models")
            return
        except httpx.HTTPError as exc:
            why = str(exc) or type(exc).__name__
        line = (
            f"[bold yellow]warning:[/] the model server at {escape(base_url)} cannot be reached "
            f"({escape(why)}). Start it, or point HEARTH_LLM_URL (or --llm-url) at a running one; "
            "messages fail until it answers."
        )
        await run_in_terminal(lambda: self.console.print(line))

    async def ready(self) -> None:
        """Wait for the runtime (raising its error, if opening failed) and say what needs saying."""
        await self.opening
        if self._rt is None:  # the done-callback has not run yet
            self._opened(self.opening)
        if self._failed is not None:
            raise self._failed
        if not self._warned:
            from rich.markup import escape

            self._warned = True
            # MCP servers still starting are not waited for: /status says how each is doing
            notes = self.rt.mcp.notes if self.rt.mcp else []
            for line in ([self.rt.sandbox.warning] if self.rt.sandbox.warning else []) + notes:
                self.console.print(f"[bold yellow]warning:[/] {escape(line)}")

    def open_session(self, resume: str | None = None, mode: PermissionMode | None = None) -> Conversation:
        """A new session, or the one `resume` names, as the REPL drives it."""
        from hearth.apps.cli.approve import ask_in_terminal, ask_plan_in_terminal
        from hearth.runtime.conversation import open_conversation

        view = self.view
        assert view is not None
        return open_conversation(
            self.rt,
            resume=resume,
            on_event=view.on_session_event,
            on_delta=view.on_delta,
            approver=ask_in_terminal(self.console),
            plan_approver=ask_plan_in_terminal(self.console),
            permission_mode=mode,
        )

    def switch_session(self, resume: str | None = None) -> Conversation:
        """Work in another session from now on: a new one, or the one `resume` names."""
        self._session = self.open_session(resume)
        return self._session

    def status_line(self) -> str:
        if self._rt is None or self._session is None:
            return f"{self.settings.workspace} · starting: sandbox check and model server…"
        session = self._session
        usage = self.rt.store.usage(session_id=session.id)
        used = session.context_used()
        window = self.rt.profile.context_window
        sandbox = self.rt.sandbox.runner.name + ("" if self.rt.sandbox.runner.isolated else " (NOT ISOLATED)")
        return (
            f"{session.agent.model.name} · context {used}/{window} ({100 * used // max(window, 1)}%) · "
            f"{usage.prompt_tokens} in / {usage.cached_tokens} cached / {usage.completion_tokens} out · "
            f"{session.mode.value} · sandbox {sandbox} · session {session.id}"
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
        from hearth.runtime.config import user_data_path

        history = user_data_path() / "repl_history"
        history.parent.mkdir(parents=True, exist_ok=True)
        prompt: PromptSession[str] = PromptSession(
            history=FileHistory(str(history)),
            completer=SlashAndPathCompleter(self.settings.workspace),
            bottom_toolbar=lambda: " " + self.status_line(),
            refresh_interval=0.5,
        )
        self.console.print(
            f"[bold]Hearth[/] in {self.settings.workspace} · /help for commands · Ctrl+D to leave"
        )
        armed = False
        while True:
            try:
                text = (await prompt.prompt_async("› ", pre_run=self.shown.set)).strip()
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
            await self.ready()
            if text.startswith("/"):
                if not await self.commands.run(text):
                    return
                continue
            await self.send(text)

    async def send(self, text: str, *, plan: bool = False) -> None:
        """One message, sent as `hearth run` sends it (planned first with --plan or /plan; deep work
        with --deep)."""
        session = self.session
        await self.run_step(session.send(text, plan=plan or self.options.plan, deep=self.options.deep))

    async def aclose(self) -> None:
        if not self.opening.done():
            self.opening.cancel()
        if self.checking is not None:
            self.checking.cancel()
        try:
            rt = await self.opening
        except BaseException:
            return
        from hearth.runtime.reflection import wanted

        # Leaving: what the session learned goes to memory, in a process of its own, so leaving is
        # immediate (the embedded model server stops with this process: no reflection then).
        later = (
            self._session is not None
            and rt.settings.model.url != ""
            and wanted(rt, self._session.agent.history)
        )
        await rt.aclose()
        if later and self._session is not None:
            from hearth.runtime.reflect_later import start

            start(rt.settings, self._session.id)


def offer_trust(
    loaded: LoadedSettings, console: Console, reload: Callable[[], LoadedSettings] | None
) -> LoadedSettings:
    """Show what the workspace's own files set that was ignored; at a terminal, offer to trust it."""
    import sys

    from hearth.apps.cli.trust import ask_at_terminal, trust_folder
    from hearth.core.errors import HearthError

    if loaded.untrusted and reload is not None and sys.stdin.isatty():
        for folder in loaded.untrusted:
            try:
                console.print(trust_folder(folder, confirm=ask_at_terminal), markup=False)
            except HearthError as exc:
                console.print(f"error: {exc}", style="red", markup=False)
        loaded = reload()
    for line in loaded.ignored_report():
        console.print(f"warning: {line}", style="yellow", markup=False)
    return loaded


async def _open_runtime(settings: Settings, shown: asyncio.Event) -> Runtime:
    # The agent's modules (pydantic models, tools, sandbox) load in a thread while the prompt is
    # up; they start after the prompt is drawn, so they do not slow drawing it.
    await shown.wait()
    await asyncio.sleep(0.02)
    choice = await asyncio.to_thread(importlib.import_module, "hearth.sandbox.choice")
    choice.test_ahead(settings.sandbox.backend)  # the sandbox's self-test runs while the rest loads
    session = await asyncio.to_thread(importlib.import_module, "hearth.runtime.session")
    runtime: Runtime = await session.open_runtime(settings)
    return runtime


async def repl(
    loaded: LoadedSettings,
    options: ReplOptions | None = None,
    reload: Callable[[], LoadedSettings] | None = None,
) -> None:
    """`reload` loads the settings again (after the person trusted the workspace at the start)."""
    from hearth.core.errors import HearthError

    workspace = loaded.settings.workspace
    if not workspace.is_dir():
        raise HearthError(
            f"The workspace {workspace} is not a folder that exists.",
            "Create it, or pass --workspace with an existing folder.",
        )
    console = Console(highlight=False, soft_wrap=True)
    loaded = offer_trust(loaded, console, reload)
    session = Repl(loaded.settings, console, options)
    try:
        await session.loop()
    finally:
        await session.aclose()
