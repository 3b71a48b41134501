"""A test the task asks to add, not added: the test file has only the tests it had.

"Add an --output FILE option to slugs.py ... Add a test for it to test_slugs.py": the 1.5B
changed the existing test_prints_one_slug_a_line to pass `--output out.txt` and added no test;
the old test then failed, and the run went in circles until its time was up. When the task asks
for a test and the test file it names (else one shown with the task) has no test function it did
not have when the task was given, the finish review says so, naming the tests changed instead.

Before that, a write or edit of a test file that would change or drop a test it had when the
task was given (and has still) is refused, saying to keep it and add one: on a later suite the
1.5B again rewrote test_prints_the_counts_most_votes_first to expect the new `--percent` output
without the flag, and every version of the script was then checked against its wrong test.
A test the task names is the task's to change.
"""

from __future__ import annotations

import ast
import os
import re
from collections.abc import Mapping
from pathlib import Path

from hearth.agent.asked import asked_names
from hearth.agent.leftovers import read_text_file
from hearth.agent.versions import is_test_file
from hearth.prompts import render

# "add a test for it", "and a test for it", "write tests", "with a new test"; not "the tests pass"
_ASKS_TEST = re.compile(
    r"\b(?:add|write|with|and)\s+(?:(?:a|an|one|some|two|three)\s+)?(?:new\s+)?(?:unit\s+|pytest\s+)?"
    r"tests?\b(?!\s+(?:file|suite|folder|pass|fail))",
    re.IGNORECASE,
)


def asks_new_test(task: str) -> bool:
    """Whether the task asks for a new test."""
    return _ASKS_TEST.search(task) is not None


def no_test_added(task: str, root: Path, shown: Mapping[str, str]) -> str:
    """The finish review's problem when the task asks for a test and the test file has none it
    did not have (`shown`: the files as shown with the task, by workspace path); "" otherwise."""
    if not asks_new_test(task):
        return ""
    named = [os.path.normpath(n) for n in asked_names(task) if is_test_file(n)]
    files = named or [n for n in shown if is_test_file(n)]
    for rel in files:
        before, now = shown.get(rel), read_text_file(root / rel)
        old, new = _tests(before), _tests(now)
        if old is None or new is None or set(new) - set(old):
            continue  # not shown, broken (another problem's), or a new test is there
        changed = [name for name in old if name in new and new[name] != old[name]]
        instead = render("finish_problem_tests_changed", names=", ".join(changed)) if changed else ""
        return render("finish_problem_test_not_added", path=rel, instead=instead)
    return ""


def changed_tests(task: str, path: str, text: str | None, new: str, shown: Mapping[str, str]) -> str:
    """The error for writing `new` over `path` (now `text`) when the task asks for a new test and
    that would change or drop a test `path` had as shown with the task and still has; "" when
    the write may run."""
    rel = os.path.normpath(path)
    if not is_test_file(rel) or rel not in shown or not asks_new_test(task):
        return ""
    given, now, after = _tests(shown[rel]), _tests(text), _tests(new)
    if given is None or now is None or after is None:
        return ""  # a file that does not parse is another check's problem
    kept = [name for name, tree in given.items() if now.get(name) == tree and not _named(task, name)]
    changed = [name for name in kept if after.get(name) != given[name]]
    if not changed:
        return ""
    return render("error_tests_kept", path=path, names=", ".join(changed))


def _named(task: str, name: str) -> bool:
    return re.search(rf"(?<![\w.]){re.escape(name)}(?!\w)", task) is not None


def _tests(text: str | None) -> dict[str, str] | None:
    """The test functions in `text` (top level and in classes), each with its syntax tree; None
    when there is no text or it does not parse."""
    if text is None:
        return None
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    return {
        node.name: ast.dump(node)
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test")
    }
