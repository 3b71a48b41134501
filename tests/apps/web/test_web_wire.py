"""What the web UI (and every other reader of the one encoding) is sent for a model reply."""

from __future__ import annotations

import pytest

from hearth.agent.finish import claims_completion
from hearth.core.events import ModelReply
from hearth.core.types import CallFormat, ToolCall
from hearth.history.wire import Encoder
from hearth.llm.textcalls import parse_text_calls


def test_calls_written_as_text_show_as_tool_cards_not_as_text() -> None:
    text = 'I will write it now.\n```json\n{"name": "write", "arguments": {"path": "a.txt", "content": "x"}}\n```\n'
    parsed = parse_text_calls(text, {"write": ("path", "content")})
    calls = tuple(
        ToolCall(id=f"c{i}", name=c.name, arguments=c.arguments, raw_arguments=c.raw)
        for i, c in enumerate(parsed)
    )
    reply = ModelReply(text=text, tool_calls=calls, call_format=CallFormat.TEXT)
    messages = Encoder().encode(reply)
    assert [m["type"] for m in messages] == ["thinking", "text", "tool_call", "usage"]
    assert messages[1]["text"] == "I will write it now."
    assert messages[2]["input"] == {"path": "a.txt", "content": "x"}


def test_finish_markers_are_not_shown_and_native_text_is_kept_whole() -> None:
    reply = ModelReply(text="Done: `{}` stays.\nTASK_COMPLETE", call_format=CallFormat.NONE)
    assert Encoder().encode(reply)[1]["text"] == "Done: `{}` stays."


CLAIMS = [
    "TASK_COMPLETE",
    "Task complete",
    "TASK-COMPLETED",
    "# Task Complete",
    "**Task completed.**",
    "The task is complete!",
    "Task is now done.",
    "Done.",
    "All done!",
    '{"name": "task_complete", "arguments": {}}',
    '```json\n{"name": "finish", "arguments": {"summary": "ok"}}\n```',
]


@pytest.mark.parametrize("claim", CLAIMS)
def test_every_completion_spelling_the_loop_recognises_is_kept_out_of_the_shown_text(claim: str) -> None:
    text = f"Wrote hello.py; it prints hello.\n{claim}"
    assert claims_completion(text)  # the one recogniser takes it as a finish ...
    reply = ModelReply(text=text, call_format=CallFormat.NONE)
    shown = Encoder().encode(reply)[1]["text"]
    assert shown == "Wrote hello.py; it prints hello."  # ... and the reader does not see it


def test_words_about_completion_mid_sentence_are_shown() -> None:
    text = "Once the task is complete, run `make`. Done means the tests pass."
    assert not claims_completion(text)
    assert Encoder().encode(ModelReply(text=text, call_format=CallFormat.NONE))[1]["text"] == text
