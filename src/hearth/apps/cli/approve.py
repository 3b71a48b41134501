"""Ask the person at the terminal before a call that needs approval."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from rich.console import Console
from rich.text import Text

from hearth.agent.policy import Approver
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
