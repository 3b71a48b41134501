"""A small model's finish, judged on evidence before the run ends 0.

Measured on multi-step tasks with a 1.5B model held to a grammar: it finished with exit 0 on six
of seven failures. Its finishes came right after a change that was refused ("Read it first"),
with claims no event backs ("created and committed" with no commit; "the test now passes" with
nothing run), or after a change that broke what the project's own tests check. So when a small
model finishes, Hearth looks at what the turn did and runs the checks it can find itself:

1. A change the model tried last failed and no change of the same file (or, for a tool with no
   path, by the same tool) worked in the turn: nothing it meant to change was changed.
2. The summary says something was committed, or the task asks for a commit, and no commit
   worked after the last change of a file; or the task names a branch for the work and no step
   switched to it; or the turn's commit has the message of a commit the task quotes and other
   changes than it (agent/commits).
3. The summary says it changed something (added, fixed, wrote ...), and nothing that changes
   things worked in this turn (no write or edit, no command run); or it names a file the task
   names that is not in the workspace (".gitignore was added" with no .gitignore).
4. A Python file the turn changed does not parse, or uses a name it never defines or imports.
5. The turn changed something and the project has tests (a test command in AGENTS.md, else
   test_*.py or *_test.py files: pytest, or without it their plain test functions; these only
   when a Python file changed or code ran): they run,
   through the one dispatcher and so in the sandbox, and must pass after the last change. A
   summary that says the tests pass with no tests found and none run after the last change is a
   claim with no evidence. The scripts the task itself runs (`python3 client.py must print the
   same`) run too, with the options and workspace files the task gives them: a Python
   traceback, or an output other than the one the task states (`... must print 3.375`), is
   evidence the work is not done; a script the task runs that the turn changed and
   never ran since goes back to be run.
6. The task asks to rename a name and the old one is still in the workspace, or to remove one
   and it is still in the files the task names; or, once the checks of 5 pass, to add one and it
   is in none of them (agent/leftovers). A config file's section the model read and a write left
   out, which the task does not name, was lost, and a run of lines a change left twice where the
   task asks no copy is a leftover (agent/sections). A script that printed nothing and only defines
   functions gets the lines that would call it (agent/entrypoint).
7. The task asks for a change to a file it names (a sentence opening with add, fix, rename ...)
   and nothing was changed or run in the turn; or that file, in the workspace, is the one the
   turn's writes and edits left alone (no command having run).
Plan mode's planning turn is left alone: a plan changes nothing yet.

Before a finish the evidence contradicts goes back, when the workspace's checks (5: the tests, the
task's commands) fail now, other versions of the file the model was changing are tried against
them (agent/versions); one they pass stays, and the finish is judged again; when versions were
tried and none passed, the turn ends not done (`end_if_versions_failed`). A turn stopped going in circles, ended BLOCKED, or finished again over the same
failing check gets the same chance (`rescued`). The file varied is the one the failure's
traceback ends in (`traced_file`), else the model's (`target_file`).

What the task asks is read in agent/asked, the commands it gives in agent/task_commands.

A finish the evidence contradicts goes back to the model with what is wrong, up to ROUNDS times
in a turn; a finish still contradicted after that ends the turn as not done (status limit, exit
code 2). The checks' runs are recorded as results, so the end-of-turn verdict (agent/verdict)
sees them like the model's own runs.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shlex
import stat
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from hearth.agent import keys, parts
from hearth.agent.asked import (
    ASKS_ANY_CHANGE,
    FILE_MOVE,
    NEGATION,
    SAYS_TESTS_FAIL,
    asked_branch,
    asked_files,
    asked_names,
    asks_amend,
    asks_commit,
    bare_names,
    file_not_moved,
    new_file_asked,
    tests_asked,
)
from hearth.agent.body import UNCHANGED, current_text
from hearth.agent.commits import (
    LIST,
    SUBJECT,
    SUBJECTS,
    Squash,
    asks_undo,
    compare,
    copied,
    counts,
    differs,
    keeps_changes,
    merge_asked,
    merged_command,
    named,
    new_message,
    not_restored,
    not_reworded,
    quoted_messages,
    rebase_asked,
    rebased_command,
    restore_asked,
    restored_command,
    reword_asked,
    squash_asked,
    squash_call,
    squash_command,
    uncommitted,
    undoes,
)
from hearth.agent.dispatch import Dispatcher
from hearth.agent.entrypoint import missing_call
from hearth.agent.examples import example_command, examples_failing
from hearth.agent.leftovers import (
    alike_renamed,
    leftover_problem,
    missing_added,
    only_renames,
    renamed,
    rest_of_rename,
    undefined_kept,
)
from hearth.agent.moves import left_behind, move_asked, rest_of_move
from hearth.agent.named_files import named_paths
from hearth.agent.overview import shown_texts, this_turn
from hearth.agent.removals import left_items, removed_items, rest_of_removal
from hearth.agent.returns import returns_nothing
from hearth.agent.sections import doubled, dropped, read_text
from hearth.agent.shapes import plural_for_one, stray_line, unshaped
from hearth.agent.state import SessionState
from hearth.agent.tags import Tag, tag_asked, tag_command, tag_wrong
from hearth.agent.task_commands import (
    OPTION,
    SCRIPT_RUN,
    command_inputs,
    command_outputs,
    example_outputs,
    reference_outputs,
    task_checks,
    task_commands,
    unchanged_commands,
    wrong_commands,
)
from hearth.agent.tests_added import no_test_added
from hearth.agent.versions import Versions, is_test_file
from hearth.agent.versions import tried as versions_tried
from hearth.core.errors import Blocked, LimitReached, TaskDone, ToolError
from hearth.core.events import (
    Event,
    HearthMessage,
    ModelReply,
    ModelUsed,
    Notice,
    NoticeReason,
    PermissionDecided,
    ToolResult,
    UserMessage,
)
from hearth.core.types import ToolCall
from hearth.prompts import render
from hearth.sandbox.secrets import is_secret_path
from hearth.tools.builtin.pycheck import IGNORES, still_ignored, undefined_names

ROUNDS = 2  # a contradicted finish goes back to the model this many times per turn
NOTICE = NoticeReason.FINISH_UNSUPPORTED
RUNS = frozenset({"shell", "python"})  # running code: evidence, and maybe a change (sed -i, git mv)
COMMITS = frozenset({"git_commit"})
TEST_SKIPPED_DIRS = frozenset(
    {"node_modules", "__pycache__", "venv", ".venv", "build", "dist", "site-packages"}
)
# Without pytest in the sandbox (a system python3), the test files' own test functions and
# unittest cases run under agent/plain_runner instead (its text, sent to `python3 -`).
PLAIN_RUNNER = "\n" + (Path(__file__).parent / "plain_runner.py").read_text(encoding="utf-8")
PYTEST = (
    "if python3 -c 'import pytest' 2>/dev/null; then PYTHONDONTWRITEBYTECODE=1 python3 -m pytest -q -x "
    f"-p no:cacheprovider; else python3 - <<'HEARTH_TESTS'{PLAIN_RUNNER}HEARTH_TESTS\nfi"
)
# nothing was checked: no tests collected, no pytest, or the run outlived TEST_SECONDS
NO_TESTS = ("[exit code 5]", "No module named pytest", "no tests ran", "[killed: no exit after")
TEST_SECONDS = 300
CHECK_ID = "hearth-check-"  # the id of each call the finish review makes itself
SAID = (Notice, ModelUsed)  # events that change nothing in the workspace
SEVERAL_FILES_VERSIONS = 2  # versions asked for when the task asks changes to several files
COMMAND_SECONDS = 60
GIT_SECONDS = 30
_TRACEBACK = "Traceback (most recent call last)"
# argparse refusing the command the task gives ("unrecognized arguments: --sep"): the option the
# task asks for is not there
_USAGE_ERROR = re.compile(r"^(?:Error: )?usage: \S+.*\n(?:.*\n)*?\S+: error: ", re.MULTILINE)
_SAYS_PRINTS = re.compile(r"\b(?:prints?|outputs?|writes? out|shows?)\b", re.IGNORECASE)
# Claims in the summary's own words: "committed" (not "not committed"), and a change said as done
# ("Added ...", "I fixed ...", "has been updated"), not a word in an answer about the files.
_COMMIT_CLAIM = re.compile(r"\bcommitted\b", re.IGNORECASE)
_VERBS = (
    r"(?:added|fixed|updated|changed|modified|bumped|renamed|wrote|written|created|replaced|removed|"
    r"deleted|edited|implemented|corrected|refactored)\b"
)
_DONE_WORD = re.compile(rf"\b(?:{_VERBS}|committed\b)", re.IGNORECASE)
_CHANGE_CLAIM = re.compile(
    rf"(?:^|[.!:;]\s+|\n\s*[-*]?\s*|\bI\s+(?:have\s+|'ve\s+)?|\b(?:has|have)\s+been\s+){_VERBS}",
    re.IGNORECASE,
)
_TESTS_CLAIM = re.compile(
    r"\btests?\b[^.\n]{0,30}\b(?:pass|passes|passed|passing|succeed\w*)\b", re.IGNORECASE
)
# A command in backticks on a line of AGENTS.md that speaks of tests ("Run the tests with `make check`").
_AGENTS_TEST = re.compile(r"^(?=[^\n]*\b(?:tests?|pytest)\b)[^`\n]*`([^`\n]+)`", re.IGNORECASE | re.MULTILINE)


@dataclass
class Turn:
    """What this turn's calls did, read from its events."""

    results: list[tuple[ToolCall | None, ToolResult]]

    @classmethod
    def of(cls, history: Sequence[Event]) -> Turn:
        start = max((i for i, e in enumerate(history) if isinstance(e, UserMessage)), default=-1)
        calls: dict[str, ToolCall] = {}
        results: list[tuple[ToolCall | None, ToolResult]] = []
        for event in history[start + 1 :]:
            if isinstance(event, ModelReply):
                calls.update((c.id, c) for c in event.tool_calls)
            elif isinstance(event, ToolResult):
                results.append((calls.get(event.call_id), event))
        return cls(results)


