"""The one door every tool call goes through: validate, permit, execute, record.

Whatever the model sends (an unknown tool, arguments that do not validate, a
call that could not be parsed), the answer is a result it can act on, with
the call's id kept. A tool that crashes is reported, never raised.

Given the session's state, a call is decided on in the state's mode with the rules it allowed,
and the tools change a draft of its work that the caller records; a rule the person allows is
an event in what it returns, so the dispatcher itself keeps nothing of a session.
"""

from __future__ import annotations

import contextlib
import difflib
import json
import logging
import time
from dataclasses import dataclass, replace
from typing import Any, Literal

from pydantic import ValidationError

from hearth.agent.policy import WRITE_TOOLS, Approval, Approver, Decision, PermissionPolicy, Verdict
from hearth.agent.rules import PATH_ARGUMENTS, canonical_arguments, subject_of
from hearth.agent.state import SessionState
from hearth.core.errors import ToolError
from hearth.core.events import Event, PermissionDecided, RuleRemembered, ToolResult
from hearth.core.text import cap_text
from hearth.core.types import ToolCall
from hearth.core.work import WorkState
from hearth.prompts import render
from hearth.sandbox.guard import is_control_path
from hearth.tools.base import RunContext, Tool, signature
from hearth.tools.toolset import Toolset

log = logging.getLogger(__name__)
SKILL_FOLDERS = (".hearth/skills", ".agents/skills")  # where a control tool (promote_skill) writes


