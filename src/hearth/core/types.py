"""Value types shared by every layer: messages, tool calls, usage."""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class CallFormat(StrEnum):
    """How the model expressed its tool calls in one reply."""

    NONE = "none"
    NATIVE = "native"  # structured `tool_calls` in the API response
    TEXT = "text"  # written into the reply text (fenced JSON, XML tags, name(...))
    ACTION = "action"  # the whole reply is one JSON action object a grammar forced (llm/actions.py)


class ToolCall(Frozen):
    """One call the model asked for.

    `error` is set when the call could not be understood (unparseable or
    unrepairable arguments); the dispatcher then answers it with that error
    so the model can correct itself, keeping the id.
    """

    id: str
    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    raw_arguments: str = ""
    repaired: bool = False
    error: str | None = None


class Usage(Frozen):
    """Token counts as the server reported them (or estimated, and then marked)."""

    prompt_tokens: int = 0
    cached_tokens: int = 0
    completion_tokens: int = 0
    estimated: bool = False

    @property
    def total(self) -> int:
        return self.prompt_tokens + self.completion_tokens


class Timings(Frozen):
    ttft_ms: float | None = None
    total_ms: float = 0.0


Role = Literal["system", "user", "assistant", "tool"]


class Message(Frozen):
    """A chat message in the OpenAI wire shape (what the model is sent)."""

    role: Role
    content: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    tool_call_id: str | None = None
    name: str | None = None
    images: tuple[str, ...] = ()  # data: URLs sent after the text as image_url parts (vision models)

    def to_wire(self) -> dict[str, Any]:
        import json

        out: dict[str, Any] = {"role": self.role, "content": self.content}
        if self.images:
            parts: list[dict[str, Any]] = [{"type": "text", "text": self.content}]
            parts += [{"type": "image_url", "image_url": {"url": url}} for url in self.images]
            out["content"] = parts
        if self.tool_calls:
            # llama.cpp servers reject `content: null` next to tool_calls: send "".
            out["tool_calls"] = [
                {
                    "id": c.id,
                    "type": "function",
                    "function": {
                        "name": c.name,
                        "arguments": json.dumps(c.arguments, ensure_ascii=False),
                    },
                }
                for c in self.tool_calls
            ]
        if self.tool_call_id is not None:
            out["tool_call_id"] = self.tool_call_id
        if self.name is not None and self.role == "tool":
            out["name"] = self.name
        return out


class ToolSpec(Frozen):
    """What the model is told about one tool."""

    name: str
    description: str
    parameters: dict[str, Any]

    def to_wire(self) -> dict[str, Any]:
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": self.parameters,
            },
        }
