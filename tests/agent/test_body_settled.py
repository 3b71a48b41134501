"""When a file written back unchanged is asked for again: not once its change has settled."""

from __future__ import annotations

from hearth.agent.body import settled
from hearth.core.events import Event, ModelReply, Notice, NoticeReason, ToolResult, UserMessage
from hearth.core.types import ToolCall


def _write(n: int, path: str, output: str, ok: bool = True) -> list[Event]:
    call = ToolCall(id=f"c{n}", name="write", arguments={"path": path, "content": "x"})
    return [ModelReply(tool_calls=(call,)), ToolResult(call_id=f"c{n}", name="write", output=output, ok=ok)]


def _run(n: int, ok: bool) -> list[Event]:
    call = ToolCall(id=f"r{n}", name="shell", arguments={"command": "pytest"})
    return [ModelReply(tool_calls=(call,)), ToolResult(call_id=f"r{n}", name="shell", output="out", ok=ok)]


def test_a_change_that_worked_with_nothing_failing_since_has_settled() -> None:
    history = [UserMessage(text="do it"), *_write(1, "a.py", "Overwrote a.py (3 lines)."), *_run(2, True)]
    assert settled(history, "a.py")
    unchanged = _write(3, "a.py", "Error: Not written: a.py already has exactly this content", ok=False)
    assert settled([*history, *unchanged], "a.py")  # the same text again changes nothing


def test_a_change_with_a_problem_said_or_a_failure_after_it_has_not() -> None:
    start: list[Event] = [UserMessage(text="do it")]
    assert not settled(start, "a.py")  # never changed
    assert not settled(
        [*start, *_write(1, "a.py", "Created a.py. Problem: a.py uses `x`, never defined")], "a.py"
    )
    assert not settled([*start, *_write(1, "a.py", "Created a.py."), *_run(2, False)], "a.py")
    assert not settled([*start, *_write(1, "b.py", "Created b.py.")], "a.py")
    # the finish review said what is missing after it
    said = Notice(reason=NoticeReason.FINISH_UNSUPPORTED, text="legacy_mode is still in a.py")
    assert not settled([*start, *_write(1, "a.py", "Created a.py."), said], "a.py")
    # a change in an earlier turn is not this turn's
    assert not settled([*_write(1, "a.py", "Created a.py."), *start], "a.py")
