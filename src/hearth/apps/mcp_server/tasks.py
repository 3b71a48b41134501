"""`run_task` for `hearth mcp-server`: a whole Hearth session, headless, for another agent.

It goes through `Conversation.send` like every other interface, in the server's workspace,
with its settings' sandbox, permission mode and rules, and no one to approve: a call that
would need a person is refused (the model hears why and may do it another way), and the
answer lists each refusal with its reason. The model runtime is opened on the first task
(so an agent that only uses the file tools never starts a model) and kept for the next;
one task runs at a time.
"""

from __future__ import annotations

import asyncio
from typing import Any

from pydantic import ValidationError

from hearth.core.errors import HearthError
from hearth.core.events import PermissionDecided, Status
from hearth.prompts import render
from hearth.runtime.config import Settings
from hearth.runtime.conversation import open_conversation
from hearth.runtime.session import Runtime, open_runtime
from hearth.tools.base import ToolInput, input_schema

NAME = "run_task"


class RunTaskInput(ToolInput):
    """Run a whole Hearth session on a task in this workspace (its own model, tools, sandbox and
    permission mode; nothing is asked of a person: what would need one is refused). Returns the
    session's answer, its status and id, and any refused calls with the reason.

    `session`: an earlier session's id to continue. `plan`: only make a plan (read-only)."""

    task: str
    session: str | None = None
    plan: bool = False


def run_task_spec() -> tuple[str, str, dict[str, Any]]:
    """Name, description and argument schema, as the MCP server lists it."""
    description = " ".join((RunTaskInput.__doc__ or NAME).split())
    return NAME, description, input_schema(RunTaskInput)


class TaskRunner:
    def __init__(self, settings: Settings, rt: Runtime | None = None) -> None:
        """`rt`: an open runtime to use (the web server's; not closed here), else one is opened."""
        self.settings = settings
        self.rt = rt
        self._owned = rt is None
        self._lock = asyncio.Lock()

    async def run(self, arguments: dict[str, Any]) -> tuple[bool, str]:
        """(success, text): the session's answer, or why it could not run."""
        try:
            args = RunTaskInput.model_validate(arguments)
        except ValidationError as exc:
            said = "; ".join(
                f"{'.'.join(map(str, e['loc'])) or 'arguments'}: {e['msg']}" for e in exc.errors()
            )
            return False, f"Error: invalid arguments for {NAME}: {said}"
        if not args.task.strip():
            return False, f"Error: {NAME} needs a task: say what you want done."
        async with self._lock:
            try:
                if self.rt is None:
                    self.rt = await open_runtime(self.settings)
                # Headless: no approver, no plan approver (a plan is the result, nothing changes);
                # always the server's mode, also for a session continued from elsewhere.
                conversation = open_conversation(
                    self.rt, resume=args.session, permission_mode=self.settings.permissions.mode
                )
                before = len(conversation.events)
                finished = await conversation.send(args.task, plan=args.plan)
            except HearthError as exc:
                return False, f"Error: {exc.message} {exc.hint}".strip()
        refused = [
            f"- {e.tool} {e.subject[:120]!r}: {e.reason}"
            for e in conversation.events[before:]
            if isinstance(e, PermissionDecided) and not e.allowed
        ]
        text = render(
            "mcp_run_task_result",
            session=conversation.id,
            status=finished.status.value,
            reason=f" ({finished.reason})" if finished.reason else "",
            refused="Refused (no one to approve):\n" + "\n".join(refused) if refused else "",
            answer=finished.final_text.strip(),
        )
        return finished.status is Status.DONE, "\n".join(line for line in text.splitlines() if line.strip())

    async def close(self) -> None:
        if self.rt is not None and self._owned:
            await self.rt.aclose()
            self.rt = None
