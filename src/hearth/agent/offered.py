"""The tool schemas a request offers the model (native or auto tool mode)."""

from __future__ import annotations

from collections.abc import Sequence

from hearth.agent.compaction import Compactor, estimate_tokens
from hearth.core.events import Event, ToolResult
from hearth.core.types import ToolSpec
from hearth.llm.profiles import ModelProfile
from hearth.tools.toolset import Toolset

TOOLS_SHARE = 0.5  # past this share of a known window, the tool list shown is the profile's tight one


def offered_tools(
    toolset: Toolset, profile: ModelProfile, history: Sequence[Event], compactor: Compactor | None
) -> list[ToolSpec]:
    """The listed tools the profile shows (all when it names none) and the unlisted ones results
    revealed; when those would take over TOOLS_SHARE of a known window, the profile's tight list
    instead, with every tool that has worked in the session."""
    results = [(e.name, e.ok, e.output) for e in history if isinstance(e, ToolResult)]
    revealed = toolset.revealed(results)
    specs = toolset.shown_specs(profile.shown_tools, revealed)
    tight = profile.tight_tools
    if not tight or profile.shown_tools or compactor is None or not compactor.known:
        return specs
    if estimate_tokens((), specs) > compactor.window * TOOLS_SHARE:
        used = [name for name, ok, _ in results if ok]
        return toolset.shown_specs((*tight, *used), revealed)
    return specs