@dataclass
class Dispatcher:
    toolset: Toolset
    policy: PermissionPolicy
    context: RunContext
    approver: Approver | None = None
    output_limit: int = 16_000

    def policy_in(self, state: SessionState | None) -> PermissionPolicy:
        """The policy a call is decided by: the configured one, in the session's mode, with the
        rules allowed in the session (none of which come from the workspace)."""
        if state is None:
            return self.policy
        policy = replace(self.policy, mode=state.mode)
        for rule in state.rules:
            policy = policy.with_allowed(rule)
        return policy

    async def dispatch(
        self,
        call: ToolCall,
        state: SessionState | None = None,
        *,
        work: WorkState | None = None,
        caller: object | None = None,
    ) -> list[Event]:
        """The events of one call: its permission decision (when one was made) and its result.
        `state`: the session's (mode, rules); `work`: the draft of its todos and plan the tools
        may change; `caller`: the agent calling (sub-agent tools start its children)."""
        started = time.perf_counter()
        audit: list[Event] = []
        context = self.context
        if work is not None or caller is not None:
            context = replace(context, work=context.work if work is None else work, caller=caller)
        ok, output = await self._run(call, audit, self.policy_in(state), context, remember=state is None)
        result = ToolResult(
            call_id=call.id,
            name=call.name,
            output=cap_text(output, self.output_limit),
            ok=ok,
            duration_ms=round((time.perf_counter() - started) * 1000, 1),
        )
        return [*audit, result]

    async def _run(
        self,
        call: ToolCall,
        audit: list[Event],
        policy: PermissionPolicy,
        context: RunContext,
        *,
        remember: bool,
    ) -> tuple[bool, str]:
        tool = await self.toolset.wait_for(call.name)  # a tool whose server is still starting waits
        if tool is None:
            return False, self._unknown_tool(call)
        if call.error:
            return False, render("error_call_unparsed", name=call.name, error=call.error)
        try:
            args = tool.input_model.model_validate(call.arguments)
        except ValidationError as exc:
            return False, render(
                "error_invalid_arguments", name=tool.name, errors=_errors(exc), signature=_expected(tool)
            )
        # One canonical path per path argument: the policy decides on it, the approver sees it, and
        # the tool is handed it with a pinned resolver, which refuses it if a symlink appears in it
        # meanwhile; so what is opened is what was decided on.
        try:
            arguments = canonical_arguments(call.arguments, context.paths)
            verdict = policy.decide(tool, arguments)
        except ToolError as exc:
            arguments, verdict = call.arguments, Verdict(Decision.DENY, str(exc).rstrip("."))
        refusal = await self._permit(tool, call, arguments, verdict, audit, remember=remember)
        if refusal:
            return False, refusal
        if arguments is not call.arguments:
            args = args.model_copy(update={k: arguments[k] for k in PATH_ARGUMENTS if k in arguments})
            context = replace(context, paths=context.paths.pinned())
        sandbox = context.sandbox
        calling = getattr(sandbox, "calling", None)
        with calling() if calling is not None else contextlib.nullcontext():
            ok, output = await self._execute(tool, args, context)
            if ok and (tool.name in WRITE_TOOLS or tool.control):
                _adopt(sandbox, tool, arguments)
            settle = getattr(sandbox, "settle", None)
            report = settle() if settle is not None else None
        if report:
            output += "\n" + report.message()
        return ok, output

    async def _execute(self, tool: Tool, args: Any, context: RunContext) -> tuple[bool, str]:
        try:
            return True, await tool.run(args, context)
        except ToolError as exc:
            return False, f"Error: {exc}"
        except Exception as exc:  # a bug in a tool must not end the session
            log.exception("tool %s crashed", tool.name)
            return False, f"Error: {tool.name} failed unexpectedly ({type(exc).__name__}: {exc})."

    def _unknown_tool(self, call: ToolCall) -> str:
        """The real tools, and what the model probably meant: a near spelling, or, when the name
        is nothing like a tool (`add` while asked to write a function add), the tool that does it."""
        close = difflib.get_close_matches(call.name.lower(), self.toolset.names(), n=1, cutoff=0.75)
        names = [t.name for t in self.toolset if t.listed]  # unlisted ones: their lookup tool names them
        if close:
            hint = render("hint_unknown_tool_spelling", name=close[0])
        else:
            doers = [n for n in ("write", "edit", "shell") if n in names]
            hint = render("hint_unknown_tool_content", name=call.name) if doers else ""
        return render("error_unknown_tool", name=call.name, names=", ".join(names), hint=hint).strip()

    async def _permit(
        self,
        tool: Tool,
        call: ToolCall,
        arguments: dict[str, Any],
        verdict: Verdict,
        audit: list[Event],
        *,
        remember: bool,
    ) -> str | None:
        subject = (subject_of(arguments) or "")[:500]  # what was decided on

        def note(allowed: bool, by: Literal["policy", "user", "headless"], reason: str) -> None:
            audit.append(
                PermissionDecided(
                    call_id=call.id, tool=tool.name, subject=subject, allowed=allowed, by=by, reason=reason
                )
            )

        if verdict.decision is Decision.ALLOW:
            note(True, "policy", verdict.reason)
            return None
        if verdict.decision is Decision.DENY:
            note(False, "policy", verdict.reason)
            return f"Denied: {verdict.reason}."
        answer = await self.approver(tool, arguments, verdict.reason) if self.approver else None
        approval = answer if isinstance(answer, Approval) else Approval(allowed=bool(answer))
        if answer is None or (approval.by == "headless" and not approval.allowed):
            note(False, "headless", verdict.reason)  # no one to ask: refused the same way everywhere
            return (
                f"Denied: {tool.name} needs a person's approval ({verdict.reason}), and this run has "
                "no one to ask. Do the task another way, or say BLOCKED: with what you need."
            )
        if approval.allowed:
            note(
                True,
                "user",
                verdict.reason + (f"; allowed from now on: {approval.remember}" if approval.remember else ""),
            )
            if approval.remember is not None:  # an event: applied to the session's state, kept on resume
                if remember:  # no session state (Hearth as an MCP server): this dispatcher keeps it
                    self.policy = self.policy.with_allowed(approval.remember)
                audit.append(RuleRemembered(tool=approval.remember.tool, pattern=approval.remember.pattern))
            return None
        note(False, approval.by, verdict.reason)
        said = f" The user says: {approval.message}" if approval.message else ""
        return f"Denied: the user did not allow this {tool.name} call.{said}"


def _expected(tool: Tool) -> str:
    """The signature; for a tool not in the model's list (loaded on demand), its schema too."""
    if tool.listed:
        return signature(tool)
    schema = json.dumps(tool.spec().parameters, separators=(",", ":"))
    return f"{signature(tool)}: {tool.spec().description}\nparameters: {schema}"


def _adopt(sandbox: object, tool: Tool, arguments: dict[str, Any]) -> None:
    """A control file the policy let a host-side tool write (asked, or a rule naming it): kept
    by the guard, which otherwise puts control files back as they were before the session's
    lasting processes started (sandbox/runner.py)."""
    adopt = getattr(sandbox, "adopt", None)
    if adopt is None:
        return
    subject = subject_of(arguments)
    for rel in [subject] if subject else []:
        if is_control_path(rel):
            adopt(rel)
    for rel in SKILL_FOLDERS if tool.control else ():
        adopt(rel)


def _errors(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors():
        loc = ".".join(str(x) for x in err["loc"]) or "(arguments)"
        msg = "unknown argument" if err["type"] == "extra_forbidden" else err["msg"]
        parts.append(f"{loc}: {msg}")
    return "; ".join(parts)
