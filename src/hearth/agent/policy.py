"""Permission decisions: modes and tool annotations (SPEC C4).

`auto` allows everything, `normal` asks before destructive tools, `manual`
asks before every tool, `plan` allows only read-only tools. What needs asking
is refused when no person can be asked (a headless run).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from hearth.tools.base import Tool


class PermissionMode(StrEnum):
    AUTO = "auto"
    NORMAL = "normal"
    MANUAL = "manual"
    PLAN = "plan"


class Decision(StrEnum):
    ALLOW = "allow"
    ASK = "ask"
    DENY = "deny"


@dataclass(frozen=True)
class Verdict:
    decision: Decision
    reason: str


Approver = Callable[[Tool, dict[str, Any]], Awaitable[bool]]
"""Asks a person; True means allowed. Absent in headless runs."""


@dataclass(frozen=True)
class PermissionPolicy:
    mode: PermissionMode = PermissionMode.NORMAL

    def decide(self, tool: Tool, arguments: dict[str, Any]) -> Verdict:
        if self.mode is PermissionMode.PLAN:
            if tool.read_only:
                return Verdict(Decision.ALLOW, "read-only tool in plan mode")
            return Verdict(Decision.DENY, "plan mode allows only read-only tools; finish the plan first")
        if self.mode is PermissionMode.AUTO:
            return Verdict(Decision.ALLOW, "auto mode")
        if self.mode is PermissionMode.MANUAL:
            return Verdict(Decision.ASK, "manual mode asks before every tool")
        if tool.destructive:
            return Verdict(Decision.ASK, "normal mode asks before destructive tools")
        return Verdict(Decision.ALLOW, "normal mode")
