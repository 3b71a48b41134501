"""The changes a task asks for, read one by one (agent/parts)."""

from __future__ import annotations

from hearth.agent.parts import asked_changes, checklist


def test_each_change_of_a_sentence_is_one_part_and_constraints_are_none() -> None:
    task = (
        "In hosts.ini, change the web port to 8081, make the cache expire after 60 seconds (not 30), "
        "delete the legacy mirror together with its comment, and add a section [backup] with dir = /srv. "
        "Keep everything else as it is. Commit it with the message 'Tidy hosts'."
    )
    assert asked_changes(task) == [
        "change the web port to 8081",
        "make the cache expire after 60 seconds (not 30)",
        "delete the legacy mirror together with its comment",
        "add a section [backup] with dir = /srv",
    ]  # "Keep ..." asks no change; the commit is judged by git, not by this list


def test_a_setting_turned_on_or_off_is_a_change_of_its_own() -> None:
    task = (
        "In tsconfig.json, add ES2022 to lib in place of ES2017, turn on strict, enable sourceMap, "
        "disable noEmit and increase the retries to 5."
    )
    assert asked_changes(task) == [
        "add ES2022 to lib in place of ES2017",
        "turn on strict",
        "enable sourceMap",
        "disable noEmit",
        "increase the retries to 5",
    ]


def test_the_list_is_for_three_changes_or_more_with_the_files_as_they_are() -> None:
    task = "In a.txt, change x to 1, change y to 2, and add z = 3."
    text = checklist(task, [("a.txt", "x = 1\ny = 1\n")])
    assert "The task asks for 3 changes:\n1. change x to 1\n2. change y to 2\n3. add z = 3" in text
    assert "a.txt:\n```\nx = 1\ny = 1\n```" in text
    assert checklist("Fix the bug in a.py and add a test to test_a.py.", [("a.py", "x\n")]) == ""
    assert checklist("Implement f in solution.py so that the tests pass.", [("solution.py", "x\n")]) == ""
    long = "\n".join(str(n) for n in range(200)) + "\n"
    assert "big.txt" not in checklist(task, [("big.txt", long)])  # too long to show whole
