"""Constrained actions: each reply is one JSON action object the server's grammar forces.

A server that can hold a reply to a JSON schema (llama.cpp's grammar, behind several spellings of
`response_format`) is asked, every step, for exactly one of: a call of an offered tool
(`{"tool": NAME, "args": {...}}`), `{"tool": "finish", "summary": ...}` or
`{"tool": "blocked", "reason": ...}`. A small model then cannot invent a tool, break the JSON,
hide a call in prose or forget how to finish: finishing is one of the choices at every step.

A file's text is not asked for inside the JSON: a small model escapes code badly in a string (a
docstring's closing quotes come out as `\\"\\"`, and the write breaks the file). A `write` action
names only the file; the model's next reply, unconstrained, gives the text in a fenced block as it
would show code to a person (aider's whole-file form), and the session records the action followed
by that block as the one reply it is.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Mapping, Sequence
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
# The argument a tool's action leaves out, given instead in a fenced block after it.
BODY_FIELDS = {"write": "content"}
# The arguments an action does not offer: the body, and write's `append` (a small model offered
# it appended whole new versions of a file to the old one; a file is written whole).
LEFT_OUT = {"write": frozenset({"content", "append"})}
# A fenced block from its opening line to the last fence that starts a line: a Markdown file's own
# fences stay inside it.
_BLOCK = re.compile(r"```[^\n`]*\n(.*)^[ \t]*```", re.DOTALL | re.MULTILINE)
_FIRST_BLOCK = re.compile(r"```[^\n`]*\n(.*?)^[ \t]*```", re.DOTALL | re.MULTILINE)
# Files whose own text may hold a fence line (Markdown's code blocks); in any other, a fence line is
# where the block ends.
_FENCED_KINDS = (".md", ".markdown", ".mdx", ".rst", ".txt", ".ipynb")
_CLOSED_INLINE = re.compile(r"```[^\n`]*\n(.*)```", re.DOTALL)  # `return x```
_OPENED = re.compile(r"```[^\n`]*\n")


def action_schema(
    tools: Sequence[ToolSpec], paths: Mapping[str, Collection[str]] | None = None
) -> dict[str, Any]:
    """One action object: a call of one of `tools`, or finish, or blocked. `paths`: for a tool's
    name, the only `path` values its action may take (agent/progress: after the model chose a
    file the task says not to change)."""
    choices: list[dict[str, Any]] = []
    for spec in tools:
        args = _args_schema(spec.parameters, LEFT_OUT.get(spec.name))
        _hold_paths(args, (paths or {}).get(spec.name, ()))
        choices.append(_object({"tool": {"const": spec.name}, "args": args}))
    choices.append(_object({"tool": {"const": FINISH}, "summary": {"type": "string"}}))
    choices.append(_object({"tool": {"const": BLOCKED}, "reason": {"type": "string"}}))
    return {"anyOf": choices}


def _hold_paths(args: dict[str, Any], names: Collection[str]) -> None:
    """Holds `args`' string `path` to `names` (an enum: a grammar of a few literal choices)."""
    path = (args.get("properties") or {}).get("path")
    if names and isinstance(path, dict) and path.get("type") == "string" and "enum" not in path:
        path["enum"] = sorted(names)


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


class NoText(BadAction):
    """The reply asked for a write's text gave none: the action again, or no fenced block (the
    request for the text may be made again; a text cut off is not this: asked again, it would be
    cut off again)."""


def parse_action(content: str, schema: dict[str, Any]) -> Action:
    """The action a reply holds; raises BadAction saying what is wrong, in words the model can act on.
    A `write` action is followed by its file's text in a fenced block (see `needs_body`)."""
    value, rest = _split(content)
    if not isinstance(value, dict) or not isinstance(value.get("tool"), str):
        raise BadAction('the reply must be one JSON object with a "tool" field')
    value, inline = _inline_body(value, rest)
    import jsonschema  # type: ignore[import-untyped]  # here: a fifth of `hearth run`'s import time

    schema = _lenient(schema)
    errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(value), key=lambda e: e.path)
    if errors:
        raise BadAction(_explain(value, schema))
    name = value["tool"]
    field = BODY_FIELDS.get(name)
    if rest and field is None:
        raise BadAction("the reply must be one JSON object and nothing after it")
    if name == FINISH:
        return Action(FINISH, {}, str(value.get("summary", "")))
    if name == BLOCKED:
        return Action(BLOCKED, {}, str(value.get("reason", "")))
    args = dict(value.get("args") or {})
    if field is not None:
        args[field] = inline if inline is not None else body_text(rest, str(args.get("path", "the file")))
    return Action(name, args)


