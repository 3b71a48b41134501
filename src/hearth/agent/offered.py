"""The tool schemas a request offers the model (native or auto tool mode), and `tool_load`: the
tools a session keeps out of its requests until the model asks for them.

A default session lists the core tools in full; the others are unlisted (`Tool.listed` False),
named with one line each in `tool_load`'s description, and join the tool list (after the listed
ones, so what came before stays the same) once `tool_load` names them or the model calls one.
Every tool stays callable all along: a call is validated against the tool's real schema.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from hearth.agent.compaction import Compactor, estimate_tokens
from hearth.core.errors import ToolError
from hearth.core.events import Event, ToolResult
from hearth.core.types import ToolSpec
from hearth.llm.profiles import ModelProfile
from hearth.prompts import render
from hearth.tools.base import RunContext, Tool, ToolInput, input_schema, signature
from hearth.tools.toolset import Toolset

TOOLS_SHARE = 0.5  # past this share of a known window, the tool list shown is the profile's tight one
LOAD_NAME = "tool_load"


def offered_tools(
    toolset: Toolset, profile: ModelProfile, history: Sequence[Event], compactor: Compactor | None
) -> list[ToolSpec]:
    """The listed tools the profile shows (all when it names none) and the unlisted ones results
    revealed; when those would take over TOOLS_SHARE of a known window, the profile's tight list
    instead, with every tool that has worked in the session."""
    results = [(e.name, e.ok, e.output) for e in history if isinstance(e, ToolResult)]
    revealed = toolset.revealed(results)
    specs = toolset.shown_specs(profile.shown_tools, revealed)
    tight = profile.tight_tools
    if not tight or profile.shown_tools or compactor is None or not compactor.known:
        return specs
    if estimate_tokens((), specs) > compactor.window * TOOLS_SHARE:
        used = [name for name, ok, _ in results if ok]
        return toolset.shown_specs((*tight, *used), revealed)
    return specs


def unlisted(tools: Iterable[Tool], core: Iterable[str]) -> list[Tool]:
    """`tools` with those not named in `core` unlisted (callable, loaded on demand)."""
    keep = set(core)
    return [t if t.name in keep or not t.listed else replace(t, listed=False) for t in tools]


class LoadInput(ToolInput):
    """Load tools by name before calling them (calling one directly works too)."""

    names: list[str]


@dataclass(frozen=True)
class ToolLoader(Tool):
    catalogue: str = field(default="")

    @property
    def description(self) -> str:
        return render("tool_load", catalogue=self.catalogue)

    def spec(self) -> ToolSpec:
        return ToolSpec(name=self.name, description=self.description, parameters=input_schema(LoadInput))


def loader_tool(toolset: Toolset, names: Sequence[str]) -> ToolLoader:
    """`tool_load` over `names` (unlisted tools of `toolset`), summarised one line each. The
    catalogue is fixed when the session starts: a description that changed would change every
    request's prefix."""
    lines = []
    for name in names:
        tool = toolset.get(name)
        if tool is not None:
            lines.append(f"- {name}: {_first_sentence(tool.description)}")

    async def run(args: LoadInput, ctx: RunContext) -> str:
        return loaded(toolset, args.names)

    return ToolLoader(
        name=LOAD_NAME,
        input_model=LoadInput,
        execute=run,
        read_only=True,
        reveals=True,
        catalogue="\n".join(lines),
    )


def _first_sentence(description: str) -> str:
    """The first sentence of a description's first paragraph, on one line."""
    text = " ".join(description.split("\n\n", 1)[0].split())
    end = text.find(". ")
    return text if end < 0 else text[: end + 1]


def loaded(toolset: Toolset, wanted: Sequence[str]) -> str:
    """What a `tool_load` call answers: each tool's signature and description (with its schema
    when the signature leaves something out); the tools named join the list from the next request."""
    found = [t for t in (toolset.get(n) for n in dict.fromkeys(wanted)) if t is not None]
    missing = [n for n in wanted if toolset.get(n) is None]
    if not found:
        known = ", ".join(t.name for t in toolset if t.name != LOAD_NAME)
        raise ToolError(f"no tool is named {', '.join(missing)}. The tools are: {known}.")
    parts = [describe(t) for t in found]
    if missing:
        parts.append(f"Not found: {', '.join(missing)}.")
    return render("tool_load_result", tools="\n".join(parts))


def describe(tool: Tool) -> str:
    """A tool's signature, first paragraph and, when the signature is not the whole story
    (objects, arrays, enums), its JSON schema."""
    spec = tool.spec()
    text = f"{signature(tool)}: {spec.description}"
    if _nested(spec.parameters):
        text += "\n  parameters: " + json.dumps(spec.parameters, separators=(",", ":"))
    return text


def _nested(schema: dict[str, object]) -> bool:
    props = schema.get("properties")
    if not isinstance(props, dict):
        return False
    return any(
        isinstance(p, dict) and (p.get("type") in ("object", "array") or "enum" in p or "anyOf" in p)
        for p in props.values()
    )
