"""A server's tools as Hearth tools: `mcp__<server>__<tool>`, with compact JSON schemas.

The schema the server gave is checked (a tool with an invalid one is left out and
reported), trimmed of what costs tokens and says little (titles, `$schema`, long
descriptions), and used to check the model's arguments before the call, so a
mistake comes back as a result the model can fix. Annotations feed the
permission policy: `readOnlyHint` makes a tool read-only; any other tool is
destructive unless it says `destructiveHint: false` (the MCP default).
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pydantic import ConfigDict

from hearth.core.errors import ToolError
from hearth.core.types import ToolSpec
from hearth.mcp.client import Connection
from hearth.tools.base import RunContext, Tool, ToolInput

if TYPE_CHECKING:
    from mcp import types  # noqa: F401

MAX_DESCRIPTION = 160
MAX_PARAM_DESCRIPTION = 80
MAX_NAME = 64
UNSAFE = re.compile(r"[^A-Za-z0-9_-]")
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
MIN_SENTENCE = 24  # shorter first sentences say too little alone


class McpArguments(ToolInput):
    """Whatever the server's schema says; it is checked against that schema, not here."""

    model_config = ConfigDict(extra="allow")


@dataclass(frozen=True)
class McpTool(Tool):
    server: str = ""
    remote_name: str = ""
    summary: str = ""
    schema: dict[str, Any] = field(default_factory=dict)

    @property
    def description(self) -> str:
        return self.summary

    def spec(self) -> ToolSpec:
        return ToolSpec(name=self.name, description=self.summary, parameters=self.schema)

    def parameter_names(self) -> tuple[str, ...]:
        return tuple(self.schema.get("properties") or ())


def mcp_tools(conn: Connection, taken: Callable[[str], bool]) -> tuple[list[McpTool], list[str]]:
    """The tools a ready server offers (as its config filters them), and problems to report.
    `taken(name)`: whether a name is already used (a built-in or another server's tool)."""
    out: list[McpTool] = []
    problems: list[str] = []
    import jsonschema  # type: ignore[import-untyped]  # imported when a server is ready (slow)

    used: set[str] = set()
    for remote in conn.tools:
        if not conn.config.wants(remote.name):
            continue
        try:
            schema = compact_schema(remote.input_schema)
            jsonschema.validators.validator_for(schema).check_schema(schema)
            if schema.get("type", "object") != "object":
                raise jsonschema.SchemaError("the arguments' schema must be an object")
        except (jsonschema.SchemaError, TypeError, ValueError) as exc:
            message = getattr(exc, "message", str(exc))
            problems.append(
                f"{conn.config.name}: tool {remote.name!r} left out, its schema is invalid ({message})"
            )
            continue
        name = _free_name(f"mcp__{conn.config.name}__{UNSAFE.sub('_', remote.name)}", taken, used)
        used.add(name)
        hints = remote.annotations
        read_only = bool(hints and hints.read_only_hint)
        destructive = not read_only and not (hints and hints.destructive_hint is False)
        out.append(
            McpTool(
                name=name,
                input_model=McpArguments,
                execute=_executor(conn, remote.name, schema),
                read_only=read_only,
                destructive=destructive,
                server=conn.config.name,
                remote_name=remote.name,
                summary=_short(remote.description or remote.title or remote.name, MAX_DESCRIPTION),
                schema=schema,
            )
        )
    return out, problems


def _free_name(name: str, taken: Callable[[str], bool], used: set[str]) -> str:
    """Never shadows a tool already there: a clash gets a numbered name."""
    base = name[:MAX_NAME]
    candidate, n = base, 2
    while taken(candidate) or candidate in used:
        suffix = f"_{n}"
        candidate, n = base[: MAX_NAME - len(suffix)] + suffix, n + 1
    return candidate


def compact_schema(schema: Any) -> dict[str, Any]:
    if not isinstance(schema, dict):
        raise TypeError("the arguments' schema is not an object")
    out = _compact(schema, 0)
    out.pop("$schema", None)
    out.setdefault("type", "object")
    out.setdefault("properties", {})
    return out


def _compact(node: Any, depth: int) -> Any:
    if isinstance(node, list):
        return [_compact(v, depth) for v in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in ("title", "$schema", "additionalProperties") and not isinstance(value, dict):
            continue
        if key == "description" and isinstance(value, str):
            out[key] = _short(value, MAX_PARAM_DESCRIPTION)
        elif key == "properties" and isinstance(value, dict):
            out[key] = {name: _compact(v, depth + 1) for name, v in value.items()}
        else:
            out[key] = _compact(value, depth + 1)
    return out


def _short(text: str, limit: int) -> str:
    """The first sentence, at most `limit` characters: every tool's words are in every request."""
    first = " ".join(text.strip().split("\n\n")[0].split())
    sentence = SENTENCE_END.split(first, maxsplit=1)[0]
    if len(sentence) >= MIN_SENTENCE:
        first = sentence
    return first if len(first) <= limit else first[: limit - 1].rsplit(" ", 1)[0] + "…"


def _executor(conn: Connection, remote: str, schema: dict[str, Any]) -> Callable[[Any, RunContext], Any]:
    import jsonschema

    validator = jsonschema.validators.validator_for(schema)(schema)

    async def run(args: McpArguments, ctx: RunContext) -> str:
        arguments = args.model_dump()
        errors = sorted(validator.iter_errors(arguments), key=lambda e: list(e.path))
        if errors:
            said = "; ".join(
                f"{'.'.join(map(str, e.path)) or '(arguments)'}: {e.message}" for e in errors[:5]
            )
            raise ToolError(f"invalid arguments for {remote}: {said}")
        result = await conn.call(remote, arguments)
        text = result_text(result.content, result.structured_content)
        if result.is_error:
            raise ToolError(text or f"{remote} failed and said nothing")
        return text or "(no output)"

    return run


def result_text(content: Iterable[Any], structured: Any = None) -> str:
    """Text, images, audio and resources as the text of a tool result."""
    from mcp import types

    parts: list[str] = []
    for item in content:
        if isinstance(item, types.TextContent):
            parts.append(item.text)
        elif isinstance(item, types.ImageContent | types.AudioContent):
            kind = "image" if isinstance(item, types.ImageContent) else "audio"
            parts.append(
                f"[{kind} {item.mime_type}, {_decoded_size(item.data)} bytes; not shown to a text model]"
            )
        elif isinstance(item, types.EmbeddedResource):
            res = item.resource
            if isinstance(res, types.TextResourceContents):
                parts.append(f"[resource {res.uri}]\n{res.text}")
            else:
                parts.append(f"[resource {res.uri}, {res.mime_type or 'binary'}; not shown]")
        elif isinstance(item, types.ResourceLink):
            parts.append(f"[resource link {item.uri}: {item.name}]")
    if not parts and structured is not None:
        import json

        parts.append(json.dumps(structured, ensure_ascii=False))
    return "\n".join(parts)


def _decoded_size(data: str) -> int:
    try:
        return len(base64.b64decode(data, validate=False))
    except (binascii.Error, ValueError):
        return len(data)
