"""Files the person said not to change: "Do not change the tests", "without changing
test_paging.py", "leave config.json alone"; the inputs the task's commands read, named only
there ("python3 csvcol.py --where genre=poetry books.csv title must print ..."); and the files
the task says its commands write ("python3 export.py contacts.json contacts.csv writes ..."),
which the script must write, not the model by hand.

A write or edit of such a file is refused before it runs, with what to change instead: the
person's word is a rule of the turn, not a hint the model may weigh. Measured: told "Implement
the function can_arrange in solution.py so that the tests in test_solution.py pass. Do not change
the tests.", the 1.5B wrote its own test_solution.py over the exercise's tests; given the
command above, it wrote its script into books.csv, then a books.csv without one of its rows, and
no version of the script could pass the tests that read it. A shell command
is not read for it (the policy and sandbox judge those); only the model's own calls are refused,
never Hearth's.
"""

from __future__ import annotations

import os
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

from hearth.agent.named_files import named_paths
from hearth.agent.overview import workspace_overview
from hearth.agent.task_commands import command_inputs, command_outputs, reference_outputs
from hearth.agent.versions import is_test_file
from hearth.prompts import render

_CLAUSE_END = r"[.,;:!?](?:\s|$)|[\n()]|$"  # a clause's end (the dot in "README.md" is not one)
_VERB = r"(?:change|changing|modify|modifying|edit|editing|touch|touching|rewrite|rewriting|alter|altering|update|updating)"
# "do not change the tests", "don't modify test_x.py", "never touch ...", "without changing ..."
_KEEP = re.compile(
    rf"\b(?:do\s+not|don't|dont|never|must\s+not|mustn't|should\s+not|shouldn't|without|no\s+need\s+to)\s+"
    rf"(?:\w+\s+)?{_VERB}\b(.*?)(?={_CLAUSE_END})",
    re.IGNORECASE,
)
# "leave the tests alone", "leave config.json unchanged / as it is"
_LEAVE = re.compile(
    r"\bleave\s+((?:(?![.,;:!?](?:\s|$))[^\n()])*?)\s+(?:alone|unchanged|untouched|as\s+(?:it\s+is|they\s+are))\b",
    re.IGNORECASE,
)
_TESTS = re.compile(
    r"\b(?:the\s+|any\s+|its\s+|their\s+)?(?:unit\s+)?tests?(?:\s+files?)?\b(?!_)", re.IGNORECASE
)
_OWNER = re.compile(r"^\S+?['’]s\s+")  # "solution.py's tests": the owner before its part


def _owns(text: str, name: str) -> bool:
    """Whether `name` stands in `text` only as an owner ("stats.py's functions")."""
    return all(text[m.end() : m.end() + 2] in ("'s", "’s") for m in re.finditer(re.escape(name), text))


_JOINED = re.compile(r",?\s+(?:or|and|nor)\s+", re.IGNORECASE)
_CHANGING = frozenset({"write", "edit"})


@dataclass(frozen=True)
class HandsOff:
    """What the task says not to change: the tests (any test file), files it names, and the
    inputs its commands read (agent/task_commands: `command_inputs`)."""

    tests: bool = False
    names: frozenset[str] = frozenset()
    inputs: frozenset[str] = frozenset()
    outputs: tuple[tuple[str, str], ...] = ()  # (command, file): what the task's commands write
    references: tuple[tuple[str, str], ...] = ()  # (command, file): what they must print

    def covers(self, path: str) -> bool:
        rel = os.path.normpath(path)
        return (
            (self.tests and is_test_file(rel))
            or rel in self.names
            or rel in self.inputs
            or bool(self.writer(rel))
            or bool(self.printer(rel))
        )

    def writer(self, path: str) -> str:
        """The task's command that writes `path` ("" when none does)."""
        return next((command for command, name in self.outputs if name == os.path.normpath(path)), "")

    def printer(self, path: str) -> str:
        """The task's command that must print what `path` holds ("" when none)."""
        return next((command for command, name in self.references if name == os.path.normpath(path)), "")

    def __bool__(self) -> bool:
        return (
            self.tests or bool(self.names) or bool(self.inputs) or bool(self.outputs) or bool(self.references)
        )


def hands_off(task: str, root: Path) -> HandsOff:
    """The files `task` says not to change, in the workspace at `root`."""
    tests, names = False, set[str]()
    for match in (*_KEEP.finditer(task), *_LEAVE.finditer(task)):
        for part in _JOINED.split(match.group(1).strip()):
            # "stats.py's public functions": what is kept is the owner's part, not the file
            part = _OWNER.sub("", part)
            names.update(os.path.normpath(n) for n in named_paths(part) if not _owns(part, n))
            # an object of the verb: "the tests", "README.md or any test file"
            tests = tests or _TESTS.match(part) is not None
    inputs = frozenset(os.path.normpath(n) for n in command_inputs(task, root))
    outputs, references = tuple(command_outputs(task, root)), tuple(reference_outputs(task, root))
    return HandsOff(tests, frozenset(names), inputs, outputs, references)


def kept_files(task: str, root: Path) -> list[str]:
    """The files in the workspace at `root` that `task` says not to change (the test files among
    the first look's listing, agent/overview): once the model names one in a write or edit, the
    grammar holds its writers to the task's other files (agent/progress)."""
    kept = hands_off(task, root)
    if not kept:
        return []
    listed = workspace_overview(root).splitlines()
    named = {*kept.names, *kept.inputs, *(name for _, name in (*kept.outputs, *kept.references))}
    found = [rel for rel in listed if not rel.endswith("/") and (rel in named or kept.covers(rel))]
    return [rel for rel in found if (root / rel).is_file() and not (root / rel).is_symlink()]


def refusal(task: str, root: Path, name: str, path: object) -> str:
    """The error for a call of tool `name` on `path` the task says not to change; "" when the
    call may run."""
    if name not in _CHANGING or not isinstance(path, str):
        return ""
    kept = hands_off(task, root)
    rel = os.path.normpath(path)
    if not kept.covers(rel):
        return ""
    others = [n for n in named_paths(task) if not kept.covers(n)]
    instead = render("error_hands_off_instead", files=", ".join(others)) if others else ""
    writer = kept.writer(rel)
    if writer and rel not in kept.names and not (kept.tests and is_test_file(rel)):
        shown = writer.removesuffix(" < /dev/null")
        return render("error_hands_off_output", path=path, command=shown, script=shlex.split(shown)[1])
    printer = kept.printer(rel)
    if printer and rel not in kept.names:
        shown = printer.removesuffix(" < /dev/null")
        return render("error_hands_off_reference", path=path, command=shown, script=shlex.split(shown)[1])
    if rel in kept.inputs and rel not in kept.names:
        return render("error_hands_off_input", path=path, instead=instead)
    what = "the tests" if kept.tests and is_test_file(rel) else path
    return render("error_hands_off", path=path, what=what, instead=instead)
