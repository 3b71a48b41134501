"""Progress: a model that has read what it needs and changes nothing is steered to change.

Small models circle: they alternate reading a module and its test, or a file and the same grep,
and every re-read brings the whole file back into the prompt. Two rules, for any task:
- a look (read, grep, ls, glob) that repeats an earlier one and gets the same answer, its
  result still in view, is answered with one line naming the step that has the result;
- after READ_ONLY_STEPS read-only steps in a row that changed nothing, one of them a repeat, the
  next action offered (grammar mode: the schema) is a changing one, or finish or blocked;
- when the files the task names were shown whole with the task (agent/overview), the model has
  read what it needs from the start: SHOWN_STEPS read-only steps in a row are enough;
- once the model chose a file the task says not to change, a file writer's path is one of the
  other files the task names (grammar mode);
- a task about the repository's history only (it names a commit by its quoted message, or asks
  a tag, and names no file) is offered no file-writing action: asked to put a tag on an older
  commit, and to undo the last commit keeping its changes, the 1.5B rewrote README.md and the
  commit's own file, and finished. Git's way (shell, the git tools) stays, and the file tools
  come back once a git command reports a conflict, which is fixed in the files.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path

from hearth.agent.asked import asked_names, bare_names
from hearth.agent.commits import quoted_messages
from hearth.agent.handsoff import kept_files
from hearth.agent.named_files import named_paths
from hearth.agent.tags import tag_asked
from hearth.core.events import Compacted, Event, HearthMessage, ModelReply, ToolResult, UserMessage
from hearth.core.types import ToolCall, ToolSpec
from hearth.prompts import render
from hearth.tools.toolset import Toolset

FILE_WRITERS = frozenset({"write", "edit", "mkdir"})
LOOKS = frozenset({"read", "grep", "ls", "glob"})  # the file system as it is: same call, same answer
READ_ONLY_STEPS = 4
SHOWN_STEPS = 2
# Where the first look's list of files shown whole starts (its template's first line).
SHOWN_HEADER = render("workspace_named_files", files="\x00").split("\x00", 1)[0]


def _canonical(toolset: Toolset, name: str) -> str:
    tool = toolset.get(name)
    return tool.name if tool is not None else name


def earlier_look(history: Sequence[Event], call: ToolCall, toolset: Toolset) -> tuple[int, str] | None:
    """The step (1-based, counting the session's replies) of an earlier identical look whose
    result is still in the conversation, and that result, when nothing that changes things has
    worked since (the caller still runs the look: a file can change behind the agent's back)."""
    name = _canonical(toolset, call.name)
    if name not in LOOKS:
        return None
    ok = {e.call_id: e.output for e in history if isinstance(e, ToolResult) and e.ok}
    step = sum(1 for e in history if isinstance(e, ModelReply))
    found: tuple[int, str] | None = None  # the first of the identical looks: it has the result
    for event in reversed(history):
        if isinstance(event, UserMessage | Compacted):
            return found  # the turn's start, or a compaction (results before it may be gone)
        if not isinstance(event, ModelReply):
            continue
        step -= 1
        for earlier in reversed(event.tool_calls):
            if earlier.id == call.id or earlier.id not in ok:
                continue
            tool = toolset.get(earlier.name)
            if tool is None or not tool.read_only:
                return found  # something changed (or may have) before this one
            if _canonical(toolset, earlier.name) == name and earlier.arguments == call.arguments:
                found = step + 1, ok[earlier.id]
    return found


def circling(history: Sequence[Event], toolset: Toolset) -> bool:
    """READ_ONLY_STEPS read-only calls in a row at the end of this turn, none changing anything,
    with at least one repeating an earlier call; or SHOWN_STEPS of them when the task's files
    were shown whole with it."""
    calls: list[tuple[str, str]] = []
    for event in reversed(history):
        if isinstance(event, UserMessage):
            break
        if not isinstance(event, ModelReply):
            continue
        for call in reversed(event.tool_calls):
            tool = toolset.get(call.name)
            if tool is None or not tool.read_only:
                return _circles(calls, history)
            calls.append((tool.name, repr(sorted(call.arguments.items()))))
    return _circles(calls, history)


def _circles(calls: list[tuple[str, str]], history: Sequence[Event]) -> bool:
    if len(calls) >= SHOWN_STEPS and shown_whole(history):
        return True
    recent = calls[:READ_ONLY_STEPS]
    return len(recent) >= READ_ONLY_STEPS and len(set(calls)) < len(calls)


def shown_whole(history: Sequence[Event]) -> bool:
    """Whether this turn's opening showed the files the task names whole."""
    for event in reversed(history):
        if isinstance(event, HearthMessage) and event.reason == "files" and SHOWN_HEADER in event.text:
            return True
        if isinstance(event, UserMessage):
            return False  # the files come after the task's message, in its opening
    return False


def named_specs(toolset: Toolset, history: Sequence[Event], offered: set[str]) -> list[ToolSpec]:
    """Tools not `offered` that the session's messages name (the task saying `todo_add`, the
    workspace note listing a repository's git tools): a schema is all a grammar-held model can
    call, so what it was told it may call must be in it."""
    text = "\n".join(e.text for e in history if isinstance(e, UserMessage | HearthMessage))
    return [
        spec
        for spec in toolset.specs()
        if spec.name not in offered and re.search(rf"\b{re.escape(spec.name)}\b", text)
    ]


def history_only(task: str, root: Path) -> bool:
    """The task is about the repository's history alone: it names a commit by its quoted message
    ("Undo my last commit, 'Add dark mode'") or asks a tag, and names no file to change."""
    about_history = bool(quoted_messages(task)) or tag_asked(task) is not None
    return about_history and not asked_names(task) and not bare_names(task, root)


def _conflicted(history: Sequence[Event]) -> bool:
    start = max((i for i, e in enumerate(history) if isinstance(e, UserMessage)), default=-1)
    return any(isinstance(e, ToolResult) and "CONFLICT" in e.output for e in history[start + 1 :])


def writable_paths(
    specs: Sequence[ToolSpec], toolset: Toolset, history: Sequence[Event], root: Path
) -> dict[str, list[str]]:
    """For each offered file writer, the only paths it may take, once the model has chosen a file
    the task says not to change in this turn: the files the task names that it does not keep.
    Told to "leave test_ordinals.py as it is", the 1.5B chose to write test_ordinals.py, was
    refused, and chose it again, then finished with nothing changed. (Holding the path away from
    the kept file instead, with a pattern, made the 1.5B type the kept name and then, unable to
    close the string there, write a path for the rest of the turn.)"""
    task = next((e.text for e in reversed(history) if isinstance(e, UserMessage)), "")
    kept = set(kept_files(task, root)) if task else set()
    if not kept or not _chose_kept(history, toolset, kept):
        return {}
    named = [n for n in dict.fromkeys(os.path.normpath(n) for n in named_paths(task)) if n not in kept]
    named = [n for n in named if not (root / n).is_dir()]
    if not named:
        return {}
    return {s.name: named for s in specs if _canonical(toolset, s.name) in FILE_WRITERS - {"mkdir"}}


def _chose_kept(history: Sequence[Event], toolset: Toolset, kept: set[str]) -> bool:
    """Whether a write or edit of this turn named one of the `kept` files."""
    for event in reversed(history):
        if isinstance(event, UserMessage):
            return False
        if isinstance(event, ModelReply):
            for call in event.tool_calls:
                path = call.arguments.get("path")
                writes = _canonical(toolset, call.name) in FILE_WRITERS and isinstance(path, str)
                if writes and os.path.normpath(str(path)) in kept:
                    return True
    return False


def steered_specs(
    specs: list[ToolSpec], toolset: Toolset, history: Sequence[Event], root: Path | None = None
) -> list[ToolSpec]:
    """The tools offered for the next action: all of `specs`, or only the changing ones while the
    model circles among read-only calls; never the file writers for a task about the history
    alone (until a conflict; `root`: the workspace, where the task's bare file names are)."""
    task = next((e.text for e in reversed(history) if isinstance(e, UserMessage)), "")
    if root is not None and history_only(task, root) and not _conflicted(history):
        specs = [s for s in specs if _canonical(toolset, s.name) not in FILE_WRITERS] or specs
    if not circling(history, toolset):
        return specs
    changing = [s for s in specs if (t := toolset.get(s.name)) is not None and not t.read_only]
    return changing or specs
