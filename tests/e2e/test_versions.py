"""Other versions of a small model's file, tried against the checks that fail (agent/versions).

The 1.5B wrote the same wrong fix again and again when told the tests fail; a fresh request
sampled a few times gets it right one time in a few, and the project's tests say which. Each
test drives `hearth run` against the scripted server: the model's own replies come from the
script, the version requests (a fresh conversation showing the file) from a route of their own."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from e2e.test_actions import act, events, finished, run, wrote
from e2e.test_small_done import MEDIAN_BUG, MEDIAN_FIXED, MEDIAN_TESTS, SMALL
from hearth.agent.versions import COUNT
from hearth.core.events import ModelReply, ModelUsed, Notice, ToolResult
from hearth.llm.actions import JSON_OBJECT
from hearth.prompts import render
from hearth.store.sessions import SessionStore
from hearth.testing import ScriptedReply, ScriptedServer
from hearth.testing.script import ScriptItem
from support import HearthCli, state_of

TASK = "A test in test_stats.py fails. Fix the bug in stats.py."
WRONG = MEDIAN_BUG.replace("len(xs) // 2", "(len(xs) - 1) // 2")
ALSO_WRONG = MEDIAN_BUG.replace("len(xs) // 2", "0")
ROUTE = "Reply with the complete stats.py"  # in a version request, never in the model's own


def fenced(text: str) -> ScriptedReply:
    return ScriptedReply(text=f"```python\n{text}```")


def run_with_crashes(hearth: HearthCli, server: ScriptedServer, ws: Path, task: str):  # type: ignore[no-untyped-def]
    """`hearth run` whose events may show a Python traceback (the model's script crashing is
    the point of the test), unlike `run`, which takes one as Hearth's own crash."""
    return hearth(
        "run", task, "-w", str(ws), "--json", "--permission", "auto",
        env={"HEARTH_LLM_URL": server.url, "HEARTH_RETRIES": "0"},
    )  # fmt: skip


def version_notices(ws: Path) -> list[Notice]:
    return [e for e in events(ws) if isinstance(e, Notice) and e.reason == "versions"]


def setup(ws: Path) -> None:
    (ws / "stats.py").write_text(MEDIAN_BUG)
    (ws / "test_stats.py").write_text(MEDIAN_TESTS)


def version_requests(server: ScriptedServer) -> list[dict[str, Any]]:
    return [r for r in server.requests if ROUTE in json.dumps(r["messages"][:2])]


def test_a_wrong_fix_finished_over_failing_tests_is_replaced_by_a_version_they_pass(
    hearth: HearthCli, workspace: Path
) -> None:
    setup(workspace)
    script = [*wrote("stats.py", WRONG), act("finish", summary="Fixed median().")]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        server.routes[ROUTE] = [fenced(ALSO_WRONG), fenced(MEDIAN_FIXED)]
        res = run(hearth, server, workspace, TASK)
        asked = version_requests(server)
    assert res.code == 0, res.stdout[-2000:]
    assert (workspace / "stats.py").read_text() == MEDIAN_FIXED
    # a fresh request: the task, the file as the model left it, what the tests printed, the tests
    system, user = asked[0]["messages"]
    assert system["role"] == "system" and "whole new content" in system["content"]
    assert TASK in user["content"] and WRONG.strip() in user["content"] and "do not copy" in user["content"]
    assert "assert" in user["content"] and "def test_even" in user["content"]
    assert "response_format" not in asked[0]  # plain text: the file in a fence, no grammar
    # the second from stats.py as shown with the task (the bug as given, not the model's wrong fix:
    # the 1.5B's versions of its own wrong file kept its mistake), at the same temperature
    second = asked[1]["messages"][1]["content"]
    assert "stats.py as it was given" in second and MEDIAN_BUG.strip() in second
    assert WRONG.strip() not in second and "def test_even" in second and "assert" in second
    assert asked[1]["temperature"] == asked[0]["temperature"] != 0.9
    [notice] = version_notices(workspace)
    assert "version 2" in notice.text and "(xs[mid - 1] + xs[mid]) / 2" in notice.text
    assert finished(workspace).final_text == "Fixed median()."
    # the tests ran before any change (the task says one fails), once on the model's file (the
    # finish's evidence is also what the versions are asked to fix), once after each version, and
    # not again for the finish once the second passed
    runs = [
        e.call_id for e in events(workspace) if isinstance(e, ToolResult) and e.name in ("shell", "write")
    ]
    hearths = [c.split("-")[1] for c in runs if c.startswith("hearth-")]
    assert hearths == ["check", "check", "version", "check", "version", "check"], " ".join(runs)


