"""Test doubles shipped with Hearth so users' own tests can use them too."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hearth.testing.model import ScriptedModel
    from hearth.testing.script import ScriptedCall, ScriptedReply, check_request
    from hearth.testing.server import ScriptedServer

__all__ = ["ScriptedCall", "ScriptedModel", "ScriptedReply", "ScriptedServer", "check_request"]


def __getattr__(name: str) -> Any:  # lazy, so `python -m hearth.testing.server` runs cleanly
    if name == "ScriptedModel":
        from hearth.testing.model import ScriptedModel

        return ScriptedModel
    if name == "ScriptedServer":
        from hearth.testing.server import ScriptedServer

        return ScriptedServer
    if name in ("ScriptedCall", "ScriptedReply", "check_request"):
        from hearth.testing import script

        return getattr(script, name)
    raise AttributeError(name)