def _tail(text: str, lines: int) -> str:
    """The last `lines` lines of a command's output (at most 100 characters a line on average)."""
    return "\n".join(text.strip().splitlines()[-lines:])[-lines * 100 :]


def _created(turn: Turn, path: str) -> bool:
    """Whether the turn's first write of `path` that went through created it (a new file)."""
    for call, result in turn.results:
        written = (
            call.arguments.get("path") if call is not None and result.name in ("write", "edit") else None
        )
        if result.ok and isinstance(written, str) and os.path.normpath(written) == os.path.normpath(path):
            return result.output.startswith("Created ")
    return False


def refused_secret(history: Sequence[Event]) -> str:
    """A file the task names that a file tool refused in this turn for looking like a secret
    (`.env`, `app.env`, keys ...): the work the task asks for cannot be done without the person
    allowing it, so a finish is not done, and sending it back changes nothing. "" when none."""
    task = task_of(history)
    for call, result in Turn.of(history).results:
        path = str(call.arguments.get("path") or "") if call is not None else ""
        if result.ok or not path or not is_secret_path(os.path.normpath(path)):
            continue
        if re.search(rf"(?<![\w.-]){re.escape(os.path.normpath(path))}(?![\w-])", task):
            return os.path.normpath(path)
    return ""


def refused_for_approval(history: Sequence[Event], changes: Callable[[str], bool]) -> tuple[str, str]:
    """A file the task names whose change a file tool was refused in this turn for needing a
    person's approval, with no one to ask (a control file: `.vscode/settings.json`, which VS
    Code applies on opening), with the policy's reason: as with a secret, the model can do
    nothing about it (the 1.5B wrote the same file again until the loop guard stopped it, exit
    2). ("", "") when none."""
    task = task_of(history)
    start = max((i for i, e in enumerate(history) if isinstance(e, UserMessage)), default=-1)
    for event in history[start + 1 :]:
        if not isinstance(event, PermissionDecided) or event.allowed or event.by != "headless":
            continue
        if not changes(event.tool):  # a file tool's change, not a command
            continue
        path = os.path.normpath(event.subject) if event.subject else ""
        if path and re.search(rf"(?<![\w.-]){re.escape(path)}(?![\w-])", task):
            return path, event.reason
    return "", ""


def person_needed(history: Sequence[Event], dispatcher: Dispatcher) -> Blocked | None:
    """The stop of a turn whose task needs what only a person can give, with no one to ask: a
    secret file the task names that a file tool refused, or a change to a file the task names
    refused for approval. Nothing the model does changes it, whether it finishes or writes the
    same file again until the loop guard stops it (text mode's 1.5B did that, exit 2)."""
    secret = refused_secret(history)
    if secret:
        text = render("finish_blocked_secret", path=secret)
        return Blocked(text, final_text=text)
    path, why = refused_for_approval(history, lambda name: changing(dispatcher, name))
    if path:
        text = render("finish_blocked_approval", path=path, why=why)
        return Blocked(text, final_text=text)
    return None


def left_item(task: str, root: Path, named: list[str]) -> str:
    """A plain word the task says to remove still an item of a file it names (agent/removals)."""
    found = left_items(task, root, named)
    return render("finish_problem_leftover_removed", name=found[0][0], places=found[0][1]) if found else ""


def task_of(history: Sequence[Event]) -> str:
    """The text of the turn's task: the last user message."""
    return next((e.text for e in reversed(history) if isinstance(e, UserMessage)), "")


def planning(history: Sequence[Event]) -> bool:
    """Whether this turn is plan mode's read-only planning (its opening asks for a plan)."""
    for event in reversed(history):
        if isinstance(event, HearthMessage) and event.reason in ("plan", "plan_approved"):
            return event.reason == "plan"  # after the approval the plan is carried out: judged
        if isinstance(event, UserMessage):
            return False
    return False


def changing(dispatcher: Dispatcher, name: str) -> bool:
    """A tool that changes things (write, edit, git_commit ...), other than running code."""
    tool = dispatcher.toolset.get(name)
    return tool is not None and not tool.read_only and tool.name not in RUNS


def _canonical(dispatcher: Dispatcher, name: str) -> str:
    tool = dispatcher.toolset.get(name)
    return tool.name if tool is not None else name


def failed_change(turn: Turn, dispatcher: Dispatcher, kept: Sequence[str] = ()) -> str:
    """The error of the turn's last attempted change when it failed and no change of the same
    target (the same file; for a tool with no path, the same tool) worked in the turn. A change
    refused after the same file was changed well (the fixed script about to be overwritten with
    its expected output, or `kept`: files Hearth wrote that the checks pass) leaves the good
    change standing; a write refused because the file already has its content lost nothing."""
    not_run = render("error_one_call")  # skipped by the one-call rule: never tried, not failed
    attempts = [
        (c, r)
        for c, r in turn.results
        if c is not None and changing(dispatcher, r.name) and r.output != not_run
    ]
    if not attempts:
        return ""
    call, result = attempts[-1]
    if result.ok or result.output.startswith("Denied:"):
        return ""  # a refusal by the policy is its answer, not the work failing
    target = call.arguments.get("path")
    name = _canonical(dispatcher, result.name)
    if UNCHANGED in result.output or target in kept:
        # a write of a file as it is lost nothing (what else is wrong is judged after this);
        # `kept`: the version did the work
        return ""
    if any(
        r.ok and (c.arguments.get("path") == target if target else _canonical(dispatcher, r.name) == name)
        for c, r in attempts
    ):
        return ""
    first = result.output.strip().splitlines()[0] if result.output.strip() else "it failed"
    shown = f"{result.name} {target}" if isinstance(target, str) else result.name
    return render("finish_problem_change_failed", call=shown, error=first)


def committed_last(turn: Turn, dispatcher: Dispatcher) -> bool:
    """Whether a commit worked in the turn after its last change of a file."""
    committed = False
    for call, result in turn.results:
        name = _canonical(dispatcher, result.name)
        if not result.ok or call is None:
            continue
        if name in COMMITS or (name == "shell" and "git commit" in str(call.arguments.get("command"))):
            committed = True
        elif changing(dispatcher, name) and "path" in call.arguments:
            committed = False
    return committed


def switched_to(turn: Turn, dispatcher: Dispatcher, branch: str) -> bool:
    """Whether a step of the turn switched to `branch` (git_branch, or git checkout/switch)."""
    for call, result in turn.results:
        if not result.ok or call is None:
            continue
        name, args = _canonical(dispatcher, result.name), call.arguments
        if name == "git_branch" and args.get("name") == branch and args.get("switch"):
            return True
        command = str(args.get("command", "")) if name == "shell" else ""
        if re.search(rf"\bgit\s+(?:checkout|switch)\b.*\s{re.escape(branch)}(?:\s|$)", command):
            return True
    return False


def claim_problem(turn: Turn, dispatcher: Dispatcher, summary: str) -> str:
    """A claim in the summary that no event of the turn backs."""
    names = [(_canonical(dispatcher, r.name), call, r) for call, r in turn.results if r.ok]
    if claims_commit(summary) and not committed_last(turn, dispatcher):
        return render("finish_problem_no_commit")
    if _CHANGE_CLAIM.search(summary) and not any(
        changing(dispatcher, name) or name in RUNS for name, _, _ in names
    ):
        return render("finish_problem_no_change")
    return ""


