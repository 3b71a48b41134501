"""Ask the person at the terminal before a call that needs approval."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from rich.console import Console
from rich.text import Text

from hearth.agent.policy import Approval, Approver
from hearth.agent.rules import Rule
from hearth.core.text import strip_control
from hearth.runtime.conversation import Decision, PlanApprover
from hearth.tools.base import Tool


def ask_in_terminal(console: Console) -> Approver:
    async def approve(tool: Tool, arguments: dict[str, Any], reason: str) -> Approval:
        shown = arguments.get("command") or json.dumps(arguments, ensure_ascii=False)[:2000]
        console.print(Text(f"\n? {tool.name} needs your approval ({reason}):", style="bold yellow"))
        console.print(Text(f"  {strip_control(str(shown))}", style="bold"))
        prompt = "  [y] allow once, [a] allow for this session, [n] deny, [m] deny with a message: "
        answer = (await asyncio.to_thread(input, prompt)).strip().lower()
        if answer in ("y", "yes"):
            return Approval(allowed=True)
        if answer == "a":
            return Approval(allowed=True, remember=Rule.exact(tool.name, arguments))
        if answer == "m":
            message = (await asyncio.to_thread(input, "  message to the model: ")).strip()
            return Approval(allowed=False, message=message)
        return Approval(allowed=False)

    return approve


def ask_plan_in_terminal(console: Console) -> PlanApprover:
    async def decide(steps: list[str]) -> Decision:
        console.print(Text("\nProposed plan:", style="bold"))
        for i, step in enumerate(steps, start=1):
            console.print(Text(f"  {i}. {strip_control(step)}"))
        answer = (await asyncio.to_thread(input, "  [a]pprove, [e]dit, [r]eject? ")).strip().lower()
        if answer.startswith("e"):
            console.print("  Enter the plan, one step per line; an empty line ends it.")
            edited: list[str] = []
            while line := (await asyncio.to_thread(input, "  > ")).strip():
                edited.append(line)
            return "approve", edited or steps
        return ("approve", steps) if answer.startswith("a") else ("reject", steps)

    return decide
