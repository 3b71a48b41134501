"""A small model's finish judged on evidence, and the named files shown with its first task.

Replays of the held-out runs of the 1.5B in grammar mode (exit 0 on six of seven failures): a
refused write then an immediate finish; "committed" with no commit; "fixed" with nothing changed;
a change the project's own tests reject; the fixed script overwritten with its expected output."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from e2e.test_actions import act, events, finished, run, schema_of, wrote
from hearth.agent.versions import COUNT
from hearth.core.events import Notice, ToolResult
from hearth.llm.actions import JSON_OBJECT, offered_names
from hearth.testing import ScriptedReply, ScriptedServer
from support import HearthCli

SMALL = "qwen2.5-coder-1.5b-instruct"
MEDIAN_BUG = "def median(xs):\n    xs = sorted(xs)\n    return xs[len(xs) // 2]\n"
MEDIAN_FIXED = (
    "def median(xs):\n    xs = sorted(xs)\n    n = len(xs)\n    mid = n // 2\n"
    "    return xs[mid] if n % 2 else (xs[mid - 1] + xs[mid]) / 2\n"
)
MEDIAN_TESTS = (
    "from stats import median\n\n\ndef test_odd():\n    assert median([3, 1, 2]) == 2\n\n\n"
    "def test_even():\n    assert median([4, 1, 3, 2]) == 2.5\n"
)
# the finish going back to the model is what these tests show: no versions tried first (see
# test_versions.py for those)
NO_VERSIONS = {"HEARTH_VERSIONS": "0"}

GREET = (
    "import argparse\n\n\ndef main():\n    parser = argparse.ArgumentParser()\n"
    "    parser.add_argument('name')\n{option}    args = parser.parse_args()\n"
    "    text = f'Hello, {{args.name}}!'\n{shout}    print(text)\n\n\nif __name__ == '__main__':\n    main()\n"
)

GREET_TEST = (
    "import subprocess\nimport sys\n\n\ndef run(*args):\n"
    "    return subprocess.run([sys.executable, 'greet.py', *args], capture_output=True, text=True).stdout\n\n\n"
    "def test_greets():\n    assert run('Ann') == 'Hello, Ann!\\n'\n"
)

SHOUTING = GREET.format(
    option="    parser.add_argument('--shout', action='store_true')\n",
    shout="    if args.shout:\n        text = text.upper()\n",
)

SHIPPING = (
    "PARCELS = [('Ada', 400), ('Bram', 2000)]\n\n\n"
    "def main():\n    for name, grams in PARCELS:\n        cents = 350 if grams <= 500 else 500\n"
    "        print(f'{name:<6}{cents / 100:>7.2f}')\n\n\nmain()\n"
)

RATES = "RATES = {'EUR': 1.0, 'USD': 1.08}\n\n\ndef {name}(code):\n    return RATES[code]\n"

WRAPPER = (
    "\n\ndef fetch_rate(code):\n    import warnings\n\n"
    "    warnings.warn('use get_rate', DeprecationWarning, stacklevel=2)\n    return get_rate(code)\n"
)

CHECKER = (
    '"""Say what is wrong with a name: python3 checker.py NAME."""\n\nimport sys\n\n\n'
    "def main():\n    name = sys.argv[1]\n    if len(name) < 3:\n        print('too short')\n"
    "    if not name.islower():\n        print('not lower case')\n\n\n"
    "if __name__ == '__main__':\n    main()\n"
)

CHECKED = (
    '"""Say what is wrong with a name: python3 checker.py NAME."""\n\nimport sys\n\n\n'
    "def problems(name):\n    found = []\n    if len(name) < 3:\n        found.append('too short')\n"
    "    if not name.islower():\n        found.append('not lower case')\n    return found\n\n\n"
    "def main():\n    for problem in problems(sys.argv[1]):\n        print(problem)\n\n\n"
    "if __name__ == '__main__':\n    main()\n"
)


def notices(ws: Path) -> list[Notice]:
    return [e for e in events(ws) if isinstance(e, Notice) and e.reason == "finish_unsupported"]


def git(ws: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=ws, capture_output=True, text=True, check=True).stdout


def init_repo(ws: Path) -> None:
    subprocess.run(["git", "init", "-q", "-b", "main", str(ws)], check=True)
    for key, value in (("user.name", "T"), ("user.email", "t@example.com")):
        git(ws, "config", key, value)
    (ws / "app.py").write_text("print('app')\n")
    git(ws, "add", "-A")
    git(ws, "commit", "-qm", "init")


# A refused change, then finish


def test_a_refused_write_then_finish_goes_back_then_ends_0_once_the_change_is_made(
    hearth: HearthCli, workspace: Path
) -> None:
    (workspace / "settings.ini").write_text("[app]\nname = old\n")
    script = [
        *wrote("settings.ini", "[app]\nname = new\n"),  # not read: refused
        act("finish", summary="Renamed the app to new."),
        act("read", path="settings.ini"),
        *wrote("settings.ini", "[app]\nname = new\n"),
        act("finish", summary="Renamed the app to new."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, "Rename the app to new in its settings")
        assert res.code == 0, res.stdout[-2000:]
        pushed_back = server.requests[3]["messages"][-1]["content"]  # after the write's two requests
    assert "your last change (write settings.ini) was not made" in pushed_back
    assert len(notices(workspace)) == 1
    assert (workspace / "settings.ini").read_text() == "[app]\nname = new\n"


def test_finishing_again_and_again_over_a_change_never_made_ends_2(
    hearth: HearthCli, workspace: Path
) -> None:
    (workspace / "settings.ini").write_text("[app]\nname = old\n")
    script = [
        *wrote("settings.ini", "[app]\nname = new\n"),
        *[act("finish", summary="Renamed the app to new.")] * 3,
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, "Rename the app to new in its settings")
    assert res.code == 2, res.stdout[-2000:]
    assert len(notices(workspace)) == 2
    assert "the evidence says the work is not done" in finished(workspace).reason
    assert (workspace / "settings.ini").read_text() == "[app]\nname = old\n"


# Claims no event backs


def test_a_write_of_what_the_file_holds_is_judged_as_a_finish_and_says_what_is_missing(
    hearth: HearthCli, workspace: Path
) -> None:
    """Held-out run: the 1.5B's option worked, and it wrote the same script back again and again,
    the test the task asked never added, until the loop guard stopped it (exit 2). Writing what
    the file holds is the model saying the work is done: the review says what is missing."""
    (workspace / "greet.py").write_text(GREET.format(option="", shout=""))
    (workspace / "test_greet.py").write_text(GREET_TEST)
    task = "Add a --shout option to greet.py that prints the greeting in capitals, and add a test for it to test_greet.py."
    new_test = GREET_TEST + "\n\ndef test_shouts():\n    assert run('--shout', 'Ann') == 'HELLO, ANN!\\n'\n"
    script = [
        *wrote("greet.py", SHOUTING),
        *wrote("greet.py", SHOUTING),  # the same again: nothing would change
        *wrote("test_greet.py", new_test),
        act("finish", summary="Added --shout and its test."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task)
        assert res.code == 0, res.stdout[-2000:]
    [notice] = notices(workspace)
    assert "the task asks for a new test, but test_greet.py has no test function" in notice.text
    assert "def test_shouts" in (workspace / "test_greet.py").read_text()


def test_a_write_of_what_the_file_holds_ends_the_turn_done_when_nothing_is_missing(
    hearth: HearthCli, workspace: Path
) -> None:
    """The work is right (the task's command prints what it states) and the model writes the file
    again as it is: the turn ends done (exit 0), not in circles until the loop guard (exit 2)."""
    (workspace / "greet.py").write_text(GREET.format(option="", shout=""))
    task = "Add a --shout option to greet.py: python3 greet.py --shout Ann must print HELLO, ANN!"
    script = [*wrote("greet.py", SHOUTING), *wrote("greet.py", SHOUTING)]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task)
        assert res.code == 0, res.stdout[-2000:]
    assert "the last write changed nothing" in finished(workspace).final_text
    assert notices(workspace) == []


def test_fixed_with_nothing_changed_ends_2_and_a_question_answered_ends_0(
    hearth: HearthCli, workspace: Path
) -> None:
    (workspace / "notes.txt").write_text("teh cat\n")
    script = [act("finish", summary="Fixed the typo in notes.txt.")] * 3
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, "Fix the typo in notes.txt")
    assert res.code == 2, res.stdout[-2000:]
    assert "nothing was changed" in notices(workspace)[0].text
    with ScriptedServer(
        [act("finish", summary="It says: teh cat.")], model=SMALL, formats=(JSON_OBJECT,)
    ) as server:
        assert run(hearth, server, workspace, "What does notes.txt say?").code == 0


# The project's tests, run by Hearth when the model finishes


def test_a_fix_the_projects_tests_reject_goes_back_with_their_output_then_ends_0_when_they_pass(
    hearth: HearthCli, workspace: Path
) -> None:
    (workspace / "stats.py").write_text(MEDIAN_BUG)
    (workspace / "test_stats.py").write_text(MEDIAN_TESTS)
    wrong = MEDIAN_BUG.replace("len(xs) // 2", "(len(xs) - 1) // 2")
    script = [
        *wrote("stats.py", wrong),  # shown whole up front: no read needed
        act("finish", summary="Fixed median(); the tests pass."),
        *wrote("stats.py", MEDIAN_FIXED),
        act("finish", summary="Fixed median(); the tests pass."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(
            hearth,
            server,
            workspace,
            "A test in test_stats.py fails. Fix the bug in stats.py.",
            **NO_VERSIONS,
        )
        assert res.code == 0, res.stdout[-2000:]
        first = json.dumps(server.requests[0]["messages"])
        pushed_back = server.requests[3]["messages"][-1]["content"]
    assert "return xs[len(xs) // 2]" in first and "def test_even" in first  # both files shown whole
    # the task says a test fails: how it fails is shown with the task, before any change
    assert "as the task says they fail" in first and "test_even" in first.split("as the task says")[1]
    assert "the project's tests fail after your last change" in pushed_back and "assert" in pushed_back
    checks = [
        e for e in events(workspace) if isinstance(e, ToolResult) and e.call_id.startswith("hearth-check")
    ]
    assert [c.ok for c in checks] == [False, False, True]  # at the start, the wrong fix, the right one
    assert (workspace / "stats.py").read_text() == MEDIAN_FIXED
    assert not (workspace / ".pytest_cache").exists() and not (workspace / "__pycache__").exists()


def test_a_fix_the_tests_still_reject_at_the_end_ends_2(hearth: HearthCli, workspace: Path) -> None:
    (workspace / "stats.py").write_text(MEDIAN_BUG)
    (workspace / "test_stats.py").write_text(MEDIAN_TESTS)
    wrong = MEDIAN_BUG.replace("len(xs) // 2", "(len(xs) - 1) // 2")
    script = [*wrote("stats.py", wrong), *[act("finish", summary="Fixed it.")] * 3]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(
            hearth,
            server,
            workspace,
            "A test in test_stats.py fails. Fix the bug in stats.py.",
            **NO_VERSIONS,
        )
    assert res.code == 2, res.stdout[-2000:]
    # the tests' failed run is the turn's last check: the loop's own evidence rule ends it
    assert "run failed and nothing changed since" in finished(workspace).reason


def test_a_changed_python_file_that_does_not_parse_goes_back(hearth: HearthCli, workspace: Path) -> None:
    script = [
        *wrote("counts.py", "import json\nprint(json.dumps({'a': 1})\n"),
        act("finish", summary="Wrote counts.py."),
        *wrote("counts.py", "import json\nprint(json.dumps({'a': 1}))\n"),
        act("finish", summary="Wrote counts.py."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, "Write counts.py that prints a JSON object")
        assert res.code == 0, res.stdout[-2000:]
    [notice] = notices(workspace)
    assert "counts.py does not parse" in notice.text


# The fixed script overwritten with its expected output


def test_a_script_overwritten_with_its_expected_output_is_refused_and_the_fix_stands(
    hearth: HearthCli, workspace: Path
) -> None:
    buggy = (
        "def page(items, number, size=3):\n    start = number * size\n    return items[start:start + size]\n"
    )
    main = '\n\nif __name__ == "__main__":\n    print(page(list(range(10)), 1))\n'
    (workspace / "pages.py").write_text(buggy + main)
    fixed = buggy.replace("number * size", "(number - 1) * size") + main
    script = [
        *wrote("pages.py", fixed),
        *wrote("pages.py", "[0, 1, 2]\n"),
        act("finish", summary="pages.py prints [0, 1, 2]."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, "pages.py prints [3, 4, 5] instead of [0, 1, 2]. Fix it.")
        assert res.code == 0, res.stdout[-2000:]
    refused = [e for e in events(workspace) if isinstance(e, ToolResult) and e.name == "write"][1]
    assert not refused.ok and "every function and class" in refused.output
    out = subprocess.run([sys.executable, "pages.py"], cwd=workspace, capture_output=True, text=True).stdout
    assert out.strip() == "[0, 1, 2]"


# The named files shown whole: reading them again is circling sooner


def test_with_the_named_files_shown_two_reads_in_a_row_leave_only_changing_actions(
    hearth: HearthCli, workspace: Path
) -> None:
    (workspace / "greet.py").write_text("import sys\n\nprint(f'Hello, {sys.argv[1]}!')\n")
    script = [
        act("read", path="greet.py"),
        act("ls", path="."),
        *wrote("greet.py", "import sys\n\nprint(f'Hello, {sys.argv[-1]}!')\n"),
        act("finish", summary="greet.py greets the last argument."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, "Make greet.py greet the last argument")
        assert res.code == 0, res.stdout[-2000:]
        offered = [sorted(offered_names(schema_of(r))) for r in server.requests if "response_format" in r]
    assert "read" in offered[1] and "read" not in offered[2] and "ls" not in offered[2]
    assert {"write", "edit", "finish"} <= set(offered[2])
    assert "read" in offered[3]  # after a change, looking is offered again


EDITORCONFIG = "root = true\n\n[*.js]\nindent_style = space\nindent_size = 4\n"


def test_a_dotfile_the_task_names_is_shown_whole_and_a_finish_with_it_unchanged_goes_back(
    hearth: HearthCli, workspace: Path
) -> None:
    """Not shown `.editorconfig`, the 1.5B read and rewrote app.js instead and finished (exit 0
    with nothing changed). A dotfile the task names is shown whole like any named file, and a
    task naming its file before its verb asks a change."""
    (workspace / ".editorconfig").write_text(EDITORCONFIG)
    (workspace / "app.js").write_text("module.exports = {};\n")
    task = "In .editorconfig, make the indent size 2 for the JS files."
    fixed = EDITORCONFIG.replace("indent_size = 4", "indent_size = 2")
    script = [act("finish", summary="Done."), *wrote(".editorconfig", fixed), act("finish", summary="Done.")]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task)
        first = json.dumps(server.requests[0]["messages"])
    assert res.code == 0, res.stdout[-2000:]
    assert "indent_size = 4" in first  # the file's text came with the task
    assert (workspace / ".editorconfig").read_text() == fixed
    assert [n.reason for n in notices(workspace)] == ["finish_unsupported"]


# Text mode: the same judgement of a small model's finish


def test_in_text_mode_a_claimed_fix_with_nothing_changed_ends_2_and_an_answer_ends_0(
    hearth: HearthCli, workspace: Path
) -> None:
    (workspace / "notes.txt").write_text("teh cat\nwas updated in 2020\n")
    env = {"HEARTH_TOOL_MODE": "text", "HEARTH_MODEL_PROFILE": "small"}
    with ScriptedServer([ScriptedReply(text="I have fixed the typo. TASK_COMPLETE")] * 3) as server:
        assert run(hearth, server, workspace, "Fix the typo in notes.txt", **env).code == 2
    assert len(notices(workspace)) == 2
    answer = ScriptedReply(text="The notes say the file was updated in 2020. TASK_COMPLETE")
    with ScriptedServer([answer]) as server:
        assert run(hearth, server, workspace, "When was notes.txt updated?", **env).code == 0


def test_the_test_command_agents_md_names_is_what_hearth_runs_when_the_model_finishes(
    hearth: HearthCli, workspace: Path
) -> None:
    (workspace / "AGENTS.md").write_text(
        "# Project\n\nRun the tests with `python3 check.py` before you finish.\n"
    )
    (workspace / "check.py").write_text(
        "import sys\n\nsys.exit(0 if open('VERSION.txt').read().strip() == '2' else 1)\n"
    )
    (workspace / "VERSION.txt").write_text("1\n")
    script = [
        *wrote("VERSION.txt", "3\n"),
        act("finish", summary="Bumped the version."),
        *wrote("VERSION.txt", "2\n"),
        act("finish", summary="Bumped the version."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, "Set the version in VERSION.txt to 2", **NO_VERSIONS)
        assert res.code == 0, res.stdout[-2000:]
    [notice] = notices(workspace)
    assert "Hearth ran `python3 check.py`" in notice.text
    checks = [
        e for e in events(workspace) if isinstance(e, ToolResult) and e.call_id.startswith("hearth-check")
    ]
    assert [c.ok for c in checks] == [False, True]


def test_a_named_file_said_to_be_added_that_is_not_there_goes_back(
    hearth: HearthCli, workspace: Path
) -> None:
    """Held-out run: the 1.5B rewrote app.py unchanged, committed it as 'Add gitignore' and
    finished with ".gitignore was added and committed"; there was no .gitignore (exit 0)."""
    init_repo(workspace)
    script = [
        act("read", path="app.py"),
        *wrote("app.py", 'print("app")\n'),  # its quotes changed, nothing else
        act("git_add", paths=["app.py"]),
        act("git_commit", message="Add gitignore"),
        act("finish", summary="The .gitignore file was added and committed successfully."),
        *wrote(".gitignore", "__pycache__/\n*.log\n"),
        act("finish", summary="The .gitignore file was added and committed successfully."),
        act("git_add", paths=[".gitignore"]),
        act("git_commit", message="Add gitignore"),
        act("finish", summary="The .gitignore file was added and committed successfully."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        task = "Add a .gitignore file that ignores __pycache__/ folders and *.log files, and commit it."
        res = run(hearth, server, workspace, task)
        assert res.code == 0, res.stdout[-2000:]
    missing, uncommitted = notices(workspace)
    assert "there is no .gitignore in the workspace" in missing.text
    # the app.py commit came before .gitignore was written: it does not back the claim
    assert "no commit was made after your last change" in uncommitted.text
    assert git(workspace, "show", "HEAD:.gitignore") == "__pycache__/\n*.log\n"


def test_a_rewrite_of_a_shown_file_that_drops_a_line_is_refused_once(
    hearth: HearthCli, workspace: Path
) -> None:
    """Held-out run: shown README.md whole, the 1.5B bumped its version by writing it again
    without its last line, "See the changelog." (exit 0)."""
    readme = "# tool\n\nCurrent version: 1.4.2\n\nSee the changelog.\n"
    (workspace / "README.md").write_text(readme)
    bumped = readme.replace("1.4.2", "1.5.0")
    script = [
        *wrote("README.md", "# tool\nCurrent version: 1.5.0"),
        *wrote("README.md", bumped),
        act("finish", summary="Bumped README.md to 1.5.0."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, "Bump the version from 1.4.2 to 1.5.0 in README.md.")
        assert res.code == 0, res.stdout[-2000:]
    refused = next(e for e in events(workspace) if isinstance(e, ToolResult) and e.name == "write")
    assert not refused.ok and "`See the changelog.`" in refused.output
    assert (workspace / "README.md").read_text() == bumped


def test_a_shown_json_file_written_again_on_one_line_is_a_change_not_a_loss(
    hearth: HearthCli, workspace: Path
) -> None:
    """The next held-out run: package.json written on one line was refused as dropping its lines,
    and the model, told to append, appended it (a broken file)."""
    (workspace / "package.json").write_text('{\n  "name": "tool",\n  "version": "1.4.2"\n}\n')
    script = [
        *wrote("package.json", '{"name": "tool", "version": "1.5.0"}'),
        act("finish", summary="Bumped package.json to 1.5.0."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, "Bump the version from 1.4.2 to 1.5.0 in package.json.")
        assert res.code == 0, res.stdout[-2000:]
    assert json.loads((workspace / "package.json").read_text()) == {"name": "tool", "version": "1.5.0"}


def test_grammar_mode_asked_for_with_a_model_of_unknown_size_gets_the_small_profile(
    hearth: HearthCli, workspace: Path
) -> None:
    """The held-out grammar runs were made with HEARTH_TOOL_MODE=grammar behind `--model_alias
    local`: the tool probe that finds the small profile was skipped, so they ran the full one."""
    (workspace / "notes.txt").write_text("teh cat\n")
    with ScriptedServer(
        [act("finish", summary="It says teh cat.")], model="local", formats=(JSON_OBJECT,)
    ) as server:
        res = run(hearth, server, workspace, "What does notes.txt say?", HEARTH_TOOL_MODE="grammar")
        assert res.code == 0, res.stdout[-2000:]
        first = json.dumps(server.requests[0]["messages"])
    assert "teh cat" in first  # the small profile's first look, with the named file whole


def test_a_small_models_plan_naming_files_still_to_create_is_not_sent_back(
    hearth: HearthCli, workspace: Path
) -> None:
    (workspace / "text.txt").write_text("the cat\n")
    plan = "Here is the plan:\n1. Created counts.py will count the words\n2. Run it\nThat is all."
    with ScriptedServer([ScriptedReply(text=plan)], model=SMALL, formats=(JSON_OBJECT,)) as server:
        server_url = server.url
        res = hearth(
            "run", "Write counts.py that counts the words in text.txt", "-w", str(workspace), "--plan", "--json",
            env={"HEARTH_LLM_URL": server_url, "HEARTH_RETRIES": "0", "HEARTH_TOOL_MODE": "text"},
        )  # fmt: skip
        assert res.code == 0, res.stdout[-2000:]
    assert notices(workspace) == []
    assert not (workspace / "counts.py").exists()


def test_a_bare_finish_on_a_task_asking_to_change_a_named_file_with_nothing_done_ends_2(
    hearth: HearthCli, workspace: Path
) -> None:
    (workspace / "notes.txt").write_text("teh cat\n")
    script = [act("finish", summary="The task is complete.")] * 3
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        assert run(hearth, server, workspace, "Fix the typo in notes.txt").code == 2
    assert "the task asks for a change" in notices(workspace)[0].text
    with ScriptedServer(
        [act("finish", summary="An autumn haiku: ...")], model=SMALL, formats=(JSON_OBJECT,)
    ) as server:
        assert run(hearth, server, workspace, "Write a haiku about notes.txt").code == 0


SYNC = "print('debug: start')\nprint('done')\n"


def test_a_task_saying_make_with_its_file_written_back_unchanged_is_not_done(
    hearth: HearthCli, workspace: Path
) -> None:
    """The 1.5B wrote the script back as it was (refused: nothing would change) and finished,
    exit 0, on a task whose change verb ("Make them ...") was not one Hearth knew."""
    (workspace / "sync.py").write_text(SYNC)
    task = "sync.py always prints its `debug:` lines. Make them logging debug messages shown only with --verbose."
    same = ScriptedReply(text=act("write", path="sync.py").text + "\n```python\n" + SYNC + "```")
    script = [same, act("finish", summary="The task is done; sync.py is as it should be.")] * 3
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task)
    assert res.code == 2, res.stdout[-2000:]
    assert "the task asks for a change" in notices(workspace)[0].text


def test_a_text_file_changed_in_a_project_with_python_tests_runs_no_tests(
    hearth: HearthCli, workspace: Path
) -> None:
    (workspace / "test_app.py").write_text("def test_broken():\n    assert False\n")
    (workspace / "README.md").write_text("# app\n\nVersion 1.\n")
    script = [
        *wrote("README.md", "# app\n\nVersion 2.\n"),
        act("finish", summary="Updated README.md to version 2."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        assert run(hearth, server, workspace, "Update README.md to version 2").code == 0
    assert not [
        e for e in events(workspace) if isinstance(e, ToolResult) and e.call_id.startswith("hearth-check")
    ]


def test_a_file_the_task_asks_to_change_left_as_it_was_goes_back(hearth: HearthCli, workspace: Path) -> None:
    """Held-out run: asked to add a flag to greet.py and a test for it to test_greet.py, the 1.5B
    rewrote greet.py only; the old test passed, and the run ended 0."""
    greet = "import sys\n\nprint(f'Hello, {sys.argv[1]}!')\n"
    (workspace / "greet.py").write_text(greet)
    (workspace / "test_greet.py").write_text("def test_nothing():\n    assert True\n")
    shout = (
        "import sys\n\nif '--shout' in sys.argv:\n    print(f'HELLO, {sys.argv[-1].upper()}!')\n"
        "else:\n    print(f'Hello, {sys.argv[1]}!')\n"
    )
    tests = (
        "def test_nothing():\n    assert True\n\n\ndef test_shout():\n    assert 'shout'.upper() == 'SHOUT'\n"
    )
    script = [
        *wrote("greet.py", shout),
        act("finish", summary="The file has been updated with the new content."),
        *wrote("test_greet.py", tests),
        act("finish", summary="Added --shout and its test."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        task = "Add a --shout flag to greet.py that prints the greeting in upper case. Add a test for it to test_greet.py."
        res = run(hearth, server, workspace, task)
        assert res.code == 0, res.stdout[-2000:]
    [notice] = notices(workspace)
    assert "test_greet.py was not changed" in notice.text
    assert "def test_shout" in (workspace / "test_greet.py").read_text()


def test_an_exercise_changes_only_the_file_it_names_to_change_never_the_tests_that_judge_it(
    hearth: HearthCli, workspace: Path
) -> None:
    """Held-out runs: "Implement f in solution.py so that the tests in test_solution.py pass. Do
    not change the tests." The finish review asked for test_solution.py to be changed too, and
    the model rewrote the tests of three exercises it had solved."""
    (workspace / "solution.py").write_text("def double(x):\n    raise NotImplementedError\n")
    tests = "from solution import double\n\n\ndef test_double():\n    assert double(2) == 4\n"
    (workspace / "test_solution.py").write_text(tests)
    script = [
        *wrote("solution.py", "def double(x):\n    return 2 * x\n"),
        act("finish", summary="Implemented double."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        task = (
            "Implement the function double in solution.py so that the tests in test_solution.py pass. "
            "Do not change the tests."
        )
        res = run(hearth, server, workspace, task)
        assert res.code == 0, res.stdout[-2000:]
    assert notices(workspace) == []
    assert (workspace / "test_solution.py").read_text() == tests


def test_the_files_a_task_asks_to_change_are_the_objects_of_its_change_verbs() -> None:
    from hearth.agent.asked import asked_files

    assert asked_files("Implement f in solution.py so that the tests in test_solution.py pass.") == [
        "solution.py"
    ]
    assert asked_files(
        "Add a --skip-blank option to linecount.py that leaves blank lines out of the count: "
        "python3 linecount.py --skip-blank sample.txt must print 3. Add a test for it to test_linecount.py."
    ) == ["linecount.py", "test_linecount.py"]
    assert asked_files("Fix stats.py (do not change test_stats.py)") == ["stats.py"]
    assert asked_files("Bump the version in package.json and README.md") == ["package.json", "README.md"]
    assert asked_files("Replace foo with bar in app.py") == ["app.py"]
    assert asked_files("Summarise notes.txt") == []
    assert asked_files("test_total fails: fix the bug in bill.py (not the test)") == ["bill.py"]
    assert asked_files("Two jobs: update a.py and b.py") == ["a.py", "b.py"]


def test_a_finish_over_a_name_the_changed_file_never_defines_goes_back(
    hearth: HearthCli, workspace: Path
) -> None:
    """Held-out run: the write's result said `client` was never defined; the model finished."""
    (workspace / "client.py").write_text("print('GET /users')\n")
    broken = "import json\n\nconfig = json.load(open('config.json'))\nprint(client.describe('users'))\n"
    fixed = "print('GET /users')\n"
    script = [
        *wrote("client.py", broken),
        act("finish", summary="client.py reads config.json now."),
        *wrote("client.py", fixed),
        act("finish", summary="client.py is as before."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, "Tidy client.py")
        assert res.code == 0, res.stdout[-2000:]
    [notice] = notices(workspace)
    assert "client.py uses `client` (line 4), never imported or defined" in notice.text


def test_a_script_the_task_runs_that_now_fails_with_a_traceback_goes_back(
    hearth: HearthCli, workspace: Path
) -> None:
    """The task says how it is judged ("python3 client.py must print the same as before"):
    Hearth runs that command, in the sandbox, when the model finishes."""
    (workspace / "client.py").write_text("BASE = 'http://localhost'\nprint(BASE + '/users')\n")
    (workspace / "config.json").write_text('{"BASE": "http://localhost"}\n')
    broken = "import json\n\nBASE = json.load(open('config.json'))['base']\nprint(BASE + '/users')\n"
    fixed = "import json\n\nBASE = json.load(open('config.json'))['BASE']\nprint(BASE + '/users')\n"
    script = [
        *wrote("client.py", broken),
        act("finish", summary="client.py reads config.json."),
        *wrote("client.py", fixed),
        act("finish", summary="client.py reads config.json."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        # the versions Hearth asks for over the crash (agent/versions) bring the same file back
        server.routes["Reply with the complete client.py"] = [
            ScriptedReply(text=f"```python\n{broken}```")
        ] * COUNT
        task = "Make client.py read BASE from config.json. python3 client.py must print the same as before."
        res = hearth(
            "run", task, "-w", str(workspace), "--json", "--permission", "auto",
            env={"HEARTH_LLM_URL": server.url, "HEARTH_RETRIES": "0"},
        )  # fmt: skip
        assert res.code == 0, res.stdout[-2000:]
        assert server.violations == []
    [notice] = notices(workspace)
    assert "`python3 client.py < /dev/null` fails" in notice.text
    assert "KeyError: 'base'" in notice.text


CSVCOL = """import argparse
import csv

parser = argparse.ArgumentParser()
parser.add_argument("file")
parser.add_argument("column")
{option}args = parser.parse_args()
with open(args.file) as f:
    for row in csv.DictReader(f):
        {keep}print(row[args.column])
"""


def test_a_command_with_a_column_argument_that_refuses_its_option_goes_back(
    hearth: HearthCli, workspace: Path
) -> None:
    """The 1.5B added --where as a flag taking no value; the task's command then failed with
    argparse's usage error, and Hearth never ran it (its last argument is a column, not a file)."""
    (workspace / "books.csv").write_text("title,genre\nAriel,poetry\nDune,sf\n")
    (workspace / "csvcol.py").write_text(CSVCOL.format(option="", keep=""))
    task = (
        "Add a --where COLUMN=VALUE option to csvcol.py that keeps only the rows whose COLUMN is "
        "VALUE: python3 csvcol.py --where genre=poetry books.csv title must print Ariel and nothing else."
    )
    flag = CSVCOL.format(option='parser.add_argument("--where", action="store_true")\n', keep="")
    right = CSVCOL.format(
        option='parser.add_argument("--where")\n',
        keep='k, v = args.where.split("=") if args.where else (None, None)\n        if k and row[k] != v:\n            continue\n        ',
    )
    script = [
        *wrote("csvcol.py", flag),
        act("finish", summary="Added --where."),
        *wrote("csvcol.py", right),
        act("finish", summary="Added --where."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task, **NO_VERSIONS)
        assert res.code == 0, res.stdout[-2000:]
    [notice] = notices(workspace)
    assert "python3 csvcol.py --where genre=poetry books.csv title" in notice.text
    assert "unrecognized arguments" in notice.text
    out = subprocess.run(
        [sys.executable, "csvcol.py", "--where", "genre=poetry", "books.csv", "title"],
        cwd=workspace, capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert out.stdout == "Ariel\n"


def test_a_command_the_task_gives_with_an_argument_it_cannot_name_is_not_run(tmp_path: Path) -> None:
    from hearth.agent.task_commands import task_commands

    for name in ("todo.py", "count.py", "data.txt"):
        (tmp_path / name).write_text("x\n")
    assert task_commands("Add `python3 todo.py done N` to remove item N", tmp_path) == []
    assert task_commands("python3 count.py --skip data.txt must print 3", tmp_path) == [
        "python3 count.py --skip data.txt < /dev/null"
    ]
    assert task_commands("python3 gone.py must still work", tmp_path) == []
    # plain arguments after a file or an option, right before what the command must print
    (tmp_path / "books.csv").write_text("title\n")
    (tmp_path / "csvcol.py").write_text("x\n")
    where = "python3 csvcol.py --where genre=poetry books.csv title must print The Waste Land and Ariel"
    assert task_commands(where, tmp_path) == [
        "python3 csvcol.py --where genre=poetry books.csv title < /dev/null"
    ]
    assert task_commands("python3 count.py data.txt COLUMN must print its values", tmp_path) == []
    assert task_commands("python3 todo.py add milk must print Added", tmp_path) == []  # no file given


def test_the_output_a_task_states_for_its_command_is_read_exactly_or_not_at_all(tmp_path: Path) -> None:
    from hearth.agent.task_commands import task_checks

    for name in ("average.py", "readings.txt", "count.py"):
        (tmp_path / name).write_text("x\n")
    task = (
        "Add --precision N to average.py: python3 average.py --precision 3 readings.txt must print "
        "3.375, and python3 average.py readings.txt must print 3.38. python3 count.py must print 3 lines."
    )
    assert task_checks(task, tmp_path) == [
        ("python3 average.py --precision 3 readings.txt < /dev/null", "3.375"),
        ("python3 average.py readings.txt < /dev/null", "3.38"),
        ("python3 count.py < /dev/null", None),  # "3 lines" says no output
    ]
    assert task_checks('python3 count.py should print "a, b" now', tmp_path)[0][1] == "a, b"
    # an option's quoted value is one word of the command
    assert task_checks("python3 count.py --sep ' | ' readings.txt must print `1 | 2`", tmp_path) == [
        ("python3 count.py --sep ' | ' readings.txt < /dev/null", "1 | 2")
    ]
    assert task_checks("Then `python3 count.py` prints `a, b`.", tmp_path)[0][1] == "a, b"
    assert task_checks("python3 count.py must print the same as before", tmp_path)[0][1] is None
    # several quoted lines: the output line by line when the task says so, else no exact output
    # (a right answer printing all three was judged against the first alone)
    lines = "python3 count.py must print `1: ERROR disk full`, `3: error` and `4: Errors: 2`"
    assert (
        task_checks(f"{lines}, one per line.", tmp_path)[0][1] == "1: ERROR disk full\n3: error\n4: Errors: 2"
    )
    assert task_checks(f"{lines}.", tmp_path)[0][1] is None
    # unquoted after "exactly", as the task spells it, when it reads as an output and not prose
    exact = 'python3 count.py --json must print exactly {"lines": 3, "words": 14}. Add a test.'
    assert task_checks(exact, tmp_path)[0] == (
        "python3 count.py --json < /dev/null",
        '{"lines": 3, "words": 14}',
    )
    assert task_checks("python3 count.py must print exactly two lines.", tmp_path)[0][1] is None


def test_a_script_printing_other_than_the_task_says_goes_back_then_ends_0_once_it_does(
    hearth: HearthCli, workspace: Path
) -> None:
    """The task states the output ("must print 3.375"): Hearth runs the command, in the sandbox,
    and a different output is evidence the work is not done, whatever the model's summary says."""
    (workspace / "readings.txt").write_text("1\n2.5\n6.625\n3.375\n")
    (workspace / "average.py").write_text("import sys\n")
    wrong = "import sys\n\nxs = [float(x) for x in open(sys.argv[1])]\nprint(f'{sum(xs) / len(xs):.2f}')\n"
    right = wrong.replace(":.2f", ":.3f")
    script = [
        *wrote("average.py", wrong),
        act("finish", summary="average.py prints the average."),
        *wrote("average.py", right),
        act("finish", summary="average.py prints the average with 3 decimals."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        task = (
            "Make average.py print the average of a file: python3 average.py readings.txt must print 3.375."
        )
        res = run(hearth, server, workspace, task, **NO_VERSIONS)
        assert res.code == 0, res.stdout[-2000:]
    [notice] = notices(workspace)
    assert "`python3 average.py readings.txt` prints `3.375`" in notice.text and "3.38" in notice.text
    assert (
        subprocess.run(
            [sys.executable, "average.py", "readings.txt"], cwd=workspace, capture_output=True, text=True
        ).stdout
        == "3.375\n"
    )


def test_in_text_mode_a_small_model_writes_a_whole_file_as_its_path_and_a_fenced_block(
    hearth: HearthCli, workspace: Path
) -> None:
    """The system prompt offers the form; the reply is parsed into a write that goes through the
    dispatcher like any call, and the finish is judged on the tests Hearth runs."""
    (workspace / "solution.py").write_text(
        'def double(x):\n    """Twice x."""\n    raise NotImplementedError\n'
    )
    (workspace / "test_solution.py").write_text(
        "from solution import double\n\n\ndef test_double():\n    assert double(2) == 4\n"
    )
    env = {"HEARTH_TOOL_MODE": "text", "HEARTH_MODEL_PROFILE": "small"}
    script = [
        ScriptedReply(
            text='solution.py\n```python\ndef double(x):\n    """Twice x."""\n    return 2 * x\n```'
        ),
        ScriptedReply(text="Implemented double. TASK_COMPLETE"),
    ]
    with ScriptedServer(script) as server:
        task = "Implement double in solution.py so that the tests in test_solution.py pass."
        res = run(hearth, server, workspace, task, **env)
        assert res.code == 0, res.stdout[-2000:]
        system = server.requests[0]["messages"][0]["content"]
    assert "path alone on a line" in system
    assert (workspace / "solution.py").read_text().endswith("    return 2 * x\n")
    checks = [
        e for e in events(workspace) if isinstance(e, ToolResult) and e.call_id.startswith("hearth-check")
    ]
    assert checks and "1 passed, 0 failed" in checks[-1].output


def test_a_rename_left_in_another_file_goes_back_naming_where_then_ends_0(
    hearth: HearthCli, workspace: Path
) -> None:
    (workspace / "settings.py").write_text("MAX_TRIES = 3\n")
    (workspace / "app.py").write_text("from settings import MAX_TRIES\n\nprint(MAX_TRIES)\n")
    script = [
        act("read", path="settings.py"),
        *wrote("settings.py", "TRY_LIMIT = 3\n"),
        act("finish", summary="Renamed MAX_TRIES to TRY_LIMIT."),
        act("read", path="app.py"),
        *wrote("app.py", "from settings import TRY_LIMIT\n\nprint(TRY_LIMIT)\n"),
        act("finish", summary="Renamed MAX_TRIES to TRY_LIMIT."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, "Rename the constant MAX_TRIES to TRY_LIMIT everywhere.")
        assert res.code == 0, res.stdout[-2000:]
        pushed_back = server.requests[4]["messages"][-1]["content"]
    assert "MAX_TRIES is still in app.py (lines 1, 3)" in pushed_back
    assert len(notices(workspace)) == 1
    assert "MAX_TRIES" not in (workspace / "app.py").read_text()


def test_a_setting_the_task_removes_still_there_goes_back_then_ends_0_once_gone(
    hearth: HearthCli, workspace: Path
) -> None:
    """The setting is the object's last key: deleting its line would leave a comma behind, so it
    is the model's to remove (a key Hearth can delete itself: agent/removals)."""
    (workspace / "config.json").write_text('{\n  "name": "shop",\n  "port": 1,\n  "legacy_pool": true\n}\n')
    kept = '{\n  "name": "shop",\n  "port": 2,\n  "legacy_pool": true\n}\n'
    fixed = '{\n  "name": "shop",\n  "port": 2\n}\n'
    script = [
        *wrote("config.json", kept),  # shown whole up front: no read needed
        act("finish", summary="Removed legacy_pool and set the port to 2."),
        *wrote("config.json", fixed),
        act("finish", summary="Removed legacy_pool and set the port to 2."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        task = "In config.json, remove the legacy_pool setting and set port to 2."
        assert run(hearth, server, workspace, task).code == 0
        pushed_back = server.requests[3]["messages"][-1]["content"]
    assert "remove legacy_pool, but it is still in config.json (line 4)" in pushed_back
    assert (workspace / "config.json").read_text() == fixed


def test_a_setting_the_task_removes_that_is_a_line_of_its_own_is_removed_by_hearth(
    hearth: HearthCli, workspace: Path
) -> None:
    (workspace / "config.json").write_text('{\n  "name": "shop",\n  "legacy_pool": true,\n  "port": 1\n}\n')
    kept = '{\n  "name": "shop",\n  "legacy_pool": true,\n  "port": 2\n}\n'
    script = [
        *wrote("config.json", kept),
        act("finish", summary="Removed legacy_pool and set the port to 2."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        task = "In config.json, remove the legacy_pool setting and set port to 2."
        assert run(hearth, server, workspace, task).code == 0
    assert (workspace / "config.json").read_text() == '{\n  "name": "shop",\n  "port": 2\n}\n'


def test_a_plain_word_the_task_removes_that_a_file_holds_as_a_line_is_removed_by_hearth(
    hearth: HearthCli, workspace: Path
) -> None:
    """ "In requirements.txt, upgrade flask, remove six, and add requests": the 1.5B upgraded and
    added, left `six==1.16.0`, and exited 0. A plain word is a name where the file holds it as an
    item of its own."""
    (workspace / "requirements.txt").write_text("# pinned\nflask==2.0.0\nsix==1.16.0\n")
    kept = "# pinned\nflask==3.0.3\nrequests==2.32.3\nsix==1.16.0\n"
    script = [*wrote("requirements.txt", kept), act("finish", summary="Updated requirements.txt.")]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        task = "In requirements.txt, upgrade flask to 3.0.3, remove six, and add requests 2.32.3."
        assert run(hearth, server, workspace, task).code == 0
    assert (workspace / "requirements.txt").read_text() == "# pinned\nflask==3.0.3\nrequests==2.32.3\n"
    said = [e.text for e in events(workspace) if isinstance(e, Notice)]
    assert any(t.startswith("The task asks to remove `six`, and it was still there") for t in said), said


def test_a_native_mode_reply_that_is_only_a_call_written_as_text_is_run_not_taken_as_the_answer(
    hearth: HearthCli, workspace: Path
) -> None:
    """In native mode the 1.5B wrote its whole write as a fenced JSON call, the file's text in
    triple quotes; taken for its final answer, it ended the run 0 with nothing changed."""
    (workspace / "requirements.txt").write_text("click==8.1.7\nsix==1.16.0\n")
    text = (
        '```json\n{\n  "name": "write",\n  "arguments": {\n    "path": "requirements.txt",\n'
        '    "content": """\nclick==8.1.7\nrequests==2.32.3\n"""\n  }\n}\n```'
    )
    done = ScriptedReply(text="Updated requirements.txt. TASK_COMPLETE")
    script = [ScriptedReply(text=text), done, done]  # the second finish: after the checklist
    with ScriptedServer(script, model=SMALL) as server:
        task = "In requirements.txt, remove six and add requests 2.32.3."
        res = run(hearth, server, workspace, task, HEARTH_TOOL_MODE="native")
        assert res.code == 0, res.stdout[-2000:]
    assert (workspace / "requirements.txt").read_text() == "\nclick==8.1.7\nrequests==2.32.3\n"


def test_an_answer_in_prose_to_a_task_asking_a_new_file_is_not_done(
    hearth: HearthCli, workspace: Path
) -> None:
    """In native mode the 1.5B answered "Write decades.py: ..." with the script in prose and no
    call, and the run ended 0 with nothing written: "write" was not read as asking a change."""
    (workspace / "books.csv").write_text("title,year\nDune,1965\n")
    prose = "Write `decades.py` like this:\n\n```python\nimport csv\nprint('1960s: Dune')\n```"
    task = "Write decades.py: python3 decades.py FILE reads a CSV like books.csv and prints `1960s: Dune`."
    with ScriptedServer([ScriptedReply(text=prose)] * 4, model=SMALL) as server:
        res = run(hearth, server, workspace, task, HEARTH_TOOL_MODE="native")
    assert res.code == 2, res.stdout[-2000:]
    said = [e.text for e in events(workspace) if isinstance(e, Notice)]
    assert any("the task asks for a change, and nothing was changed" in t for t in said), said
    assert not (workspace / "decades.py").exists()


def test_a_script_the_task_runs_with_a_placeholder_goes_back_until_it_was_run_then_ends_0(
    hearth: HearthCli, workspace: Path
) -> None:
    (workspace / "data.txt").write_text("a\nb\nc\n")
    script = [
        *wrote("count.py", "import sys\n\nprint(len(open(sys.argv[1]).read().splitlines()))\n"),
        act("finish", summary="Wrote count.py."),
        act("shell", command="python3 count.py data.txt"),
        act("finish", summary="Wrote count.py; it prints 3 for data.txt."),
    ]
    task = "Write count.py: python3 count.py FILE prints how many lines FILE has. Try it on data.txt."
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task)
        assert res.code == 0, res.stdout[-2000:]
    [notice] = notices(workspace)
    assert (
        "the task runs count.py (`python3 count.py FILE`), and you changed it without running it"
        in notice.text
    )


def test_a_script_the_task_says_prints_that_printed_nothing_goes_back(
    hearth: HearthCli, workspace: Path
) -> None:
    (workspace / "data.txt").write_text("a\nb\nc\n")
    silent = "import sys\n\n\ndef main():\n    print(len(open(sys.argv[1]).read().splitlines()))\n"
    script = [
        *wrote("count.py", silent),
        act("shell", command="python3 count.py data.txt"),
        act("finish", summary="Wrote count.py."),
        *wrote("count.py", silent + "\n\nmain()\n"),
        act("shell", command="python3 count.py data.txt"),
        act("finish", summary="Wrote count.py; it prints 3 for data.txt."),
    ]
    task = "Write count.py: python3 count.py FILE prints how many lines FILE has. Try it on data.txt."
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task)
        assert res.code == 0, res.stdout[-2000:]
    [notice] = notices(workspace)
    assert "your last run of it (`python3 count.py FILE`) printed nothing" in notice.text
    # the 1.5B told "is its main code ever called?" wrote the same text again: the lines it lacks
    assert "nothing calls main" in notice.text
    assert 'if __name__ == "__main__":\n    main()\n' in notice.text


def test_a_finish_over_a_secret_file_the_task_names_ends_blocked_saying_how_to_allow_it(
    hearth: HearthCli, workspace: Path
) -> None:
    """A task about `app.env` (a secret by name): the read is refused, and a finish is not done
    (it exited 0 with nothing changed); the turn ends blocked, telling the person how to allow it,
    and with that allow rule the same file is read and changed."""
    (workspace / "app.env").write_text("DEBUG=true\nAPI_KEY=abc123\n")
    task = "In app.env, set DEBUG to false."
    script = [act("read", path="app.env"), act("finish", summary="Done; app.env was not read.")]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task)
    assert res.code == 3, res.stdout[-2000:]
    assert "HEARTH_ALLOW='read(app.env),edit(app.env),write(app.env)'" in finished(workspace).final_text
    assert (workspace / "app.env").read_text() == "DEBUG=true\nAPI_KEY=abc123\n"
    allowed = [
        act("read", path="app.env"),
        act("edit", path="app.env", old="DEBUG=true", new="DEBUG=false", replace_all=False),
        act("finish", summary="DEBUG is false."),
    ]
    with ScriptedServer(allowed, model=SMALL, formats=(JSON_OBJECT,)) as server:
        again = run(
            hearth, server, workspace, task, HEARTH_ALLOW="read(app.env),edit(app.env),write(app.env)"
        )
    assert again.code == 0, again.stdout[-2000:]
    assert (workspace / "app.env").read_text() == "DEBUG=false\nAPI_KEY=abc123\n"


def test_a_finish_over_a_control_file_change_no_one_could_approve_ends_blocked_saying_how(
    hearth: HearthCli, workspace: Path
) -> None:
    """A task about `.vscode/settings.json` (VS Code applies it on opening: a control file), run
    with no one to ask: the write is refused, and the 1.5B wrote it again and again until the loop
    guard stopped the run (exit 2). The turn ends blocked at its finish, telling the person how to
    allow it; with that allow rule the same write goes through."""
    settings = workspace / ".vscode" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{\n  "editor.formatOnSave": false\n}\n')
    task = "In .vscode/settings.json, turn editor.formatOnSave on."
    on = '{\n  "editor.formatOnSave": true\n}\n'
    script = [*wrote(".vscode/settings.json", on), act("finish", summary="The task cannot be done.")]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task)
    assert res.code == 3, res.stdout[-2000:]
    said = finished(workspace).final_text
    assert "Changing .vscode/settings.json needs your approval" in said and "VS Code" in said
    assert "HEARTH_ALLOW='edit(.vscode/settings.json),write(.vscode/settings.json)'" in said
    assert settings.read_text() == '{\n  "editor.formatOnSave": false\n}\n'
    allowed = [
        act("read", path=".vscode/settings.json"),
        *wrote(".vscode/settings.json", on),
        act("finish", summary="formatOnSave is on."),
    ]
    with ScriptedServer(allowed, model=SMALL, formats=(JSON_OBJECT,)) as server:
        again = run(
            hearth,
            server,
            workspace,
            task,
            HEARTH_ALLOW="edit(.vscode/settings.json),write(.vscode/settings.json)",
        )
    assert again.code == 0, again.stdout[-2000:]
    assert settings.read_text() == on


@pytest.mark.parametrize("mode", ["grammar", "text"])
def test_writing_a_refused_control_file_again_and_again_ends_blocked_saying_how(
    hearth: HearthCli, workspace: Path, mode: str
) -> None:
    """Text mode's 1.5B never finished: it wrote the refused `.vscode/settings.json` again until
    the loop guard stopped the run (exit 2). Circling over a change only a person can approve
    ends blocked (exit 3), saying how to allow it, in every action mode."""
    settings = workspace / ".vscode" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{\n  "editor.formatOnSave": false\n}\n')
    on = '{\n  "editor.formatOnSave": true\n}\n'
    if mode == "grammar":
        script = [*wrote(".vscode/settings.json", on)] * 6
    else:
        call = {"name": "write", "arguments": {"path": ".vscode/settings.json", "content": on}}
        script = [ScriptedReply(text=f"```json\n{json.dumps(call)}\n```")] * 6
    task = "In .vscode/settings.json, turn editor.formatOnSave on."
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task, HEARTH_TOOL_MODE=mode)
    assert res.code == 3, res.stdout[-2000:]
    said = finished(workspace).final_text
    assert "HEARTH_ALLOW='edit(.vscode/settings.json),write(.vscode/settings.json)'" in said
    assert settings.read_text() == '{\n  "editor.formatOnSave": false\n}\n'


JOIN = (
    "import argparse\n\n\ndef main():\n    parser = argparse.ArgumentParser()\n"
    "    parser.add_argument('file')\n    args = parser.parse_args()\n"
    "    with open(args.file) as fh:\n        print(', '.join(line.strip() for line in fh if line.strip()))\n\n\n"
    "main()\n"
)


def test_the_tasks_command_refused_by_argparse_goes_back(hearth: HearthCli, workspace: Path) -> None:
    """The 1.5B wrote the script back without the option and finished; the task's own command
    then failed with argparse's usage error, which is no traceback and states no output."""
    (workspace / "joinlines.py").write_text(JOIN)
    (workspace / "colours.txt").write_text("red\ngreen\nblue\n")
    with_sep = JOIN.replace(
        "    args = parser", "    parser.add_argument('--sep', default=', ')\n    args = parser"
    )
    with_sep = with_sep.replace("print(', '.join(", "print(args.sep.join(")
    task = (
        "Add a --sep TEXT option to joinlines.py that sets what goes between the lines: "
        "python3 joinlines.py --sep ' | ' colours.txt must print red | green | blue."
    )
    script = [
        *wrote("joinlines.py", "# joins lines\n" + JOIN),
        act("finish", summary="Added --sep."),
        *wrote("joinlines.py", with_sep),
        act("finish", summary="Added --sep."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        # the versions Hearth asks for over the failing command (agent/versions) do not parse,
        # so none is tried and the failure goes back to the model
        server.routes["Reply with the complete joinlines.py"] = [
            ScriptedReply(text="```python\ndef main(:\n```")
        ] * COUNT
        res = run(hearth, server, workspace, task)
        assert res.code == 0, res.stdout[-2000:]
    [notice] = notices(workspace)
    assert "fails after your last change" in notice.text and "unrecognized arguments: --sep" in notice.text


def test_a_name_the_task_says_to_add_that_no_file_has_goes_back(hearth: HearthCli, workspace: Path) -> None:
    """The 1.5B rewrote tox.ini with every change but `py312` and finished (exit 0); no check in
    the workspace covers an ini file, but the task's own words name what must be there."""
    tox = "[tox]\nenvlist = py310, py311, lint\n\n[testenv]\ndeps = pytest\n"
    (workspace / "tox.ini").write_text(tox)
    task = "In tox.ini, add py312 to the envlist right after py311, and change deps to pytest-xdist."
    partial = tox.replace("pytest", "pytest-xdist")
    script = [
        act("read", path="tox.ini"),
        *wrote("tox.ini", partial),
        act("finish", summary="tox.ini is changed."),
        *wrote("tox.ini", partial.replace("py311,", "py311, py312,")),
        act("finish", summary="tox.ini is changed."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task)
        assert res.code == 0, res.stdout[-2000:]
    [notice] = notices(workspace)
    assert "the task asks to add py312, but it is in none of tox.ini" in notice.text
    assert "py311, py312, lint" in (workspace / "tox.ini").read_text()


def test_a_file_without_an_extension_the_task_names_is_where_an_added_name_must_be(
    hearth: HearthCli, workspace: Path
) -> None:
    """`ssh_config` has no extension: the task names it all the same, and the name it says to
    add is looked for there."""
    config = "# Team hosts.\nHost build\n    HostName build.example.com\n    Port 22\n"
    (workspace / "ssh_config").write_text(config)
    (workspace / "README.md").write_text("# Hosts\n\nbuild: the CI machine\n")
    task = (
        "In ssh_config, change the Port of the build host to 2222 and add IdentityFile ~/.ssh/build_key "
        "to it. README.md says what each host is for."
    )
    partial = config.replace("22\n", "2222\n")
    script = [
        act("read", path="ssh_config"),
        *wrote("ssh_config", partial),
        act("finish", summary="Changed the port and added the key."),
        *wrote("ssh_config", partial + "    IdentityFile ~/.ssh/build_key\n"),
        act("finish", summary="Changed the port and added the key."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task)
        assert res.code == 0, res.stdout[-2000:]
    [notice] = notices(workspace)
    assert "the task asks to add IdentityFile, but it is in none of README.md, ssh_config" in notice.text


def test_a_report_printing_lines_of_another_form_than_the_task_shows_goes_back(
    hearth: HearthCli, workspace: Path
) -> None:
    """The 1.5B's report printed `Walden (271 days late)` where the task shows `Dune (mia): 14 days
    late`, and finished (exit 0): no exact output is stated, but the line's form is."""
    (workspace / "loans.csv").write_text("title,borrower,due\nDune,mia,2026-03-01\nWalden,lee,2026-02-15\n")
    task = (
        "Write overdue.py: python3 overdue.py FILE DATE reads a CSV like loans.csv and prints "
        "`Dune (mia): 14 days late` for each book due before DATE."
    )
    body = (
        "import csv, sys\nfrom datetime import date\n\nday = date.fromisoformat(sys.argv[2])\n"
        "for row in csv.DictReader(open(sys.argv[1])):\n"
        "    late = (day - date.fromisoformat(row['due'])).days\n"
    )
    wrong = body + "    print(f\"{row['title']} ({late} days late)\")\n"
    right = body + "    print(f\"{row['title']} ({row['borrower']}): {late} days late\")\n"
    script = [
        *wrote("overdue.py", wrong),
        act("shell", command="python3 overdue.py loans.csv 2026-03-15"),
        act("finish", summary="Wrote overdue.py."),
        *wrote("overdue.py", right),
        act("shell", command="python3 overdue.py loans.csv 2026-03-15"),
        act("finish", summary="Wrote overdue.py."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task)
        assert res.code == 0, res.stdout[-2000:]
    [notice] = notices(workspace)
    assert "lines of overdue.py's output like `Dune (mia): 14 days late`" in notice.text
    assert "Dune (14 days late)" in notice.text  # what it printed


def test_a_command_hearth_runs_itself_is_judged_by_the_form_the_task_shows(
    hearth: HearthCli, workspace: Path
) -> None:
    """The task's command names its input, so Hearth runs it; its lines must have the form shown."""
    (workspace / "hours.csv").write_text("name,hours\nana,7.5\nben,4\n")
    task = "Write hours.py: python3 hours.py hours.csv prints one line per person in the form `ana: 7.5 h`."
    body = "import csv\nimport sys\n\nfor row in csv.DictReader(open(sys.argv[1])):\n"
    wrong = body + "    print(row['name'], row['hours'])\n"
    right = body + "    print(f\"{row['name']}: {float(row['hours'])} h\")\n"
    script = [
        *wrote("hours.py", wrong),
        act("finish", summary="Wrote hours.py."),
        *wrote("hours.py", right),
        act("finish", summary="Wrote hours.py."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task, HEARTH_VERSIONS="0")
        assert res.code == 0, res.stdout[-2000:]
    [notice] = notices(workspace)
    assert "like `ana: 7.5 h`" in notice.text and "ana 7.5" in notice.text


def test_a_count_of_one_in_the_plural_and_a_stray_none_line_go_back(
    hearth: HearthCli, workspace: Path
) -> None:
    """The 1.5B's species.py printed `fish: 1 pets, ...` where the task shows `1 pet` for one,
    and a last line `None` (it printed what its function returned, nothing), and was kept."""
    (workspace / "pets.csv").write_text("Mia,cat,11\nRex,dog,7\nTom,cat,3\nBubbles,fish,1\n")
    task = (
        "Write species.py: python3 species.py pets.csv prints one line per species, sorted by "
        "species, like `cat: 2 pets, oldest Mia (11)` (`1 pet` for one)."
    )
    body = (
        "import sys\n\n\ndef main(path):\n    pets = {}\n    for line in open(path):\n"
        "        name, kind, age = line.strip().split(',')\n"
        "        pets.setdefault(kind, []).append((int(age), name))\n"
        "    for kind in sorted(pets):\n        age, name = max(pets[kind])\n"
    )
    plural = "        print(f'{kind}: {len(pets[kind])} pets, oldest {name} ({age})')\n"
    singular = (
        "        word = 'pet' if len(pets[kind]) == 1 else 'pets'\n"
        "        print(f'{kind}: {len(pets[kind])} {word}, oldest {name} ({age})')\n"
    )
    stray = "\n\nprint(main(sys.argv[1]))\n"
    right = "\n\nmain(sys.argv[1])\n"
    script = [
        *wrote("species.py", body + plural + stray),
        act("finish", summary="Wrote species.py."),
        *wrote("species.py", body + singular + stray),
        act("finish", summary="Wrote species.py."),
        *wrote("species.py", body + singular + right),
        act("finish", summary="Wrote species.py."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task, HEARTH_VERSIONS="0")
        assert res.code == 0, res.stdout[-2000:]
    first, second = notices(workspace)
    assert (
        "the task says `1 pet` for one" in first.text
        and "printed `dog: 1 pets, oldest Rex (7)`" in first.text
    )
    assert "printed the line `None`" in second.text


def test_a_config_section_a_write_left_out_that_the_task_never_named_goes_back(
    hearth: HearthCli, workspace: Path
) -> None:
    """Told to delete the old-mirror host, the 1.5B deleted the db host too and finished (exit 0)."""
    config = "Host build\n    Port 22\n\nHost old-mirror\n    User sync\n\nHost db\n    User postgres\n"
    (workspace / "ssh_config").write_text(config)
    task = "In ssh_config, delete the old-mirror host. Keep everything else as it is."
    script = [
        act("read", path="ssh_config"),
        *wrote("ssh_config", "Host build\n    Port 22\n"),
        act("finish", summary="Deleted the old-mirror host."),
        *wrote("ssh_config", "Host build\n    Port 22\n\nHost db\n    User postgres\n"),
        act("finish", summary="Deleted the old-mirror host."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task)
        assert res.code == 0, res.stdout[-2000:]
    [notice] = notices(workspace)
    assert (
        "ssh_config no longer has this section" in notice.text and "Host db\n    User postgres" in notice.text
    )


TSCONFIG = (
    '{\n  "compilerOptions": {\n    "target": "ES2017",\n    "outDir": "dist",\n'
    '    "sourceMap": true\n  },\n  "exclude": ["node_modules"]\n}\n'
)


def test_a_json_key_a_write_left_out_that_the_task_never_named_goes_back(
    hearth: HearthCli, workspace: Path
) -> None:
    """Asked for other changes to tsconfig.json, the 1.5B wrote it whole without `sourceMap` and
    finished (exit 0)."""
    (workspace / "tsconfig.json").write_text(TSCONFIG)
    task = "In tsconfig.json, make the target ES2022. Keep everything else as it is."
    lost = '{\n  "compilerOptions": {\n    "target": "ES2022",\n    "outDir": "dist"\n  },\n  "exclude": ["node_modules"]\n}\n'
    right = TSCONFIG.replace("ES2017", "ES2022")
    script = [
        act("read", path="tsconfig.json"),
        *wrote("tsconfig.json", lost),
        act("finish", summary="Made the target ES2022."),
        *wrote("tsconfig.json", right),
        act("finish", summary="Made the target ES2022."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task)
        assert res.code == 0, res.stdout[-2000:]
    [notice] = notices(workspace)
    assert "tsconfig.json no longer has `compilerOptions.sourceMap` (it was `true`)" in notice.text
    assert json.loads((workspace / "tsconfig.json").read_text())["compilerOptions"]["sourceMap"] is True


def test_an_item_the_task_adds_to_a_list_that_the_list_lacks_goes_back(
    hearth: HearthCli, workspace: Path
) -> None:
    """ "add dist to the exclude list": the word `dist` stood in the file already (`outDir`), so
    only the list itself says whether it was added."""
    (workspace / "tsconfig.json").write_text(TSCONFIG)
    task = "In tsconfig.json, add dist to the exclude list after node_modules."
    wrong = TSCONFIG.replace(
        '"exclude": ["node_modules"]', '"exclude": ["node_modules"],\n  "include": ["dist"]'
    )
    right = TSCONFIG.replace('["node_modules"]', '["node_modules", "dist"]')
    script = [
        *wrote("tsconfig.json", wrong),
        act("finish", summary="Added dist to the exclude list."),
        *wrote("tsconfig.json", right),
        act("finish", summary="Added dist to the exclude list."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task)
        assert res.code == 0, res.stdout[-2000:]
    [notice] = notices(workspace)
    assert 'the `exclude` list in tsconfig.json does not hold it: it is `["node_modules"]`' in notice.text
    assert json.loads((workspace / "tsconfig.json").read_text())["exclude"] == ["node_modules", "dist"]


CHANGELOG = (
    "# Changelog\n\n## [Unreleased]\n\n### Added\n- Export the list as CSV.\n- A dark theme.\n\n"
    "## [1.3.2] - 2026-09-14\n\n### Fixed\n- No crash on an empty list.\n"
)


def test_a_section_written_anew_and_left_where_it_was_too_goes_back(
    hearth: HearthCli, workspace: Path
) -> None:
    """Releasing Unreleased, the 1.5B wrote the new heading with a copy of the section under it
    and left the entries under Unreleased too, and finished (exit 0)."""
    (workspace / "CHANGELOG.md").write_text(CHANGELOG)
    task = (
        "In CHANGELOG.md, release what is under Unreleased as version 1.4.0: its heading becomes "
        "`## [1.4.0] - 2026-11-20` and a new empty `## [Unreleased]` section goes above it."
    )
    added = "### Added\n- Export the list as CSV.\n- A dark theme.\n\n"
    twice = CHANGELOG.replace("## [1.3.2]", "## [1.4.0] - 2026-11-20\n\n" + added + "## [1.3.2]")
    right = CHANGELOG.replace("## [Unreleased]\n", "## [Unreleased]\n\n## [1.4.0] - 2026-11-20\n")
    script = [
        *wrote("CHANGELOG.md", twice),
        act("finish", summary="Released 1.4.0."),
        *wrote("CHANGELOG.md", right),
        act("finish", summary="Released 1.4.0."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task)
        assert res.code == 0, res.stdout[-2000:]
    [notice] = notices(workspace)
    assert "CHANGELOG.md now has these lines twice" in notice.text
    assert "- Export the list as CSV.\n- A dark theme." in notice.text
    assert (workspace / "CHANGELOG.md").read_text() == right


def test_a_copy_the_task_asks_for_is_no_problem(hearth: HearthCli, workspace: Path) -> None:
    (workspace / "hosts.txt").write_text(
        "alpha.example.org 10.0.0.1\nbeta.example.org 10.0.0.2\nrouter 10.0.0.254\n"
    )
    task = "In hosts.txt, copy the three lines below them once more as a backup block."
    copy = (workspace / "hosts.txt").read_text()
    script = [*wrote("hosts.txt", copy + "\n" + copy), act("finish", summary="Copied the block.")]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task)
        assert res.code == 0, res.stdout[-2000:]
    assert notices(workspace) == []


def test_a_file_shown_with_the_first_task_counts_as_read_after_a_resume(
    hearth: HearthCli, workspace: Path
) -> None:
    """The files a task names are shown whole with it and count as read; a session resumed in
    a new process knows them too (it had refused the rewrite of a file the model was shown)."""
    (workspace / "notes.txt").write_text("hi\n")
    with ScriptedServer(
        [act("finish", summary="notes.txt says hi.")], model=SMALL, formats=(JSON_OBJECT,)
    ) as server:
        first = run(hearth, server, workspace, "What does notes.txt say?")
    assert first.code == 0, first.stdout[-2000:]
    sid = first.json_lines()[0]["session"]
    script = [*wrote("notes.txt", "hello\n"), act("finish", summary="notes.txt says hello.")]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        again = hearth(
            "run", "Now make it say hello.", "--resume", sid, "-w", str(workspace), "--json",
            "--permission", "auto", env={"HEARTH_LLM_URL": server.url, "HEARTH_RETRIES": "0"},
        )  # fmt: skip
    assert again.code == 0, again.stdout[-2000:]
    writes = [e for e in events(workspace) if isinstance(e, ToolResult) and e.name == "write"]
    assert [w.ok for w in writes] == [True], writes[-1].output
    assert (workspace / "notes.txt").read_text() == "hello\n"


HOSTS = "# web\n[web]\nport = 8080\n# cache\n[cache]\nexpire = 30\n# old mirror\n[mirror]\nurl = http://old\n"
HOSTS_TASK = (
    "In hosts.ini, change the web port to 8081, make the cache expire after 60 seconds, delete the "
    "mirror section together with its comment, and add a section [backup] with dir = /srv."
)
HOSTS_DONE = "# web\n[web]\nport = 8081\n# cache\n[cache]\nexpire = 60\n[backup]\ndir = /srv\n"


def checklists(ws: Path) -> list[Notice]:
    return [e for e in events(ws) if isinstance(e, Notice) and e.reason == "finish_checklist"]


def test_a_task_asking_several_changes_gets_them_listed_at_the_first_finish(
    hearth: HearthCli, workspace: Path
) -> None:
    """Held-out run: asked for four changes to a crontab in one sentence, the 1.5B made the last
    and finished (exit 0). Its first finish is shown the list with the file as it is now."""
    (workspace / "hosts.ini").write_text(HOSTS)
    partial = HOSTS + "[backup]\ndir = /srv\n"
    script = [
        act("read", path="hosts.ini"),
        *wrote("hosts.ini", partial),
        act("finish", summary="Added the backup section."),
        *wrote("hosts.ini", HOSTS_DONE),
        act("finish", summary="Made the four changes."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, HOSTS_TASK)
    assert res.code == 0, res.stdout[-2000:]
    [notice] = checklists(workspace)
    assert "The task asks for 4 changes:\n1. change the web port to 8081\n" in notice.text
    assert "4. add a section [backup] with dir = /srv" in notice.text
    assert "hosts.ini:\n```\n# web\n[web]\nport = 8080" in notice.text  # the file as the model left it
    assert notices(workspace) == []  # not a finish contradicted: no round spent
    assert (workspace / "hosts.ini").read_text() == HOSTS_DONE


def test_a_second_finish_after_the_list_is_taken_as_it_is(hearth: HearthCli, workspace: Path) -> None:
    (workspace / "hosts.ini").write_text(HOSTS)
    script = [
        act("read", path="hosts.ini"),
        *wrote("hosts.ini", HOSTS_DONE),
        act("finish", summary="Made the four changes."),
        act("finish", summary="Made the four changes."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, HOSTS_TASK)
    assert res.code == 0, res.stdout[-2000:]
    assert len(checklists(workspace)) == 1
    assert finished(workspace).final_text == "Made the four changes."


def test_a_finish_over_a_function_left_ignoring_its_parameter_goes_back(
    hearth: HearthCli, workspace: Path
) -> None:
    """Held-out run: asked to move a repeated loop into read_records(path), the 1.5B called it
    with a fixed file name inside load_users(path) and finished; it ended 0 over broken work."""
    loader = "def load_users(path):\n    return [line.split(':') for line in open(path)]\n"
    (workspace / "accounts.py").write_text(loader)
    helper = "def read_records(path):\n    return [line.split(':') for line in open(path)]\n\n\n"
    fixed_name = helper + "def load_users(path):\n    return read_records('users.txt')\n"
    right = helper + "def load_users(path):\n    return read_records(path)\n"
    task = "Move the loop of load_users in accounts.py into a function read_records(path) and use it."
    script = [
        *wrote("accounts.py", fixed_name),
        act("finish", summary="Done."),
        *wrote("accounts.py", right),
        act("finish", summary="Done."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task)
    assert res.code == 0, res.stdout[-2000:]
    [notice] = notices(workspace)
    assert "load_users() ignores its parameter `path`" in notice.text
    assert (workspace / "accounts.py").read_text() == right


def test_a_script_run_on_the_tasks_example_that_prints_nothing_goes_back(
    hearth: HearthCli, workspace: Path
) -> None:
    """Held-out run: "python3 monthly.py FILE reads a CSV like expenses.csv and prints ...": the
    1.5B's script defined its function and never called it; Hearth ran it on expenses.csv, saw
    nothing printed, and the run ended 0."""
    (workspace / "prices.csv").write_text("item,price\ntea,3\ncake,4\n")
    uncalled = (
        "import csv, sys\n\n\ndef total(path):\n"
        "    print(f\"total: {sum(int(r['price']) for r in csv.DictReader(open(path)))}\")\n"
    )
    called = uncalled + "\n\nif __name__ == '__main__':\n    total(sys.argv[1])\n"
    task = "Write total.py: python3 total.py FILE reads a CSV like prices.csv and prints `total: N`."
    script = [
        *wrote("total.py", uncalled),
        act("finish", summary="Wrote total.py."),
        *wrote("total.py", called),
        act("finish", summary="Wrote total.py."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        # the versions asked over the silent run (agent/versions) bring the same text back
        server.routes["Reply with the complete total.py"] = [
            ScriptedReply(text=f"```python\n{uncalled}```")
        ] * COUNT
        res = run(hearth, server, workspace, task)
        assert res.code == 0, res.stdout[-2000:]
    [notice] = notices(workspace)
    assert "if __name__ ==" in notice.text and "total(" in notice.text


def test_a_command_that_must_print_what_it_prints_now_is_compared_with_its_output_before(
    hearth: HearthCli, workspace: Path
) -> None:
    """Moving a computation into a function, the 1.5B dropped a column's width from the printed
    line and finished (exit 0). Hearth runs the command before any change, shows what it prints,
    and the finish goes back while the output differs."""
    (workspace / "shipping.py").write_text(SHIPPING)
    task = (
        "Move the price rule of main() in shipping.py into a function price(grams), make main() use "
        "it, and keep python3 shipping.py printing exactly what it prints now."
    )
    moved = (
        "PARCELS = [('Ada', 400), ('Bram', 2000)]\n\n\ndef price(grams):\n"
        "    return 350 if grams <= 500 else 500\n\n\n"
        "def main():\n    for name, grams in PARCELS:\n        print(f'{name:<6}{price(grams) / 100:WIDTH.2f}')\n\n\nmain()\n"
    )
    script = [
        *wrote("shipping.py", moved.replace("WIDTH", "")),
        act("shell", command="python3 shipping.py"),
        act("finish", summary="Moved the rule into price()."),
        *wrote("shipping.py", moved.replace("WIDTH", ">7")),
        act("shell", command="python3 shipping.py"),
        act("finish", summary="Moved the rule into price()."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task, **NO_VERSIONS)
        first = json.dumps(server.requests[0]["messages"])
    assert res.code == 0, res.stdout[-2000:]
    assert "Ada      3.50" in first and "prints now" in first  # shown with the task
    [notice] = notices(workspace)
    assert "Ada      3.50" in notice.text and "Ada   3.50" in notice.text
    assert "{price(grams) / 100:>7.2f}" in (workspace / "shipping.py").read_text()


EXPORT = (
    "import csv\nimport json\nimport sys\n\n\ndef export(src, dst):\n"
    "    with open(src) as f, open(dst, 'w', newline='') as out:\n"
    "        w = csv.writer(out)\n        w.writerow(['name', 'email'])\n"
    "        for c in json.load(f):\n            w.writerow([c['name'], c['email']])\n"
)
EXPORT_TASK = (
    "Write export.py: python3 export.py contacts.json contacts.csv writes the contacts as a CSV file "
    "with the header name,email."
)


def test_the_file_a_task_command_writes_is_the_scripts_to_write_not_the_models(
    hearth: HearthCli, workspace: Path
) -> None:
    """The 1.5B's export.py defined its function and never called it; told contacts.csv was
    missing, the model wrote contacts.csv itself and finished with exit 0. The file is the
    command's output: a write of it is refused, naming the command, and the finish goes back."""
    (workspace / "contacts.json").write_text('[{"name": "Ada", "email": "ada@x.example"}]\n')
    script = [
        *wrote("export.py", EXPORT),
        act("shell", command="python3 export.py contacts.json contacts.csv"),
        act("finish", summary="contacts.csv has been created."),
        act("write", path="contacts.csv"),  # refused whatever its text: none is asked for
        *wrote("export.py", EXPORT + "\n\nexport(sys.argv[1], sys.argv[2])\n"),
        act("finish", summary="contacts.csv has been created."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, EXPORT_TASK, **NO_VERSIONS)
    assert res.code == 0, res.stdout[-2000:]
    [missing] = notices(workspace)
    assert "`python3 export.py contacts.json contacts.csv` writes contacts.csv" in missing.text
    assert "did not write contacts.csv" in missing.text
    refused = [e for e in events(workspace) if isinstance(e, ToolResult) and not e.ok]
    assert refused and "contacts.csv is what the task's command" in refused[0].output
    # the script wrote it when Hearth ran the command at the finish
    assert (workspace / "contacts.csv").read_text().splitlines() == ["name,email", "Ada,ada@x.example"]


def test_a_command_that_leaves_an_old_output_file_as_it_was_goes_back(
    hearth: HearthCli, workspace: Path
) -> None:
    """An output file already there is no evidence: the command must write it when run."""
    (workspace / "contacts.json").write_text('[{"name": "Ada", "email": "ada@x.example"}]\n')
    (workspace / "contacts.csv").write_text("name,email\n")
    script = [
        *wrote("export.py", EXPORT),
        act("finish", summary="Wrote export.py."),
        act("finish", summary="Wrote export.py."),
        act("finish", summary="Wrote export.py."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, EXPORT_TASK, **NO_VERSIONS)
    assert res.code == 2, res.stdout[-2000:]
    texts = [n.text for n in notices(workspace)]
    assert any("did not write contacts.csv" in t for t in texts), texts
    assert (workspace / "contacts.csv").read_text() == "name,email\n"


def test_an_old_name_the_task_keeps_as_a_wrapper_must_still_be_defined(
    hearth: HearthCli, workspace: Path
) -> None:
    """The 1.5B renamed fetch_rate to get_rate, left the wrapper the task asks out, and finished
    (exit 0): the old name the task keeps goes back until a file it names defines it."""
    (workspace / "rates.py").write_text(RATES.replace("{name}", "fetch_rate"))
    (workspace / "report.py").write_text("from rates import fetch_rate\n\nprint(fetch_rate('USD'))\n")
    task = (
        "Rename the function fetch_rate in rates.py to get_rate, and use the new name in rates.py and "
        "report.py. Keep fetch_rate working for old code as a wrapper that calls get_rate."
    )
    renamed = RATES.replace("{name}", "get_rate")
    script = [
        *wrote("rates.py", renamed),
        *wrote("report.py", "from rates import get_rate\n\nprint(get_rate('USD'))\n"),
        act("finish", summary="Renamed fetch_rate to get_rate."),
        *wrote("rates.py", renamed + WRAPPER),
        act("finish", summary="Renamed fetch_rate to get_rate and kept a wrapper."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task, **NO_VERSIONS)
        assert res.code == 0, res.stdout[-2000:]
    [notice] = notices(workspace)
    assert "the task keeps fetch_rate beside get_rate" in notice.text and "rates.py" in notice.text
    assert "def fetch_rate" in (workspace / "rates.py").read_text()


def test_a_script_that_never_reads_the_arguments_the_task_gives_it_goes_back(
    hearth: HearthCli, workspace: Path
) -> None:
    """The 1.5B's export.py ended `export(sys.argv...)`-less, with the example's names written in:
    `export('contacts.json', 'contacts.csv')`. Hearth's run of the command wrote the file, and any
    other file given got nothing: a script the task runs with arguments must read them."""
    (workspace / "contacts.json").write_text('[{"name": "Ada", "email": "ada@x.example"}]\n')
    script = [
        *wrote("export.py", EXPORT + "\n\nexport('contacts.json', 'contacts.csv')\n"),
        act("finish", summary="Wrote export.py."),
        *wrote("export.py", EXPORT + "\n\nexport(sys.argv[1], sys.argv[2])\n"),
        act("finish", summary="Wrote export.py."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, EXPORT_TASK, **NO_VERSIONS)
    assert res.code == 0, res.stdout[-2000:]
    [notice] = notices(workspace)
    assert "export.py never reads its arguments (contacts.json contacts.csv)" in notice.text
    assert (workspace / "contacts.csv").read_text().splitlines() == ["name,email", "Ada,ada@x.example"]


UNITS = (
    "import sys\n\namount, unit = float(sys.argv[1]), sys.argv[2]\n"
    "if unit == 'km':\n    print(f'{amount:g} km = {amount * 1.609344:.2f} miles')\n"
)


def test_a_command_the_task_says_is_wrong_that_prints_the_same_as_before_goes_back(
    hearth: HearthCli, workspace: Path
) -> None:
    """Told to "fix the bug that makes python3 units.py 10 km give the wrong number of miles",
    the 1.5B changed nothing that mattered and finished. Hearth ran the command before any change
    (the model is shown what it prints) and at the finish: the same output goes back."""
    (workspace / "units.py").write_text(UNITS)
    task = "Please fix the bug that makes python3 units.py 10 km give the wrong number of miles."
    script = [
        *wrote("units.py", "# km and miles\n" + UNITS),
        act("finish", summary="Fixed the conversion."),
        *wrote("units.py", UNITS.replace("amount * 1.609344", "amount / 1.609344")),
        act("shell", command="python3 units.py 10 km"),
        act("finish", summary="Fixed the conversion."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task, **NO_VERSIONS)
        first = server.requests[0]["messages"][-1]["content"]
    assert res.code == 0, res.stdout[-2000:]
    assert "10 km = 16.09 miles" in first  # what it prints now, shown with the task
    [notice] = notices(workspace)
    assert "still prints exactly what it printed before any change" in notice.text
    assert "10 km = 16.09 miles" in notice.text
    assert "/ 1.609344" in (workspace / "units.py").read_text()


PUBLISH = '''"""python3 publish.py --out DIR [--out-format html|txt] PAGE..."""
import argparse

parser = argparse.ArgumentParser()
parser.add_argument("--out", required=True)
parser.add_argument("--out-format", default="html")
parser.add_argument("pages", nargs="+")
args = parser.parse_args()
for page in args.pages:
    print(f"{page} -> {args.out}/{page}.{args.out_format}")
'''
OPTION_TASK = "Rename the --out option of publish.py to --dest. The other options keep their names."


def _publish(ws: Path, *args: str) -> str:
    run_it = [sys.executable, "publish.py", *args]
    return subprocess.run(run_it, cwd=ws, capture_output=True, text=True, check=False).stdout


def test_a_whole_file_write_renaming_a_look_alike_option_too_is_written_as_the_rename_alone(
    hearth: HearthCli, workspace: Path
) -> None:
    """Asked to rename `--out` to `--dest`, the 1.5B rewrote the script with `--out-format` as
    `--dest-format` too, and finished: exit 0 over a script whose other option was gone. An
    option is a name to rename like any other: the write is the file with `--out` renamed, and
    `args.out` with it, nothing else."""
    (workspace / "publish.py").write_text(PUBLISH)
    over = PUBLISH.replace("--out", "--dest").replace("args.out", "args.dest")
    script = [act("write", path="publish.py"), act("finish", summary="Renamed --out to --dest.")]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, OPTION_TASK)
        assert res.code == 0, res.stdout[-2000:]
        assert len(server.requests) == 2  # no text asked: the rename alone is written
    assert over != PUBLISH
    assert _publish(workspace, "--dest", "site", "--out-format", "txt", "a") == "a -> site/a.txt\n"
    text = (workspace / "publish.py").read_text()
    assert '"--out-format"' in text and '"--out"' not in text and "--dest-format" not in text


def test_edits_renaming_a_look_alike_option_too_go_back_to_the_model(
    hearth: HearthCli, workspace: Path
) -> None:
    """The same over-rename made with edits: the finish goes back naming the option that lost its
    name; put back, the finish stands."""
    (workspace / "publish.py").write_text(PUBLISH)
    script = [
        act("edit", path="publish.py", old="--out", new="--dest", replace_all=True),
        act("edit", path="publish.py", old="args.out", new="args.dest", replace_all=True),
        act("finish", summary="Renamed --out to --dest."),
        act("edit", path="publish.py", old="--dest-format", new="--out-format", replace_all=True),
        act("edit", path="publish.py", old="args.dest_format", new="args.out_format", replace_all=True),
        act("finish", summary="Renamed --out to --dest; --out-format kept."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, OPTION_TASK, **NO_VERSIONS)
        told = json.dumps(server.requests[3]["messages"])
    assert res.code == 0, res.stdout[-2000:]
    assert "`--out-format` in publish.py became `--dest-format`" in told
    assert _publish(workspace, "--dest", "site", "a") == "a -> site/a.html\n"


def test_a_moves_only_task_is_written_as_the_move_alone(hearth: HearthCli, workspace: Path) -> None:
    """Held-out run: asked to move parse_price into a new module prices.py, the 1.5B wrote
    prices.py, then rewrote shop.py with a broken docstring three times until the loop guard
    stopped it (exit 2). In a moves-only task each write of the move's files is the file with the
    move made, asked of no model: the scripts print what they printed, and the run ends 0."""
    from agent.test_moves import IMPORTER, SHOP
    from agent.test_moves import TASK as MOVE_TASK

    (workspace / "shop.py").write_text(SHOP)
    (workspace / "importer.py").write_text(IMPORTER)
    (workspace / "stock.csv").write_text("figs,40p\n")
    before = [_py(workspace, "shop.py"), _py(workspace, "importer.py", "stock.csv")]
    script = [
        act("write", path="prices.py"),
        act("write", path="shop.py"),
        act("write", path="importer.py"),
        act("shell", command="python3 shop.py && python3 importer.py stock.csv"),
        act("finish", summary="Moved parse_price into prices.py."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, MOVE_TASK)
        assert res.code == 0, res.stdout[-2000:]
    assert notices(workspace) == []
    assert [_py(workspace, "shop.py"), _py(workspace, "importer.py", "stock.csv")] == before
    assert "def parse_price" in (workspace / "prices.py").read_text()
    assert "def parse_price" not in (workspace / "shop.py").read_text()
    assert "from prices import parse_price" in (workspace / "importer.py").read_text()
    moved = [e for e in events(workspace) if isinstance(e, Notice) and e.reason == "moved"]
    assert len(moved) == 3 and "move parse_price from shop.py into prices.py" in moved[0].text


def _py(workspace: Path, *args: str) -> str:
    return subprocess.run(
        [sys.executable, *args], cwd=workspace, capture_output=True, text=True, check=True
    ).stdout


def test_a_move_left_half_done_is_finished_by_hearth(hearth: HearthCli, workspace: Path) -> None:
    """Held-out run: the 1.5B's writes of the new module and of the source were made as the move,
    and it finished without writing the file that still imported the functions from the source
    (there the task's command failed on the import; here the source still imports the name, so
    only the task's words say importer.py is left). Hearth finishes the move, and the run ends 0."""
    from agent.test_moves import IMPORTER, SHOP
    from agent.test_moves import TASK as MOVE_TASK

    (workspace / "shop.py").write_text(SHOP)
    (workspace / "importer.py").write_text(IMPORTER)
    (workspace / "stock.csv").write_text("figs,40p\n")
    before = _py(workspace, "importer.py", "stock.csv")
    script = [
        act("write", path="prices.py"),
        act("write", path="shop.py"),
        act("finish", summary="Moved parse_price into prices.py."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, MOVE_TASK)
        assert res.code == 0, res.stdout[-2000:]
    assert _py(workspace, "importer.py", "stock.csv") == before
    assert "from prices import parse_price" in (workspace / "importer.py").read_text()
    told = [e for e in events(workspace) if isinstance(e, Notice) and e.reason == "versions"]
    assert any("move was half done" in n.text and "importer.py" in n.text for n in told)


FEES = 'RATE = 0.05\n\n\ndef fee(amount):\n    """The card fee on amount."""\n    return round(amount * RATE, 2)\n'
SHOP = (
    "from fees import fee\n\n"
    "for total in (40.0, 12.5):\n"
    '    print(f"Order {total:.2f} + fee {fee(total):.2f}")\n'
    'print("no fee under", 5)\n'
)


def test_a_function_renamed_in_code_leaves_the_printed_words_and_ends_0(
    hearth: HearthCli, workspace: Path
) -> None:
    """The 1.5B renamed `tip` in the printed text too, and the output changed: a function's rename
    changes the code and the f-strings' fields, not the words the program prints."""
    (workspace / "fees.py").write_text(FEES)
    (workspace / "shop.py").write_text(SHOP)
    before = subprocess.run(["python3", "shop.py"], cwd=workspace, capture_output=True, text=True).stdout
    everywhere = SHOP.replace("fee", "fee_amount")  # the words in the strings too
    script = [
        *wrote("fees.py", FEES.replace("fee", "fee_amount")),
        *wrote("shop.py", everywhere),
        act("finish", summary="Renamed fee to fee_amount."),
    ]
    task = "Rename the function fee to fee_amount in fees.py and shop.py. python3 shop.py must print the same as before."
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task)
        assert res.code == 0, res.stdout[-2000:]
    after = subprocess.run(["python3", "shop.py"], cwd=workspace, capture_output=True, text=True).stdout
    assert after == before and "fee 2.00" in after
    assert "def fee_amount(amount)" in (workspace / "fees.py").read_text()
    assert "from fees import fee_amount" in (workspace / "shop.py").read_text()


def test_a_task_command_failing_before_any_change_is_no_evidence_against_it(
    hearth: HearthCli, workspace: Path
) -> None:
    """ "python3 password.py must print the same as before", where the script needs an argument:
    it failed before any change, and the 1.5B's right refactor was pushed back by that failure,
    then replaced by versions judged on it. Failing the same way after is not the change's doing."""
    (workspace / "checker.py").write_text(CHECKER)
    script = [*wrote("checker.py", CHECKED), act("finish", summary="Moved the checks into problems(name).")]
    task = (
        "Move the checks in main() of checker.py into a function problems(name) that returns the "
        "list of problems found, and make main() use it. python3 checker.py must print the same as before."
    )
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = hearth(
            "run", task, "-w", str(workspace), "--json", "--permission", "auto",
            env={"HEARTH_LLM_URL": server.url, "HEARTH_RETRIES": "0"},
        )  # fmt: skip
        assert res.code == 0, res.stdout[-2000:]
        assert server.violations == []
    assert (workspace / "checker.py").read_text() == CHECKED
    assert not notices(workspace)


def test_a_file_written_back_as_it_was_over_failing_tests_is_no_finish_however_politely_asked(
    hearth: HearthCli, workspace: Path
) -> None:
    """ "... has some failing tests to show it. Could you fix watering.py so they all pass?": the
    1.5B wrote the file back unchanged, and that was taken as its finish with nothing missing (the
    polite ask read as no ask), exit 0 over failing tests."""
    (workspace / "stats.py").write_text(MEDIAN_BUG)
    (workspace / "test_stats.py").write_text(MEDIAN_TESTS)
    task = (
        "My median helper gets even lists wrong, and test_stats.py has a failing test to show it. "
        "Could you fix stats.py so the tests pass? The tests are right, so please leave them as they are."
    )
    # the action and the file's text in one reply, as the 1.5B gave them
    same = ScriptedReply(
        text=json.dumps({"tool": "write", "args": {"path": "stats.py"}}) + f"\n```\n{MEDIAN_BUG}```"
    )
    script = [
        same,
        *wrote("stats.py", MEDIAN_FIXED),
        act("finish", summary="Fixed median()."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task, HEARTH_VERSIONS="0")
    assert (workspace / "stats.py").read_text() == MEDIAN_FIXED  # the model was asked again
    assert res.code == 0, res.stdout[-2000:]


def test_a_finish_with_nothing_changed_while_the_tests_the_task_says_fail_still_fail_goes_back(
    hearth: HearthCli, workspace: Path
) -> None:
    (workspace / "stats.py").write_text(MEDIAN_BUG)
    (workspace / "test_stats.py").write_text(MEDIAN_TESTS)
    task = "The tests in test_stats.py are failing since yesterday; sort it out."
    script = [
        act("finish", summary="All good."),
        act("read", path="stats.py"),
        *wrote("stats.py", MEDIAN_FIXED),
        act("finish", summary="Fixed median()."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task, HEARTH_VERSIONS="0")
        shown = json.dumps(server.requests[1]["messages"])
    assert "test_even" in shown  # the failing test went back with the finish
    assert (workspace / "stats.py").read_text() == MEDIAN_FIXED
    assert res.code == 0, res.stdout[-2000:]


def test_a_file_a_list_item_asks_to_add_is_missing_at_the_finish_so_it_goes_back(
    hearth: HearthCli, workspace: Path
) -> None:
    """ "Tidy up what git tracks:\n- add a .gitignore that ignores ...": the 1.5B removed and
    committed what it was asked to, never wrote the .gitignore, and finished with exit 0."""
    (workspace / "debug.log").write_text("old\n")
    task = "Tidy up this folder:\n- add a .gitignore that ignores every .log file\n- delete debug.log"
    script = [
        act("shell", command="rm debug.log"),
        act("finish", summary="Tidied up."),
        *wrote(".gitignore", "*.log\n"),
        act("finish", summary="Added .gitignore."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task)
        told = json.dumps(server.requests[2]["messages"][-1])
    assert "there is no .gitignore in the workspace" in told
    assert (workspace / ".gitignore").read_text() == "*.log\n"
    assert res.code == 0, res.stdout[-2000:]


def test_changes_asked_as_a_noun_to_a_file_left_as_it_was_go_back(hearth: HearthCli, workspace: Path) -> None:
    """ "A few changes to .github/workflows/tests.yml, please: ...": the 1.5B changed only
    requirements.txt, the file the list mentions in passing, and finished with exit 0. (A
    workflow itself is a control file, written only with a person's approval: here, ci/.)"""
    flow = workspace / "ci"
    flow.mkdir()
    (flow / "tests.yml").write_text("# CI\non: [push]\njobs: {}\n")
    (workspace / "requirements.txt").write_text("flake8\n")
    task = (
        "A few changes to ci/tests.yml, please:\n"
        "- run on pull requests too\n- use ruff (and put ruff in requirements.txt in place of flake8)"
    )
    script = [
        *wrote("requirements.txt", "ruff\n"),
        act("finish", summary="Done."),
        *wrote("ci/tests.yml", "# CI\non: [push, pull_request]\njobs: {}\n"),
        act("finish", summary="Done."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task)
    assert (flow / "tests.yml").read_text() == "# CI\non: [push, pull_request]\njobs: {}\n"
    assert res.code == 0, res.stdout[-2000:]


def test_a_move_into_a_new_module_leaving_the_functions_behind_goes_back_then_ends_0(
    hearth: HearthCli, workspace: Path
) -> None:
    source = (
        "CARDS = [3, 1]\n\n\ndef next_interval(days):\n    return days * 2\n\n\n"
        "def main():\n    print([next_interval(d) for d in CARDS])\n\n\nif __name__ == '__main__':\n    main()\n"
    )
    (workspace / "flashcards.py").write_text(source)
    moved = "def next_interval(days):\n    return days * 2\n"
    kept = (
        "from scheduling import next_interval\n\nCARDS = [3, 1]\n\n\n"
        "def main():\n    print([next_interval(d) for d in CARDS])\n\n\nif __name__ == '__main__':\n    main()\n"
    )
    script = [
        *wrote("scheduling.py", moved),  # the copy made, the source left as it was
        act("finish", summary="Moved next_interval into scheduling.py."),
        *wrote("flashcards.py", kept),
        act("finish", summary="Moved next_interval into scheduling.py."),
    ]
    task = "flashcards.py is crowded. Move next_interval into a new module, scheduling.py; flashcards.py imports it from there."
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task)
        assert res.code == 0, res.stdout[-2000:]
        sent = json.dumps(server.requests)
    assert "flashcards.py still defines next_interval" in sent
    assert (workspace / "flashcards.py").read_text() == kept
    out = subprocess.run([sys.executable, "flashcards.py"], cwd=workspace, capture_output=True, text=True)
    assert out.stdout == "[6, 2]\n"
