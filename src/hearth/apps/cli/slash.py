"""The REPL's slash commands. Each is a method; the table maps names to help text.

They work through a narrow interface (`SlashHost`): the session's own operations
(`Conversation`: mode, work, compaction, thinking, reload) and the runtime's (store, model,
sandbox); never the agent's history or policy directly.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Protocol

from hearth.apps.cli.commands import COMMANDS
from hearth.core.errors import HearthError
from hearth.core.text import shown_url

if TYPE_CHECKING:
    from rich.console import Console

    from hearth.runtime.conversation import Conversation
    from hearth.runtime.session import Runtime


class SlashHost(Protocol):
    """What slash commands may use of the REPL."""

    console: Console

    @property
    def rt(self) -> Runtime: ...

    @property
    def session(self) -> Conversation: ...

    def switch_session(self, resume: str | None = None) -> Conversation: ...

    async def send(self, text: str, *, plan: bool = False) -> None: ...


class SlashCommands:
    def __init__(self, host: SlashHost) -> None:
        self.host = host
        self._handlers: dict[str, Callable[[str], Awaitable[None]]] = {
            "help": self.cmd_help,
            "sessions": self.cmd_sessions,
            "resume": self.cmd_resume,
            "new": self.cmd_new,
            "session": self.cmd_session,
            "mode": self.cmd_mode,
            "plan": self.cmd_plan,
            "todo": self.cmd_todo,
            "status": self.cmd_status,
            "model": self.cmd_model,
            "compact": self.cmd_compact,
            "soul": self.cmd_soul,
            "cost": self.cmd_cost,
            "undo": self.cmd_undo,
            "thinking": self.cmd_thinking,
        }

    async def run(self, line: str) -> bool:
        """Run one command; False means leave."""
        name, _, arg = line[1:].partition(" ")
        arg = arg.strip()
        if name not in COMMANDS:
            self.say(f"Unknown command /{name}. Commands: " + ", ".join("/" + n for n in COMMANDS))
            return True
        if name == "quit":
            return False
        try:
            await self._handlers[name](arg)
        except HearthError as exc:
            self.say(f"[red]{exc}[/]")
        return True

    def say(self, text: str) -> None:
        self.host.console.print(text, highlight=False)

    async def cmd_help(self, arg: str) -> None:
        for name, help_text in COMMANDS.items():
            self.say(f"  /{name:<9} {help_text}")

    async def cmd_sessions(self, arg: str) -> None:
        for s in self.host.rt.store.list_sessions(limit=20):
            self.say(f"  {s.id}  {s.status:<11} {s.updated[:16].replace('T', ' ')}  {s.title}")

    async def cmd_resume(self, arg: str) -> None:
        if not arg:
            raise HearthError("Say which session: /resume ID (see /sessions).")
        session = self.host.switch_session(arg)
        self.say(f"Resumed {session.id} ({session.mode.value} mode).")

    async def cmd_new(self, arg: str) -> None:
        self.say(f"New session {self.host.switch_session().id}.")

    async def cmd_session(self, arg: str) -> None:
        info = self.host.rt.store.get(self.host.session.id)
        self.say(f"  {info.id} · {info.title or '(no message yet)'} · {info.status}")

    async def cmd_mode(self, arg: str) -> None:
        if not arg:
            self.say(f"Mode: {self.host.session.mode.value}.")
            return
        self.host.session.set_mode(arg)
        self.say(f"Mode: {self.host.session.mode.value}.")

    async def cmd_plan(self, arg: str) -> None:
        if not arg:
            raise HearthError("Say what to plan: /plan TASK.")
        await self.host.send(arg, plan=True)

    async def cmd_todo(self, arg: str) -> None:
        if arg == "clear":
            left = self.host.session.clear_work()
            self.say(f"Cleared the todos, plan and task state ({left} item(s) were open).")
            return
        if arg:
            self.say("Usage: /todo (show them) or /todo clear (drop them all).")
            return
        self.say(self.host.session.work.render())

    async def cmd_status(self, arg: str) -> None:
        rt = self.host.rt
        session = self.host.session
        started = session.started
        self.say(f"  model    {session.agent.model.name} @ {shown_url(rt.server_url)}")
        self.say(
            f"  context  {rt.profile.context_window} tokens ({rt.context_source}); tools as {rt.profile.tool_mode.value}"
        )
        self.say(f"  sandbox  {rt.sandbox.describe()}")
        self.say(f"  mode     {session.mode.value}")
        self.say(
            f"  files    {', '.join(started.instructions) if started and started.instructions else 'no instruction files'}"
        )
        lines = rt.mcp.lines() if rt.mcp else []
        self.say("  MCP      " + ("\n           ".join(lines) if lines else "no servers (`hearth mcp add`)"))

    async def cmd_model(self, arg: str) -> None:
        """`/model`: the roles' models and the server's; `/model NAME`: the session's own model;
        `/model ROLE NAME`: that role's. Recorded in the session, so resuming it keeps them."""
        rt, session = self.host.rt, self.host.session
        if not arg:
            for row in rt.roles_table(session.models):
                where = f" @ {row.server}" if row.server else ""
                self.say(f"  {row.name:<11} {row.model or '(server default)'}{where}")
            models = await rt.list_models()
            self.say("  server: " + (", ".join(models) if models else "lists no models"))
            return
        first, _, rest = arg.partition(" ")
        role, name = (first, rest.strip()) if rest.strip() else ("main", arg)
        session.set_model(role, name)
        self.say(f"Model: {name}." if role == "main" else f"Model of the {role} role: {name}.")

    async def cmd_compact(self, arg: str) -> None:
        done = await self.host.session.compact("asked for with /compact")
        self.say("Compacted." if done else "Nothing to compact yet.")

    async def cmd_soul(self, arg: str) -> None:
        part = self.host.session.system_prompt.split("\n## ", 1)
        self.say("## " + part[1] if len(part) > 1 else "No personality or instruction files are loaded.")

    async def cmd_cost(self, arg: str) -> None:
        store = self.host.rt.store
        s = store.usage(session_id=self.host.session.id)
        midnight = datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
        t = store.usage(since=midnight)
        self.say(
            f"  session  {s.prompt_tokens} in · {s.cached_tokens} cached · {s.completion_tokens} out · {s.requests} requests"
        )
        self.say(
            f"  today    {t.prompt_tokens} in · {t.cached_tokens} cached · {t.completion_tokens} out · {t.requests} requests"
        )

    async def cmd_thinking(self, arg: str) -> None:
        from rich.text import Text

        from hearth.core.text import strip_control

        thinking = self.host.session.last_thinking()
        if not thinking:
            self.say("No thinking in this session yet.")
            return
        self.host.console.print(Text(strip_control(thinking), style="dim italic"))

    async def cmd_undo(self, arg: str) -> None:
        from hearth.history.checkpoints import undo

        rt, session = self.host.rt, self.host.session
        steps = int(arg) if arg.isdigit() else 1
        step, changed = undo(rt.store, session.id, rt.workspace, steps)
        session.reload()
        self.say(f"Restored the files to before step {step}: {', '.join(changed) or 'nothing had changed'}.")
