"""A small model's finish judged on evidence in git tasks: a commit claimed and never made, a file
left out of the last commit, work left off the branch the task names, a commit copied instead of
cherry-picked, an undo, squash, merge, rebase or tag never made, a file to bring back written anew,
a rename left as a copy. Each goes back to the model with the command that does it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from e2e.test_actions import act, events, run, schema_of, wrote
from e2e.test_small_done import SMALL, git, init_repo, notices
from hearth.core.events import ToolResult
from hearth.llm.actions import JSON_OBJECT, offered_names
from hearth.testing import ScriptedReply, ScriptedServer
from support import HearthCli


def test_committed_with_no_commit_goes_back_then_ends_0_once_committed(
    hearth: HearthCli, workspace: Path
) -> None:
    init_repo(workspace)
    script = [
        *wrote(".gitignore", "__pycache__/\n*.log\n"),
        act("finish", summary="Created and committed .gitignore."),
        act("git_add", paths=[".gitignore"]),
        act("git_commit", message="Add gitignore"),
        act("finish", summary="Created and committed .gitignore."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(
            hearth, server, workspace, "Add a .gitignore and commit it with the message 'Add gitignore'"
        )
        assert res.code == 0, res.stdout[-2000:]
    [notice] = notices(workspace)
    assert "no commit was made" in notice.text
    assert git(workspace, "log", "-1", "--format=%s").strip() == "Add gitignore"


def test_a_file_left_out_of_the_last_commit_goes_back_asking_for_an_amend_then_ends_0(
    hearth: HearthCli, workspace: Path
) -> None:
    """Held-out run: asked to put a forgotten file into the last commit, the 1.5B wrote the file
    back as it was (refused: nothing would change) and finished; it was told its write had
    failed, and wrote it again and again. The file is as it should be: what is missing is the
    commit, and the task asks for it as an amend."""
    init_repo(workspace)
    (workspace / "about.html").write_text("<h1>About</h1>\n")
    git(workspace, "add", "about.html")
    git(workspace, "commit", "-qm", "Add about page")
    (workspace / "about.css").write_text("h1 { color: brown; }\n")
    script = [
        act("read", path="about.css"),
        *wrote("about.css", "h1 { color: brown; }\n"),
        ScriptedReply(text="Nothing must change in about.css."),  # asked what must change
        ScriptedReply(text="```\nh1 { color: brown; }\n```"),  # asked again: the same
        ScriptedReply(text="No line must change."),  # asked which lines must change: the write is refused
        act("finish", summary="The task is done."),
        act("git_add", paths=["about.css"]),
        act("git_commit", message="Add about page", amend=True),
        act("finish", summary="about.css is in the commit."),
    ]
    task = "My last commit, 'Add about page', forgot about.css. Put about.css into that same commit instead of making a new one, keeping its message."
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task)
        assert res.code == 0, res.stdout[-2000:]
    # the write of what the file held is judged as a finish, and so is the finish after it
    assert len(notices(workspace)) == 2
    for notice in notices(workspace):
        assert "git_commit with amend true" in notice.text and "was not made" not in notice.text
    assert git(workspace, "log", "--format=%s").split("\n")[:2] == ["Add about page", "init"]
    assert git(workspace, "show", "--name-only", "--format=", "HEAD").split() == ["about.css", "about.html"]


def _with_work_to_commit(workspace: Path) -> None:
    init_repo(workspace)
    (workspace / "notes.py").write_text("NOTES = []\n")
    git(workspace, "add", "notes.py")
    git(workspace, "commit", "-qm", "notes")
    (workspace / "notes.py").write_text("NOTES = sorted([])\n")
    (workspace / "todo.md").write_text("- tags\n")


COMMIT_TASK = (
    "I've changed notes.py and started a todo.md in this repository. Please commit all of that in one "
    'commit with the message "Sort notes by date and add a to-do list".'
)


def test_a_commit_leaving_out_files_the_task_names_goes_back_then_ends_0_once_amended(
    hearth: HearthCli, workspace: Path
) -> None:
    """Held-out run: the 1.5B wrote a notes.md of its own, committed only that with the message
    asked plus a full stop, and finished: exit 0, with notes.py and todo.md not committed. The
    files the task names are still changed: the finish goes back with the amend that mends it."""
    _with_work_to_commit(workspace)
    message = "Sort notes by date and add a to-do list"
    script = [
        act("git_add", paths=["notes.py"]),
        act("git_commit", message=message + "."),
        act("finish", summary="Committed the changes."),
        act("git_add", paths=["todo.md"]),
        act("git_commit", message=message, amend=True),
        act("finish", summary="Committed the changes."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, COMMIT_TASK)
        assert res.code == 0, res.stdout[-2000:]
    [notice] = notices(workspace)
    assert notice.text.startswith("You finished, but todo.md, which the task names, still has changes")
    assert f'git_commit {{"message": "{message}", "amend": true}}' in notice.text
    assert git(workspace, "log", "--format=%B", "-1").strip() == message
    assert git(workspace, "status", "--porcelain") == ""
    assert git(workspace, "rev-list", "--count", "HEAD").strip() == "3"


def test_a_commit_with_another_message_than_the_task_gives_goes_back(
    hearth: HearthCli, workspace: Path
) -> None:
    _with_work_to_commit(workspace)
    script = [
        act("git_add", paths=["notes.py", "todo.md"]),
        act("git_commit", message="Sort notes and add todo"),
        *[act("finish", summary="Committed the changes.")] * 3,
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, COMMIT_TASK)
    assert res.code == 2, res.stdout[-2000:]  # never mended: not done
    told = notices(workspace)[0].text
    assert 'the last commit\'s message is "Sort notes and add todo"' in told
    assert 'the task asks for the message "Sort notes by date and add a to-do list", exactly' in told


def test_a_commit_message_and_files_are_judged_only_as_the_task_gives_them() -> None:
    from hearth.agent.commits import new_message, uncommitted

    assert new_message(COMMIT_TASK) == "Sort notes by date and add a to-do list"
    assert new_message("Commit it.") is None
    assert new_message("Squash them into one commit with the message 'Tidy'") is None  # a squash's
    assert new_message("Put an annotated tag v1 with the message 'First' on the last commit") is None
    listed = " M notes.py\n?? todo.md\nA  new dir/x.txt\nR  a.md -> b.md\n"
    assert uncommitted(listed) == ["notes.py", "todo.md", "new dir/x.txt", "b.md"]
    assert uncommitted("(no output)") == []


def test_committed_with_no_commit_to_the_end_ends_2(hearth: HearthCli, workspace: Path) -> None:
    init_repo(workspace)
    script = [
        *wrote(".gitignore", "__pycache__/\n"),
        *[act("finish", summary="Created and committed .gitignore.")] * 3,
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(
            hearth, server, workspace, "Add a .gitignore and commit it with the message 'Add gitignore'"
        )
    assert res.code == 2, res.stdout[-2000:]
    assert git(workspace, "log", "-1", "--format=%s").strip() == "init"


def test_a_summary_claims_a_commit_only_when_a_sentence_says_so_and_does_not_deny_it() -> None:
    from hearth.agent.done import claims_commit

    assert claims_commit("Created and committed .gitignore.")
    assert claims_commit("Wrote it. Committed it as 'Add gitignore'.")
    assert not claims_commit("Nothing was committed.")
    assert not claims_commit("It wasn't committed: the repository is missing.")
    assert not claims_commit("The last commit is abc123.")


def test_a_task_that_asks_for_a_commit_finished_with_none_goes_back_then_ends_0_once_committed(
    hearth: HearthCli, workspace: Path
) -> None:
    """The summary claims no commit ("Fixed spelling in README"), but the task asked for one."""
    init_repo(workspace)
    (workspace / "README.md").write_text("# app\n\n## Instalation\n")
    git(workspace, "add", "README.md")
    git(workspace, "commit", "-qm", "readme")
    script = [
        *wrote("README.md", "# app\n\n## Installation\n"),
        act("finish", summary="Fixed spelling in README.md"),
        act("git_add", paths=["README.md"]),
        act("git_commit", message="Fix spelling in README"),
        act("finish", summary="Fixed spelling in README.md"),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        task = "Fix the spelling of 'instalation' in README.md and commit it with the message 'Fix spelling in README'."
        res = run(hearth, server, workspace, task)
        assert res.code == 0, res.stdout[-2000:]
    [notice] = notices(workspace)
    assert "the task asks for a commit, and no commit was made" in notice.text
    assert git(workspace, "log", "-1", "--format=%s").strip() == "Fix spelling in README"


def test_asking_for_a_commit_is_a_commit_verb_not_denied() -> None:
    from hearth.agent.asked import asks_commit

    assert asks_commit("Fix it and commit only README.md with the message 'x'.")
    assert asks_commit("Commit the fix.")
    assert asks_commit("Put about.css into that same commit instead of making a new one.")
    assert asks_commit("Amend the last commit so it includes the test.")
    assert not asks_commit("Do not amend anything; never commit.")
    assert not asks_commit("Fix the bug; do not commit.")
    assert not asks_commit("Show the last commit message.")
    # "as it is in the last commit" names a state, and "Don't" denies (n't has no word boundary)
    assert not asks_commit("Make settings.py again as it is in the last commit. Don't commit anything.")
    assert not asks_commit("Please don't commit it.")
    assert asks_commit("It wasn't committed yet: commit it.")


# A rename or removal the task asks for, judged by what is left of the name


def test_work_the_task_puts_on_a_branch_goes_back_until_it_is_there_then_ends_0(
    hearth: HearthCli, workspace: Path
) -> None:
    init_repo(workspace)
    script = [
        *wrote("app.py", "print('hello')\n"),  # shown whole up front
        act("finish", summary="Changed app.py."),
        act("git_branch", name="say-hello", create=True, switch=True),
        act("git_add", paths=["app.py"]),
        act("git_commit", message="Say hello"),
        act("finish", summary="Committed the change on say-hello."),
    ]
    task = "Create a branch named say-hello, make app.py print hello there, and commit it with the message 'Say hello'."
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task)
        assert res.code == 0, res.stdout[-2000:]
        first = json.dumps(server.requests[0]["messages"])
    assert "git_branch(" in first  # the task names a branch: the branch tool is listed with git's
    [notice] = notices(workspace)
    assert "on the branch say-hello, and no step switched to it" in notice.text
    assert git(workspace, "log", "-1", "--format=%s", "say-hello").strip() == "Say hello"
    assert git(workspace, "log", "-1", "--format=%s", "main").strip() == "init"


def test_a_commit_copied_by_its_message_only_goes_back_with_the_commit_to_cherry_pick(
    hearth: HearthCli, workspace: Path
) -> None:
    """Asked to bring a commit from another branch, the 1.5B edited README.md and committed it
    with that commit's message (exit 0). Git says the two are not the same change; the finish
    goes back naming the commit, and its cherry-pick ends the run 0."""
    init_repo(workspace)
    git(workspace, "checkout", "-qb", "experiments")
    (workspace / "app.py").write_text("print('app', round(2.345, 2))\n")
    git(workspace, "commit", "-qam", "Fix rounding in total")
    (workspace / "notes.txt").write_text("debug\n")
    git(workspace, "add", "notes.txt")
    git(workspace, "commit", "-qm", "Add debug notes")
    fix = git(workspace, "rev-parse", "experiments~1").strip()
    git(workspace, "checkout", "-q", "main")
    (workspace / "README.md").write_text("# App\n")
    git(workspace, "add", "README.md")
    git(workspace, "commit", "-qm", "Describe the app")
    task = "The branch experiments has a commit 'Fix rounding in total'. Bring just that commit onto main."
    script = [
        act("read", path="README.md"),
        act("shell", command="printf '\\nFix rounding in total.\\n' >> README.md"),  # write is not offered
        act("git_add", paths=["README.md"]),
        act("git_commit", message="Fix rounding in total"),
        act("finish", summary="Brought the commit onto main."),
        act("shell", command=f"git reset --hard HEAD~1 && git cherry-pick {fix[:7]}"),
        act("finish", summary="Cherry-picked the commit onto main."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task)
        assert res.code == 0, res.stdout[-2000:]
    [notice] = notices(workspace)
    assert f"'Fix rounding in total', is {fix[:7]} (it changes app.py)" in notice.text
    assert "your commit with that message changes README.md instead" in notice.text
    assert git(workspace, "log", "--format=%s", "-3").split("\n")[:2] == [
        "Fix rounding in total",
        "Describe the app",
    ]
    assert "round(2.345, 2)" in git(workspace, "show", "main:app.py")


def test_a_commit_that_does_not_undo_the_one_the_task_names_goes_back_with_git_revert(
    hearth: HearthCli, workspace: Path
) -> None:
    """Asked to undo a commit with a new one, the 1.5B rewrote README.md, committed it with the
    message asked, and finished (exit 0). The last commit's line counts do not mirror the named
    commit's; the finish goes back with `git revert`, and the revert ends the run 0."""
    init_repo(workspace)
    (workspace / "theme.py").write_text("COLOUR = 'blue'\nSIZE = 3\n")
    git(workspace, "add", "theme.py")
    git(workspace, "commit", "-qm", "Add the theme")
    (workspace / "theme.py").write_text("COLOUR = 'red'\nBORDER = 'red'\nSIZE = 3\n")
    git(workspace, "commit", "-qam", "Make red the default colour")
    red = git(workspace, "rev-parse", "HEAD").strip()
    (workspace / "README.md").write_text("# Painter\n\nRun theme.py.\n")
    git(workspace, "add", "README.md")
    git(workspace, "commit", "-qm", "Add usage notes")
    task = (
        "Undo the commit 'Make red the default colour' with a new commit that reverts it, with the "
        "message 'Go back to blue'. Do not rewrite history."
    )
    script = [
        act("read", path="README.md"),
        act("shell", command="printf 'Go back to blue\\n' >> README.md"),  # write is not offered
        act("git_add", paths=["README.md"]),
        act("git_commit", message="Go back to blue"),
        act("finish", summary="Reverted the commit."),
        act("shell", command=f"git reset --hard HEAD~1 && git revert --no-commit {red[:7]}"),
        act("git_commit", message="Go back to blue"),
        act("finish", summary="Reverted the commit."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task)
        assert res.code == 0, res.stdout[-2000:]
    [notice] = notices(workspace)
    assert f"undo the commit 'Make red the default colour' ({red[:7]})" in notice.text
    assert f"git revert --no-commit {red[:7]}" in notice.text
    assert git(workspace, "log", "--format=%s", "-3").split("\n")[:3] == [
        "Go back to blue",
        "Add usage notes",
        "Make red the default colour",
    ]
    assert (workspace / "theme.py").read_text() == "COLOUR = 'blue'\nSIZE = 3\n"


def test_a_task_asking_to_undo_a_commit_is_read_with_the_commit_it_quotes() -> None:
    from hearth.agent.commits import asks_undo, undoes

    assert asks_undo("Undo the commit 'Make red the default colour' with a new commit")
    assert asks_undo('Revert the commit "Add caching" please')
    assert not asks_undo("Commit it with the message 'Undo the colour'")  # a new commit's message
    assert not asks_undo("Undo my last change to app.py")
    head, red = "a" * 40, "b" * 40
    listing = f"== {head}\n\n2\t1\ttheme.py\n== {red}\n\n1\t2\ttheme.py\n"
    assert undoes(listing, head, red) is True
    assert undoes(listing.replace("2\t1\ttheme.py", "1\t0\tREADME.md"), head, red) is False
    assert undoes("fatal: bad object", head, red) is None


def test_an_undo_that_keeps_the_changes_goes_back_with_the_reset_while_the_commit_is_last(
    hearth: HearthCli, workspace: Path
) -> None:
    """ "Undo that commit but keep all its changes in my files, not committed": the 1.5B, not
    knowing `git reset`, rewrote the commit's file until the loop guard stopped it. While the
    commit the task quotes is still the last one, the finish goes back with the reset."""
    init_repo(workspace)
    (workspace / "theme.py").write_text("DARK = True\n")
    git(workspace, "add", "theme.py")
    git(workspace, "commit", "-qm", "Add dark mode")
    task = (
        "My last commit, 'Add dark mode', is not ready yet. Undo that commit but keep all its "
        "changes in my files, not committed, so that I can go on working on them."
    )
    script = [
        act("git_status"),
        act("shell", command="git commit -m 'Add dark mode'"),  # nothing to commit: git's no-op
        act("finish", summary="Done."),
        act("shell", command="git reset --soft HEAD~1"),
        act("finish", summary="The commit is undone; its changes are staged."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task)
        assert res.code == 0, res.stdout[-2000:]
        # a task about the history alone is offered no file writer (the 1.5B rewrote theme.py)
        offered = [set(offered_names(schema_of(r))) for r in server.requests if "response_format" in r]
    assert offered and all("shell" in o and not o & {"write", "edit", "mkdir"} for o in offered)
    [notice] = notices(workspace)
    assert "'Add dark mode'" in notice.text and "`git reset --soft HEAD~1`" in notice.text
    assert git(workspace, "log", "--format=%s").split() == ["init"]
    assert (workspace / "theme.py").read_text() == "DARK = True\n"
    assert "theme.py" in git(workspace, "status", "--porcelain")


def test_a_file_to_rename_still_there_under_its_old_name_goes_back_with_git_mv(
    hearth: HearthCli, workspace: Path
) -> None:
    """Asked to rename notes.txt to NOTES.md, the 1.5B wrote NOTES.md as a copy, committed it and
    finished; told notes.txt was unchanged, it edited its text. The finish goes back saying the
    file is still there, with the command that moves it."""
    init_repo(workspace)
    notes = "Pancakes: 2 eggs.\n"
    (workspace / "notes.txt").write_text(notes)
    (workspace / "build.py").write_text("print(open('notes.txt').read())\n")
    git(workspace, "add", "-A")
    git(workspace, "commit", "-qm", "Add notes")
    task = (
        "Rename notes.txt to NOTES.md so that git records it as a rename, make build.py read "
        "NOTES.md instead, and commit both changes together with the message 'Rename notes'."
    )
    script = [
        *wrote("NOTES.md", "## Rename notes\n\n" + notes),
        act("edit", path="build.py", old="notes.txt", new="NOTES.md"),
        act("git_add", paths=["build.py", "NOTES.md"]),
        act("git_commit", message="Rename notes"),
        act("finish", summary="Renamed notes.txt."),
        act("shell", command="git reset -q --soft HEAD~1 && git mv -f notes.txt NOTES.md"),
        act("git_commit", message="Rename notes"),
        act("finish", summary="Renamed notes.txt."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task)
        assert res.code == 0, res.stdout[-2000:]
    [notice] = notices(workspace)
    assert "notes.txt is still there" in notice.text and "`git mv -f notes.txt NOTES.md`" in notice.text
    assert not (workspace / "notes.txt").exists()
    assert (workspace / "NOTES.md").read_text() == notes
    assert git(workspace, "log", "--format=%s", "-2").split("\n")[:2] == ["Rename notes", "Add notes"]


def test_a_module_to_rename_goes_back_with_the_move_and_no_versions_are_asked(
    hearth: HearthCli, workspace: Path
) -> None:
    """ "Rename the module fmt.py to formatting.py": the 1.5B made invoice.py import `formatting`
    and finished; versions of invoice.py were asked (they cannot move a file), and it was told
    only that fmt.py was unchanged. The finish goes back at once with the command that moves it."""
    (workspace / "fmt.py").write_text("def money(cents):\n    return f'{cents / 100:.2f}'\n")
    (workspace / "invoice.py").write_text("import fmt\n\nprint(fmt.money(1999))\n")
    task = (
        "Rename the module fmt.py to formatting.py and make invoice.py use it under its new "
        "name. python3 invoice.py must print the same as before."
    )
    script = [
        *wrote("invoice.py", "import formatting\n\nprint(formatting.money(1999))\n"),
        act("finish", summary="The task is done."),
        act("shell", command="mv -f fmt.py formatting.py"),
        act("write", path="fmt.py"),  # the 1.5B then wrote fmt.py back, twice
        act("finish", summary="Renamed fmt.py to formatting.py."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task)
        assert res.code == 0, res.stdout[-2000:]
    refused = [e.output for e in events(workspace) if isinstance(e, ToolResult) and e.name == "write"]
    assert refused[-1].endswith(
        "the task renames fmt.py to formatting.py, and it is formatting.py now. Write or edit formatting.py, and do not make fmt.py again."
    )
    [notice] = notices(workspace)
    assert "fmt.py is still there" in notice.text and "`mv -f fmt.py formatting.py`" in notice.text
    assert not (workspace / "fmt.py").exists()
    out = subprocess.run([sys.executable, "invoice.py"], cwd=workspace, capture_output=True, text=True)
    assert out.stdout == "19.99\n"


def test_commits_not_squashed_go_back_with_how_to_squash_them(hearth: HearthCli, workspace: Path) -> None:
    """Asked to squash its last two WIP commits into one with a message, the 1.5B edited a file
    the commits had changed and finished (exit 0). The last commit does not have the message:
    the finish goes back with the soft reset and the commit, and the squash ends the run 0."""
    init_repo(workspace)
    (workspace / "index.html").write_text("<h1>Shop</h1>\n")
    git(workspace, "add", "index.html")
    git(workspace, "commit", "-qm", "Start the shop page")
    base = git(workspace, "rev-parse", "HEAD").strip()
    (workspace / "index.html").write_text("<h1>Shop</h1>\n<input id='search'>\n")
    git(workspace, "commit", "-qam", "WIP")
    (workspace / "style.css").write_text("#search { width: 100%; }\n")
    git(workspace, "add", "style.css")
    git(workspace, "commit", "-qm", "WIP")
    task = (
        "My last two commits are both just called WIP. Squash them into one commit with the message "
        "'Add search box', keeping all their changes."
    )
    script = [
        act("read", path="index.html"),
        act("edit", path="index.html", old="Shop", new="Search box", replace_all=False),
        act("finish", summary="Squashed the commits."),
        act("git_commit", message="Add search box", squash=2),
        act("finish", summary="Squashed the commits."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task)
        assert res.code == 0, res.stdout[-2000:]
    [notice] = notices(workspace)
    assert "'Add search box'" in notice.text and "`git reset --soft HEAD~2`" in notice.text
    assert 'git_commit {"message": "Add search box", "squash": 2}' in notice.text
    assert git(workspace, "log", "--format=%s").split("\n")[:2] == ["Add search box", "Start the shop page"]
    assert git(workspace, "rev-parse", "HEAD~1").strip() == base


def test_a_squash_is_read_with_its_message_and_count() -> None:
    from hearth.agent.commits import squash_asked, squash_command

    asked = squash_asked('Squash my last three commits into one with the message "Tidy up".')
    assert asked is not None and (asked.message, asked.count) == ("Tidy up", 3)
    assert squash_command(asked) == "`git reset --soft HEAD~3`, then `git commit -m 'Tidy up'`"
    unsaid = squash_asked("Squash the fixups into one commit with the message 'Fix the parser'")
    assert unsaid is not None and unsaid.count == 0 and "HEAD~N" in squash_command(unsaid)
    assert squash_asked("Squash the last two commits") is None  # no message to check by
    assert squash_asked("Commit it with the message 'Squash bugs'") is None


def test_a_merge_the_task_asks_that_never_happened_goes_back_with_how_to_merge(
    hearth: HearthCli, workspace: Path
) -> None:
    """Asked to merge the branch captions, the 1.5B edited a file on main, committed it with the
    message "Merge branch captions into main" and finished (exit 0). The branch's last commit is
    not in main's history: the finish goes back with `git merge`, and the real merge ends it 0."""
    init_repo(workspace)
    git(workspace, "checkout", "-qb", "captions")
    (workspace / "captions.txt").write_text("beach.jpg: the beach at dawn\n")
    git(workspace, "add", "captions.txt")
    git(workspace, "commit", "-qm", "Add captions")
    git(workspace, "checkout", "-q", "main")
    task = "Merge the branch captions into main and commit the merge."
    script = [
        act("read", path="app.py"),
        act("edit", path="app.py", old="app", new="gallery", replace_all=False),
        act("git_add", paths=["app.py"]),
        act("git_commit", message="Merge branch captions into main"),
        act("finish", summary="Merged captions into main."),
        act("shell", command="git merge --no-edit captions"),
        act("finish", summary="Merged captions into main."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task)
        assert res.code == 0, res.stdout[-2000:]
    [notice] = notices(workspace)
    assert (
        "the branch captions, and it is not merged" in notice.text and "`git merge captions`" in notice.text
    )
    subprocess.run(["git", "merge-base", "--is-ancestor", "captions", "HEAD"], cwd=workspace, check=True)
    assert (workspace / "captions.txt").exists()


def test_a_merge_is_read_with_its_branch() -> None:
    from hearth.agent.commits import merge_asked

    assert merge_asked("Merge the branch captions into main and commit the merge.") == "captions"
    assert merge_asked("Please merge the `feature/search` branch into main.") == "feature/search"
    assert merge_asked("Merge it into main.") == ""
    assert merge_asked("Fix the merge conflict in app.py.") == ""


def test_a_file_to_bring_back_written_anew_goes_back_with_git_checkout(
    hearth: HearthCli, workspace: Path
) -> None:
    """Asked to bring back a file a commit deleted, the 1.5B wrote a helpers.py of its own and
    committed it with the message asked (exit 0). The finish goes back with the commit that
    deleted it and how to get it back. Git writing a file from its history asks a person, and
    this run has none: the run ends blocked (3), not 0 over a file that is not the one asked."""
    tidy, original = _deleted_helpers(workspace)
    script = [
        *wrote("helpers.py", "def mean(xs):\n    return sum(xs) / len(xs)\n"),
        act("git_add", paths=["helpers.py"]),
        act("git_commit", message="Bring back helpers.py"),
        act("finish", summary="Brought back helpers.py."),
        act("shell", command=f"git checkout {tidy[:7]}^ -- helpers.py"),
        act("blocked", reason="git checkout needs a person's approval."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, BRING_BACK)
        assert res.code == 3, res.stdout[-2000:]
    [notice] = notices(workspace)
    assert f"not the file commit {tidy[:7]} deleted" in notice.text
    assert f"git checkout {tidy[:7]}^ -- helpers.py" in notice.text
    assert "--amend" in notice.text
    assert (workspace / "helpers.py").read_text() != original


def test_a_file_brought_back_as_it_was_finishes(hearth: HearthCli, workspace: Path) -> None:
    _, original = _deleted_helpers(workspace)
    script = [
        *wrote("helpers.py", original),
        act("git_add", paths=["helpers.py"]),
        act("git_commit", message="Bring back helpers.py"),
        act("finish", summary="Brought back helpers.py."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, BRING_BACK)
        assert res.code == 0, res.stdout[-2000:]
    assert notices(workspace) == []
    assert git(workspace, "log", "--format=%s").split("\n")[:2] == ["Bring back helpers.py", "Tidy up"]


BRING_BACK = (
    "The commit 'Tidy up' deleted helpers.py, but main.py still needs it. Bring back helpers.py "
    "as it was and commit it with the message 'Bring back helpers.py'."
)


def _deleted_helpers(workspace: Path) -> tuple[str, str]:
    """A repository whose commit 'Tidy up' deleted helpers.py: that commit, and the file deleted."""
    init_repo(workspace)
    original = "def total(xs):\n    return sum(xs)\n\n\ndef mean(xs):\n    return total(xs) / len(xs)\n"
    (workspace / "helpers.py").write_text(original)
    (workspace / "main.py").write_text("from helpers import mean\nprint(mean([1, 2, 3]))\n")
    git(workspace, "add", ".")
    git(workspace, "commit", "-qm", "Start")
    git(workspace, "rm", "-q", "helpers.py")
    git(workspace, "commit", "-qm", "Tidy up")
    return git(workspace, "rev-parse", "HEAD").strip(), original


def test_a_file_brought_back_is_judged_by_its_hash() -> None:
    from hearth.agent.commits import not_restored, restore_asked

    task = "Bring back just helpers.py as it was before 'Tidy up' and commit it."
    assert restore_asked(task, ["helpers.py"]) == ["helpers.py"]
    assert restore_asked("Restore config.ini from git", ["config.ini"]) == ["config.ini"]
    assert restore_asked("Commit it with the message 'Restore the logo'", ["logo.png"]) == []
    assert restore_asked("Fix helpers.py", ["helpers.py"]) == []
    sha = "c" * 40
    assert not_restored(f"== {sha}\nmissing\n") == sha
    old, new = "a" * 40, "b" * 40
    assert not_restored(f"== {sha}\n{old}\n{new}\n") == sha  # written anew
    assert not_restored(f"== {sha}\n{old}\n{old}\n") is None  # the same file
    assert not_restored(f"== {sha}\nfatal: bad object\n") is None
    assert not_restored("") is None  # no commit deleted it


def test_a_rebase_the_task_asks_that_never_happened_goes_back_with_how_to_rebase(
    hearth: HearthCli, workspace: Path
) -> None:
    """Asked to rebase a branch onto main, the 1.5B rewrote README.md on main and finished (exit
    0). main's newest commit is not in the branch's history: the finish goes back with `git
    rebase`, and the real rebase ends it 0, main as it was."""
    init_repo(workspace)
    git(workspace, "checkout", "-qb", "vegan")
    (workspace / "menu.txt").write_text("lentil soup\n")
    git(workspace, "add", "menu.txt")
    git(workspace, "commit", "-qm", "Add a vegan dish")
    git(workspace, "checkout", "-q", "main")
    (workspace / "prices.txt").write_text("soup 4.50\n")
    git(workspace, "add", "prices.txt")
    git(workspace, "commit", "-qm", "Add prices")
    main = git(workspace, "rev-parse", "main").strip()
    task = "Rebase the branch vegan onto main, with no merge commit. main itself must stay as it is."
    script = [
        act("git_status"),
        act("finish", summary="Rebased vegan onto main."),
        act("shell", command="git rebase main vegan"),
        act("finish", summary="Rebased vegan onto main."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task)
        assert res.code == 0, res.stdout[-2000:]
    [notice] = notices(workspace)
    assert "rebase the branch vegan onto main, and it is not rebased" in notice.text
    assert "`git rebase main vegan`" in notice.text
    subprocess.run(["git", "merge-base", "--is-ancestor", "main", "vegan"], cwd=workspace, check=True)
    assert git(workspace, "rev-parse", "main").strip() == main
    assert git(workspace, "log", "--format=%s", "vegan").split("\n")[:2] == ["Add a vegan dish", "Add prices"]


def test_a_tag_the_task_asks_that_was_never_made_goes_back_with_the_command(
    hearth: HearthCli, workspace: Path
) -> None:
    """Asked for an annotated tag on an older commit, the 1.5B rewrote README.md and finished
    (exit 0). The finish goes back with the one command that makes the tag, the commit's hash
    looked up by its message; run, it ends the run 0, with no commit added."""
    init_repo(workspace)
    (workspace / "export.py").write_text("print('export')\n")
    git(workspace, "add", "export.py")
    git(workspace, "commit", "-qm", "Add export")
    export = git(workspace, "rev-parse", "HEAD").strip()
    (workspace / "README.md").write_text("# Notes\n")
    git(workspace, "add", "README.md")
    git(workspace, "commit", "-qm", "Add a README")
    head = git(workspace, "rev-parse", "HEAD").strip()
    task = (
        "Put an annotated tag v0.2.0 with the message 'Second release' on the commit 'Add export', "
        "not on the newest commit. Do not add or change any commits."
    )
    command = f"git tag -a v0.2.0 -m 'Second release' {export}"
    script = [
        act("read", path="README.md"),
        *wrote("README.md", "# Notes\n\nSecond release.\n"),
        act("finish", summary="Tagged the release."),
        act("shell", command=command),
        act("finish", summary="Tagged the release."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task)
        assert res.code == 0, res.stdout[-2000:]
    [notice] = notices(workspace)
    assert "the repository has no tag v0.2.0" in notice.text and f"`{command}`" in notice.text
    assert git(workspace, "rev-parse", "v0.2.0^{commit}").strip() == export
    assert git(workspace, "cat-file", "-t", "v0.2.0").strip() == "tag"
    assert git(workspace, "rev-parse", "HEAD").strip() == head


def test_a_rebase_is_read_with_its_branches() -> None:
    from hearth.agent.commits import rebase_asked

    assert rebase_asked("Rebase the branch vegan onto main, so that its commits come after") == (
        "vegan",
        "main",
    )
    assert rebase_asked("Please rebase `feature/x` on top of main.") == ("feature/x", "main")
    assert rebase_asked("Rebase it.") is None
    assert rebase_asked("Merge the branch captions into main.") is None


def test_a_commit_message_to_change_goes_back_with_the_amend_while_the_old_one_is_last(
    hearth: HearthCli, workspace: Path
) -> None:
    """Asked to fix a typo in the last commit's message, the 1.5B wrote the new message into
    notes.txt and finished: exit 0 with the message unchanged. The finish now goes back with the
    amend that changes the message only; the uncommitted change stays uncommitted."""
    init_repo(workspace)
    (workspace / "list.md").write_text("- tent\n")
    git(workspace, "add", "list.md")
    git(workspace, "commit", "-qm", "Add tnet")
    (workspace / "notes.txt").write_text("Pitch by the lake.\n")
    task = (
        "The message of my last commit has a typo: 'Add tnet'. Change it to 'Add tent' without "
        "changing what the commit holds; my change to notes.txt must stay uncommitted."
    )
    script = [
        act("finish", summary="Done."),
        act("shell", command="git commit --amend --only -m 'Add tent'"),
        act("finish", summary="The last commit's message is 'Add tent'."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task)
        assert res.code == 0, res.stdout[-2000:]
    [notice] = notices(workspace)
    assert "still has the message 'Add tnet'" in notice.text
    assert "`git commit --amend --only -m 'Add tent'`" in notice.text
    assert git(workspace, "log", "--format=%s").split("\n")[:2] == ["Add tent", "init"]
    assert git(workspace, "status", "--porcelain").strip() == "?? notes.txt"
