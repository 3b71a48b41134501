"""Asking a role for JSON that a pydantic model accepts.

Where the role's flags say its server answers to a JSON schema, the schema is sent as
`response_format`; otherwise (and as a check either way) the reply is read leniently: thinking
dropped, a fenced block or the outermost object taken, trailing commas and curly quotes
repaired, a bare list wrapped when the model wants one list field. A reply that still does not
validate is answered with the error (which field, what was wrong) and asked again, up to `tries`
replies; then the last error is the result. Kept small and separate, so a shared helper for
roles can replace it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ValidationError

from hearth.core.protocols import Model, ModelRequest
from hearth.core.types import Message
from hearth.llm.thinking import split_thinking
from hearth.prompts import render
from hearth.runtime.roles import Role

T = TypeVar("T", bound=BaseModel)
_FENCE = re.compile(r"```(?:json|JSON)?\s*\n(.*?)```", re.DOTALL)
_TRAILING_COMMA = re.compile(r",\s*([}\]])")
_QUOTES = str.maketrans({"\u201c": '"', "\u201d": '"', "\u2018": "'", "\u2019": "'"})


@dataclass(frozen=True)
class Answer(Generic[T]):
    value: T | None
    error: str  # why the last reply was refused ("" with a value)
    tokens: int  # prompt + completion tokens over every reply
    replies: int


async def ask_json(
    model: Model, role: Role, messages: Sequence[Message], schema: type[T], *, tries: int = 3
) -> Answer[T]:
    sampling = dict(role.sampling)
    max_tokens = sampling.pop("max_tokens", None)
    extra: dict[str, Any] = sampling
    if role.json_schema:
        extra = {
            **sampling,
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": schema.__name__, "schema": schema.model_json_schema()},
            },
        }
    convo = list(messages)
    tokens, error = 0, ""
    for n in range(1, tries + 1):
        response = await model.complete(
            ModelRequest(messages=convo, temperature=role.temperature, max_tokens=max_tokens, extra=extra)
        )
        tokens += response.usage.prompt_tokens + response.usage.completion_tokens
        value, error = parse_json(response.content, schema)
        if value is not None:
            return Answer(value, "", tokens, n)
        convo += [
            Message(role="assistant", content=split_thinking(response.content)[0] or "(empty)"),
            Message(
                role="user", content=render("pipeline_json_retry", error=error, schema=schema_text(schema))
            ),
        ]
    return Answer(None, error, tokens, tries)


def schema_text(schema: type[BaseModel]) -> str:
    return json.dumps(schema.model_json_schema(), separators=(",", ":"))


def parse_json(content: str, schema: type[T]) -> tuple[T | None, str]:
    """The reply as `schema`, repaired where that is safe; else (None, what was wrong)."""
    text = split_thinking(content)[0]
    if not text.strip():
        return None, "the reply was empty; answer with the JSON object only"
    if "{" not in text and "[" not in text:
        return None, "no JSON object was found in the reply"
    first_error = ""
    for candidate in _candidates(text):
        data, problem = _loads(candidate)
        if problem:
            first_error = first_error or problem
            continue
        data = _wrapped(data, schema)
        try:
            return schema.model_validate(data), ""
        except ValidationError as exc:
            return None, _errors(exc)
    return None, first_error or "no JSON object was found in the reply"


def _candidates(text: str) -> list[str]:
    found = [m.group(1) for m in _FENCE.finditer(text)]
    found.append(text)
    for open_, close in (("{", "}"), ("[", "]")):
        start, end = text.find(open_), text.rfind(close)
        if 0 <= start < end:
            found.append(text[start : end + 1])
    return found


def _loads(candidate: str) -> tuple[Any, str]:
    try:
        return json.loads(candidate), ""
    except json.JSONDecodeError as exc:
        problem = f"the JSON does not parse: {exc.msg} at line {exc.lineno} column {exc.colno}"
    repaired = _TRAILING_COMMA.sub(r"\1", candidate.translate(_QUOTES))
    try:
        return json.loads(repaired), ""
    except json.JSONDecodeError:
        return None, problem


def _wrapped(data: Any, schema: type[BaseModel]) -> Any:
    """A bare list where the schema wants an object with one list field: that field."""
    fields = list(schema.model_fields)
    if isinstance(data, list) and len(fields) >= 1:
        required = [n for n, f in schema.model_fields.items() if f.is_required()]
        if len(required) == 1:
            return {required[0]: data}
    return data


def _errors(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors()[:8]:
        where = ".".join(str(p) for p in err["loc"]) or "(the whole object)"
        parts.append(f"{where}: {err['msg']}")
    more = len(exc.errors()) - 8
    return "; ".join(parts) + (f"; and {more} more" if more > 0 else "")
