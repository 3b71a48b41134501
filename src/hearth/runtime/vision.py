"""The `vision` tool's other end: the role that sees, and how an image is put to it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from hearth.core.protocols import Model, ModelRequest
from hearth.core.types import Message
from hearth.llm.thinking import split_thinking
from hearth.prompts import render
from hearth.runtime.config import Settings
from hearth.runtime.roles import Role
from hearth.tools.base import Tool
from hearth.tools.builtin.vision import Ask, vision_tools


class Roles(Protocol):
    """What the vision tool needs of the runtime (session.Runtime is one): the configured roles and
    the model each one's requests go to. A protocol, so this module does not import the session's."""

    settings: Settings

    def role(self, name: str, models: Mapping[str, str] | None = None) -> Role: ...

    def model_for(self, role: Role) -> Model: ...


def seeing_role(rt: Roles) -> Role | None:
    """The role to send images to: `vision` if it is configured and can see, else the first
    configured role (in name order) flagged `vision = true`; None when no model can see."""
    for name in sorted(rt.settings.model.roles, key=lambda n: (n != "vision", n)):
        role = rt.role(name)
        if role.vision:
            return role
    return None


def asker(rt: Roles, role: Role) -> Ask:
    async def ask(question: str, image_url: str) -> str:
        request = ModelRequest(
            messages=[
                Message(role="system", content=render("vision_system")),
                Message(role="user", content=question, images=(image_url,)),
            ],
            temperature=role.temperature,
            extra=dict(role.sampling),
        )
        response = await rt.model_for(role).complete(request)
        return split_thinking(response.content)[0]

    return ask


def vision_tool(rt: Roles) -> Tool | None:
    """`vision`, when a role can see (else None: the tool is not offered)."""
    role = seeing_role(rt)
    if role is None:
        return None
    (tool,) = vision_tools(asker(rt, role), role.name)
    return tool