def missing_claimed(history: Sequence[Event], summary: str, root: Path) -> str:
    """A file the task names that a sentence of the summary names too (not denying it) and
    that is not in the workspace: ".gitignore was added and committed" with no .gitignore."""
    task = task_of(history)
    moved = {m.group(1) for m in FILE_MOVE.finditer(task)}  # gone by design: "Renamed notes.txt"
    asked = set(asked_names(task)) - moved
    written = {name for _, name in command_outputs(task, root)}
    for sentence in re.split(r"(?<=[.!?])\s+|\n", summary):
        if NEGATION.search(sentence) or not _DONE_WORD.search(sentence):
            continue  # not a claim that something was done ("Create counts.py" in a plan)
        for name in asked_names(sentence):
            if name in asked and not os.path.lexists(root / name):
                if os.path.normpath(name) in written:
                    continue  # the command's to write: it is run, and judged by what it wrote
                return render("finish_problem_missing", name=name)
    return ""


def asked_unchanged(
    history: Sequence[Event], turn: Turn, dispatcher: Dispatcher, kept: Sequence[str] = ()
) -> str:
    """A file in the workspace that a sentence of the task asking for a change names (before any
    "not": "Fix stats.py (do not change the tests)"), which no write or edit of the turn changed:
    "Add a test for it to test_greet.py" with test_greet.py as it was (`kept`: files a version
    of Hearth's changed, agent/versions). Not judged when a command
    ran (it may have changed the file); the finish review's own runs of the tests and the task's
    commands are not the model's, and do not count."""
    if any(
        r.ok and _canonical(dispatcher, r.name) in RUNS and not r.call_id.startswith(CHECK_ID)
        for _, r in turn.results
    ):
        return ""
    changed = {
        os.path.normpath(str(c.arguments.get("path")))
        for c, r in turn.results
        if r.ok and c is not None and changing(dispatcher, r.name) and c.arguments.get("path")
    } | {os.path.normpath(k) for k in kept}
    task = task_of(history)
    root = dispatcher.context.workspace
    for name in asked_files(task):
        if os.path.isfile(root / name) and os.path.normpath(name) not in changed:
            return render("finish_problem_file_unchanged", name=name)
    return ""


def claims_commit(summary: str) -> bool:
    """A sentence of the summary says something was committed, and does not deny it."""
    sentences = re.split(r"(?<=[.!?])\s+|\n", summary)
    return any(_COMMIT_CLAIM.search(s) and not NEGATION.search(s) for s in sentences)


def changed_python(turn: Turn, dispatcher: Dispatcher) -> list[str]:
    """The .py paths the turn's successful writes and edits named, each once."""
    paths = [
        str(call.arguments.get("path"))
        for call, r in turn.results
        if r.ok and call is not None and changing(dispatcher, r.name)
        if str(call.arguments.get("path", "")).endswith(".py")
    ]
    return list(dict.fromkeys(paths))


def target_file(turn: Turn, dispatcher: Dispatcher, task: str) -> str:
    """The file the model was changing last (a write or edit, whether it worked or not) that is
    not a test file, and is one the task asks to change when it names any; else the one file the
    task asks to change that is in the workspace and not a test file. "" when there is no such
    file. (The 1.5B wrote the task's input, poem.txt, back unchanged, and the versions varied
    the poem rather than the script the task's command runs.)"""
    root = dispatcher.context.workspace
    tests = tests_asked(task)
    named = [p for p in asked_files(task) if (tests or not is_test_file(p)) and (root / p).is_file()]
    asked = {os.path.normpath(p) for p in named}
    for call, result in reversed(turn.results):
        path = call.arguments.get("path") if call is not None else None
        if not isinstance(path, str) or not changing(dispatcher, result.name):
            continue
        if is_test_file(path) and not tests:
            continue
        if not asked or os.path.normpath(path) in asked:
            return path
    return named[0] if len(named) == 1 else ""


def _befores(
    turn: Turn, dispatcher: Dispatcher, history: Sequence[Event]
) -> tuple[dict[str, str], dict[str, str]]:
    """The non-Python files the turn wrote, with their text before it: as the model first read it
    whole in the turn; and the same with the files as shown with the task (the first look) in
    place of a read."""
    written = {
        os.path.normpath(str(c.arguments.get("path")))
        for c, r in turn.results
        if r.ok and c is not None and changing(dispatcher, r.name)
    }
    reads: dict[str, str] = {}
    for call, result in turn.results:
        if call is None or not result.ok or _canonical(dispatcher, result.name) != "read":
            continue
        path = os.path.normpath(str(call.arguments.get("path")))
        whole = int(call.arguments.get("offset") or 1) <= 1
        before = read_text(result.output) if whole and path in written and path not in reads else None
        if before is not None:
            reads[path] = before
    shown = {os.path.normpath(name): text for name, text in shown_texts(history).items()}
    seen = reads | {path: text for path, text in shown.items() if path in written}
    return (
        {path: text for path, text in reads.items() if not path.endswith(".py")},
        {path: text for path, text in seen.items() if not path.endswith(".py")},
    )


def lost_section(turn: Turn, dispatcher: Dispatcher, task: str, history: Sequence[Event]) -> str:
    """A section of a non-Python file the turn wrote, there when the model read it (agent/sections),
    gone now, and not named by the task; or a run of its lines the turn left twice where the task
    asks no copy. "" when neither. Python files are left to the change guard."""
    # copies are judged from the file as shown with the task too; sections only from a read (the
    # braces of a JSON file shown and written again on one line would read as a lost section)
    reads, seen = _befores(turn, dispatcher, history)
    paths = dispatcher.context.paths
    now = {path: current_text(paths, path) for path in seen}
    found = _key_problem(seen, now, task)
    if found:
        return found
    for path, before in reads.items():
        text = now[path]
        lost = dropped(before, text, task) if text is not None else []
        if lost:
            return render("finish_problem_section_dropped", path=path, block=lost[0])
    for path, before in seen.items():
        text = now[path]
        twice = doubled(before, text, task) if text is not None else ""
        if twice:
            return render("finish_problem_copied", path=path, block=twice)
    return ""


def _key_problem(seen: dict[str, str], now: dict[str, str | None], task: str) -> str:
    """A key of a JSON or TOML file the turn wrote that the write left out, or an item the task
    adds to one of its lists that is not there (agent/keys); "" when neither."""
    for path, before in seen.items():
        text = now[path]
        if text is None:
            continue
        lost = keys.lost_keys(path, before, text, task)
        if lost:
            where, value = lost[0]
            shown = keys.shown_value(value)
            return render("finish_problem_key_dropped", path=path, key=".".join(where), value=shown)
        missing = keys.unadded(path, text, task)
        if missing:
            item, name, held = missing
            return render("finish_problem_list_unadded", path=path, item=item, key=name, now=held)
    return ""


def changed_any(turn: Turn, dispatcher: Dispatcher) -> bool:
    """Whether the model wrote or edited a file in this turn (whether it worked or not)."""
    return any(call is not None and changing(dispatcher, r.name) for call, r in turn.results)


def traced_file(failure: str, dispatcher: Dispatcher, task: str) -> str:
    """The workspace file the failure's traceback ends in (its deepest frame there), when it may
    be varied: a test file only when the task asks a rename and names the file (the 1.5B renamed
    the method in the code and left a test calling the old name; a test file is otherwise the
    judge, never varied). "" when the traceback ends in no such file (an assertion in a test the
    task does not ask to change)."""
    root = str(dispatcher.context.workspace)
    for name in reversed(_FRAME.findall(failure)):
        rel = os.path.relpath(name, root) if os.path.isabs(name) else os.path.normpath(name)
        if rel.startswith("..") or not os.path.isfile(os.path.join(root, rel)):
            continue  # the interpreter's own files, pytest's
        if is_test_file(rel) and not (
            (renamed(task) and rel in asked_files(task, asides=True))
            or (tests_asked(task) and rel in asked_files(task))
        ):
            return ""
        return rel
    return ""


_FRAME = re.compile(r'^\s*File "([^"]+)", line \d+', re.MULTILINE)


def broken_python(dispatcher: Dispatcher, paths: list[str]) -> str:
    """The first changed Python file that does not parse now, or that uses a name it never
    defines or imports (running it fails with NameError), with what is wrong. The write's own
    result said so already; a model that finishes over it has not fixed it."""
    workspace_paths = dispatcher.context.paths
    for shown in paths:
        try:
            fd = workspace_paths.open(workspace_paths.resolve(shown), os.O_RDONLY)
        except (OSError, ToolError):
            continue  # deleted or moved since: nothing to parse
        with os.fdopen(fd, "rb") as fh:
            source = fh.read(1 << 20)
        try:
            missing = undefined_names(ast.parse(source, filename=shown))
        except SyntaxError as exc:
            return render("finish_problem_syntax", path=shown, line=exc.lineno or 0, error=exc.msg)
        except (ValueError, RecursionError, MemoryError):
            continue
        if missing:
            names = ", ".join(f"`{name}` (line {line})" for name, line in missing[:3])
            return render("finish_problem_undefined", path=shown, names=names)
    return ""


