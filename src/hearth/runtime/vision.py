"""The `vision` tool's other end: the role that sees, and how an image is put to it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hearth.core.protocols import ModelRequest
from hearth.core.types import Message
from hearth.llm.thinking import split_thinking
from hearth.prompts import render
from hearth.runtime.roles import Role
from hearth.tools.base import Tool
from hearth.tools.builtin.vision import Ask, vision_tools

if TYPE_CHECKING:
    from hearth.runtime.session import Runtime


def seeing_role(rt: Runtime) -> Role | None:
    """The role to send images to: `vision` if it is configured and can see, else the first
    configured role (in name order) flagged `vision = true`; None when no model can see."""
    for name in sorted(rt.settings.model.roles, key=lambda n: (n != "vision", n)):
        role = rt.role(name)
        if role.vision:
            return role
    return None


def asker(rt: Runtime, role: Role) -> Ask:
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


def vision_tool(rt: Runtime) -> Tool | None:
    """`vision`, when a role can see (else None: the tool is not offered)."""
    role = seeing_role(rt)
    if role is None:
        return None
    (tool,) = vision_tools(asker(rt, role), role.name)
    return tool