def test_the_versions_share_everything_but_the_file_so_the_server_prefills_only_the_file(
    hearth: HearthCli, workspace: Path
) -> None:
    """A local server keeps the last prompt and prefills only what follows the part a new one
    shares with it: the task, the tests and the failure come before the file the versions differ in."""
    setup(workspace)
    script = [
        *wrote("stats.py", WRONG),
        act("finish", summary="Fixed median()."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        server.routes[ROUTE] = [fenced(ALSO_WRONG)] * COUNT
        assert run(hearth, server, workspace, TASK).code == 2
        asked = [r["messages"][1]["content"] for r in version_requests(server)]
    assert len(asked) == COUNT and "as it was given" in asked[1] and "is wrong" in asked[0]
    differ = next(i for i, chars in enumerate(zip(*asked, strict=False)) if len(set(chars)) > 1)
    shared = asked[0][:differ]
    assert TASK in shared and "def test_even" in shared and "AssertionError" in shared
    assert WRONG.strip() not in shared and MEDIAN_BUG.strip() not in shared


def test_a_failed_round_of_versions_ends_the_turn_not_done_without_asking_the_model_again(
    hearth: HearthCli, workspace: Path
) -> None:
    """After a round in which no version passed, the 1.5B's own steps passed nothing in any of 45
    held-out runs (nor did a second round): the turn ends there, exit 2, saying what still fails,
    with the model's file as it left it."""
    setup(workspace)
    finishes = [act("finish", summary="Fixed median().")] * 3
    with ScriptedServer(
        [*wrote("stats.py", WRONG), *finishes], model=SMALL, formats=(JSON_OBJECT,)
    ) as server:
        server.routes[ROUTE] = [fenced(ALSO_WRONG)] * (2 * COUNT)
        res = run(hearth, server, workspace, TASK)
        asked = version_requests(server)
        own = [r for r in server.requests if r not in asked]
    assert res.code == 2, res.stdout[-2000:]
    assert len(asked) == COUNT and len(version_notices(workspace)) == 1
    assert len(own) == len(wrote("stats.py", WRONG)) + 1  # not asked again after its finish
    assert (workspace / "stats.py").read_text() == WRONG  # the round put the model's file back
    ended = json.loads(res.stdout.strip().splitlines()[-1])
    assert "none made the checks pass" in json.dumps(ended) and "test_stats.py" in json.dumps(ended)


def test_when_no_version_passes_the_file_is_put_back_and_the_turn_ends_not_done(
    hearth: HearthCli, workspace: Path
) -> None:
    setup(workspace)
    script = [
        *wrote("stats.py", WRONG),
        act("finish", summary="Fixed median()."),
        *wrote("stats.py", MEDIAN_FIXED),  # never asked for: the turn ended
        act("finish", summary="Fixed median()."),
    ]
    versions: list[ScriptItem] = [
        ScriptedReply(text="```python\ndef median(xs:\n```"),  # does not parse: never written
        fenced(WRONG),  # the file as it is: nothing to try
        fenced(ALSO_WRONG),  # written, the tests fail: put back
        *[fenced(ALSO_WRONG)] * (COUNT - 3),  # the same as one tried: not tried again
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        server.routes[ROUTE] = versions
        res = run(hearth, server, workspace, TASK)
        asked = version_requests(server)
    assert res.code == 2, res.stdout[-2000:]
    assert versions == []  # all asked for
    # the first two at the session's temperature (the model's file, then the file as given), the
    # rest with more randomness: 0.9 and a step for each reply so far that repeated a version
    # (the second, then the fourth on), at most 1.3
    assert [r["temperature"] for r in asked][2:] == [1.1, 1.1, 1.3, 1.3][: COUNT - 2]
    assert asked[0]["temperature"] < 0.9
    writes = [e for e in events(workspace) if isinstance(e, ToolResult) and e.name == "write"]
    assert (
        len([w for w in writes if w.call_id.startswith("hearth-version-")]) == 1
    )  # only the one that parses and differs
    assert (workspace / "stats.py").read_text() == WRONG


def test_a_request_answered_with_a_copy_of_its_file_is_not_asked_again(
    hearth: HearthCli, workspace: Path
) -> None:
    """The 1.5B answered all six version requests of a round with the file it was shown, each
    request costing the turn's time. A request answered with a copy of its file is not sent
    again: once the file as given came back as it was, the rest of the round (all asked from it)
    is not asked."""
    setup(workspace)
    script = [
        *wrote("stats.py", WRONG),
        act("finish", summary="Fixed median()."),
        act("blocked", reason="no"),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        # each request copies the file it shows: the model's (WRONG), then the file as given
        replies: list[ScriptItem] = [fenced(WRONG), fenced(MEDIAN_BUG)] * 2
        server.routes[ROUTE] = replies
        run(hearth, server, workspace, TASK)
        asked = version_requests(server)
    # each of the turn's two rounds (the second after the blocked: the first tried nothing): the
    # model's file at the session's temperature, the file as given, and no more
    assert len(asked) == 2 * 2 and replies == []
    assert "as it was given" in asked[1]["messages"][1]["content"]
    assert "as it was given" in asked[3]["messages"][1]["content"]
    assert (workspace / "stats.py").read_text() == WRONG


def test_a_model_going_in_circles_ends_done_when_a_version_passes_the_tests(
    hearth: HearthCli, workspace: Path
) -> None:
    """The 1.5B's circle: the same unchanged file written back again and again (refused each
    time) until the loop guard stops it. A version the tests pass ends the turn done."""
    setup(workspace)

    def model(body: dict[str, Any]) -> ScriptedReply:
        if "response_format" in body:  # the action: write stats.py again
            return act("write", path="stats.py")
        return fenced(MEDIAN_BUG)  # its text: the file as it was read

    with ScriptedServer([model] * 40, model=SMALL, formats=(JSON_OBJECT,)) as server:
        server.routes[ROUTE] = [fenced(MEDIAN_FIXED)]
        res = run(hearth, server, workspace, TASK)
    assert res.code == 0, res.stdout[-2000:]
    assert (workspace / "stats.py").read_text() == MEDIAN_FIXED
    assert "the checks pass" in finished(workspace).final_text


def test_no_version_is_tried_where_a_write_would_ask_the_person(hearth: HearthCli, workspace: Path) -> None:
    setup(workspace)
    script = [
        act("read", path="stats.py"),
        act("edit", path="stats.py", old="len(xs) // 2", new="(len(xs) - 1) // 2", replace_all=False),
        *[act("finish", summary="Fixed median().")] * 3,
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        server.routes[ROUTE] = [fenced(MEDIAN_FIXED)]
        res = run(hearth, server, workspace, TASK, HEARTH_ASK="write(stats.py)")
        asked = version_requests(server)
    assert res.code == 2, res.stdout[-2000:]
    assert asked == [] and version_notices(workspace) == []
    assert (workspace / "stats.py").read_text() == WRONG


def test_a_failure_midway_never_leaves_a_version_behind(hearth: HearthCli, workspace: Path) -> None:
    """The server fails on the second version, after the first was written and failed the tests:
    the run ends with the error, and the file is the model's own, not Hearth's try."""
    setup(workspace)
    script = [*wrote("stats.py", WRONG), act("finish", summary="Fixed median().")]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        server.routes[ROUTE] = [fenced(ALSO_WRONG), ScriptedReply(status=500, error="the server fell over")]
        res = hearth(
            "run", TASK, "-w", str(workspace), "--json", "--permission", "auto",
            env={"HEARTH_LLM_URL": server.url, "HEARTH_RETRIES": "0"},
        )  # fmt: skip
    assert res.code == 1, res.stdout[-2000:]
    assert "the server fell over" in res.stdout + res.stderr
    assert (workspace / "stats.py").read_text() == WRONG


def test_the_output_a_task_states_judges_versions_when_there_are_no_tests(
    hearth: HearthCli, workspace: Path
) -> None:
    """No test files: the task's own command and the output it states are the check."""
    (workspace / "nums.txt").write_text("1\n2\n3\n4\n")
    (workspace / "avg.py").write_text("import sys\n\nprint(sys.argv[1])\n")
    wrong = "import sys\n\nnums = [float(x) for x in open(sys.argv[1])]\nprint(sum(nums))\n"
    right = "import sys\n\nnums = [float(x) for x in open(sys.argv[1])]\nprint(sum(nums) / len(nums))\n"
    task = "Make avg.py print the average of the numbers in the file it is given: python3 avg.py nums.txt must print 2.5"
    script = [*wrote("avg.py", wrong), act("finish", summary="avg.py prints the average.")]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        server.routes["Reply with the complete avg.py"] = [
            fenced(wrong.replace("sum(nums)", "max(nums)")),
            fenced(right),
        ]
        res = run(hearth, server, workspace, task)
        asked = [
            r for r in server.requests if "Reply with the complete avg.py" in json.dumps(r["messages"][:2])
        ]
    assert res.code == 0, res.stdout[-2000:]
    assert (workspace / "avg.py").read_text() == right
    shown = asked[0]["messages"][1]["content"]
    assert "prints `2.5`" in shown and "10.0" in shown  # what the task states, what the model's printed


def test_a_version_of_a_script_its_command_crashes_on_sees_the_input_the_command_reads(
    hearth: HearthCli, workspace: Path
) -> None:
    """The 1.5B's versions of a script crashing on its input's blank and comment lines never saw
    that input: the request shows it, where there is no test file."""
    (workspace / "readings.txt").write_text("# city date temp\nOslo 2026-01-01 -3.5\n\nOslo 2026-01-02 4.0\n")
    (workspace / ".env").write_text("API_KEY=hunter2\n")
    body = "import sys\n\nfor line in open(sys.argv[1]):\n"
    wrong = body + "    city, day, temp = line.split()\n    print(city, temp)\n"
    right = (
        body
        + "    if line.strip() and not line.startswith('#'):\n        city, day, temp = line.split()\n        print(city, temp)\n"
    )
    task = "Write temps.py: python3 temps.py readings.txt prints each reading's city and temperature. Skip blank and # lines."
    script = [*wrote("temps.py", wrong), act("finish", summary="Wrote temps.py.")]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        server.routes["Reply with the complete temps.py"] = [fenced(right)]
        res = run_with_crashes(hearth, server, workspace, task)
        asked = [
            r for r in server.requests if "Reply with the complete temps.py" in json.dumps(r["messages"][:2])
        ]
    assert res.code == 0, res.stdout[-2000:]
    shown = asked[0]["messages"][1]["content"]
    assert "readings.txt (what the command reads):" in shown and "# city date temp" in shown
    assert "hunter2" not in json.dumps(server.requests)


def text_call(name: str, **args: Any) -> ScriptedReply:
    return ScriptedReply(text="```json\n" + json.dumps({"name": name, "arguments": args}) + "\n```")


def test_a_verdict_of_done_over_failing_tests_is_not_done_unless_a_version_passes(
    hearth: HearthCli, workspace: Path
) -> None:
    """Text mode: the wrong fix written (it worked), then the same read again and again until the
    loop guard stopped it. The verdict read "the work is done: 1 change(s) worked" and the run
    exited 0 over failing tests; now the finish review's checks judge it too."""
    env = {"HEARTH_TOOL_MODE": "text", "HEARTH_MODEL_PROFILE": "small"}
    script = [
        text_call("read", path="stats.py"),
        text_call("write", path="stats.py", content=WRONG),
        *[text_call("read", path="stats.py")] * 8,
    ]
    setup(workspace)
    with ScriptedServer(script, model=SMALL) as server:
        res = run(hearth, server, workspace, TASK, HEARTH_VERSIONS="0", **env)
    assert res.code == 2, res.stdout[-2000:]
    assert "the evidence says the work is not done" in finished(workspace).reason
    assert (workspace / "stats.py").read_text() == WRONG

    setup(workspace)
    with ScriptedServer(script, model=SMALL) as server:
        server.routes[ROUTE] = [fenced(MEDIAN_FIXED)]
        res = run(hearth, server, workspace, TASK, **env)
    assert res.code == 0, res.stdout[-2000:]
    assert (workspace / "stats.py").read_text() == MEDIAN_FIXED


PLAYLIST = """class Playlist:
    def __init__(self):
        self.songs = []

    def enqueue(self, title):
        self.songs.append(title)
        return len(self.songs)
"""
PLAYLIST_TESTS = """from playlist import Playlist


def test_add_song_returns_the_position():
    assert Playlist().add_song("a") == 1


def test_two_songs():
    playlist = Playlist()
    playlist.add_song("a")
    assert playlist.add_song("b") == 2
"""
RENAME = "Rename the method add_song of Playlist to enqueue everywhere (playlist.py and test_playlist.py), test names included."


def test_a_rename_that_left_the_tests_calling_the_old_name_gets_versions_of_the_test_file(
    hearth: HearthCli, workspace: Path
) -> None:
    """The 1.5B renamed the method in the code and finished with a test still calling the old
    name; its traceback ends in the test file the task asks to change, so that file is varied."""
    (workspace / "playlist.py").write_text(PLAYLIST.replace("enqueue", "add_song"))
    (workspace / "test_playlist.py").write_text(PLAYLIST_TESTS)
    renamed = PLAYLIST_TESTS.replace("add_song", "enqueue")
    script = [*wrote("playlist.py", PLAYLIST), act("finish", summary="Renamed add_song to enqueue.")]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        server.routes["Reply with the complete test_playlist.py"] = [fenced(renamed)]
        res = run(hearth, server, workspace, RENAME)
    assert res.code == 0, res.stdout[-2000:]
    assert (workspace / "test_playlist.py").read_text() == renamed
    assert (workspace / "playlist.py").read_text() == PLAYLIST


def test_a_test_file_the_task_does_not_ask_to_change_is_never_varied(
    hearth: HearthCli, workspace: Path
) -> None:
    """The same failure in a task that is not a rename: the tests judge, and the code is varied."""
    (workspace / "playlist.py").write_text(PLAYLIST.replace("enqueue", "add_song"))
    (workspace / "test_playlist.py").write_text(PLAYLIST_TESTS)
    task = "Fix playlist.py (test_playlist.py shows how it is used)."
    script = [*wrote("playlist.py", PLAYLIST), *[act("finish", summary="Fixed it.")] * 3]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        server.routes["Reply with the complete test_playlist.py"] = [
            fenced(PLAYLIST_TESTS.replace("add_song", "enqueue"))
        ]
        server.routes["Reply with the complete playlist.py"] = [
            fenced(
                PLAYLIST.replace("enqueue", "add_song").replace(
                    "class Playlist:", 'class Playlist:\n    """Songs."""\n'
                )
            )
        ]
        res = run(hearth, server, workspace, task)
        varied = [r for r in server.requests if "Reply with the complete " in json.dumps(r["messages"][:2])]
    assert res.code == 0, res.stdout[-2000:]
    assert (workspace / "test_playlist.py").read_text() == PLAYLIST_TESTS
    assert varied and all(
        "Reply with the complete playlist.py" in json.dumps(r["messages"][:2]) for r in varied
    )


def test_a_blocked_model_whose_file_a_version_fixes_ends_done(hearth: HearthCli, workspace: Path) -> None:
    """The 1.5B wrote a wrong fix, then said BLOCKED over an unrelated refusal ("app.log already
    has this content"); the checks can judge the work, and a version they pass ends the turn done."""
    setup(workspace)
    script = [*wrote("stats.py", WRONG), *[act("blocked", reason="stats.py already has this content.")] * 3]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        server.routes[ROUTE] = [fenced(MEDIAN_FIXED)]
        res = run(hearth, server, workspace, TASK)
    assert res.code == 0, res.stdout[-2000:]
    assert (workspace / "stats.py").read_text() == MEDIAN_FIXED
    assert "the checks pass" in finished(workspace).final_text

    setup(workspace)
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        server.routes[ROUTE] = [fenced(ALSO_WRONG)] * COUNT
        res = run(hearth, server, workspace, TASK)
    assert res.code == 3, res.stdout[-2000:]  # no version passes: blocked stands
    assert (workspace / "stats.py").read_text() == WRONG


COUNTS = """import argparse
import json


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("file")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    counts = {"lines": len(open(args.file).read().splitlines())}
    print(%s)


if __name__ == "__main__":
    main()
"""
COUNTS_TESTS = "import subprocess\n\n\ndef test_plain():\n    assert subprocess.run(['python3', 'counts.py', 'poem.txt'])\n"


def test_a_version_the_stated_output_passes_leaves_the_test_the_task_asks_for_to_the_model(
    hearth: HearthCli, workspace: Path
) -> None:
    """The task states the output exactly, unquoted ("must print exactly {...}"), and asks for
    a test too. The 1.5B's own version printed Python's repr; a version printing the JSON is kept,
    and the test file no write changed still sends the finish back (Hearth's own runs of the
    checks are not the model's commands that might have changed it)."""
    (workspace / "poem.txt").write_text("a\nb\nc\n")
    (workspace / "counts.py").write_text(COUNTS % "counts")
    (workspace / "test_counts.py").write_text(COUNTS_TESTS)
    task = (
        "Add a --json option to counts.py: python3 counts.py --json poem.txt must print exactly "
        '{"lines": 3}. Add a test for the new option to test_counts.py.'
    )
    repr_version = COUNTS % "counts if args.json else counts['lines']"
    right = COUNTS % "json.dumps(counts) if args.json else counts['lines']"
    tests = COUNTS_TESTS + "\n\ndef test_json():\n    assert True\n"
    script = [
        *wrote("counts.py", repr_version),
        act("finish", summary="Added --json."),
        *wrote("test_counts.py", tests),
        act("finish", summary="Added --json and its test."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        server.routes["Reply with the complete counts.py"] = [
            fenced(repr_version.replace("lines", "lines")),
            fenced(right),
        ]
        res = run(hearth, server, workspace, task)
    assert res.code == 0, res.stdout[-2000:]
    assert (workspace / "counts.py").read_text() == right
    pushed = [e.text for e in events(workspace) if isinstance(e, Notice) and e.reason == "finish_unsupported"]
    assert len(pushed) == 1 and "test_counts.py" in pushed[0], pushed


def test_the_versions_vary_the_file_the_task_asks_to_change_not_its_input(
    hearth: HearthCli, workspace: Path
) -> None:
    """The 1.5B wrote the task's input (poem.txt) back unchanged and finished; the versions were
    asked of the poem. The file the task asks to change is the one varied."""
    (workspace / "poem.txt").write_text("a\nb\nc\n")
    (workspace / "counts.py").write_text(COUNTS % "counts")
    (workspace / "test_counts.py").write_text(COUNTS_TESTS)
    task = (
        'Add a --json option to counts.py: python3 counts.py --json poem.txt must print exactly {"lines": 3}.'
    )
    right = COUNTS % "json.dumps(counts) if args.json else counts['lines']"
    poem = ScriptedReply(text="```\na\nb\nc\n```")  # asked again, then which lines: the same text
    script = [*wrote("poem.txt", "a\nb\nc\n"), poem, poem, act("finish", summary="Added --json.")]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        server.routes["Reply with the complete counts.py"] = [fenced(right)]
        server.routes["Reply with the complete poem.txt"] = [ScriptedReply(text="```\nnot a poem\n```")] * 4
        res = run(hearth, server, workspace, task)
    assert res.code == 0, res.stdout[-2000:]
    assert (workspace / "counts.py").read_text() == right
    assert (workspace / "poem.txt").read_text() == "a\nb\nc\n"


VERSION_USAGE = {"prompt_tokens": 3000, "completion_tokens": 400}


def costly(text: str) -> ScriptedReply:
    return ScriptedReply(text=f"```python\n{text}```", usage=VERSION_USAGE)


def test_what_the_versions_cost_counts_in_the_sessions_usage(hearth: HearthCli, workspace: Path) -> None:
    """The versions are requests of their own: a person reading the session's tokens (the
    `done` totals, `hearth sessions`) sees them, not only the model's replies."""
    setup(workspace)
    script = [*wrote("stats.py", WRONG), act("finish", summary="Fixed median().")]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        server.routes[ROUTE] = [costly(ALSO_WRONG), costly(MEDIAN_FIXED)]
        res = run(hearth, server, workspace, TASK)
    assert res.code == 0, res.stdout[-2000:]
    used = [e for e in events(workspace) if isinstance(e, ModelUsed)]
    assert [(u.purpose, u.usage.prompt_tokens, u.usage.completion_tokens) for u in used] == [
        ("version", 3000, 400),
        ("version", 3000, 400),
    ]
    replies = [e for e in events(workspace) if isinstance(e, ModelReply)]
    own = sum(r.usage.prompt_tokens for r in replies)
    store = SessionStore(state_of(workspace) / "sessions.db")
    [info] = store.list_sessions()[:1]
    totals = store.usage(session_id=info.id)
    assert totals.prompt_tokens == own + 6000 and info.prompt_tokens == own + 6000
    assert totals.requests == len(replies) + 2
    done = json.loads(next(line for line in res.stdout.splitlines() if '"type": "done"' in line))
    assert done["usage"]["prompt_tokens"] == own + 6000
    shown = [json.loads(line) for line in res.stdout.splitlines() if '"type": "model_used"' in line]
    assert [m["purpose"] for m in shown] == ["version", "version"]


def test_versions_spend_the_token_budget(hearth: HearthCli, workspace: Path) -> None:
    """Versions count against the session's token budget: none is asked once it is used up,
    and the session's next step (the person's next turn) stops on it, as the model's own replies
    would."""
    setup(workspace)
    script = [
        *wrote("stats.py", WRONG),
        act("finish", summary="Fixed median()."),
        *[act("read", path="stats.py")] * 6,
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        server.routes[ROUTE] = [costly(ALSO_WRONG)] * COUNT
        for args in (["--budget", "5000", TASK], ["-c", "Try again."]):
            res = hearth(
                "run", *args, "-w", str(workspace), "--json", "--permission", "auto",
                env={"HEARTH_LLM_URL": server.url, "HEARTH_RETRIES": "0"},
            )  # fmt: skip
            assert res.code == 2, res.stdout[-1000:]
        asked = version_requests(server)
    assert len(asked) == 2  # 3,400 tokens each: the second passed the budget
    reason = finished(workspace).reason
    assert "token budget of 5000 tokens is used up" in reason, reason
    replies = [e for e in events(workspace) if isinstance(e, ModelReply)]
    assert (
        sum(r.usage.prompt_tokens + r.usage.completion_tokens for r in replies) < 5000
    )  # the replies alone fit
    assert (workspace / "stats.py").read_text() == WRONG, res.stdout[-1000:]


EXERCISE = '''def count_up_to(n):
    """Take a non-negative integer and return a list of the prime numbers that are
    less than it, smallest first.
    for example:
    count_up_to(5) => [2, 3]
    count_up_to(12) => [2, 3, 5, 7, 11]
    count_up_to(1) => []
    """
    raise NotImplementedError
'''
EXERCISE_TESTS = (
    "from solution import count_up_to\n\n\ndef test_primes():\n"
    "    assert count_up_to(5) == [2, 3]\n    assert count_up_to(12) == [2, 3, 5, 7, 11]\n"
)
PRIMES = "def count_up_to(n):\n    return [k for k in range(2, n) if all(k % d for d in range(2, k))]\n"


def test_a_version_asked_for_without_docstrings_is_written_with_them(
    hearth: HearthCli, workspace: Path
) -> None:
    """The later half of the versions is asked for with the docstrings said apart, and the model
    writes the code alone: written as it came, it dropped lines of a file shown with the task and
    the change guard refused it (a held-out exercise ended 2 with a passing version refused). The
    two halves each ask the same request twice running: the server keeps the last prompt, so the
    second costs it no new prompt."""
    (workspace / "solution.py").write_text(EXERCISE)
    (workspace / "test_solution.py").write_text(EXERCISE_TESTS)
    task = "Implement the function count_up_to in solution.py so that the tests in test_solution.py pass."
    with ScriptedServer([act("finish", summary="Done.")], model=SMALL, formats=(JSON_OBJECT,)) as server:
        server.routes["Reply with the complete solution.py"] = [
            *[fenced(EXERCISE.split("    raise")[0].removesuffix('    """\n'))] * (COUNT // 2),  # no code
            fenced(PRIMES),  # shown without docstrings: the code alone, right
            fenced(PRIMES),
        ]
        res = run(hearth, server, workspace, task)
        asked = [
            r["messages"] for r in server.requests if "Reply with the complete solution.py" in json.dumps(r)
        ]
    assert res.code == 0, res.stdout[-2000:]
    bare = COUNT // 2  # the later half
    assert (
        len(asked) == bare + 1
        and asked[0] == asked[bare - 1]
        and "Take a non-negative" in asked[0][1]["content"]
    )
    assert '"""' not in asked[bare][1]["content"] and "What the code must do" in asked[bare][1]["content"]
    text = (workspace / "solution.py").read_text()
    assert text == EXERCISE.replace("    raise NotImplementedError\n", PRIMES.split("\n", 1)[1])
    writes = [
        e for e in events(workspace) if isinstance(e, ToolResult) and e.call_id.startswith("hearth-version-")
    ]
    assert [w.ok for w in writes] == [True], writes[-1].output


def test_a_task_asking_changes_to_several_files_gets_two_versions(hearth: HearthCli, workspace: Path) -> None:
    """A version of one file seldom does a task that asks changes to two: two tries (four
    versions took 100 of a held-out task's 180 s)."""
    setup(workspace)
    task = "Fix the bug in stats.py and add a test of a one-item list to test_stats.py."
    script = [*wrote("stats.py", WRONG), *[act("finish", summary="Fixed median().")] * 3]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        server.routes[ROUTE] = [fenced(ALSO_WRONG)] * 4
        res = run(hearth, server, workspace, task)
        asked = version_requests(server)
    assert res.code == 2, res.stdout[-2000:]
    assert len(asked) == 2
    assert [n.text for n in version_notices(workspace)] == [render("notice_versions_failed", path="stats.py")]


def test_a_script_task_giving_its_input_as_a_placeholder_runs_it_on_the_example_file(
    hearth: HearthCli, workspace: Path
) -> None:
    """ "python3 agenda.py FILE reads a JSON list like meetings.json": the 1.5B's script crashed
    on the example file and it wrote the same text back until the turn ended. The review runs
    the script on the example the task names, and the crash is the check the versions answer."""
    (workspace / "prices.csv").write_text("item,price\ntea,3\ncake,4\n")
    crashing = (
        "import csv, sys\n\nrows = list(csv.DictReader(open(sys.argv[1])))\n"
        "print('total: ' + sum(r['price'] for r in rows))\n"
    )
    right = (
        "import csv, sys\n\nrows = list(csv.DictReader(open(sys.argv[1])))\n"
        "print(f\"total: {sum(int(r['price']) for r in rows)}\")\n"
    )
    task = "Write total.py: python3 total.py FILE reads a CSV like prices.csv (columns item, price) and prints `total: N`."
    script = [*wrote("total.py", crashing), act("finish", summary="total.py prints the total.")]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        server.routes["Reply with the complete total.py"] = [fenced(right)]
        res = run_with_crashes(hearth, server, workspace, task)
        asked = [
            r for r in server.requests if "Reply with the complete total.py" in json.dumps(r["messages"][:2])
        ]
    assert res.code == 0, res.stdout[-2000:]
    assert (workspace / "total.py").read_text() == right
    shown = asked[0]["messages"][1]["content"]
    assert "TypeError" in shown  # the crash on prices.csv is what the version is asked to fix
    checks = [
        e.output
        for e in events(workspace)
        if isinstance(e, ToolResult) and e.call_id.startswith("hearth-check")
    ]
    assert "TypeError" in checks[0] and checks[-1].strip() == "total: 7", checks
    assert "Traceback" not in res.stderr


def test_the_same_text_written_back_over_a_crash_of_its_own_run_gets_versions(
    hearth: HearthCli, workspace: Path
) -> None:
    """The 1.5B ran its script (`python3 overdue.py loans.csv 2026-03-15`, a command the task
    gives only with placeholders), saw a TypeError, and wrote the same text back until the time
    ran out. A write refused for changing nothing, after its own run crashed, brings versions at
    once, judged by running that command again."""
    (workspace / "loans.csv").write_text("title,due\nDune,2026-03-01\n")
    crashing = (
        "import csv, sys\n\nfor row in csv.DictReader(open(sys.argv[1])):\n"
        "    if row['due'] < sys.argv[2]:\n        print(row['title'] + 1)\n"
    )
    right = crashing.replace("row['title'] + 1", "row['title']")
    task = "Write overdue.py: python3 overdue.py FILE DATE prints the title of each book due before DATE."
    script = [
        *wrote("overdue.py", crashing),
        act("shell", command="python3 overdue.py loans.csv 2026-03-15"),
        # the same text again, and again twice when asked for a changed one: refused, nothing would change
        *wrote("overdue.py", crashing),
        fenced(crashing),
        fenced(crashing),
        act("finish", summary="overdue.py lists overdue books."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        server.routes["Reply with the complete overdue.py"] = [fenced(right)]
        res = run_with_crashes(hearth, server, workspace, task)
        asked = [
            r
            for r in server.requests
            if "Reply with the complete overdue.py" in json.dumps(r["messages"][:2])
        ]
    assert res.code == 0, res.stdout[-2000:]
    assert (workspace / "overdue.py").read_text() == right
    assert "TypeError" in asked[0]["messages"][1]["content"]
    [notice] = version_notices(workspace)
    assert "version 1" in notice.text
    runs = [
        (e.call_id, e.output.strip())
        for e in events(workspace)
        if isinstance(e, ToolResult) and e.name == "shell"
    ]
    assert "TypeError" in runs[0][1] and not runs[0][0].startswith("hearth-")  # the model's own run
    assert runs[-1][1] == "Dune" and runs[-1][0].startswith("hearth-check")  # run again on the version


HEALTH = "def calc_bmi(weight, height):\n    return round(weight / height**2, 1)\n"
CHECKUP = "from health import calc_bmi\n\nprint(calc_bmi(70.0, 1.75))\n"
HEALTH_TESTS = (
    "from health import calc_bmi\n\n\ndef test_calc_bmi():\n    assert calc_bmi(70.0, 1.75) == 22.9\n"
)


def test_a_rename_left_half_done_over_failing_tests_is_finished_by_hearth(
    hearth: HearthCli, workspace: Path
) -> None:
    """The 1.5B renamed the function where it is defined and rewrote the test file whole, losing
    what it was not asked to change. With the checks failing, Hearth replaces the old name as a
    word in the files that still have it (test names too), and keeps that when the checks pass:
    no version is asked of the model."""
    (workspace / "health.py").write_text(HEALTH)
    (workspace / "checkup.py").write_text(CHECKUP)
    (workspace / "test_health.py").write_text(HEALTH_TESTS)
    task = (
        "Rename the function calc_bmi to body_mass_index everywhere (health.py, checkup.py and "
        "test_health.py), test names included. python3 checkup.py must print the same as before."
    )
    script = [
        *wrote("health.py", HEALTH.replace("calc_bmi", "body_mass_index")),
        act("finish", summary="Renamed calc_bmi."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task)
        asked = [r for r in server.requests if "Reply with the complete " in json.dumps(r["messages"][:2])]
    assert res.code == 0, res.stdout[-2000:]
    assert asked == []
    assert (workspace / "checkup.py").read_text() == CHECKUP.replace("calc_bmi", "body_mass_index")
    assert (workspace / "test_health.py").read_text() == HEALTH_TESTS.replace("calc_bmi", "body_mass_index")
    [notice] = version_notices(workspace)
    assert "checkup.py, test_health.py" in notice.text


def test_a_rename_hearth_finishes_is_put_back_when_the_checks_still_fail(
    hearth: HearthCli, workspace: Path
) -> None:
    """The rest of the rename made the tests no better (the model broke the function too): every
    file it touched is put back as the model left it, and model versions are asked as before. (The
    task names no file: none was shown with it, so there is no earlier text to start from.)"""
    (workspace / "health.py").write_text(HEALTH)
    (workspace / "checkup.py").write_text(CHECKUP)
    (workspace / "test_health.py").write_text(HEALTH_TESTS)
    broken = HEALTH.replace("calc_bmi", "body_mass_index").replace(", 1)", ", 3)")
    task = "Rename the function calc_bmi to body_mass_index everywhere, test names included."
    script = [*wrote("health.py", broken), act("finish", summary="Renamed calc_bmi.")]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        server.routes["Reply with the complete "] = [fenced(broken)] * 4
        run_with_crashes(hearth, server, workspace, task)
    assert (workspace / "checkup.py").read_text() == CHECKUP
    assert (workspace / "test_health.py").read_text() == HEALTH_TESTS
    assert all("rest of the way" not in n.text for n in version_notices(workspace))


def test_a_rename_whose_test_file_lost_a_line_is_finished_from_the_files_shown_with_the_task(
    hearth: HearthCli, workspace: Path
) -> None:
    """The 1.5B rewrote the test file whole with the new name and without an import the tests
    need, and renamed nothing else (here an edit: a whole-file write of a task asking renames only
    is now written with the renames alone, agent/body). The rest of the rename from the files as
    they are still fails (the import is gone); from the files as Hearth showed them with the
    task, renamed as words, the checks pass, and that is kept."""
    health = HEALTH + "\n\ndef category(bmi):\n    return 'healthy' if bmi < 25 else 'overweight'\n"
    tests = (
        "from health import calc_bmi, category\n\n\ndef test_calc_bmi():\n"
        "    assert calc_bmi(70.0, 1.75) == 22.9\n\n\ndef test_category():\n"
        "    assert category(22.9) == 'healthy'\n"
    )
    (workspace / "health.py").write_text(health)
    (workspace / "checkup.py").write_text(CHECKUP)
    (workspace / "test_health.py").write_text(tests)
    task = (
        "Rename the function calc_bmi to body_mass_index everywhere (health.py, checkup.py and "
        "test_health.py), test names included. The tests must still pass."
    )
    lost = act(
        "edit",
        path="test_health.py",
        old="from health import calc_bmi, category",
        new="from health import body_mass_index",
    )
    script = [lost, act("finish", summary="Renamed calc_bmi.")]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task)
        asked = [r for r in server.requests if "Reply with the complete " in json.dumps(r["messages"][:2])]
    assert res.code == 0, res.stdout[-2000:]
    assert asked == []
    assert (workspace / "test_health.py").read_text() == tests.replace("calc_bmi", "body_mass_index")
    assert (workspace / "health.py").read_text() == health.replace("calc_bmi", "body_mass_index")
    assert (workspace / "checkup.py").read_text() == CHECKUP.replace("calc_bmi", "body_mass_index")
    [notice] = version_notices(workspace)
    assert "test_health.py" in notice.text


NOTIFIER = (
    "import os\n\nAPI_URL = 'https://push.example.com/v1/send'\n\n\n"
    "def key():\n    value = os.environ.get('NOTIFY_KEY')\n    if not value:\n"
    "        raise SystemExit('set NOTIFY_KEY first')\n    return value\n\n\n"
    "print(API_URL, key())\n"
)
NOTIFIER_README = "# notifier\n\nSet NOTIFY_KEY to your key, then run python3 notifier.py.\n"


def notifier_renamed_without_its_url(ws: Path) -> str:
    """The workspace of the environment-variable rename, and the 1.5B's script: renamed, and
    without the line defining API_URL."""
    (ws / "notifier.py").write_text(NOTIFIER)
    (ws / "README.md").write_text(NOTIFIER_README)
    return NOTIFIER.replace("NOTIFY_KEY", "PUSH_API_KEY").replace(
        "API_URL = 'https://push.example.com/v1/send'\n\n\n", ""
    )


def test_a_rename_with_no_checks_to_run_is_finished_from_the_files_shown_when_the_model_broke_one(
    hearth: HearthCli, workspace: Path
) -> None:
    """The 1.5B renamed an environment variable in the script, lost the line defining API_URL,
    and left README.md as it was (here an edit losing the line: a whole-file write of a task
    asking renames only is written with the renames alone). No tests, no command in the task:
    the task asks nothing but the rename, so the files as shown, renamed as words, are kept when
    no Python file is broken and no old name is left."""
    notifier_renamed_without_its_url(workspace)
    task = "Rename the environment variable NOTIFY_KEY to PUSH_API_KEY in notifier.py and README.md."
    lost = act("edit", path="notifier.py", old="API_URL = 'https://push.example.com/v1/send'\n\n\n", new="")
    script = [lost, act("finish", summary="Renamed NOTIFY_KEY.")]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task)
    assert res.code == 0, res.stdout[-2000:]
    assert (workspace / "notifier.py").read_text() == NOTIFIER.replace("NOTIFY_KEY", "PUSH_API_KEY")
    assert (workspace / "README.md").read_text() == NOTIFIER_README.replace("NOTIFY_KEY", "PUSH_API_KEY")
    [notice] = version_notices(workspace)
    assert "notifier.py" in notice.text and "README.md" in notice.text


def test_a_task_asking_more_than_a_rename_is_not_finished_without_checks(
    hearth: HearthCli, workspace: Path
) -> None:
    """The same, with a change besides the rename asked: Hearth cannot tell the model's other work
    from a mistake without checks, so nothing is renamed for it and the finish goes back."""
    lost = notifier_renamed_without_its_url(workspace)
    task = (
        "Rename the environment variable NOTIFY_KEY to PUSH_API_KEY in notifier.py and README.md, "
        "and add a line about it to README.md."
    )
    script = [*wrote("notifier.py", lost), *[act("finish", summary="Renamed NOTIFY_KEY.")] * 3]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task)
    assert res.code != 0, res.stdout[-2000:]
    print("CODE", res.code, res.stdout[-600:])
    assert (workspace / "notifier.py").read_text() == lost
    assert version_notices(workspace) == []


DISCOUNT = (
    "def bulk_discount(qty):\n    return 20 if qty >= 50 else 0\n\n\n"
    "def line_total(price, qty):\n    return price * qty * (100 - bulk_discount(qty)) // 100\n"
)
DISCOUNT_TESTS = (
    "from discount import bulk_discount, line_total\n\n\ndef test_small_order():\n"
    "    assert bulk_discount(5) == 0\n    assert line_total(10, 5) == 50\n\n\n"
    "def test_bulk_order():\n    assert bulk_discount(50) == {bulk}\n    assert line_total(10, 50) == {total}\n"
)


def test_a_test_asked_to_be_corrected_is_varied_in_its_values_only(
    hearth: HearthCli, workspace: Path
) -> None:
    """ "Correct those numbers in test_discount.py without changing discount.py": the 1.5B wrote
    the test file back with a wrong number again and again. The tests are the file asked here:
    versions of it are tried, and one that drops or loosens an assertion is never kept."""
    (workspace / "discount.py").write_text(DISCOUNT)
    wrong = DISCOUNT_TESTS.format(bulk=25, total=375)
    (workspace / "test_discount.py").write_text(wrong)
    task = (
        "A test in test_discount.py fails, but discount.py is right: the test expects the wrong numbers. "
        "Correct those numbers in test_discount.py without changing discount.py."
    )
    half = DISCOUNT_TESTS.format(bulk=20, total=375)
    dropped = half.replace("    assert line_total(10, 50) == 375\n", "")
    loosened = half.replace("line_total(10, 50) == 375", "line_total(10, 50) >= 375")
    right = DISCOUNT_TESTS.format(bulk=20, total=400)
    script = [*wrote("test_discount.py", half), act("finish", summary="Corrected the numbers.")]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        server.routes["Reply with the complete test_discount.py"] = [
            fenced(dropped),
            fenced(loosened),
            fenced(right),
        ]
        res = run(hearth, server, workspace, task)
    assert res.code == 0, res.stdout[-2000:]
    assert (workspace / "test_discount.py").read_text() == right
    assert (workspace / "discount.py").read_text() == DISCOUNT
    [notice] = version_notices(workspace)
    assert "version 3" in notice.text  # the two that pass by checking less were never written


GREET = (
    "import sys\n\n\ndef greet(name):\n    return f'Hello, {name}!'\n\n\n"
    "if __name__ == '__main__':\n    print(greet(sys.argv[1]))\n"
)
GREET_TESTS = "from greet import greet\n\n\ndef test_greet():\n    assert greet('Ann') == 'Hello, Ann!'\n"
SHOUT = (
    "import sys\n\n\ndef greet(name, shout=False):\n    text = f'Hello, {name}!'\n"
    "    return text.upper() if shout else text\n\n\nif __name__ == '__main__':\n"
    "    print(greet(sys.argv[-1], '--shout' in sys.argv))\n"
)


def test_the_file_as_given_is_never_kept_as_a_version_though_its_old_tests_pass(
    hearth: HearthCli, workspace: Path
) -> None:
    """The 1.5B's version of a script asked from the file as given was that file: its old tests
    passed, and Hearth kept it over the model's new option. The task's file as it was is no
    version; the failure goes back to the model, whose next write keeps the option."""
    (workspace / "greet.py").write_text(GREET)
    (workspace / "test_greet.py").write_text(GREET_TESTS)
    task = "Add a --shout option to greet.py that prints the greeting in capitals."
    broken = SHOUT.replace("f'Hello, {name}!'", "f'Hello {name}'")
    script = [
        *wrote("greet.py", broken),
        act("finish", summary="Added --shout."),
        *wrote("greet.py", SHOUT),
        act("finish", summary="Added --shout."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        # every version is the file as given, with a comment: the old tests pass on it
        server.routes["Reply with the complete greet.py"] = [fenced("# greets\n" + GREET)] * COUNT
        res = run(hearth, server, workspace, task)
    assert res.code == 0, res.stdout[-2000:]
    assert (workspace / "greet.py").read_text() == SHOUT
    assert [n.text for n in version_notices(workspace)] == [render("notice_versions_failed", path="greet.py")]


SETTINGS = (
    "# App\n\n## Settings\n\n| name | default | meaning |\n| --- | --- | --- |\n"
    "| `timeout` | 30 | seconds to wait |\n| `legacy_mode` | false | the old parser |\n"
    "| `retries` | 3 | tries per request |\n\nSet them in settings.toml.\n"
)


def test_a_row_the_task_deletes_that_the_model_left_is_deleted_by_hearth(
    hearth: HearthCli, workspace: Path
) -> None:
    """The 1.5B changed the default the task asked, left the `legacy_mode` row the task said to
    delete, and wrote the file back with the row each time the finish review named it. The row
    is a line of its own: Hearth deletes it, and the finish stands."""
    (workspace / "README.md").write_text(SETTINGS)
    task = "In README.md, change the default of timeout to 60 and delete the `legacy_mode` row of the settings table."
    with_default = SETTINGS.replace("| 30 |", "| 60 |")
    script = [*wrote("README.md", with_default), *[act("finish", summary="Done.")] * 3]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task)
    assert res.code == 0, res.stdout[-2000:]
    assert (workspace / "README.md").read_text() == with_default.replace(
        "| `legacy_mode` | false | the old parser |\n", ""
    )
    [notice] = version_notices(workspace)
    assert "`legacy_mode`" in notice.text and "README.md" in notice.text


def test_a_removed_name_also_said_in_prose_goes_back_to_the_model(hearth: HearthCli, workspace: Path) -> None:
    (workspace / "README.md").write_text(SETTINGS + "\nlegacy_mode will go away in 2.0.\n")
    task = "In README.md, delete the `legacy_mode` row of the settings table."
    script = [act("finish", summary="Done."), *[act("blocked", reason="I cannot.")] * 3]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task)
    assert res.code != 0
    assert "legacy_mode` | false" in (workspace / "README.md").read_text()
    assert version_notices(workspace) == []
    # a task that names its file before the verb ("In README.md, delete ...") asks a change:
    # a finish with nothing done goes back
    told = [e.text for e in events(workspace) if isinstance(e, Notice) and e.reason == "finish_unsupported"]
    assert told and "nothing was changed" in told[0]


REPORT = (
    "import csv\nimport sys\n\n\ndef main():\n    with open(sys.argv[1]) as f:\n"
    "        rows = list(csv.DictReader(f))\n    for row in rows:\n        print(row['shop'])\n\n\n"
    "if __name__ == '__main__':\n    main()\n"
)
SPLIT_TASK = (
    "Split main() in report.py into load(path), which returns the rows of the CSV file as a list of "
    "dicts, and render(rows), which returns the report as one string, so that main() just prints "
    "render(load(path)). python3 report.py sales.csv must print the same as now."
)
LOAD = "def load(path):\n    with open(path) as f:\n        return list(csv.DictReader(f))\n\n\n"
PRINTS = (
    "import csv\nimport sys\n\n\n"
    + LOAD
    + "def render(rows):\n    for row in rows:\n        print(row['shop'])\n\n\n"
    "def main():\n    render(load(sys.argv[1]))\n\n\nif __name__ == '__main__':\n    main()\n"
)
RETURNS = (
    "import csv\nimport sys\n\n\n"
    + LOAD
    + "def render(rows):\n    return '\\n'.join(row['shop'] for row in rows)\n\n\n"
    "def main():\n    print(render(load(sys.argv[1])))\n\n\nif __name__ == '__main__':\n    main()\n"
)


def test_a_version_whose_function_prints_what_the_task_says_it_returns_is_not_kept(
    hearth: HearthCli, workspace: Path
) -> None:
    """The 1.5B's split crashed; its version printed the report from render() and returned
    nothing, the command printed the same as before, and Hearth kept it (exit 0). A function the
    task says returns a value must return one: that version is not kept, the next one is."""
    (workspace / "report.py").write_text(REPORT)
    (workspace / "sales.csv").write_text("shop,amount\nLeeds,3\nYork,4\n")
    crashes = RETURNS.replace("print(render(load(sys.argv[1])))", "print(render(load(sys.argv[2])))")
    script = [*wrote("report.py", crashes), act("finish", summary="Split main().")]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        server.routes["Reply with the complete report.py"] = [fenced(PRINTS), fenced(RETURNS)]
        res = run_with_crashes(hearth, server, workspace, SPLIT_TASK)
    assert res.code == 0, res.stdout[-2000:]
    assert (workspace / "report.py").read_text() == RETURNS


def test_a_finish_with_a_function_that_prints_what_it_is_to_return_goes_back(
    hearth: HearthCli, workspace: Path
) -> None:
    (workspace / "report.py").write_text(REPORT)
    (workspace / "sales.csv").write_text("shop,amount\nLeeds,3\nYork,4\n")
    script = [
        *wrote("report.py", PRINTS),
        act("finish", summary="Split main()."),
        *[act("blocked", reason="no")] * 2,
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        server.routes["Reply with the complete report.py"] = [fenced(PRINTS)] * COUNT
        res = run_with_crashes(hearth, server, workspace, SPLIT_TASK)
    assert res.code != 0, res.stdout[-2000:]
    print("CODE", res.code, res.stdout[-600:])
    told = [e.text for e in events(workspace) if isinstance(e, Notice) and e.reason == "finish_unsupported"]
    assert told and "render in report.py returns nothing" in told[0]


def test_an_existing_test_changed_where_the_task_asks_a_new_one_goes_back(
    hearth: HearthCli, workspace: Path
) -> None:
    """The 1.5B changed the existing test to use the new option and added none (the old test
    then failed, and it went in circles). A finish with no new test function goes back, naming
    the test changed instead; a new test then ends it done."""
    (workspace / "greet.py").write_text(GREET)
    (workspace / "test_greet.py").write_text(GREET_TESTS)
    task = "Add a --shout option to greet.py that prints the greeting in capitals. Add a test for it to test_greet.py."
    changed = GREET_TESTS.replace("greet('Ann') == 'Hello, Ann!'", "greet('Ann', True) == 'HELLO, ANN!'")
    added = GREET_TESTS + "\n\ndef test_shout():\n    assert greet('Ann', True) == 'HELLO, ANN!'\n"
    script = [
        *wrote("greet.py", SHOUT),
        *wrote("test_greet.py", changed),
        act("finish", summary="Added --shout and its test."),
        *wrote("test_greet.py", added),
        act("finish", summary="Added --shout and its test."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task)
    assert res.code == 0, res.stdout[-2000:]
    told = [e.text for e in events(workspace) if isinstance(e, Notice) and e.reason == "finish_unsupported"]
    assert len(told) == 1 and "no test function it did not have" in told[0] and "test_greet" in told[0]
    assert (workspace / "test_greet.py").read_text() == added


def test_the_second_version_of_a_file_the_model_created_is_asked_from_the_task_alone(
    hearth: HearthCli, workspace: Path
) -> None:
    """For a script the task asks to write, the 1.5B's versions of its own wrong script copied
    it (its hard-coded file name and wrong lines); there is no file as given to ask from. The
    second version is asked from the task alone, without the model's file."""
    (workspace / "nums.txt").write_text("1\n2\n3\n4\n")
    wrong = "nums = [float(x) for x in open('nums.txt')]\nprint(sum(nums))\n"
    right = "import sys\n\nnums = [float(x) for x in open(sys.argv[1])]\nprint(sum(nums) / len(nums))\n"
    task = "Write avg.py: python3 avg.py nums.txt must print the average of the numbers in the file, here 2.5"
    script = [*wrote("avg.py", wrong), act("finish", summary="avg.py prints the average.")]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        server.routes["Reply with the complete avg.py"] = [fenced(wrong.replace("sum", "max")), fenced(right)]
        res = run(hearth, server, workspace, task)
        asked = [r["messages"][1]["content"] for r in version_requests_of(server, "avg.py")]
    assert res.code == 0, res.stdout[-2000:]
    assert (workspace / "avg.py").read_text() == right
    assert "open('nums.txt')" in asked[0] and "open('nums.txt')" not in asked[1]
    assert "from the start" in asked[1] and task in asked[1]


def version_requests_of(server: ScriptedServer, path: str) -> list[dict[str, Any]]:
    return [r for r in server.requests if f"Reply with the complete {path}" in json.dumps(r["messages"][:2])]


def test_a_version_with_a_test_of_itself_appended_is_written_without_the_test_and_kept(
    hearth: HearthCli, workspace: Path
) -> None:
    """The 1.5B's versions of an exercise often ended with a test of it: `from stats import
    median`, a `check()` and a call of it. Such a module imports itself (the write tool refuses
    it) or calls what it does not define; the version was lost however right its function was.
    Hearth takes the test off and tries the function."""
    setup(workspace)
    appended = (
        MEDIAN_FIXED
        + "\n\nfrom stats import median\n\n\ndef check(candidate):\n"
        + "    assert candidate([1, 2]) == 1.5\n\n\ncheck(median)\n"
    )
    script = [*wrote("stats.py", WRONG), act("finish", summary="Fixed median().")]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        server.routes[ROUTE] = [fenced(appended)]
        res = run(hearth, server, workspace, TASK)
    assert res.code == 0, res.stdout[-2000:]
    assert (workspace / "stats.py").read_text() == MEDIAN_FIXED
    assert "version 1" in version_notices(workspace)[0].text


def test_a_reply_repeating_a_version_tried_makes_the_next_request_hotter(
    hearth: HearthCli, workspace: Path
) -> None:
    """At 0.9 the 1.5B answered a version request with the same file three times running, each
    costing a reply's time and trying nothing new. Each repeat makes the next request hotter, up
    to a bound; a new file does not."""
    setup(workspace)
    script = [*wrote("stats.py", WRONG), act("finish", summary="Fixed median().")]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        # a new version (tried, fails), then the same one again and again
        server.routes[ROUTE] = [fenced(ALSO_WRONG)] * COUNT
        assert run(hearth, server, workspace, TASK).code == 2
        temperatures = [r["temperature"] for r in version_requests(server)]
    # the first at the session's, the file as given at the session's too, then 0.9 with one
    # repeat so far (the second reply) plus a step for each further repeat, to the bound
    assert len(temperatures) == COUNT
    assert temperatures[0] == temperatures[1] < 0.9
    assert temperatures[2:] == [1.1, 1.3, 1.3, 1.3][: COUNT - 2]


def test_the_versions_after_the_first_are_asked_from_the_file_as_given(
    hearth: HearthCli, workspace: Path
) -> None:
    """In four held-out suites' 90 rounds, 12 of the 14 versions kept were the first asked from
    the file as given, and one of some 250 tries of the model's own wrong file passed: after the
    first, every version is asked from the file as given, hotter than the second."""
    setup(workspace)
    third = MEDIAN_BUG.replace("len(xs) // 2", "1")
    script = [*wrote("stats.py", WRONG), act("finish", summary="Fixed median().")]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        server.routes[ROUTE] = [fenced(ALSO_WRONG), fenced(third), fenced(MEDIAN_FIXED)]
        res = run(hearth, server, workspace, TASK)
        asked = version_requests(server)
    assert res.code == 0, res.stdout[-2000:]
    assert (workspace / "stats.py").read_text() == MEDIAN_FIXED
    shown = [r["messages"][1]["content"] for r in asked]
    assert len(shown) == 3 and WRONG.strip() in shown[0]
    assert all(
        "as it was given" in s and MEDIAN_BUG.strip() in s and WRONG.strip() not in s for s in shown[1:]
    )
    assert shown[1] == shown[2]  # the same request again: the server reads nothing new
    assert asked[0]["temperature"] == asked[1]["temperature"] < 0.9 <= asked[2]["temperature"]


NAMES = (
    '"""Say what is wrong with a name: python3 names.py NAME."""\n\nimport sys\n\n\n'
    "def main():\n    name = sys.argv[1]\n    if len(name) < 3:\n        print('too short')\n"
    "    if not name.islower():\n        print('not lower case')\n\n\n"
    "if __name__ == '__main__':\n    main()\n"
)
# the 1.5B's refactor of such a script: the first problem found ends the list
NAMES_FIRST_ONLY = (
    '"""Say what is wrong with a name: python3 names.py NAME."""\n\nimport sys\n\n\n'
    "def problems(name):\n    if len(name) < 3:\n        return ['too short']\n"
    "    if not name.islower():\n        return ['not lower case']\n    return []\n\n\n"
    "def main():\n    for problem in problems(sys.argv[1]):\n        print(problem)\n\n\n"
    "if __name__ == '__main__':\n    main()\n"
)
NAMES_RIGHT = (
    '"""Say what is wrong with a name: python3 names.py NAME."""\n\nimport sys\n\n\n'
    "def problems(name):\n    found = []\n    if len(name) < 3:\n        found.append('too short')\n"
    "    if not name.islower():\n        found.append('not lower case')\n    return found\n\n\n"
    "def main():\n    for problem in problems(sys.argv[1]):\n        print(problem)\n\n\n"
    "if __name__ == '__main__':\n    main()\n"
)
NAMES_TASK = (
    "Move the checks in main() of names.py into a function problems(name) that returns the list of "
    'problems found (for example problems("Ab") == ["too short", "not lower case"]), and make main() '
    "use it. python3 names.py must print the same as before."
)


def test_the_example_a_task_states_judges_the_work_when_its_command_tells_nothing(
    hearth: HearthCli, workspace: Path
) -> None:
    """The 1.5B's `problems()` stopped at the first problem, and the task's command needs an
    argument, so it told nothing: the run ended 0 on wrong work. The example the task states is
    called in the workspace, and the versions are judged by it."""
    (workspace / "names.py").write_text(NAMES)
    script = [
        *wrote("names.py", NAMES_FIRST_ONLY),
        act("finish", summary="Moved the checks into problems(name)."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        server.routes["Reply with the complete names.py"] = [fenced(NAMES_FIRST_ONLY), fenced(NAMES_RIGHT)]
        res = run_with_crashes(hearth, server, workspace, NAMES_TASK)  # the command needs an argument
        asked = [
            r for r in server.requests if "Reply with the complete names.py" in json.dumps(r["messages"][:2])
        ]
    assert res.code == 0, res.stdout[-2000:]
    assert (workspace / "names.py").read_text() == NAMES_RIGHT
    # the versions were shown what the example returned
    assert "problems(\"Ab\") returns ['too short']; the task says" in asked[0]["messages"][1]["content"]
    [notice] = version_notices(workspace)
    assert "version 2" in notice.text


def test_an_example_that_holds_is_evidence_the_work_is_done(hearth: HearthCli, workspace: Path) -> None:
    (workspace / "names.py").write_text(NAMES)
    script = [*wrote("names.py", NAMES_RIGHT), act("finish", summary="Moved the checks into problems(name).")]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run_with_crashes(hearth, server, workspace, NAMES_TASK)
    assert res.code == 0, res.stdout[-2000:]
    assert (workspace / "names.py").read_text() == NAMES_RIGHT
    assert version_notices(workspace) == []


SLUG_START = '"""Text helpers."""\n\n\ndef shout(text):\n    return text.upper()\n'
# the 1.5B's slugify for heldout examples of this form: spaces only, punctuation kept
SLUG_WRONG = SLUG_START + '\n\ndef slugify(title):\n    return "-".join(title.lower().split())\n'
SLUG_RIGHT = SLUG_START + (
    "\n\ndef slugify(title):\n    import re\n\n"
    '    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")\n'
)
SLUG_TASK = (
    "Please add a slugify function to textutils.py that turns a post title into a URL slug: "
    "lowercase, every run of other characters a single hyphen. Examples:\n\n"
    '"Hello, World!" gives "hello-world"\n'
    '"  Top 10 tips " gives "top-10-tips"'
)


def test_examples_listed_as_this_gives_that_judge_the_new_function(
    hearth: HearthCli, workspace: Path
) -> None:
    """Examples written as `"Hello, World!" gives "hello-world"`, under a task that names one
    function, are that function's: the 1.5B's slugify kept the comma, and the run ended 0 on it.
    They are called like those written as calls, and the versions judged by them."""
    (workspace / "textutils.py").write_text(SLUG_START)
    script = [*wrote("textutils.py", SLUG_WRONG), act("finish", summary="Added slugify.")]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        server.routes["Reply with the complete textutils.py"] = [fenced(SLUG_WRONG), fenced(SLUG_RIGHT)]
        res = run_with_crashes(hearth, server, workspace, SLUG_TASK)
        asked = [
            r
            for r in server.requests
            if "Reply with the complete textutils.py" in json.dumps(r["messages"][:2])
        ]
    assert res.code == 0, res.stdout[-2000:]
    assert (workspace / "textutils.py").read_text() == SLUG_RIGHT
    assert (
        "slugify(\"Hello, World!\") returns 'hello,-world!'; the task says"
        in asked[0]["messages"][1]["content"]
    )


def test_a_new_function_its_bare_examples_disprove_does_not_end_0(hearth: HearthCli, workspace: Path) -> None:
    (workspace / "textutils.py").write_text(SLUG_START)
    finishes = [act("finish", summary="Added slugify.") for _ in range(4)]
    script = [*wrote("textutils.py", SLUG_WRONG), *finishes]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        server.routes["Reply with the complete textutils.py"] = [fenced(SLUG_WRONG)] * 20
        res = run_with_crashes(hearth, server, workspace, SLUG_TASK)
    # wrong work the model keeps calling finished ends 2, saying which example does not hold
    assert res.code == 2, res.stdout[-2000:]
    done = json.loads(res.stdout.strip().splitlines()[-1])
    assert "the task's own examples do not hold" in done["reason"]
    assert "slugify(\"Hello, World!\") returns 'hello,-world!'" in done["reason"]
