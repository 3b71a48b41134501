"""A model's response as the reply event the session records: text and thinking apart, calls
read from the structured channel or, in text and auto mode, from the text; a made-up finish tool
taken as the claim it is; a call the server cut short marked so it never runs."""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Sequence
from typing import Any

from hearth.agent.finish import FINISH_NAMES, before_imitation
from hearth.core.errors import Blocked, StopRun, TaskDone
from hearth.core.events import Event, ModelReply, ToolResult
from hearth.core.protocols import ModelResponse
from hearth.core.types import CallFormat, ToolCall
from hearth.llm.actions import BLOCKED, FINISH, BadAction, parse_action
from hearth.llm.profiles import ToolMode
from hearth.llm.textcalls import load_arguments, parse_text_calls
from hearth.llm.thinking import split_thinking
from hearth.prompts import render
from hearth.tools.toolset import Toolset


def reply_event(
    response: ModelResponse,
    history: Sequence[Event],
    tool_mode: ToolMode,
    toolset: Toolset,
    schema: dict[str, Any] | None = None,
) -> tuple[ModelReply, str | None]:
    """The reply event, and an error if the model tried to call a tool but it could not be read.
    In grammar mode (`schema`: the action schema the request carried) the reply is one action."""
    text, thinking = split_thinking(response.content)
    if response.reasoning:
        thinking = (response.reasoning + "\n" + thinking).strip()
    if tool_mode is ToolMode.GRAMMAR and schema is not None and not response.tool_calls:
        return _action_reply(response, text, thinking, schema)
    calls: list[ToolCall] = []
    fmt = CallFormat.NONE
    unparsed: str | None = None
    seen: set[str] = {e.call_id for e in history if isinstance(e, ToolResult)}
    if response.tool_calls:
        fmt = CallFormat.NATIVE
        for raw in response.tool_calls:
            call_id = raw.id if raw.id and raw.id not in seen else _new_id()
            seen.add(call_id)
            try:
                args, repaired = load_arguments(raw.arguments)
                calls.append(
                    ToolCall(
                        id=call_id,
                        name=raw.name,
                        arguments=args,
                        raw_arguments=raw.arguments,
                        repaired=repaired,
                    )
                )
            except ValueError as exc:
                calls.append(ToolCall(id=call_id, name=raw.name, raw_arguments=raw.arguments, error=str(exc)))
    elif tool_mode is not ToolMode.NATIVE or _only_a_call(text):
        table = toolset.parameter_table()
        for tc in parse_text_calls(before_imitation(text), table):
            if not tc.name:
                unparsed = tc.error or "no tool name"
                continue
            calls.append(
                ToolCall(
                    id=_new_id(),
                    name=tc.name,
                    arguments=tc.arguments,
                    raw_arguments=tc.raw,
                    repaired=tc.repaired,
                    error=tc.error,
                )
            )
        if calls:
            fmt = CallFormat.TEXT
            unparsed = None
    finish_calls = [c for c in calls if c.name in FINISH_NAMES and toolset.get(c.name) is None]
    if finish_calls:  # a made-up "task_complete" tool: the model means it is done, not a call to run
        calls = [c for c in calls if c not in finish_calls]
        fmt = fmt if calls else CallFormat.NONE
        if not text.strip():
            text = "TASK_COMPLETE"
    if response.finish_reason in ("length", "repetition"):
        # A call the server cut short was only "repaired" by guessing its end: never run it.
        calls = [
            c.model_copy(update={"error": render("error_call_cut")}) if c.repaired and not c.error else c
            for c in calls
        ]
    reply = ModelReply(
        text=text,
        thinking=thinking,
        tool_calls=tuple(calls),
        call_format=fmt,
        finish_reason=response.finish_reason,
        model=response.model,
        usage=response.usage,
        timings=response.timings,
    )
    return reply, unparsed


_WHOLE_CALL = re.compile(
    r"\s*(?:```(?:json)?\s*\{.*```|\{\s*\"name\".*\}|<tool_call>.*</tool_call>)\s*", re.DOTALL
)


def _only_a_call(text: str) -> bool:
    """A reply that is nothing but a tool call written as text (a fenced or bare JSON object, a
    `<tool_call>` block): in native mode the 1.5B wrote its whole write so, with the file in
    triple quotes, and the reply, taken for its final answer, ended the run 0 with nothing done."""
    return _WHOLE_CALL.fullmatch(text) is not None


def _action_reply(
    response: ModelResponse, text: str, thinking: str, schema: dict[str, Any]
) -> tuple[ModelReply, str | None]:
    """A grammar-mode reply: one call, or a finish or blocked (no call; see `action_stop`)."""
    calls: tuple[ToolCall, ...] = ()
    error = None
    try:
        action = parse_action(text, schema)
        if action.tool not in (FINISH, BLOCKED):
            raw = json.dumps(action.args, ensure_ascii=False)
            calls = (ToolCall(id=_new_id(), name=action.tool, arguments=action.args, raw_arguments=raw),)
    except BadAction as exc:
        error = render("error_action", error=str(exc))
    reply = ModelReply(
        text=text,
        thinking=thinking,
        tool_calls=calls,
        call_format=CallFormat.NONE if error else CallFormat.ACTION,
        finish_reason=response.finish_reason,
        model=response.model,
        usage=response.usage,
        timings=response.timings,
    )
    return reply, error


def action_stop(reply: ModelReply, schema: dict[str, Any] | None) -> StopRun | None:
    """The finish or blocked a grammar-mode reply chose, as the stop it asks for."""
    if reply.call_format is not CallFormat.ACTION or reply.tool_calls or schema is None:
        return None
    action = parse_action(reply.text, schema)
    if action.tool == BLOCKED:
        return Blocked(action.text or "no reason given", final_text=action.text)
    return TaskDone("the model chose finish", final_text=action.text)


def action_stop_text(reply: ModelReply) -> str | None:
    """The reason of a grammar-mode `blocked` action, if the reply is one."""
    if reply.call_format is not CallFormat.ACTION or reply.tool_calls:
        return None
    try:
        value = json.loads(reply.text, strict=False)
    except ValueError:
        return None
    if isinstance(value, dict) and value.get("tool") == BLOCKED:
        return str(value.get("reason") or "") or None
    return None


def _new_id() -> str:
    return "call_" + secrets.token_hex(6)