_IGNORED = re.compile(rf"(\w+)\(\) {IGNORES} `(\w+)`")


def own_failed_run(turn: Turn, dispatcher: Dispatcher) -> str:
    """The model's last run of a Python script the turn changed, when it came after the turn's
    last change and crashed with a traceback: its command (a plain `python3 script.py args`, no
    shell syntax), to run again as a check. "" when there is none."""
    changed: set[str] = set()
    last = ""
    for call, result in turn.results:
        if call is None or result.call_id.startswith(CHECK_ID):
            continue
        name = _canonical(dispatcher, result.name)
        if result.ok and changing(dispatcher, name):
            changed.add(os.path.normpath(str(call.arguments.get("path", ""))))
            last = ""
        elif name == "shell":
            command = str(call.arguments.get("command", ""))
            plain = _PLAIN_RUN.fullmatch(command.strip())
            crashed = plain is not None and _TRACEBACK in result.output
            last = (
                command.strip() if crashed and plain and os.path.normpath(plain.group(1)) in changed else ""
            )
    return last


_PLAIN_RUN = re.compile(r"python3?\s+((?:[\w-]+/)*[\w-]+\.py)(?:\s+[\w./:=,-]+)*")


def stuck_rewrite(history: Sequence[Event]) -> str:
    """The file of the turn's last event when that is a write refused because it would change
    nothing (the 1.5B, after its script crashed, wrote the same text back again and again);
    else ""."""
    last = history[-1] if history else None
    if not (isinstance(last, ToolResult) and not last.ok and UNCHANGED in last.output):
        return ""
    call, _ = Turn.of(history).results[-1]
    return str((call.arguments.get("path") if call is not None else None) or "the file")


def ignored_parameter(turn: Turn, dispatcher: Dispatcher) -> str:
    """A function the turn's last change of a Python file left ignoring a parameter it used
    before (the change's result said so: see pycheck), still ignoring it now."""
    last: dict[str, str] = {}
    for call, result in turn.results:
        path = call.arguments.get("path") if call is not None else None
        if result.ok and isinstance(path, str) and changing(dispatcher, result.name):
            last[os.path.normpath(path)] = result.output
    for path, output in last.items():
        found = _IGNORED.findall(output)
        text = current_text(dispatcher.context.paths, path) if found else None
        for function, param in found if text is not None else []:
            if still_ignored(text or "", function, param):
                return render("finish_problem_ignored_parameter", path=path, function=function, param=param)
    return ""


def test_command(root: Path) -> str:
    """The project's test command: one AGENTS.md names in backticks, else pytest when there are
    test files (test_*.py, *_test.py) in the workspace or pyproject.toml configures pytest; ""
    when there is nothing to run."""
    found = _AGENTS_TEST.search(_plain_text(root, "AGENTS.md", 20_000))
    if found:
        return found.group(1).strip()
    if "[tool.pytest" in _plain_text(root, "pyproject.toml", 50_000):
        return PYTEST
    return PYTEST if _has_test_files(root) else ""


