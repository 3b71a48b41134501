"""The API's request bodies, the WebSocket's client messages, and the response models shared.

A WebSocket client message is the HTTP body of the same action with a `type` (and the `id` of
the question it answers, which HTTP has in the path), so it is checked by the same rules
whichever way it arrives. A message's text comes as `content` (agent_computer's name) or
`message` (the HTTP body's).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, TypeAdapter

MAX_MESSAGE = 200_000

MessageText = Annotated[str, Field(min_length=1, max_length=MAX_MESSAGE)]
Mode = Literal["auto", "normal", "manual", "plan"]


class Login(BaseModel):
    pin: str = ""
    token: str = ""


class ChatIn(BaseModel):
    message: MessageText
    mode: Mode | None = None
    plan: bool = False  # plan with read-only tools first, then carry the plan out
    deep: bool = False  # deep work: a todo tree and a token budget
    budget: int | None = Field(default=None, gt=0)  # tokens (default for deep work: 200000)


class ModeIn(BaseModel):
    mode: Mode


class ModelIn(BaseModel):
    role: str = Field("main", min_length=1, max_length=64, description="main, planner, coder, ...")
    model: str = Field(min_length=1, max_length=300)


class RoleOut(BaseModel):
    """A role as the session uses it now (the key is never shown)."""

    role: str
    model: str  # "" = the server's default
    server: str  # "" = the main server
    native_tools: bool | None
    json_schema: bool
    vision: bool
    thinking: bool | None


class ApprovalIn(BaseModel):
    decision: Literal["allow", "session", "deny"]
    message: str = ""


class PlanIn(BaseModel):
    decision: Literal["approve", "reject"]
    steps: list[str] = Field(default_factory=list)


class ModelSelect(BaseModel):
    model_id: str = Field(min_length=1, max_length=300)
    provider: str = ""  # accepted for agent_computer's clients; Hearth uses its configured server


class SendMessage(ChatIn):
    type: Literal["message"]
    message: Annotated[MessageText, Field(validation_alias=AliasChoices("content", "message"))]


class SetMode(ModeIn):
    type: Literal["set_mode"]


class Stop(BaseModel):
    type: Literal["stop"]


class Approve(ApprovalIn):
    type: Literal["approve"]
    id: str


class DecidePlan(PlanIn):
    type: Literal["plan_decision"]
    id: str


class Ping(BaseModel):
    type: Literal["ping"]


class Clear(BaseModel):
    """Start over: a new, empty session (the old one stays in the session list)."""

    type: Literal["clear"]


ClientMessage = Annotated[
    SendMessage | SetMode | Stop | Approve | DecidePlan | Ping | Clear, Field(discriminator="type")
]
CLIENT_MESSAGE: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)
CLIENT_TYPES = ("message", "set_mode", "stop", "approve", "plan_decision", "ping", "clear")


class Ok(BaseModel):
    ok: bool = True


class WireMessage(BaseModel):
    """One message of the event stream (see hearth.history.wire): its `type` and that type's fields."""

    model_config = ConfigDict(extra="allow")
    type: str
