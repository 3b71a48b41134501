"""When a streamed reply has said enough: for a model allowed one call per reply, the first call
written as text that would run. Calls re-sent from a plan already carried out (run before, nothing
changed since) do not count: the loop skips those and runs the next one, so the stream goes on to it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from hearth.agent.finish import before_imitation
from hearth.agent.turn import seen_unchanged
from hearth.core.events import Event
from hearth.llm.textcalls import parse_text_calls
from hearth.llm.thinking import split_thinking
from hearth.tools.toolset import Toolset


def first_new_call(history: Sequence[Event], toolset: Toolset) -> Callable[[str], bool]:
    """A predicate on the reply's text so far: True once it holds a call that would run."""
    table = toolset.parameter_table()
    writes = {t.name for t in toolset if not t.read_only}

    def enough(text: str) -> bool:
        for call in parse_text_calls(before_imitation(split_thinking(text)[0]), table):
            if not call.name:
                continue
            if call.error or toolset.get(call.name) is None:
                return True  # an unknown tool or a broken call: the model hears so now
            if not seen_unchanged(history, call.name, call.arguments, writes):
                return True
        return False

    return enough
