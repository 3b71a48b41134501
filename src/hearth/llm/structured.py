"""Ask a model for JSON that matches a schema: the structured answers a pipeline step needs.

A model whose role says it can answer to a JSON schema (`json_schema = true`) gets the schema as
`response_format` (the server constrains its output); any other model gets the schema in the
prompt. Either way the answer is read leniently (think blocks, fences and prose around the object
are dropped, broken JSON is repaired) and validated; an answer that still does not fit goes back
to the model once (or `retries` times), naming the error, before the caller gets a
`StructuredAnswerError`. A bare list where the schema wants an object with one required field is
taken as that field (small models often answer `[...]` for `{"tasks": [...]}`).

    plan = await ask_json(model, messages, Plan, json_schema=role.json_schema, sampling=role.sampling)
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from json_repair import repair_json
from pydantic import BaseModel, ValidationError

from hearth.core.errors import ModelError
from hearth.core.protocols import Model, ModelRequest, ModelResponse
from hearth.core.types import Message
from hearth.llm.thinking import split_thinking
from hearth.prompts import render

_FENCE = re.compile(r"```[ \t]*(?:json)?[ \t]*\n(.*?)(?:```|$)", re.DOTALL | re.IGNORECASE)
_NAME = re.compile(r"[^A-Za-z0-9_-]")
ERROR_CHARS = 600  # how much of a validation error goes back to the model
T = TypeVar("T", bound=BaseModel)


class StructuredAnswerError(ModelError):
    """The model did not produce a usable answer even after being told what was wrong."""

    def __init__(
        self, message: str, raw: str, problem: str = "", responses: tuple[ModelResponse, ...] = ()
    ) -> None:
        super().__init__(
            message, "Use a model that follows JSON instructions better, or one with json_schema support."
        )
        self.raw = raw
        self.problem = problem  # what was wrong with the last answer
        self.responses = responses  # every answer asked for (their usage counts what was spent)

    @property
    def tokens(self) -> int:
        return sum(r.usage.prompt_tokens + r.usage.completion_tokens for r in self.responses)


@dataclass(frozen=True)
class StructuredAnswer(Generic[T]):
    value: T
    attempts: int  # 1: the first answer fitted; 2: it fitted after the model was told the error
    repaired: bool  # the JSON had to be repaired (or dug out of prose) before it parsed
    responses: tuple[ModelResponse, ...]

    @property
    def tokens(self) -> int:
        """Prompt and completion tokens over every answer asked for."""
        return sum(r.usage.prompt_tokens + r.usage.completion_tokens for r in self.responses)


async def ask_json(
    model: Model,
    messages: Sequence[Message],
    output: type[T],
    *,
    json_schema: bool = False,
    temperature: float | None = None,
    sampling: Mapping[str, Any] | None = None,
    retries: int = 1,
) -> StructuredAnswer[T]:
    """The model's answer to `messages` as an `output`; StructuredAnswerError when it will not fit.

    `json_schema`: the model (its role) supports `response_format` with a JSON schema. `sampling`:
    the role's request settings (top_p, seed, max_tokens, stop, ...). `retries`: how many times a
    bad answer goes back to the model with the error before giving up."""
    schema = output.model_json_schema()
    name = _NAME.sub("_", output.__name__)[:64] or "answer"
    if json_schema:
        instruction = render("json_answer_native", name=name)
    else:
        instruction = render("json_answer", schema=json.dumps(schema, ensure_ascii=False))
    conversation = _with_instruction(list(messages), instruction)
    extra = {k: v for k, v in (sampling or {}).items() if k != "max_tokens"}
    if json_schema:
        extra["response_format"] = {"type": "json_schema", "json_schema": {"name": name, "schema": schema}}
    max_tokens = (sampling or {}).get("max_tokens")
    responses: list[ModelResponse] = []
    problem = ""
    for attempt in range(1, retries + 2):
        response = await model.complete(
            ModelRequest(messages=conversation, temperature=temperature, max_tokens=max_tokens, extra=extra)
        )
        responses.append(response)
        text, _thinking = split_thinking(response.content)
        try:
            value, repaired = _parse(text, output)
        except ValueError as exc:
            problem = str(exc)
            conversation = [
                *conversation,
                Message(role="assistant", content=text),
                Message(role="user", content=render("json_answer_retry", error=problem)),
            ]
            continue
        return StructuredAnswer(value, attempt, repaired, tuple(responses))
    raw = split_thinking(responses[-1].content)[0]
    raise StructuredAnswerError(
        f"The model's answer did not match the {name} schema after {len(responses)} tries: {problem}",
        raw,
        problem,
        tuple(responses),
    )


def _with_instruction(messages: list[Message], instruction: str) -> list[Message]:
    """The instruction added to the last user message (two user messages in a row break strict
    chat templates), or as a user message of its own."""
    if messages and messages[-1].role == "user" and isinstance(messages[-1].content, str):
        last = messages[-1]
        return [*messages[:-1], Message(role="user", content=f"{last.content}\n\n{instruction}")]
    return [*messages, Message(role="user", content=instruction)]


def parse_answer(content: str, output: type[T]) -> T:
    """A model's reply (think blocks dropped) as an `output`, repaired where that is safe;
    ValueError saying what is wrong (which field, and why) otherwise."""
    return _parse(split_thinking(content)[0], output)[0]


def _parse(text: str, output: type[T]) -> tuple[T, bool]:
    """The answer as an `output`, and whether it had to be repaired; ValueError saying what is wrong."""
    if not text.strip():
        raise ValueError("the answer was empty")
    if "{" not in text and "[" not in text:
        raise ValueError("no JSON object was found in the answer")
    candidate, dug = _json_text(text)
    try:
        value: Any = json.loads(candidate)
        repaired = dug
    except json.JSONDecodeError:
        value = repair_json(candidate, return_objects=True)
        repaired = True
    value = _wrapped(value, output)
    if not isinstance(value, dict):
        raise ValueError(f"the answer is not a JSON object: {text[:200]!r}")
    try:
        return output.model_validate(value), repaired
    except ValidationError as exc:
        details = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or '(top level)'}: {e['msg']}" for e in exc.errors()
        )
        raise ValueError(details[:ERROR_CHARS]) from None


def _wrapped(value: Any, output: type[BaseModel]) -> Any:
    """A bare list where `output` has one required field: the object with that field."""
    if isinstance(value, list):
        required = [n for n, f in output.model_fields.items() if f.is_required()]
        if len(required) == 1:
            return {required[0]: value}
    return value


def _json_text(text: str) -> tuple[str, bool]:
    """The JSON in a reply: the reply itself, a fenced block, or the span from the first `{` (or
    `[`, when a list comes first) to the last `}` (`]`); True when it had to be dug out."""
    stripped = text.strip()
    if stripped.startswith(("{", "[")):
        return stripped, False
    fence = _FENCE.search(text)
    if fence:
        return fence.group(1).strip(), True
    brace, bracket = text.find("{"), text.find("[")
    open_, close = ("[", "]") if bracket >= 0 and (brace < 0 or bracket < brace) else ("{", "}")
    start, end = text.find(open_), text.rfind(close)
    if start >= 0:
        return text[start : end + 1 if end > start else len(text)], True
    return stripped, True
