"""Reading git's answers about a commit copied by its message (agent/commits)."""

from __future__ import annotations

from hearth.agent.commits import Copied, compare, copied, differs, not_reworded, quoted_messages, reword_asked

HEAD, FIX, OTHER = "a" * 40, "b" * 40, "c" * 40


def test_only_a_quote_naming_a_commit_is_read_as_its_message() -> None:
    assert quoted_messages("The branch x has a commit 'Fix rounding in total'. Bring it onto main.") == [
        "Fix rounding in total"
    ]
    assert quoted_messages("Make greet.py print 'hello there'.") == []
    # a message given for a new commit names none: the usual commit costs no look at git
    assert quoted_messages("Stage README.md and commit it with the message 'Update readme'.") == []


def test_head_with_a_quoted_message_another_commit_has_is_a_copy_to_compare() -> None:
    listing = f"{HEAD}\n{HEAD}\tFix rounding\n{OTHER}\tStart\n{FIX}\tFix rounding\n"
    assert copied(listing, ["Fix rounding"]) == Copied(HEAD, FIX, "Fix rounding")
    assert copied(listing, ["Start"]) is None  # HEAD does not carry that message
    assert copied(f"{HEAD}\n{HEAD}\tFix rounding\n", ["Fix rounding"]) is None  # no other commit has it
    assert copied("fatal: not a git repository\n", ["Fix rounding"]) is None
    # a name that is not 40 hex digits is never taken (nor put into a command)
    assert copied(f"{HEAD}\n{HEAD}\tFix\n$(rm -rf ~)\tFix\n", ["Fix"]) is None


def test_the_same_files_or_a_head_holding_the_original_are_no_copy() -> None:
    found = Copied(HEAD, FIX, "Fix rounding")
    assert f"--name-only '{HEAD}'" not in compare(found) and f"--name-only {HEAD}" in compare(found)
    assert differs(f"== {HEAD}\n\nREADME.md\n== {FIX}\n\nprice.py\n", found) == (["README.md"], ["price.py"])
    assert differs(f"== {HEAD}\n\nprice.py\n== {FIX}\n\nprice.py\n", found) is None
    assert differs(f"== {HEAD}\n\nREADME.md\n== {FIX}\n\nprice.py\ncontained\n", found) is None
    assert differs("", found) is None


def test_an_undo_that_keeps_the_changes_is_a_reset_not_a_revert() -> None:
    from hearth.agent.commits import keeps_changes

    keep = (
        "My last commit, 'Add dark mode', is not ready yet. Undo that commit but keep all its "
        "changes in my files, not committed, so that I can go on working on them."
    )
    assert keeps_changes(keep)
    assert keeps_changes("Undo the commit 'Add search' and leave its changes uncommitted.")
    assert not keeps_changes("Undo the commit 'Make red the default colour' with a new commit.")
    assert not keeps_changes("Keep the changes in app.py and commit them.")  # no undo asked


def test_a_task_about_the_history_alone_names_a_commit_or_a_tag_and_no_file(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from hearth.agent.progress import history_only

    assert history_only("Put an annotated tag v0.2.0 on the commit 'Add export'.", tmp_path)
    assert history_only("My last commit, 'Add dark mode', is not ready yet. Undo it.", tmp_path)
    assert not history_only("Undo the commit 'Add dark mode' and fix theme.py.", tmp_path)
    assert not history_only("Add a function greet to app.py.", tmp_path)
    (tmp_path / "VERSION").write_text("2.0.0\n")
    task = "Set VERSION to 2.1.0, commit it with the message 'Release 2.1.0', and tag the new commit v2.1.0."
    assert not history_only(task, tmp_path)  # VERSION is a file the task names


def test_a_commit_message_to_change_is_the_quoted_one_before_the_new() -> None:
    task = "The message of my last commit has a typo: 'Add tnet'. Change it to 'Add tent'."
    assert reword_asked(task) == ("Add tnet", "Add tent")
    assert reword_asked("Fix the commit message 'Fix tpyo' to read 'Fix typo'.") == ("Fix tpyo", "Fix typo")
    assert reword_asked("Reword the commit 'wip' as 'Add login form'.") == ("wip", "Add login form")
    # a new commit's message, or another thing changed, is no reword
    assert (
        reword_asked("Change the greeting to 'Hello there' and commit with the message 'Say hello'.") is None
    )
    assert (
        reword_asked("In config.json change the name from 'shop' to 'store' and commit it as 'Rename'.")
        is None
    )
    assert reword_asked("Revert the commit 'Add dark mode' and change the title to 'Light'.") is None


def test_a_reword_is_judged_by_the_last_commits_subjects() -> None:
    assert not_reworded("Add tnet\ninit\n", "Add tnet", "Add tent") == "last"
    assert not_reworded("Later\nAdd tnet\ninit\n", "Add tnet", "Add tent") == "older"
    assert not_reworded("Add tent\ninit\n", "Add tnet", "Add tent") == ""
    assert not_reworded("init\n", "Add tnet", "Add tent") is None
