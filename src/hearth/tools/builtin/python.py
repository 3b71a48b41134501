"""`python`: a persistent Python session in the sandbox (variables survive between calls).

One interpreter per Hearth session, started on the first call as a long-lived
sandboxed process (same confinement as `shell`: workspace read-write, no network
unless allowed). A call that runs past its timeout stops the interpreter; the
next call starts a fresh one and says so.
"""

from __future__ import annotations

import json
import shlex
from typing import Protocol

from pydantic import Field

from hearth.core.errors import ToolError
from hearth.core.protocols import ExecSpec
from hearth.tools.base import RunContext, Tool, ToolInput
from hearth.tools.builtin.pyrepl import MARKER, driver_source


class _Long(Protocol):
    @property
    def alive(self) -> bool: ...

    async def exchange(self, request: bytes, marker: bytes, timeout: float) -> tuple[bytes, str]: ...

    async def close(self) -> None: ...


class _Opens(Protocol):
    async def open(self, spec: ExecSpec, main: str = "") -> _Long: ...


class PythonInput(ToolInput):
    """Run Python in a persistent sandboxed session (variables survive). The last expression's value is
    shown."""

    code: str
    reset: bool = Field(False, description="Clear all variables first")
    timeout: float = Field(60, gt=0, le=3600, description="Seconds")


class PythonSessions:
    """The interpreters, one per Hearth session id."""

    def __init__(self) -> None:
        self._live: dict[str, _Long] = {}

    async def _get(self, ctx: RunContext) -> tuple[_Long, bool]:
        current = self._live.get(ctx.session_id)
        if current is not None and current.alive:
            return current, False
        sandbox = ctx.sandbox
        opener = getattr(sandbox, "open", None)
        if sandbox is None or opener is None:
            raise ToolError("No sandbox that keeps a process is configured, so the python tool cannot run.")
        if not sandbox.isolated:
            raise ToolError("The python tool runs only in an isolating sandbox; use the shell tool instead.")
        source = driver_source()
        command = "exec python3 -u -s -c " + shlex.quote(source)
        spec = ExecSpec(command=command, cwd=ctx.workspace, timeout=0, network=ctx.network)
        long: _Long = await opener(spec, main=source)  # what it starts counts as background jobs
        self._live[ctx.session_id] = long
        return long, current is not None

    async def reset(self, ctx: RunContext) -> None:
        current = self._live.pop(ctx.session_id, None)
        if current is not None:
            await current.close()

    async def run(self, args: PythonInput, ctx: RunContext) -> str:
        if args.reset:
            await self.reset(ctx)
        if not args.code.strip():
            return "Session cleared." if args.reset else "(no code given)"
        long, restarted = await self._get(ctx)
        note = "[the previous session had ended; this is a fresh one, earlier variables are gone]\n"
        request = json.dumps({"code": args.code}).encode()
        try:
            raw, restored = await long.exchange(request, MARKER, args.timeout)
        except TimeoutError as exc:
            notes = "\n".join(getattr(exc, "__notes__", ()))
            raise ToolError(
                f"Stopped: no result after {args.timeout:g}s. The session was ended and its variables are "
                f"gone; the next call starts fresh (use a longer timeout or smaller steps).\n{notes}".rstrip()
            ) from None
        except EOFError as exc:
            notes = "\n".join(getattr(exc, "__notes__", ()))
            raise ToolError(
                "The Python session ended (it exited, crashed or ran out of memory); its variables are "
                f"gone and the next call starts fresh.\n{notes}".rstrip()
            ) from None
        answer = json.loads(raw)
        body = (note if restarted else "") + answer["output"].rstrip()
        if restored:
            body += "\n" + restored
        if answer["error"]:
            raise ToolError(f"{body}\n{answer['error'].rstrip()}".strip())
        return body or "(no output)"


def python_tools(sessions: PythonSessions | None = None) -> list[Tool]:
    sessions = sessions or PythonSessions()
    return [
        Tool("python", PythonInput, sessions.run, destructive=True, aliases=("python_exec", "run_python"))
    ]
