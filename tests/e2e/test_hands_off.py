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


def results(ws: Path, name: str) -> list[ToolResult]:
    return [e for e in events(ws) if isinstance(e, ToolResult) and e.name == name]


def test_a_test_file_the_task_says_not_to_change_is_refused_and_the_model_fixes_the_code(
    hearth: HearthCli, workspace: Path
) -> None:
    """The 1.5B wrote its own test file over an exercise's tests ("Do not change the tests"):
    refused before it runs, with the file to change instead, and before its text is asked for
    (a request the model spends for nothing); the model then fixes the code."""
    (workspace / "stats.py").write_text(MEDIAN_BUG)
    (workspace / "test_stats.py").write_text(MEDIAN_TESTS)
    task = "Fix median in stats.py so that the tests in test_stats.py pass. Do not change the tests."
    script = [
        act("write", path="test_stats.py"),  # no text asked for: it would be refused whatever it is
        *wrote("stats.py", MEDIAN_FIXED),
        act("finish", summary="Fixed median()."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task, **NO_VERSIONS)
        asked = len(server.requests)
    assert res.code == 0, res.stdout[-2000:]
    assert asked == 4  # the refused write's action, the real write's action and text, the finish
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
        act("write", path="books.csv"),
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
    in circles; nothing was done, so not with exit 0. (Each text is asked for twice: once, and
    once more with the reason, at a higher temperature.)"""
    (workspace / "notes.txt").write_text("old\n")
    empty = [act("write", path="notes.txt"), ScriptedReply(text="```"), ScriptedReply(text="```")]
    with ScriptedServer(empty * 4, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, "Replace the text of notes.txt with: new", **NO_VERSIONS)
        asked = len(server.requests)
    assert res.code != 0, res.stdout[-2000:]
    assert asked == 9  # three actions, each with its two requests for the text
    assert "could not be read" in finished(workspace).reason
    assert (workspace / "notes.txt").read_text() == "old\n"


def test_a_new_copy_of_the_named_script_in_another_folder_is_refused_and_the_script_changed(
    hearth: HearthCli, workspace: Path
) -> None:
    """The 1.5B wrote its change into a new notes/sync.py (notes/ is an argument in the task's
    command) and left sync.py as it was. The new file is refused before its text is asked for,
    naming sync.py; the model then changes sync.py."""
    (workspace / "notes").mkdir()
    (workspace / "notes" / "todo.txt").write_text("milk\n")
    (workspace / "sync.py").write_text("import sys\n\nprint('debug: start')\nprint(sys.argv[1])\n")
    quiet = "import sys\n\nprint(sys.argv[1])\n"
    task = "sync.py prints a `debug:` line. Remove it (python3 sync.py notes must print only notes)."
    script = [
        act("write", path="notes/sync.py"),
        *wrote("sync.py", quiet),
        act("shell", command="python3 sync.py notes"),
        act("finish", summary="sync.py no longer prints the debug line."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task, **NO_VERSIONS)
    assert res.code == 0, res.stdout[-2000:]
    assert not (workspace / "notes" / "sync.py").exists()
    assert (workspace / "sync.py").read_text() == quiet
    refused = results(workspace, "write")[0]
    assert not refused.ok and "Change sync.py itself" in refused.output