def _plain_text(root: Path, name: str, limit: int) -> str:
    """The start of a regular file directly in the workspace; "" for a symlink (a cloned
    repository's AGENTS.md pointing out of the workspace is not read), a folder or no file."""
    try:
        fd = os.open(root / name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return ""
    with os.fdopen(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
            return ""
        return fh.read(limit).decode("utf-8", errors="replace")


def _has_test_files(root: Path, depth: int = 3) -> bool:
    level = [root]
    for _ in range(depth):
        below: list[Path] = []
        for folder in level:
            try:
                entries = list(os.scandir(folder))
            except OSError:
                continue
            for entry in entries:
                if entry.name.startswith(".") or entry.name in TEST_SKIPPED_DIRS:
                    continue
                if entry.is_dir(follow_symlinks=False):
                    below.append(Path(entry.path))
                elif entry.name.endswith(".py") and (
                    entry.name.startswith("test_") or entry.name.endswith("_test.py")
                ):
                    return True
        level = below
    return False


@dataclass
class FinishReview:
    """Judges a small model's finish (the rules are in the module's docstring)."""

    dispatcher: Dispatcher
    record: Callable[[Event], None]
    state: SessionState | None = None  # the session's (its permission mode and rules)
    versions: Versions | None = None  # asks for other versions of a file the checks fail on
    # The last result of each of the review's own commands, with the history's length after it:
    # with nothing but words recorded since, nothing changed, and it is not run again (the
    # finish's problem and then the versions' first check asked for the same test run).
    _ran: dict[tuple[str, int], tuple[int, ToolResult]] = field(default_factory=dict)
    _failure: str = ""  # what the checks printed when versions were last asked for

    async def accepts(self, history: Sequence[Event], done: TaskDone, *, rewritten: str = "") -> bool:
        """True when the evidence supports the finish. False when it goes back to the model (a
        notice saying what is wrong was recorded); raises LimitReached once it went back ROUNDS
        times in this turn. `rewritten`: the finish is a write of that file's own text (the model
        said nothing about being done, and the notice does not say it did)."""
        if planning(history):
            return True  # a plan changes nothing and claims nothing yet
        blocked = person_needed(history, self.dispatcher)
        if blocked is not None:
            raise blocked
        summary = done.final_text or done.reason
        problem = await self.problem(history, summary)
        if problem:
            kept = await self.try_versions(history)
            if kept:
                problem = await self.problem(history, summary, kept=kept)
        if not problem:
            return not self._checklist(history)
        self.end_if_versions_failed(problem)
        start = max((i for i, e in enumerate(history) if isinstance(e, UserMessage)), default=-1)
        rounds = sum(1 for e in history[start + 1 :] if isinstance(e, Notice) and e.reason == NOTICE)
        if rounds >= ROUNDS:
            raise LimitReached(f"the model finished, but the evidence says the work is not done: {problem}")
        said = (
            render("notice_rewrite_unsupported", path=rewritten, problem=problem)
            if rewritten
            else render("notice_finish_unsupported", problem=problem)
        )
        self.record(Notice(reason=NOTICE, text=said))
        return False

    def end_if_versions_failed(self, problem: str = "") -> None:
        """Raises LimitReached when a round of versions was just tried and none passed. After
        such a round the 1.5B's own steps passed nothing in any of 45 held-out runs over four
        suites (nor did a second round, in ten): what was left of the turn, a median of 79 s,
        only re-sent the conversation. The turn ends not done, saying what still fails
        (`problem`, else what the failing checks printed)."""
        if self.versions is not None and self.versions.failed:
            path = self.versions.failed[-1]
            tail = _tail(self._failure, 15)
            problem = problem or render("stop_checks_fail", output=tail).strip()
            raise LimitReached(render("stop_versions_failed", problem=problem, path=path).strip())

    def _checklist(self, history: Sequence[Event]) -> bool:
        """At the first finish of a turn that changed files for a task asking several changes:
        the changes listed with the files as they are now (agent/parts), recorded; True when it
        was. It goes back once and is not a finish contradicted (it spends no round)."""
        if parts.shown(history):
            return False
        written: list[str] = []  # each file once, however often it was written
        for call, result in Turn.of(history).results:
            path = call.arguments.get("path") if call is not None else None
            if (
                result.ok
                and isinstance(path, str)
                and path not in written
                and changing(self.dispatcher, result.name)
            ):
                written.append(path)
        paths = self.dispatcher.context.paths
        changed = [(p, t) for p in written if (t := current_text(paths, p)) is not None]
        text = parts.checklist(task_of(history), changed) if changed else ""
        if text:
            self.record(Notice(reason=parts.REASON, text=text))
        return bool(text)

    async def rescued(self, history: Sequence[Event]) -> bool:
        """For a turn stopped going in circles: whether a version of the file the model was
        changing (agent/versions) makes the checks pass and nothing else the evidence says is
        wrong (then the turn ends done)."""
        kept = await self.try_versions(history)
        return bool(kept) and not await self.problem(history, "", kept=kept)

    async def try_versions(self, history: Sequence[Event]) -> tuple[str, ...]:
        """The files a version (agent/versions) or a finished rename was kept for, in up to
        `versions.ROUNDS` rounds a turn, when the workspace's checks fail now; () when none was
        (or there were no checks, or no file to vary)."""
        if self.versions is None or self.versions.count < 1 or versions_tried(history):
            return ()
        task, turn = task_of(history), Turn.of(history)
        if file_not_moved(task, self.dispatcher.context.workspace):
            return ()  # a version of a file's text moves no file: the move goes back first
        finished = (
            await self._rename_finished(history, task)
            or await self._move_finished(history, task)
            or await self._removal_finished(history, task)
        )
        if finished:
            return finished
        path = target_file(turn, self.dispatcher, task)
        failure = (
            await self.checks_failing(history, task) if path or changed_any(turn, self.dispatcher) else None
        )
        if failure == "" and path:  # the checks pass, but a function prints what it is to return
            failure = returns_nothing(task, self.dispatcher.context.workspace, [path])
        if not failure:
            return ()  # nothing to judge versions by, or nothing fails
        self._failure = failure
        path = traced_file(failure, self.dispatcher, task) or path
        if not path:
            return ()

        async def check() -> str:
            found = await self.checks_failing(history, task)
            if found == "":  # a version whose function prints what the task says it returns
                return returns_nothing(task, self.dispatcher.context.workspace, [path])
            return "the checks could not run" if found is None else found

        # A task asking changes to several files is seldom done by a version of one: two tries
        # (the rest of the turn's time is the model's). Over the held-out suites versions passed
        # exercises (a function written from its spec), and one of nine multi-file tasks' tries
        # kept a version, at 25 s a version.
        most = SEVERAL_FILES_VERSIONS if len(asked_files(task, asides=True)) > 1 else None
        shown = {os.path.normpath(name): text for name, text in shown_texts(history).items()}
        start = shown.get(os.path.normpath(path))
        if start is None and _created(turn, path):
            start = ""  # a new file: the second version is asked from the task alone
        inputs = command_inputs(task, self.dispatcher.context.workspace)
        kept = await self.versions.find(path, task, failure, check, most=most, start=start, inputs=inputs)
        return (path,) if kept else ()

    async def _rename_finished(self, history: Sequence[Event], task: str) -> tuple[str, ...]:
        """A rename the task asks, left in some files while the checks fail: the old name
        replaced as a word there (agent/leftovers), written like a version and kept when the
        checks then pass (the 1.5B rewrote a test file whole, renaming the calls and losing an
        import, where one word a line was to change). When that is not enough, the same from the
        files as they were shown with the task (the lost import comes back). A task that asks
        for nothing but renames, with no checks to run, is judged by what is written: no Python
        file broken, no old name left (the 1.5B renamed an environment variable and lost the
        line defining API_URL). The files changed, or ()."""
        assert self.versions is not None
        root = self.dispatcher.context.workspace
        shown = shown_texts(history)
        tries = [rest_of_rename(task, root)]
        if shown:
            tries.append(rest_of_rename(task, root, start=shown))
        tries = [changes for i, changes in enumerate(tries) if changes and changes not in tries[:i]]
        if not tries:
            return ()
        failing = await self.checks_failing(history, task)
        if failing == "" or (failing is None and not only_renames(task)):
            return ()  # nothing fails; or no checks, and more asked than renames
        for changes in tries:
            written = await self._finisher_tried(changes, history, task, checked=failing is not None)
            if written:
                files = ", ".join(written)
                notice = render("notice_rename_finished", files=files)
                self.record(Notice(reason=NoticeReason.VERSIONS, text=notice))
                return tuple(written)
        return ()

    async def _move_finished(self, history: Sequence[Event], task: str) -> tuple[str, ...]:
        """A move the task asks only (agent/moves), left undone in some files when the finish
        goes back: each file with the move made, written like a version and kept when the checks then
        pass (the 1.5B's writes of the new module and the source were made as the move; app.py,
        never written, still imported the functions from the source). The files changed, or ()."""
        move = move_asked(task)
        if move is None:
            return ()
        paths = self.dispatcher.context.paths
        changes = rest_of_move(
            move,
            self.dispatcher.context.workspace,
            shown_texts(history),
            lambda rel: current_text(paths, rel),
        )
        if not changes:
            return ()
        # a file the task says to import from the new module, left importing from the source,
        # is the move half done even where the source still holds the name and the checks pass
        failing = await self.checks_failing(history, task)
        written = await self._finisher_tried(changes, history, task, checked=failing is not None)
        if not written:
            return ()
        notice = render("notice_move_finished", files=", ".join(written))
        self.record(Notice(reason=NoticeReason.VERSIONS, text=notice))
        return tuple(written)

    async def _removal_finished(self, history: Sequence[Event], task: str) -> tuple[str, ...]:
        """A removal the task asks, left in a data file the task names where the name is a line
        of its own (a table row, a list item, a key, a section: agent/removals): those lines
        deleted, written like a version and kept when nothing is then left and the checks (if
        any) pass. The files changed, or ()."""
        root = self.dispatcher.context.workspace
        named = asked_names(task) + bare_names(task, root)
        changes = rest_of_removal(task, root, named)
        if not changes:
            return ()
        names = ", ".join(f"`{name}`" for name in removed_items(task, root, named))
        failing = await self.checks_failing(history, task)
        written = await self._finisher_tried(changes, history, task, checked=failing is not None)
        if not written:
            return ()
        notice = render("notice_removal_finished", names=names, files=", ".join(written))
        self.record(Notice(reason=NoticeReason.VERSIONS, text=notice))
        return tuple(written)

    async def _finisher_tried(
        self, changes: dict[str, tuple[str, str]], history: Sequence[Event], task: str, *, checked: bool
    ) -> list[str] | None:
        """The files a finished rename or removal changed, written and kept when they pass
        (`checked`: the checks; else no Python file broken and no old or removed name left); None
        (each file put back) when they do not, or a write did not go through or would ask the
        person."""
        assert self.versions is not None
        if not all(self.versions.allowed(p) for p in changes):
            return None
        written: list[str] = []
        passed = False
        try:
            for path, (_, after) in changes.items():
                if not await self.versions.write(path, after, -1):
                    break
                written.append(path)
            passed = len(written) == len(changes) and await self._finished_sound(
                history, task, written, checked
            )
        finally:
            if not passed:
                for path in written:
                    self.versions.restore(path, changes[path][0])
        return written if passed else None

    async def _finished_sound(
        self, history: Sequence[Event], task: str, written: list[str], checked: bool
    ) -> bool:
        if checked:
            return await self.checks_failing(history, task) == ""
        root = self.dispatcher.context.workspace
        # every Python file the turn changed, the model's too: a file it broke is not made sound
        # by renaming the others
        changed = changed_python(Turn.of(history), self.dispatcher)
        python = list(dict.fromkeys([*changed, *(p for p in written if p.endswith(".py"))]))
        named = asked_names(task) + bare_names(task, root)
        return not broken_python(self.dispatcher, python) and not leftover_problem(task, root, named)

    async def checks_failing(self, history: Sequence[Event], task: str) -> str | None:
        """What the workspace's checks print when they fail now: the project's tests, then the
        commands the task gives (a traceback, or an output other than the stated one), then the
        model's own last run of its script when that crashed (`own_failed_run`). "" when they
        pass; None when there are none to run."""
        root = self.dispatcher.context.workspace
        command = test_command(root)
        result = await self._run_tests(command, history) if command else None
        if result is not None and not result.ok:
            return _tail(result.output, 20)
        checked = result is not None
        if task_checks(task, root):
            found = await self._run_task_commands(history, task)
            if found:
                return found
            checked = True
        matched = await self._run_reference_commands(history, task)
        if matched is not None:
            if matched:
                return matched
            checked = True
        examples = await self._run_examples(history, task)
        if examples is not None:
            if examples:
                return examples
            checked = True
        own = own_failed_run(Turn.of(history), self.dispatcher)
        if own:  # the model's own run of its script crashed: run again, it is the check
            ran = await self._shell(own, history, COMMAND_SECONDS)
            if ran is not None and _TRACEBACK in ran.output:
                return _tail(ran.output, 12)
            checked = True
        return "" if checked else None

    async def problem(self, history: Sequence[Event], summary: str, kept: Sequence[str] = ()) -> str:
        """What the evidence says is wrong with a finish ("" when nothing). `kept`: files Hearth
        wrote that the checks pass (a version, agent/versions, or a finished rename): changed in
        this turn."""
        turn = Turn.of(history)
        task = task_of(history)
        found = (
            failed_change(turn, self.dispatcher, kept)
            or claim_problem(turn, self.dispatcher, summary)
            or missing_claimed(history, summary, self.dispatcher.context.workspace)
        )
        found = found or await self._git_problem(task, turn, history)
        if found:
            return found
        touched = bool(kept) or any(
            r.ok and (changing(self.dispatcher, r.name) or _canonical(self.dispatcher, r.name) in RUNS)
            for _, r in turn.results
        )
        if not touched:
            root = self.dispatcher.context.workspace
            asks = (ASKS_ANY_CHANGE.search(task) and asked_names(task)) or new_file_asked(task, root)
            if asks:
                return render("finish_problem_nothing_done")
            # nothing changed, and the tests the task says fail fail still: not done, whatever
            # the wording of the ask (the 1.5B wrote watering.py back as it was and was ended 0)
            command = test_command(root) if SAYS_TESTS_FAIL.search(task) else ""
            return _tests_problem(command, await self._run_tests(command, history) if command else None)
        root = self.dispatcher.context.workspace
        named = asked_names(task) + bare_names(task, root)
        shown = {os.path.normpath(n): t for n, t in shown_texts(history).items()}
        missing = new_file_asked(task, root)  # "- add a .gitignore that ...", and none was made
        found = (
            file_not_moved(task, root)
            or left_behind(task, root, lambda rel: current_text(self.dispatcher.context.paths, rel))
            or (render("finish_problem_missing", name=missing) if missing else "")
            or asked_unchanged(history, turn, self.dispatcher, kept)
            or leftover_problem(task, root, named)
            or left_item(task, root, named)
            or alike_renamed(task, shown, {p: current_text(self.dispatcher.context.paths, p) for p in shown})
            or no_test_added(task, root, shown)
        )
        if found:
            return found
        found = lost_section(turn, self.dispatcher, task, history)
        if found:
            return found
        python = changed_python(turn, self.dispatcher)
        python += [k for k in kept if k.endswith(".py") and k not in python]
        found = (
            broken_python(self.dispatcher, python)
            or ignored_parameter(turn, self.dispatcher)
            or returns_nothing(task, root, python)
        )
        if found:
            return found
        command = test_command(self.dispatcher.context.workspace)
        ran = any(r.ok and _canonical(self.dispatcher, r.name) in RUNS for _, r in turn.results)
        if command == PYTEST and not python and not ran:
            command = ""  # Python tests, and only text files changed (a README): nothing they check
        result = await self._run_tests(command, history) if command else None
        if result is not None and not result.ok:
            return _tests_problem(command, result)
        if result is None or result.ok:
            found = (
                await self._run_task_commands(history, task)
                or await self._run_reference_commands(history, task)
                or await self._run_examples(history, task)
                or unrun_script(turn, self.dispatcher, task)
                or missing_added(task, root, named)
                or undefined_kept(task, root, named)
            )
            if found:
                return found
        if (
            result is None
            and _TESTS_CLAIM.search(summary)
            and not _ran_after_last_change(turn, self.dispatcher)
        ):
            return render("finish_problem_tests_not_run")
        return ""

    async def failing_now(self, task: str, history: Sequence[Event]) -> str:
        """For a task that says the tests fail: their failure as it is before any change (what the
        model is to make pass; a small model that never ran them rewrote the file unchanged).
        "" when the task says no such thing, or nothing fails."""
        command = test_command(self.dispatcher.context.workspace) if SAYS_TESTS_FAIL.search(task) else ""
        result = await self._run_tests(command, history) if command else None
        if result is None or result.ok:
            return ""
        tail = _tail(result.output, 20)
        shown = "the test files' tests" if command == PYTEST else f"`{command}`"
        return render("workspace_tests_fail", command=shown, output=tail)

    async def outputs_now(self, task: str, history: Sequence[Event]) -> list[tuple[str, str]]:
        """For a task that says a command's output stays as it is, or is wrong now: each such
        command with what it prints before any change (run like the finish review's runs: the
        session's permissions and sandbox), for the finish to compare with. A run that fails is
        kept with its failure: failing the same way after the change is not the change's doing."""
        outputs: list[tuple[str, str]] = []
        root = self.dispatcher.context.workspace
        for command in dict.fromkeys(unchanged_commands(task, root) + wrong_commands(task, root)):
            result = await self._shell(command, history, COMMAND_SECONDS)
            if result is not None:
                outputs.append((command, result.output.strip()))
        return outputs

    async def _run_task_commands(self, history: Sequence[Event], task: str) -> str:
        """Run the scripts the task itself runs ("python3 client.py must print the same as
        before"); one that now fails with a Python traceback or refuses its arguments (argparse's
        usage error), or prints other than the output the task states for it, is evidence the
        work is not done."""
        root = self.dispatcher.context.workspace
        before = outputs_before(history)
        failed = {c for c, out in before.items() if _failed(out)}
        writes = dict(command_outputs(task, root))
        same, wrong = unchanged_commands(task, root), wrong_commands(task, root)
        for command, stated in task_checks(task, root):
            kept = before.get(command) if command in same and command not in failed else None
            expected = stated if stated is not None else kept
            written = _stamp(root, writes[command]) if command in writes else None
            result = await self._shell(command, history, COMMAND_SECONDS)
            if result is None:
                continue
            if (
                command in failed
                and command in same
                and _last_line(result.output) == _last_line(before[command])
            ):
                # it failed so before any change (`python3 password.py` with no argument, where the
                # script needs one): no evidence either way; versions were judged by it before
                continue
            if _failed(result.output):
                tail = _tail(result.output, 12)
                return render("finish_problem_command_fails", command=command, output=tail)
            shown = command.removesuffix(" < /dev/null")
            script = shlex.split(command)[1]
            if command in writes and _stamp(root, writes[command]) in (None, written):
                # the 1.5B's script never wrote its output, and the model wrote the file itself
                return render(
                    "finish_problem_command_no_output", command=shown, name=writes[command], script=script
                )
            if expected is None and result.output.strip() == "(no output)" and _SAYS_PRINTS.search(task):
                # the 1.5B's script defined its function and never called it, and it finished
                said = next((m for m in SCRIPT_RUN.finditer(task) if m.group(1) == script), None)
                if said is not None:
                    return _silent(self.dispatcher, said)
            if expected is not None and result.output.strip() != expected:
                got = result.output.strip()[-600:] or "nothing"
                return render("finish_problem_command_output", command=shown, expected=expected, output=got)
            if command in wrong and before.get(command) == result.output.strip():
                # the task says this output is wrong, and the turn left it as it was
                got = result.output.strip()[-600:] or "nothing"
                return render("finish_problem_still_wrong", command=shown, output=got)
            found = output_form(task, root, script, result.output) if expected is None else ""
            found = found or deaf_script(self.dispatcher, shown)
            if found:
                return found
        return ""

    async def _run_reference_commands(self, history: Sequence[Event], task: str) -> str | None:
        """Run the commands the task says must print a workspace file, or lines it shows
        (agent/task_commands: `reference_outputs`, `example_outputs`), and compare: what differs,
        "" when each prints what it must, None when the task gives none. A file is judged as the
        task showed it, before any change: the model's own copy of the expected output is no
        evidence."""
        root = self.dispatcher.context.workspace
        references, examples = reference_outputs(task, root), example_outputs(task, root)
        if not references and not examples:
            return None
        shown = {os.path.normpath(name): text for name, text in shown_texts(history).items()}
        checks = [
            (command, reference, shown[reference] if reference in shown else self._text_now(reference))
            for command, reference in references
        ]
        checks += [(command, "", text) for command, text in examples]
        for command, reference, wanted in checks:
            result = await self._shell(command, history, COMMAND_SECONDS) if wanted is not None else None
            if wanted is None or result is None:
                continue
            found = self._output_problem(task, command, reference, wanted, result.output)
            if found:
                return found
        return ""

    def _text_now(self, path: str) -> str | None:
        return current_text(self.dispatcher.context.paths, path)

    def _output_problem(self, task: str, command: str, reference: str, wanted: str, output: str) -> str:
        """What the review says when `command`'s `output` is not the `wanted` text (the file
        `reference` holds, or the lines the task shows when it is ""); "" when it is."""
        shown_command = command.removesuffix(" < /dev/null")
        script = shlex.split(command)[1]
        if _failed(output):
            return render("finish_problem_command_fails", command=shown_command, output=_tail(output, 12))
        said = next((m for m in SCRIPT_RUN.finditer(task) if m.group(1) == script), None)
        if output.strip() == "(no output)" and said is not None:
            return _silent(self.dispatcher, said)  # only defines functions, most likely
        found = first_difference(wanted, output)
        if found is None:
            return ""
        line, want, got = found
        if reference:
            return render(
                "finish_problem_reference_output",
                command=shown_command, reference=reference, line=line, wanted=want, got=got, script=script,
            )  # fmt: skip
        return render(
            "finish_problem_example_output",
            command=shown_command, block=wanted, line=line, wanted=want, got=got, script=script,
        )  # fmt: skip

    async def _copied_commit(self, task: str, history: Sequence[Event]) -> str:
        """The turn's last commit carries the message of a commit the task quotes, and is not
        that commit (agent/commits): what to do instead. "" when not, or git cannot tell."""
        messages = quoted_messages(task)
        if not messages or not os.path.lexists(self.dispatcher.context.workspace / ".git"):
            return ""
        listing = await self._git(LIST, history)
        found = copied(listing, messages) if listing else None
        output = await self._git(compare(found), history) if found else ""
        files = differs(output, found) if found and output else None
        if found is None or files is None:
            return ""
        head_files, original_files = files
        return render(
            "finish_problem_commit_copied",
            message=found.message,
            short=found.original[:7],
            original_files=", ".join(original_files[:5]) or "no file",
            head_files=", ".join(head_files[:5]) or "no file",
        )

    async def _commit_incomplete(self, task: str, history: Sequence[Event]) -> str:
        """The turn's commit leaves out what the task names: a file it names still has changes
        not committed, or the message is not the one it gives. The 1.5B committed a notes.md of
        its own with the message and a full stop, leaving notes.py and todo.md, and the run ended
        0. How to mend the commit; "" when nothing is left out, or git cannot tell."""
        root = self.dispatcher.context.workspace
        if not asks_commit(task) or asks_amend(task) or not os.path.lexists(root / ".git"):
            return ""
        wanted = new_message(task)
        names = [n for n in asked_names(task) if os.path.lexists(root / n)]
        status = ["git", "status", "--porcelain", "--untracked-files=all", "--", *names]
        left = uncommitted(await self._git(shlex.join(status), history)) if names else []
        if not left and not wanted:
            return ""  # nothing to compare the commit with: git is not read again
        got = (await self._git("git log -1 --format=%B", history)).strip()
        call = "git_commit " + json.dumps({"message": wanted or got, "amend": True})
        if left and got:
            one = len(left) == 1
            have, them = ("still has", "it") if one else ("still have", "them")
            return render(
                "finish_problem_commit_left", files=", ".join(left[:5]), have=have, them=them, call=call
            )
        if wanted and got and got != wanted:
            return render("finish_problem_commit_message", got=got, wanted=wanted, call=call)
        return ""

    async def _git_problem(self, task: str, turn: Turn, history: Sequence[Event]) -> str:
        """What the evidence says is wrong with the git work the task asks (a squash, a branch, a
        commit, a commit brought or undone); "" when nothing."""
        squash = squash_asked(task)
        found = await self._not_squashed(squash, history) if squash is not None else ""
        if not found:
            found = await self._not_restored(task, turn, history)
        branch = asked_branch(task)
        if not found and branch and not switched_to(turn, self.dispatcher, branch):
            found = render("finish_problem_branch", branch=branch)
        if not found and asks_commit(task) and not committed_last(turn, self.dispatcher):
            found = render(
                "finish_problem_amend_asked" if asks_amend(task) else "finish_problem_commit_asked"
            )
        if not found and committed_last(turn, self.dispatcher):
            found = await self._copied_commit(task, history) or await self._commit_incomplete(task, history)
        if not found and asks_undo(task):
            found = await self._not_undone(task, history)
        if not found and merge_asked(task):
            found = await self._not_merged(merge_asked(task), history)
        rebase = rebase_asked(task)
        if not found and rebase is not None:
            found = await self._not_rebased(rebase[0], rebase[1], history)
        reword = reword_asked(task)
        if not found and reword is not None:
            found = await self._not_reworded(*reword, history)
        tag = tag_asked(task)
        if not found and tag is not None:
            found = await self._tag_problem(tag, history)
        return found

    async def _not_reworded(self, old: str, new: str, history: Sequence[Event]) -> str:
        """The task asks to change a commit's message from `old` to `new`, and the history still
        has `old` (agent/commits): how to change it. The 1.5B wrote the new message into notes.txt
        and finished (exit 0). "" when it is changed, or git cannot tell."""
        if not os.path.lexists(self.dispatcher.context.workspace / ".git"):
            return ""
        where = not_reworded(await self._git(SUBJECTS, history), old, new)
        if not where:
            return ""
        command = shlex.join(["git", "commit", "--amend", "--only", "-m", new])
        template = "finish_problem_reword_last" if where == "last" else "finish_problem_reword_older"
        return render(template, old=old, new=new, command=command)

    async def _tag_problem(self, tag: Tag, history: Sequence[Event]) -> str:
        """The task asks for a tag that is missing, on another commit, lightweight where it asks
        an annotated one, or with another message (agent/tags): the command that makes it right.
        "" when it is right, or git cannot tell."""
        if not os.path.lexists(self.dispatcher.context.workspace / ".git"):
            return ""
        wrong = tag_wrong(tag, await self._git(tag_command(tag), history))
        if wrong is None:
            return ""
        return render("finish_problem_tag", state=wrong[0], command=wrong[1], name=tag.name)

    async def _not_restored(self, task: str, turn: Turn, history: Sequence[Event]) -> str:
        """The task asks to bring back a file it names that a commit deleted, and the file is
        missing or not that file (agent/commits): how to get it back. "" when it is back, or git
        cannot tell."""
        if not os.path.lexists(self.dispatcher.context.workspace / ".git"):
            return ""
        for path in restore_asked(task, named_paths(task)):
            sha = not_restored(await self._git(restored_command(path), history))
            if sha is None:
                continue
            if committed_last(turn, self.dispatcher):
                then = "then `git commit --amend --no-edit` (your last commit holds your own version),"
            else:
                then = "then commit it if the task asks,"
            state = (
                "missing" if not os.path.lexists(self.dispatcher.context.workspace / path) else "another file"
            )
            return render("finish_problem_not_restored", path=path, short=sha[:7], state=state, then=then)
        return ""

    async def _not_rebased(self, branch: str, onto: str, history: Sequence[Event]) -> str:
        """The task asks to rebase `branch` onto `onto`, and `onto`'s last commit is not in its
        history (or a merge commit is): how to rebase. The 1.5B rewrote README.md on main and
        finished (exit 0). "" when it is rebased, or git cannot tell."""
        if not os.path.lexists(self.dispatcher.context.workspace / ".git"):
            return ""
        if (await self._git(rebased_command(branch, onto), history)).strip() != "not rebased":
            return ""
        return render(
            "finish_problem_not_rebased",
            branch=branch,
            onto=onto,
            command=shlex.join(["git", "rebase", onto, branch]),
        )

    async def _not_merged(self, branch: str, history: Sequence[Event]) -> str:
        """The task asks to merge `branch`, and its last commit is not in HEAD's history (the
        1.5B committed its own edit with the message "Merge branch captions ..." and finished,
        exit 0): how to merge. "" when it is merged, or git cannot tell."""
        if not os.path.lexists(self.dispatcher.context.workspace / ".git"):
            return ""
        if (await self._git(merged_command(branch), history)).strip() != "not merged":
            return ""
        return render("finish_problem_not_merged", branch=branch, quoted=shlex.quote(branch))

    async def _not_squashed(self, squash: Squash, history: Sequence[Event]) -> str:
        """The task asks to squash commits into one with a message, and the last commit has
        another (the 1.5B edited a file the commits changed and finished, exit 0): how to squash.
        "" when it has that message, or git cannot tell."""
        if not os.path.lexists(self.dispatcher.context.workspace / ".git"):
            return ""
        subject = (await self._git(SUBJECT, history)).strip()
        if not subject or subject == squash.message:
            return ""
        command, call = squash_command(squash), squash_call(squash)
        return render(
            "finish_problem_not_squashed", message=squash.message, subject=subject, command=command, call=call
        )

    async def _not_undone(self, task: str, history: Sequence[Event]) -> str:
        """The task asks to undo a commit it quotes, and the last commit does not mirror its
        changes (agent/commits): what to do instead. "" when it does, or git cannot tell."""
        if not os.path.lexists(self.dispatcher.context.workspace / ".git"):
            return ""
        if keeps_changes(task):  # a reset: only whether the commit is still the last one
            subject = (await self._git(SUBJECT, history)).strip()
            if subject and subject in quoted_messages(task):
                return render("finish_problem_undo_keep", message=subject)
            return ""
        listing = await self._git(LIST, history)
        found = named(listing, quoted_messages(task)) if listing else None
        if found is None:
            return ""
        head, original, message = found
        if undoes(await self._git(counts(head, original), history), head, original) is not False:
            return ""
        return render("finish_problem_not_undone", message=message, short=original[:7])

    async def _git(self, command: str, history: Sequence[Event]) -> str:
        """A read-only git command's output; "" when it was refused or failed."""
        result = await self._shell(command, history, GIT_SECONDS)
        return result.output if result is not None and result.ok else ""

    async def _run_examples(self, history: Sequence[Event], task: str) -> str | None:
        """The examples the task states for a function (`problems("hello") == [...]`, agent/examples),
        called where the workspace defines it: the ones that do not hold, as the finish's problem;
        "" when they hold; None when there are none to call."""
        root = self.dispatcher.context.workspace
        command = example_command(task, root, asked_names(task))
        result = await self._shell(command, history, COMMAND_SECONDS) if command else None
        if result is None or result.output.startswith("Denied:"):
            return None
        failing = examples_failing(result.output)
        return (
            render("finish_problem_examples", examples="\n".join(f"- {f}" for f in failing))
            if failing
            else ""
        )

    async def _run_tests(self, command: str, history: Sequence[Event]) -> ToolResult | None:
        """The tests' result, or None when nothing was checked (none found, or refused)."""
        result = await self._shell(command, history, TEST_SECONDS)
        if result is None or result.output.startswith("Denied:") or any(m in result.output for m in NO_TESTS):
            return None
        return result

    async def _shell(self, command: str, history: Sequence[Event], timeout: int) -> ToolResult | None:
        """A command of the review's own, run like the model's (the one dispatcher, its
        permissions and the sandbox), its events recorded; its result."""
        step = len(history)
        last = self._ran.get((command, timeout))
        if last is not None and last[0] <= step and all(isinstance(e, SAID) for e in history[last[0] :]):
            return last[1]
        call = ToolCall(
            id=f"{CHECK_ID}{step}", name="shell", arguments={"command": command, "timeout": timeout}
        )
        events = await self.dispatcher.dispatch(call, self.state)
        for event in events:
            self.record(event)
        result = events[-1]
        if not isinstance(result, ToolResult):
            return None
        self._ran[command, timeout] = (step + len(events), result)
        return result


def _tests_problem(command: str, result: ToolResult | None) -> str:
    """The finish's problem when the tests (`command`) failed: their last lines; "" otherwise."""
    if result is None or result.ok:
        return ""
    said = "the test files' tests" if command == PYTEST else f"`{command}`"
    return render("finish_problem_tests_fail", command=said, output=_tail(result.output, 15))


def first_difference(wanted: str, output: str) -> tuple[int, str, str] | None:
    """The first line where a run's `output` (as the shell tool shows it) differs from the
    `wanted` text: (line number, wanted line, printed line), a missing line shown as "(nothing)";
    None when they are the same but for spaces at the ends of lines and of the whole.
    """
    printed = "" if output.strip() == "(no output)" else output
    want = [ln.rstrip() for ln in wanted.strip("\n").splitlines()]
    got = [ln.rstrip() for ln in printed.strip("\n").splitlines() if not ln.startswith("[exit code")]
    for number in range(max(len(want), len(got))):
        a = want[number] if number < len(want) else "(nothing)"
        b = got[number] if number < len(got) else "(nothing)"
        if a != b:
            return number + 1, a, b
    return None


def _stamp(root: Path, name: str) -> int | None:
    """When the workspace file `name` was last written (ns); None when it is not a file."""
    try:
        info = os.lstat(root / name)
    except OSError:
        return None
    return info.st_mtime_ns if stat.S_ISREG(info.st_mode) else None


def _failed(output: str) -> bool:
    """A run's output saying it failed: a Python traceback, or argparse's usage error."""
    return _TRACEBACK in output or _USAGE_ERROR.search(output) is not None


def _last_line(output: str) -> str:
    """A failure's last line (`IndexError: list index out of range`), the exit code left out."""
    lines = [
        ln.strip() for ln in output.strip().splitlines() if ln.strip() and not ln.startswith("[exit code")
    ]
    return lines[-1] if lines else ""


def outputs_before(history: Sequence[Event]) -> dict[str, str]:
    """What the task's commands printed before any change, as this turn's first look recorded it
    (see `unchanged_commands`, `wrong_commands`), by command."""
    found: dict[str, str] = {}
    for event in this_turn(history):
        if isinstance(event, HearthMessage) and event.reason == "files":
            found.update(zip(event.commands, event.outputs, strict=False))
    return found


def unrun_script(turn: Turn, dispatcher: Dispatcher, task: str) -> str:
    """A script the task runs with an argument Hearth cannot name (`python3 grades.py FILE ...`)
    that the turn changed and never ran after its last change: what it prints is the evidence
    the task asks for, and only running it shows it (the 1.5B wrote a report script that printed
    half of what was asked, unrun). Run, and printing nothing where the task says it prints, is
    the same (the 1.5B's report script defined its function and never called it), and so is
    printing no line of the form the task shows (agent/shapes)."""
    changed, ran = _script_steps(turn, dispatcher)
    # a command Hearth could run itself (task_commands) was run by the review: evidence enough
    root = dispatcher.context.workspace
    runs = [*reference_outputs(task, root), *example_outputs(task, root)]
    commands = [*task_commands(task, root), *(c for c, _ in runs)]
    covered = {os.path.normpath(shlex.split(c)[1]) for c in commands}
    for match in SCRIPT_RUN.finditer(task):
        script = os.path.normpath(match.group(1))
        if script in covered or script not in changed:
            continue
        step, output = ran.get(script, (-1, ""))
        if step < changed[script]:
            return render("finish_problem_script_not_run", command=_shown(match), script=match.group(1))
        if output.strip() == "(no output)" and _SAYS_PRINTS.search(task):
            return _silent(dispatcher, match)
        found = output_form(task, dispatcher.context.workspace, match.group(1), output)
        if found:
            return found
    return ""


def output_form(task: str, root: Path, script: str, output: str) -> str:
    """What the review says when a run of `script` printed no line of the form the task shows, a
    count of one in the plural where the task shows the singular, or a stray line among lines of
    that form (agent/shapes); "" when none of these, or there is no form to judge."""
    example = unshaped(task, root, output)
    shown = "\n".join(output.strip().splitlines()[:8])
    if example:
        return render("finish_problem_output_form", script=script, example=example, output=shown)
    one, line = plural_for_one(task, output)
    if one:
        return render("finish_problem_output_plural", script=script, one=one, line=line)
    line, example = stray_line(task, root, output)
    if line:
        return render("finish_problem_output_stray", script=script, line=line, example=example, output=shown)
    return ""


# how a script reads its command line (or its input), by name
_READS_ARGUMENTS = re.compile(
    r"\bargv\b|\bargparse\b|\bfileinput\b|\bgetopt\b|\boptparse\b|\bclick\b|\btyper\b|\bdocopt\b|"
    r"\bstdin\b|\binput\("
)
_IMPORTS = re.compile(r"^\s*(?:from\s+([\w.]+)\s+import|import\s+([\w.]+))", re.MULTILINE)


def deaf_script(dispatcher: Dispatcher, command: str) -> str:
    """What the review says when the task runs a script with arguments and the script reads
    none (the 1.5B's export.py called `export_contacts('contacts.json', 'contacts.csv')`: right
    for the example, nothing for any other file); "" when it reads them, takes none, or imports
    a workspace module that may."""
    words = shlex.split(command)
    if len(words) < 3:
        return ""
    script = words[1]
    text = current_text(dispatcher.context.paths, script)
    if text is None or _READS_ARGUMENTS.search(text):
        return ""
    root = dispatcher.context.workspace
    for m in _IMPORTS.finditer(text):
        top = (m.group(1) or m.group(2)).split(".")[0]
        if (root / f"{top}.py").exists() or (root / top).is_dir():
            return ""  # its main may be another module's, which may read them
    return render("finish_problem_script_deaf", command=command, script=script, arguments=" ".join(words[2:]))


def _silent(dispatcher: Dispatcher, match: re.Match[str]) -> str:
    """A script that printed nothing: with the lines to add when it only defines functions."""
    script = match.group(1)
    text = current_text(dispatcher.context.paths, script)
    found = missing_call(text) if text is not None else None
    if found is None:
        return render("finish_problem_script_silent", command=_shown(match), script=script)
    function, lines = found
    return render(
        "finish_problem_script_uncalled", command=_shown(match), script=script, function=function, lines=lines
    )


def _script_steps(turn: Turn, dispatcher: Dispatcher) -> tuple[dict[str, int], dict[str, tuple[int, str]]]:
    """Per Python script: the step of its last change, and the step and output of its last run."""
    changed: dict[str, int] = {}
    ran: dict[str, tuple[int, str]] = {}
    for step, (call, result) in enumerate(turn.results):
        if call is None:
            continue
        name = _canonical(dispatcher, result.name)
        if result.ok and changing(dispatcher, name) and call.arguments.get("path"):
            changed[os.path.normpath(str(call.arguments["path"]))] = step
        elif name in RUNS:
            for script, _ in SCRIPT_RUN.findall(
                str(call.arguments.get("command") or call.arguments.get("code"))
            ):
                ran[os.path.normpath(script)] = (step, result.output)
    return changed, ran


def _shown(match: re.Match[str]) -> str:
    """The command as the task gives it: the options, placeholders (FILE, N), numbers and file
    names after the script, not the words that go on to say what it does."""
    words = []
    for word in (w.strip("`'\",;:") for w in match.group(2).split()[:4]):
        if not (OPTION.fullmatch(word) or word.isupper() or word.isdigit() or "." in word.strip(".")):
            break
        words.append(word)
    return " ".join(["python3", match.group(1), *words])


def _ran_after_last_change(turn: Turn, dispatcher: Dispatcher) -> bool:
    ran = False
    for _, result in turn.results:
        if changing(dispatcher, result.name) and result.ok:
            ran = False
        elif _canonical(dispatcher, result.name) in RUNS and result.ok:
            ran = True
    return ran
