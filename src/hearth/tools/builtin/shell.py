"""`shell`: one command, a fresh sandboxed process, output capped; and its background jobs."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from hearth.core.errors import ToolError
from hearth.core.protocols import ExecSpec, Sandbox
from hearth.tools.base import RunContext, Tool, ToolInput


def _sandbox(ctx: RunContext) -> Sandbox:
    if ctx.sandbox is None:
        raise ToolError("No sandbox is configured for this session, so shell commands cannot run.")
    return ctx.sandbox


class ShellInput(ToolInput):
    """Run a command with /bin/sh -c in the sandboxed workspace (timeout in seconds).
    background=true returns at once (for servers; see shell_jobs)."""

    command: str
    timeout: float = Field(120, gt=0, le=3600)
    background: bool = False


async def shell(args: ShellInput, ctx: RunContext) -> str:
    sandbox = _sandbox(ctx)
    if not args.command.strip():
        raise ToolError("The command is empty.")
    spec = ExecSpec(command=args.command, cwd=ctx.workspace, timeout=args.timeout, network=ctx.network)
    if args.background:
        job = await sandbox.start(spec)
        return f"Started {job.id} in the background. Read its output with shell_jobs(action='read', id='{job.id}')."
    result = await sandbox.run(spec)
    body = result.output.rstrip() or "(no output)"
    if result.killed == "timeout":
        raise ToolError(
            f"{body}\n[killed: no exit after {args.timeout:g}s; use a longer timeout or background=true]"
        )
    if result.killed:
        raise ToolError(f"{body}\n[killed: {result.killed} ({result.total_bytes} bytes)]")
    if result.exit_code != 0:
        raise ToolError(f"{body}\n[exit code {result.exit_code}]")
    return body


class ShellJobsInput(ToolInput):
    """List, read or stop background commands."""

    action: Literal["list", "read", "stop"]
    id: str | None = Field(None)


async def shell_jobs(args: ShellJobsInput, ctx: RunContext) -> str:
    sandbox = _sandbox(ctx)
    if args.action == "list":
        jobs = sandbox.jobs()
        if not jobs:
            return "No background jobs."
        return "\n".join(
            f"{j.id}  {'running' if j.running else f'exit {j.exit_code}'}  {j.command[:80]}" for j in jobs
        )
    if not args.id:
        raise ToolError(f"Give the job id to {args.action}; shell_jobs(action='list') shows them.")
    if args.action == "read":
        return sandbox.read(args.id)
    info = await sandbox.stop(args.id)
    return f"Stopped {info.id}."


def shell_tools() -> list[Tool]:
    return [
        Tool("shell", ShellInput, shell, destructive=True, aliases=("bash", "run", "run_command", "execute")),
        Tool("shell_jobs", ShellJobsInput, shell_jobs),
    ]
