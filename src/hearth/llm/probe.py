"""Ask the model once how it calls tools, instead of guessing from its name.

One tiny request carries one tool and a task that needs it. A model that answers with
a structured call gets the tools natively; one that writes the call as text gets them
described in the prompt (text mode), which costs it a third of the tokens and is what
it reads anyway. A model that does neither leaves the choice as it was.
"""

from __future__ import annotations

from hearth.core.protocols import Model, ModelRequest
from hearth.core.types import Message, ToolSpec
from hearth.llm.profiles import ToolMode
from hearth.llm.textcalls import parse_text_calls
from hearth.prompts import render

PROBE_HEADER = "X-Hearth-Probe"  # marks the request, so logs (and the scripted test server) can tell it apart
PROBE_TOOL = ToolSpec(
    name="ls",
    description="List a folder.",
    parameters={"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
)


async def probe_tool_mode(model: Model) -> ToolMode | None:
    """AUTO when the model made a structured call, TEXT when it wrote one, None when it answered
    neither way. A server that could not answer raises ModelError (nothing was learned)."""
    request = ModelRequest(
        messages=[
            Message(role="system", content=render("probe_system")),
            Message(role="user", content=render("probe_task")),
        ],
        tools=[PROBE_TOOL],
        temperature=0.0,
        max_tokens=64,
        headers={PROBE_HEADER: "tools"},
    )
    response = await model.complete(request)
    if any(call.name == PROBE_TOOL.name for call in response.tool_calls):
        return ToolMode.AUTO
    if any(call.name == PROBE_TOOL.name for call in parse_text_calls(response.content, {"ls": ("path",)})):
        return ToolMode.TEXT
    return None
