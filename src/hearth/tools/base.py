"""A tool: a typed input model, annotations, and an executor.

The description the model sees is the input model's docstring; parameter
descriptions come from its fields. Annotations drive permissions: read-only
tools are allowed in plan mode, destructive ones ask in normal mode.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from hearth.core.protocols import Sandbox, WorkspacePaths
from hearth.core.types import ToolSpec
from hearth.core.work import WorkState
from hearth.tools.known_files import KnownFiles


class ToolInput(BaseModel):
    """Base for tool inputs: unknown arguments are an error the model sees."""

    # Built when first used (a schema sent, a call checked), not at import: most tools are not.
    model_config = ConfigDict(extra="forbid", defer_build=True)


@dataclass
class RunContext:
    """What an executor may touch: handed in, never reached for."""

    paths: WorkspacePaths
    session_id: str = ""
    sandbox: Sandbox | None = None
    network: bool = False  # may sandboxed commands use the network
    work: WorkState = field(default_factory=WorkState)
    known: KnownFiles | None = None  # files read in this session; None: no read-before-write check
    caller: object | None = None  # the agent making the call (the sub-agent tools start its children)

    @property
    def workspace(self) -> Path:
        return self.paths.root


Executor = Callable[[Any, RunContext], Awaitable[str] | str]


@dataclass(frozen=True)
class Tool:
    name: str
    input_model: type[ToolInput]
    execute: Executor
    read_only: bool = False
    destructive: bool = False
    aliases: tuple[str, ...] = ()
    # False: not in the tool list the model is sent until revealed (a lookup tool named it, or the
    # model called it); always callable. For servers with many tools (MCP), so prompts stay small.
    listed: bool = True
    reveals: bool = False  # its successful results name unlisted tools, which then join the list
    control: bool = False  # writes something Hearth or the model later obeys (a skill): always asks

    @property
    def description(self) -> str:
        return inspect.cleandoc(self.input_model.__doc__ or self.name)

    def spec(self) -> ToolSpec:
        """What the model is sent: the description's first paragraph (the rest is for people)."""
        summary = self.description.split("\n\n", 1)[0]
        return ToolSpec(name=self.name, description=summary, parameters=input_schema(self.input_model))

    def parameter_names(self) -> tuple[str, ...]:
        return tuple(self.input_model.model_fields)

    async def run(self, args: ToolInput, ctx: RunContext) -> str:
        result = self.execute(args, ctx)
        if inspect.isawaitable(result):
            return await result
        return result


def input_schema(model: type[BaseModel]) -> dict[str, Any]:
    """JSON schema for the model, compacted: every token is prefilled on each cold start.

    No titles, no `additionalProperties` (unknown arguments are refused anyway), no bounds
    (checked on validation), and an optional `X | None` shown as plain `X`; a default of
    null, false or "" is left out (not required says it).
    """
    schema = _strip_titles(model.model_json_schema())
    schema.pop("description", None)
    schema.pop("additionalProperties", None)
    for prop in (schema.get("properties") or {}).values():
        variants = prop.get("anyOf")
        if isinstance(variants, list) and {"type": "null"} in variants and len(variants) == 2:
            prop.pop("anyOf")
            prop.update(next(v for v in variants if v != {"type": "null"}))
        for key in _CHECKED_NOT_SHOWN:
            prop.pop(key, None)
        if "default" in prop and _says_nothing(prop["default"]):
            prop.pop("default")
    return schema


# Bounds are still enforced when a call is validated (the model hears what was wrong); they are
# not worth their tokens in every prompt.
_CHECKED_NOT_SHOWN = ("minimum", "maximum", "exclusiveMinimum", "minLength", "minItems", "maxItems")


def _says_nothing(default: Any) -> bool:
    return default is None or default is False or default == ""


def _strip_titles(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: _strip_titles(v) for k, v in node.items() if k != "title"}
    if isinstance(node, list):
        return [_strip_titles(v) for v in node]
    return node


def signature(tool: Tool, omit: Collection[str] = ()) -> str:
    """`write(path: string, content: string)`; optional parameters end in `?`; `omit`: the
    parameters not shown (given another way, or not offered)."""
    schema = tool.spec().parameters
    required = set(schema.get("required", []))
    parts = []
    for pname, prop in (schema.get("properties") or {}).items():
        if pname in omit:
            continue
        typ = prop.get("type") or "|".join(
            str(p.get("type")) for p in prop.get("anyOf", []) if p.get("type") != "null"
        )
        parts.append(f"{pname}{'' if pname in required else '?'}: {typ or 'any'}")
    return f"{tool.name}({', '.join(parts)})"
