"""What the person said not to change stays as it is, and a reply repeated unread ends the turn.

Each test drives `hearth run` against the scripted server with a small model's replies: the
refusals come from the loop (agent/handsoff), before the dispatcher runs anything."""

from __future__ import annotations

from pathlib import Path

from e2e.test_actions import act, events, finished, run, wrote
from e2e.test_small_done import MEDIAN_BUG, MEDIAN_FIXED, MEDIAN_TESTS, NO_VERSIONS, SMALL
from hearth.core.events import ToolResult
from hearth.llm.actions import JSON_OBJECT
from hearth.testing import ScriptedReply, ScriptedServer
from support import HearthCli

OWN_TESTS = "from stats import median\n\n\ndef test_one():\n    assert median([1]) == 1\n"


def results(ws: Path, name: str) -> list[ToolResult]:
    return [e for e in events(ws) if isinstance(e, ToolResult) and e.name == name]


def test_a_test_file_the_task_says_not_to_change_is_refused_and_the_model_fixes_the_code(
    hearth: HearthCli, workspace: Path
) -> None:
    """The 1.5B wrote its own test file over an exercise's tests ("Do not change the tests"):
    refused before it runs, with the file to change instead; the model then fixes the code."""
    (workspace / "stats.py").write_text(MEDIAN_BUG)
    (workspace / "test_stats.py").write_text(MEDIAN_TESTS)
    task = "Fix median in stats.py so that the tests in test_stats.py pass. Do not change the tests."
    script = [
        *wrote("test_stats.py", OWN_TESTS),
        *wrote("stats.py", MEDIAN_FIXED),
        act("finish", summary="Fixed median()."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task, **NO_VERSIONS)
    assert res.code == 0, res.stdout[-2000:]
    assert (workspace / "test_stats.py").read_text() == MEDIAN_TESTS
    assert (workspace / "stats.py").read_text() == MEDIAN_FIXED
    refused, written = results(workspace, "write")
    assert not refused.ok and "not to change the tests" in refused.output and "stats.py" in refused.output
    assert written.ok


def test_the_input_a_command_of_the_task_reads_is_refused(hearth: HearthCli, workspace: Path) -> None:
    """The 1.5B wrote its script into books.csv, the file the task's command reads: refused, and
    the data the check needs is still there when the script is written."""
    books = "title,genre\nDune,sci-fi\nAriel,poetry\n"
    script_text = (
        "import csv\nimport sys\n\nrows = csv.DictReader(open(sys.argv[2]))\n"
        "print('\\n'.join(r['title'] for r in rows if r['genre'] == sys.argv[1]))\n"
    )
    (workspace / "books.csv").write_text(books)
    (workspace / "pick.py").write_text("import sys\n")
    task = "Make pick.py print the titles of one genre: python3 pick.py poetry books.csv must print Ariel"
    script = [
        *wrote("books.csv", script_text),
        *wrote("pick.py", script_text),
        act("shell", command="python3 pick.py poetry books.csv"),
        act("finish", summary="pick.py prints the titles of a genre."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task, **NO_VERSIONS)
    assert res.code == 0, res.stdout[-2000:]
    assert (workspace / "books.csv").read_text() == books
    refused = results(workspace, "write")[0]
    assert not refused.ok and "books.csv is what the task's command reads" in refused.output
    assert "pick.py" in refused.output


def test_the_same_unreadable_reply_three_times_in_a_row_ends_the_turn(
    hearth: HearthCli, workspace: Path
) -> None:
    """Told each time that no text followed its write action, the 1.5B sent the same action with
    nothing after it twenty times, until the time ran out. The third time ends the turn as going
    in circles; nothing was done, so not with exit 0."""
    (workspace / "notes.txt").write_text("old\n")
    empty = [act("write", path="notes.txt"), ScriptedReply(text="```")]
    with ScriptedServer(empty * 6, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, "Replace the text of notes.txt with: new", **NO_VERSIONS)
        asked = len(server.requests)
    assert res.code != 0, res.stdout[-2000:]
    assert asked == 6  # three actions, each with its request for the text
    assert "could not be read" in finished(workspace).reason
    assert (workspace / "notes.txt").read_text() == "old\n"
