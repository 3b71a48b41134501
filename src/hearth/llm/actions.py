"""Constrained actions: each reply is one JSON action object the server's grammar forces.

A server that can hold a reply to a JSON schema (llama.cpp's grammar, behind several spellings of
`response_format`) is asked, every step, for exactly one of: a call of an offered tool
(`{"tool": NAME, "args": {...}}`), `{"tool": "finish", "summary": ...}` or
`{"tool": "blocked", "reason": ...}`. A small model then cannot invent a tool, break the JSON,
hide a call in prose or forget how to finish: finishing is one of the choices at every step.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from hearth.core.types import ToolSpec

FINISH = "finish"
BLOCKED = "blocked"
# The spellings of "answer with JSON matching this schema", in the order they are probed.
JSON_OBJECT = "json_object"  # llama-cpp-python: {"type": "json_object", "schema": ...}
JSON_SCHEMA = "json_schema"  # llama.cpp server, LM Studio, vLLM, Ollama's OpenAI endpoint
SPELLINGS = (JSON_OBJECT, JSON_SCHEMA)
_DROPPED_KEYS = frozenset({"default", "title", "description", "examples"})


def action_schema(tools: Sequence[ToolSpec]) -> dict[str, Any]:
    """One action object: a call of one of `tools`, or finish, or blocked."""
    choices: list[dict[str, Any]] = [
        _object({"tool": {"const": spec.name}, "args": _args_schema(spec.parameters)}) for spec in tools
    ]
    choices.append(_object({"tool": {"const": FINISH}, "summary": {"type": "string"}}))
    choices.append(_object({"tool": {"const": BLOCKED}, "reason": {"type": "string"}}))
    return {"anyOf": choices}


def response_format(schema: dict[str, Any], spelling: str) -> dict[str, Any]:
    """The request's `response_format` in the spelling the server honours."""
    if spelling == JSON_OBJECT:
        return {"type": "json_object", "schema": schema}
    return {"type": "json_schema", "json_schema": {"name": "action", "strict": True, "schema": schema}}


@dataclass(frozen=True)
class Action:
    """One parsed action: a tool call (`args`), or finish (`text` is the summary), or blocked
    (`text` is the reason)."""

    tool: str
    args: dict[str, Any]
    text: str = ""


class BadAction(ValueError):
    """The reply is not one action of the schema (the server ignored it, or a grammar slipped)."""


def parse_action(content: str, schema: dict[str, Any]) -> Action:
    """The action a reply holds; raises BadAction saying what is wrong, in words the model can act on."""
    text = content.strip()
    if text.startswith("```"):  # a server that ignored the grammar; the model fenced its JSON
        text = text.strip("`").removeprefix("json").strip()
    try:
        # strict=False: a raw tab or newline inside a string (a file's text written as it reads)
        # is what the model meant; llama.cpp's JSON grammar lets such characters through
        value = json.loads(text, strict=False)
    except json.JSONDecodeError as exc:
        raise BadAction(f"the reply is not one JSON object ({exc.msg} at character {exc.pos})") from None
    if not isinstance(value, dict) or not isinstance(value.get("tool"), str):
        raise BadAction('the reply must be one JSON object with a "tool" field')
    import jsonschema  # type: ignore[import-untyped]  # here: a fifth of `hearth run`'s import time

    errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(value), key=lambda e: e.path)
    if errors:
        raise BadAction(_explain(value, schema))
    name = value["tool"]
    if name == FINISH:
        return Action(FINISH, {}, str(value.get("summary", "")))
    if name == BLOCKED:
        return Action(BLOCKED, {}, str(value.get("reason", "")))
    return Action(name, dict(value.get("args") or {}))


def matches(content: str, schema: dict[str, Any]) -> bool:
    try:
        parse_action(content, schema)
    except BadAction:
        return False
    return True


def offered_names(schema: dict[str, Any]) -> list[str]:
    return [choice["properties"]["tool"]["const"] for choice in schema.get("anyOf", [])]


def _explain(value: dict[str, Any], schema: dict[str, Any]) -> str:
    names = offered_names(schema)
    name = value["tool"]
    if name not in names:
        return f"{name!r} is not one of the actions offered now: {', '.join(names)}"
    choice = next(c for c in schema["anyOf"] if c["properties"]["tool"]["const"] == name)
    import jsonschema

    problems = [e.message for e in jsonschema.Draft202012Validator(choice).iter_errors(value)]
    return f"the {name} action does not fit its schema: {'; '.join(problems[:3])}"


def _object(properties: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def _args_schema(parameters: dict[str, Any]) -> dict[str, Any]:
    """A tool's argument schema, without what a grammar need not carry (defaults, descriptions),
    closed to unknown fields."""
    slim = _slim(parameters)
    if not isinstance(slim, dict):
        return {"type": "object"}
    slim.setdefault("type", "object")
    if slim.get("type") == "object" and "properties" in slim:
        slim.setdefault("additionalProperties", False)
    return slim


def _slim(value: Any) -> Any:
    if isinstance(value, dict):
        return {
            k: (_slim(v) if k != "properties" else {p: _slim(s) for p, s in v.items()})
            for k, v in value.items()
            if k not in _DROPPED_KEYS
        }
    if isinstance(value, list):
        return [_slim(v) for v in value]
    return value
