"""Ask the person at the terminal before a call that needs approval."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from rich.console import Console
from rich.text import Text

from hearth.agent.policy import Approver
from hearth.runtime.plan_mode import Decision, PlanApprover
from hearth.sandbox.output import strip_control
from hearth.tools.base import Tool


def ask_in_terminal(console: Console) -> Approver:
    async def approve(tool: Tool, arguments: dict[str, Any], reason: str) -> bool:
        shown = arguments.get("command") or json.dumps(arguments, ensure_ascii=False)[:2000]
        console.print(Text(f"\n? {tool.name} needs your approval ({reason}):", style="bold yellow"))
        console.print(Text(f"  {strip_control(str(shown))}", style="bold"))
        answer = await asyncio.to_thread(input, "  allow? [y/N] ")
        return answer.strip().lower() in ("y", "yes")

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
