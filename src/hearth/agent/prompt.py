"""The session's system prompt: rendered once, then never changed."""

from __future__ import annotations

from hearth.agent.instructions import Instructions
from hearth.llm.profiles import ToolMode
from hearth.prompts import render
from hearth.tools.base import signature
from hearth.tools.toolset import Toolset


def system_prompt(toolset: Toolset, tool_mode: ToolMode, instructions: Instructions | None = None) -> str:
    if tool_mode is ToolMode.TEXT:
        tool_list = "\n".join(f"- {signature(t)}: {t.description.splitlines()[0]}" for t in toolset)
        protocol = render("tool_protocol_text", tool_list=tool_list)
    elif tool_mode is ToolMode.AUTO:
        protocol = render("tool_protocol_hint")
    else:
        protocol = ""
    extra = instructions.render() if instructions else ""
    return render("system", tool_protocol=protocol, instructions=extra)
