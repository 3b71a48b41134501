"""What a small model was shown with its task, read back from the turn's events (agent/overview,
agent/done): the files as they were, and what the task's commands printed before any change."""

from __future__ import annotations

from hearth.agent.done import outputs_before
from hearth.agent.overview import shown_texts
from hearth.core.events import Event, HearthMessage, ModelReply, UserMessage


def first_look(text: str, output: str) -> HearthMessage:
    return HearthMessage(
        reason="files",
        text="...",
        shown=("health.py",),
        texts=(text,),
        commands=("python3 checkup.py < /dev/null",),
        outputs=(output,),
    )


def test_the_files_and_outputs_shown_with_this_turns_task_are_read_back() -> None:
    history: list[Event] = [
        UserMessage(text="Rename calc_bmi"),
        first_look("old text\n", "22.9"),
        ModelReply(text=""),
    ]
    assert shown_texts(history) == {"health.py": "old text\n"}
    assert outputs_before(history) == {"python3 checkup.py < /dev/null": "22.9"}


def test_nothing_shown_in_an_earlier_turn_is_read_back() -> None:
    """In a conversation's second turn the files may have changed since, by the person's wish:
    a rename or a version starting from the first turn's text would undo that."""
    history: list[Event] = [
        UserMessage(text="Rename calc_bmi"),
        first_look("old text\n", "22.9"),
        ModelReply(text=""),
        UserMessage(text="Now rename body_mass_index to bmi"),
        ModelReply(text=""),
    ]
    assert shown_texts(history) == {}
    assert outputs_before(history) == {}
