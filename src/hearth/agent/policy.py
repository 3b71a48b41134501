"""Permission decisions: modes, rules, tool annotations, control files.

Order: plan mode allows only read-only tools; then deny rules; then, without
an isolating sandbox, every shell command asks, whatever the rules or the mode
say; then a shell command that may print a secret no sandbox can hide asks,
whatever the rules or the mode say: one that reads git's objects or history
(`git show HEAD:.env`; see `readonly.reads_git_objects`), and, under a backend
that does not hide secret files from commands (Landlock), one that names a
secret or a glob matching one (`cat .env`, `grep x .e*`); then ask rules (and writes to the agent's own control files, which always
ask), allow rules, the read-only commands allowed by default (in a sandbox
only, see `readonly`); then the mode's default: `auto` allows, `normal` asks
before destructive tools, `manual` asks before every tool. The model has no way
to change any of this: rules come from the user's settings (or a workspace the
user trusted, see `runtime.config`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Literal

from hearth.agent.modes import PermissionMode
from hearth.agent.readonly import DEFAULT_COMMANDS, is_read_only_command, reads_git_objects
from hearth.agent.rules import Rule, canonical_subjects
from hearth.core.errors import ToolError
from hearth.core.protocols import WorkspacePaths
from hearth.sandbox.catalogue import why as control_why
from hearth.sandbox.guard import is_control_path
from hearth.sandbox.secrets import command_names_secret, secret_index
from hearth.tools.base import Tool

DEFAULT_ALLOW = DEFAULT_COMMANDS  # what runs without asking by default, with read-only options only
UNISOLATED = "no sandbox isolates commands here, so every shell command asks, whatever the rules or mode"
WRITE_TOOLS = ("write", "edit", "mkdir")
CODE_TOOLS = ("shell", "python")  # tools that run what the model wrote in the sandbox
GIT_OBJECTS = (
    "git can print committed secrets from its objects and history, which no sandbox hides; "
    "it asks every time (the git_diff and git_log tools leave secret files out)"
)
DEFAULT_REASON = "a read-only command, allowed by default"
BACKGROUND_ASKS = (
    "a background command outlives the call, and this sandbox cannot make control files read-only "
    "(they are only put back afterwards), so it asks in normal mode"
)


class Decision(StrEnum):
    ALLOW = "allow"
    ASK = "ask"
    DENY = "deny"


_STRICTNESS = {Decision.ALLOW: 0, Decision.ASK: 1, Decision.DENY: 2}


@dataclass(frozen=True)
class Verdict:
    decision: Decision
    reason: str


@dataclass(frozen=True)
class Approval:
    """A person's answer: allowed or not; a rule to allow the same for the rest of the session;
    a message for the model when refusing."""

    allowed: bool
    remember: Rule | None = None
    message: str = ""
    by: Literal["user", "headless"] = "user"  # headless: no one was there to ask


Approver = Callable[[Tool, dict[str, Any], str], Awaitable[Approval | bool]]
"""Asks a person (tool, arguments, reason). Absent in headless runs."""


@dataclass(frozen=True)
class PermissionPolicy:
    mode: PermissionMode = PermissionMode.NORMAL
    allow: tuple[Rule, ...] = ()
    ask: tuple[Rule, ...] = ()
    deny: tuple[Rule, ...] = ()
    sandboxed: bool = True
    defaults: bool = True  # allow the read-only commands of `readonly` without asking (sandboxed only)
    hides_secrets: bool = False  # the backend hides secret files from commands (bwrap binds /dev/null)
    # The sandbox cannot make control files read-only (Landlock, containers): only the guard puts
    # them back. Then a background command, whose processes outlive the call, is not allowed by
    # the read-only defaults in normal mode: it asks (a user's allow rule still allows it).
    guarded_only: bool = False

    @classmethod
    def from_settings(
        cls,
        mode: PermissionMode,
        allow: Sequence[str] = (),
        ask: Sequence[str] = (),
        deny: Sequence[str] = (),
        *,
        sandboxed: bool = True,
        defaults: bool = True,
        hides_secrets: bool = False,
        guarded_only: bool = False,
    ) -> PermissionPolicy:
        return cls(
            mode,
            tuple(map(Rule.parse, allow)),
            tuple(map(Rule.parse, ask)),
            tuple(map(Rule.parse, deny)),
            sandboxed,
            defaults,
            hides_secrets,
            guarded_only,
        )

    def secret_exceptions(self) -> tuple[str, ...]:
        """Paths the user explicitly allowed for file tools (e.g. `read(.env)`): secrets let through."""
        file_tools = ("read", "write", "edit", "grep", "*")
        return tuple(r.pattern for r in self.allow if r.tool in file_tools and r.pattern and r.pattern != "*")

    def with_allowed(self, rule: Rule) -> PermissionPolicy:
        return dataclasses.replace(self, allow=(*self.allow, rule))

    def decide(self, tool: Tool, arguments: dict[str, Any], paths: WorkspacePaths | None = None) -> Verdict:
        """Decides on what the tool will open: each path argument made canonical by `paths` (the
        tools' own resolver), so `x/../`, absolute and symlinked spellings meet the same rules.
        A path that cannot be resolved is denied with the resolver's reason; of several paths,
        the strictest decision wins. Without `paths` (no workspace), paths are only normalized."""
        try:
            subjects = canonical_subjects(arguments, paths)
        except ToolError as exc:
            return Verdict(Decision.DENY, str(exc).rstrip("."))
        known: tuple[str, ...] = ()
        if tool.name in CODE_TOOLS and not self.hides_secrets and paths is not None:
            known = self._known_secrets(paths)
        verdicts = [self._decide_one(tool, s, known) for s in subjects]
        code = arguments.get("code")
        if tool.name == "python" and isinstance(code, str):  # the same reads, written in Python
            secret = self._secret_read(code, known)
            if secret is not None:
                verdicts.append(Verdict(Decision.ASK, secret))
        verdict = max(verdicts, key=lambda v: _STRICTNESS[v.decision])
        lasting = tool.name == "shell" and arguments.get("background") is True
        if (
            lasting
            and self.guarded_only
            and verdict.reason == DEFAULT_REASON
            and self.mode is PermissionMode.NORMAL
        ):
            return Verdict(Decision.ASK, BACKGROUND_ASKS)
        return verdict

    def _control_write(self, tool: Tool, subject: str) -> Verdict:
        """A write to a file that makes another program run code (sandbox/catalogue.py): asked in
        every mode, unless the user's own allow rule names that control file (not a catch-all)."""
        for rule in self.allow:
            named = bool(rule.pattern and rule.pattern.strip("*/")) and is_control_path(
                str(rule.pattern).rstrip("*/")
            )
            if named and rule.matches(tool.name, subject, for_allow=True):
                return Verdict(Decision.ALLOW, f"allowed by the rule {rule}")
        why = control_why(subject) or "a control file"
        return Verdict(Decision.ASK, f"{subject} is a control file: {why}")

    @staticmethod
    def _known_secrets(paths: WorkspacePaths) -> tuple[str, ...]:
        try:
            found = secret_index(paths.root).scan()
        except OSError:
            return ()
        return (*found.files, *found.dirs)

    def _secret_read(self, subject: str, known: tuple[str, ...]) -> str | None:
        """Why a shell command must ask because it may print a secret no sandbox hides, or None."""
        if reads_git_objects(subject):
            return GIT_OBJECTS
        if not self.hides_secrets:
            named = command_names_secret(subject, known)
            if named is not None:
                return (
                    f"{named} may be a secret, and this sandbox cannot hide secret files from a "
                    "command; it asks every time"
                )
        return None

    def _decide_one(self, tool: Tool, subject: str | None, known: tuple[str, ...] = ()) -> Verdict:  # noqa: C901
        if self.mode is PermissionMode.PLAN and not tool.read_only:
            return Verdict(Decision.DENY, "plan mode allows only read-only tools; finish the plan first")
        for rule in self.deny:
            if rule.matches(tool.name, subject, for_allow=False):
                return Verdict(Decision.DENY, f"denied by the rule {rule}")
        if tool.name == "shell" and not self.sandboxed:
            return Verdict(Decision.ASK, UNISOLATED)
        secret = self._secret_read(subject, known) if tool.name == "shell" and subject else None
        if secret is not None:
            return Verdict(Decision.ASK, secret)
        for rule in self.ask:
            if rule.matches(tool.name, subject, for_allow=False):
                return Verdict(Decision.ASK, f"the rule {rule} asks first")
        if tool.control:
            return Verdict(Decision.ASK, f"{tool.name} writes a control file (a skill the model will follow)")
        if tool.name in WRITE_TOOLS and subject and is_control_path(subject):
            return self._control_write(tool, subject)
        for rule in self.allow:
            if rule.matches(tool.name, subject, for_allow=True):
                return Verdict(Decision.ALLOW, f"allowed by the rule {rule}")
        # The read-only defaults run only in a sandbox, and only once the secret checks above passed.
        defaults = tool.name == "shell" and self.defaults and self.sandboxed and subject is not None
        if defaults and is_read_only_command(str(subject)):
            return Verdict(Decision.ALLOW, DEFAULT_REASON)
        if tool.read_only and self.mode is not PermissionMode.MANUAL:
            return Verdict(Decision.ALLOW, "read-only tool")
        if self.mode is PermissionMode.AUTO:
            return Verdict(Decision.ALLOW, "auto mode")
        if self.mode is PermissionMode.MANUAL:
            return Verdict(Decision.ASK, "manual mode asks before every tool")
        if tool.destructive:
            return Verdict(Decision.ASK, "normal mode asks before destructive tools")
        return Verdict(Decision.ALLOW, "normal mode")
