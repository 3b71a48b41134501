"""The session's system prompt: rendered once, then never changed.

A small model gets a shorter prompt with one worked example of a tool call and the
rule of one call per reply (the small-model profile); larger models get the
full rules.
"""

from __future__ import annotations

from hearth.agent.instructions import Instructions
from hearth.llm.actions import LEFT_OUT
from hearth.llm.profiles import ToolMode
from hearth.prompts import render
from hearth.tools.base import Tool, signature
from hearth.tools.toolset import Toolset


def system_prompt(
    toolset: Toolset, tool_mode: ToolMode, instructions: Instructions | None = None, *, small: bool = False
) -> str:
    extra = instructions.render() if instructions else ""
    if tool_mode is ToolMode.GRAMMAR:  # the grammar holds the form; the prompt only says what to do
        tool_list = "\n".join(f"- {signature(t, LEFT_OUT.get(t.name, ()))}: {_line(t)}" for t in toolset)
        return render("system_grammar", tool_list=tool_list, instructions=extra)
    tool_list = "\n".join(f"- {signature(t)}: {_line(t)}" for t in toolset)
    if small:
        if tool_mode is ToolMode.TEXT:
            protocol = render("tool_protocol_text_small", tool_list=tool_list)
        else:
            protocol = render("tool_protocol_native_small")
        return render("system_small", tool_protocol=protocol, instructions=extra)
    if tool_mode is ToolMode.TEXT:
        protocol = render("tool_protocol_text", tool_list=tool_list)
    elif tool_mode is ToolMode.AUTO:
        protocol = render("tool_protocol_hint")
    else:
        protocol = ""
    return render("system", tool_protocol=protocol, instructions=extra)


def _line(tool: Tool) -> str:
    """A tool's first line; a lookup tool's whole description (its catalogue, indented)."""
    if tool.reveals:
        return tool.spec().description.replace("\n", "\n  ")
    return tool.description.splitlines()[0]