def _lenient(schema: dict[str, Any]) -> dict[str, Any]:
    """`schema` without the held paths (see `action_schema`): the grammar steers, and a call
    naming another path anyway (a server that does not hold the grammar) meets the tools' own
    rules, which say why a file is refused and what to change instead."""
    choices = []
    for choice in schema.get("anyOf", []):
        path = choice["properties"].get("args", {}).get("properties", {}).get("path")
        if isinstance(path, dict) and "enum" in path:
            args = choice["properties"]["args"]
            path = {k: v for k, v in path.items() if k != "enum"}
            args = {**args, "properties": {**args["properties"], "path": path}}
            choice = {**choice, "properties": {**choice["properties"], "args": args}}
        choices.append(choice)
    return {**schema, "anyOf": choices} if "anyOf" in schema else schema


def _inline_body(value: dict[str, Any], rest: str) -> tuple[dict[str, Any], str | None]:
    """The action without a text its server let through inside the JSON (a server that does not
    hold the grammar), and that text: what the model meant, taken as it is."""
    field = BODY_FIELDS.get(value["tool"])
    args = value.get("args")
    if field is None or rest or not isinstance(args, dict) or not isinstance(args.get(field), str):
        return value, None
    return {**value, "args": {k: v for k, v in args.items() if k != field}}, args[field]


def needs_body(content: str, schema: dict[str, Any]) -> dict[str, Any] | None:
    """The arguments of a reply's action when it is a valid `write` action still without its text
    (the next request asks for it); None otherwise."""
    try:
        value, rest = _split(content)
    except BadAction:
        return None
    if rest or not isinstance(value, dict) or value.get("tool") not in BODY_FIELDS:
        return None
    import jsonschema

    if any(jsonschema.Draft202012Validator(_lenient(schema)).iter_errors(value)):
        return None
    return dict(value.get("args") or {})


_ACTION_AGAIN = re.compile(r'\s*\{\s*"tool"\s*:.*\}\s*\Z', re.DOTALL)


def _block(reply: str, path: str) -> re.Match[str] | None:
    """The fenced block holding the file's text: to the last fence (a Markdown file's own fences
    stay inside it), or, for any other kind of file, to the first (the 1.5B closed a Python file's
    block, then opened another, and the stray fence line became line 20 of the file: "not valid
    Python", at a line the model could not see)."""
    if path.lower().endswith(_FENCED_KINDS):
        return _BLOCK.search(reply) or _CLOSED_INLINE.search(reply)
    return _FIRST_BLOCK.search(reply) or _CLOSED_INLINE.search(reply)


def body_text(reply: str, path: str) -> str:
    """The file's text from the reply that gives it: the fenced block's inside (the whole reply
    when it has no fence)."""
    block = _block(reply, path)
    if block:
        text = block.group(1)
        if _is_action(text):
            # the 1.5B fenced its write action again as the text, and ssh_config became six lines
            # of JSON naming itself
            raise NoText(
                f"the fenced block is the write action again, not {path}'s text: give the file's "
                "whole text in one fenced code block right after the action"
            )
        return text if text.endswith("\n") or not text else text + "\n"
    if _OPENED.search(reply):
        raise BadAction(
            f"the text for {path} was cut off before its closing ```: write a shorter file, "
            "or change part of it with edit"
        )
    if not reply.strip() or _ACTION_AGAIN.match(reply) or "```" in reply:
        # a small model that sees its earlier writes recorded as action-then-block sometimes
        # answers the ask for the text with the action again, or with a sentence and a bare
        # fence: neither is the file's text
        raise NoText(
            f"no text for {path} followed the write action: give the file's whole text in one "
            "fenced code block right after the action"
        )
    return reply.strip("\n") + "\n"


def _is_action(text: str) -> bool:
    """An action object ({"tool": ..., "args": {...}}), not a file's text."""
    if not _ACTION_AGAIN.match(text):
        return False
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return False
    return isinstance(value, dict) and set(value) <= {"tool", "args"} and isinstance(value.get("args"), dict)


def _split(content: str) -> tuple[Any, str]:
    """The reply's JSON value and what follows it."""
    text = content.strip()
    if text.startswith("```"):  # a server that ignored the grammar; the model fenced its JSON
        text = text.strip("`").removeprefix("json").strip()
    try:
        # strict=False: a raw tab or newline inside a string is what the model meant; llama.cpp's
        # JSON grammar lets such characters through
        value, end = json.JSONDecoder(strict=False).raw_decode(text)
    except json.JSONDecodeError as exc:
        raise BadAction(f"the reply is not one JSON object ({exc.msg} at character {exc.pos})") from None
    return value, text[end:].strip("\n ")


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


def _args_schema(parameters: dict[str, Any], left_out: frozenset[str] | None = None) -> dict[str, Any]:
    """A tool's argument schema, without what a grammar need not carry (defaults, descriptions)
    and without the arguments `left_out` (see LEFT_OUT), closed to unknown fields."""
    slim = _slim(parameters)
    if not isinstance(slim, dict):
        return {"type": "object"}
    if left_out:
        slim["properties"] = {k: v for k, v in (slim.get("properties") or {}).items() if k not in left_out}
        slim["required"] = [k for k in slim.get("required", []) if k not in left_out]
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
