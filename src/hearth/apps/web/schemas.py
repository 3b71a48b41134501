"""The API's request bodies and the response models its routers share.

The WebSocket's client messages (sockets.py) are these same models with a `type`, so a
message is checked the same way whichever way it arrives.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

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


class ModeIn(BaseModel):
    mode: Mode


class ApprovalIn(BaseModel):
    decision: Literal["allow", "session", "deny"]
    message: str = ""


class PlanIn(BaseModel):
    decision: Literal["approve", "reject"]
    steps: list[str] = Field(default_factory=list)


class ModelSelect(BaseModel):
    model_id: str = Field(min_length=1, max_length=300)
    provider: str = ""  # accepted for agent_computer's clients; Hearth uses its configured server


class Ok(BaseModel):
    ok: bool = True


class WireMessage(BaseModel):
    """One message of the event stream (see hearth.runtime.wire): its `type` and that type's fields."""

    model_config = ConfigDict(extra="allow")
    type: str
