"""The examples a task states for a function, run as a check.

"Move the checks in main() of password.py into a function problems(password) that returns the list
of problems found (for example problems("hello") == ["shorter than 8 characters", "no digit",
"no capital letter"]) ... python3 password.py must print the same as before": the 1.5B's version
returned ["- shorter than 8 characters"] and stopped at the first problem. The task's command needs
an argument, so it told nothing, and the run ended 0 on wrong work. The example the task wrote is
the plainest evidence there is: `problems("hello")` is called in the workspace (the one dispatcher,
its sandbox) and compared with what the task says.

Only an example the task states as what should hold counts ("for example", "so that", "should");
one about the code as it is now ("currently f(2) == 5, which is wrong") is not a goal. The
arguments and the expected value are Python literals; the function is one defined at the top of a
Python file in the workspace (a file the task names first).
"""

from __future__ import annotations

import ast
import os
import re
import shlex
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from hearth.agent.leftovers import read_text_file

# a call's start: a plain name and its opening parenthesis (not a method: `.total(`)
_CALL = re.compile(r"(?<![\w.])([A-Za-z_]\w*)\(")
# what says the example is a goal, in the words before it
_GOAL = re.compile(
    r"\b(?:for\s+example|for\s+instance|e\.\s?g\.|such\s+as|so\s+that|should|must|make\s+sure|like)\b",
    re.IGNORECASE,
)
# what says it is the code as it is now, not a goal
_NOW = re.compile(
    r"\b(?:currently|right\s+now|at\s+the\s+moment|today|instead|wrong|incorrect|bug|broken|but|not)\b|n't\b",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"[.!?;:]\s|\n")
_LONGEST = 400  # characters an example may take
_MARK = "HEARTH-EXAMPLE"  # the lines the check prints for an example that does not hold


@dataclass(frozen=True)
class Example:
    """`call == expected`, as the task writes them (Python source)."""

    function: str
    call: str
    expected: str


# an example said in words: "slug('A b') returns 'a-b'", "should return", "gives", "->"; one saying
# it is to hold ("should", "must") is a goal by itself
_SAID = re.compile(
    r"\s*(?:(?P<goal>(?:should|must|has\s+to|needs\s+to|ought\s+to)\s+(?:return|give)|should\s+be|must\s+be)"
    r"|returns|gives|->|\u2192|evaluates\s+to|is)\s+",
    re.IGNORECASE,
)


def stated_examples(task: str) -> list[Example]:
    """The examples the task states as goals, in its order, each once."""
    found: list[Example] = []
    for match in _CALL.finditer(task):
        start, function = match.start(), match.group(1)
        example = _example_at(task, start, function)
        goal = example is not None and _stated_as_goal(task, start)
        if example is None:
            example, says_goal = _said_at(task, start, function)
            goal = (
                example is not None
                and (says_goal or _stated_as_goal(task, start))
                and not _now_before(task, start)
            )
        if example is not None and example not in found and goal:
            found.append(example)
    function = named_function(task)
    if function is not None:
        found += [e for e in _bare_examples(task, function) if e not in found]
    return found


# "add a slugify function", "a function called slugify", "the function `slugify(title)`": the
# function a task's bare examples ("Hello, World!" gives "hello-world") are for
_NAMED = re.compile(
    r"\b(?:function|def)\s+(?:called\s+|named\s+)?`?(?P<after>[A-Za-z_]\w*)"
    r"|`?(?P<before>[A-Za-z_]\w*)(?=(?:\([\w\s,=*]*\))?`?\s+function\b)"
)
# words before "function" that are not its name ("a new function", "the helper function")
_NOT_NAME_WORDS = (
    "a an the new helper small python this that another one same its their your my our each which "
    "what whose to in into for of from with so and or is it as at on by"
)
_NOT_NAMES = frozenset(_NOT_NAME_WORDS.split())
# between the two literals of a bare example, on one line
_BARE_SAID = re.compile(
    r"\s*(?:gives|returns|becomes|yields|maps\s+to|->|=>|\u2192|"
    r"(?:should|must)\s+(?:give|return|become|be))\s+",
    re.IGNORECASE,
)
_BARE_GOAL = re.compile(
    r"\b(?:examples?|for\s+instance|should|must|so\s+that|make\s+sure)\b|\be\.\s?g\.", re.IGNORECASE
)
_ARGUMENT_TYPES = (str, int, float, list, dict, set, bool)
_OPENS = "\"'[{-0123456789"  # how a literal argument may start


def named_function(task: str) -> str | None:
    """The one function the task names as such ("a slugify function"); None when it names none,
    or more than one."""
    names = {
        name
        for match in _NAMED.finditer(task)
        if (name := match.group("after") or match.group("before")) and name.lower() not in _NOT_NAMES
    }
    return names.pop() if len(names) == 1 else None


def _bare_examples(task: str, function: str) -> list[Example]:
    """`"Hello, World!" gives "hello-world"` on a line of a task that names one `function`: the
    function called with the first literal is to return the second, when words before it say the
    examples are goals ("Examples:", "should") and none in its sentence, before or after it, says
    it is the code as it is now ("... gives "A-b" now, which is wrong")."""
    found: list[Example] = []
    floor = 0  # where the last example's expected value ended: the next one starts after it
    for said in _BARE_SAID.finditer(task):
        line_end = task.find("\n", said.end())
        rest = task[said.end() : len(task) if line_end < 0 else line_end]
        argument = _literal_ending(task, max(floor, task.rfind("\n", 0, said.start()) + 1), said.start())
        end = _longest(rest, 0, partial(_expected, rest.lstrip().startswith("(")))
        if argument is None or end is None:
            continue
        floor = said.end() + end
        after = task[floor:]
        ends = _SENTENCE_END.search(after)
        now = _now_before(task, argument) or _NOW.search(after[: ends.start() if ends else len(after)])
        if _BARE_GOAL.search(task[:argument]) and not now:
            call = f"{function}({task[argument : said.start()].strip()})"
            found.append(Example(function, call, rest[:end].strip()))
    return found


def _expected(parenthesised: bool, node: ast.expr) -> bool:
    """Whether `node` is a bare example's expected value: a literal, and a tuple only in
    parentheses ("a" gives "b", "c" gives "d": the first is "b", not a tuple to the comma)."""
    return _is_literal(node) and (parenthesised or not isinstance(node, ast.Tuple))


def _literal_ending(task: str, floor: int, end: int) -> int | None:
    """Where the literal argument that ends right before `end` starts, looking no further back
    than `floor` (its line, or after the example before it); None when there is none. The longest
    literal decides: a tuple, or the last of several arguments ("a", 2 gives ...), is not one
    argument; nor is one right after a name (a call's, or a word's)."""
    stop = len(task[:end].rstrip())
    for start in range(max(floor, stop - _LONGEST), stop):
        if task[start] not in _OPENS or (start > 0 and (task[start - 1].isalnum() or task[start - 1] == "_")):
            continue
        try:
            value = ast.literal_eval(task[start:stop])
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            continue
        between = task[floor:start]  # after the example before it, its comma is no argument's
        alone = not between.strip(" ,;") or between.rstrip()[-1:] not in ("(", ",")
        return start if isinstance(value, _ARGUMENT_TYPES) and alone else None
    return None


def _said_at(task: str, start: int, function: str) -> tuple[Example | None, bool]:
    """`function(literals) returns literal` from `start`, and whether its words say it is to
    hold; (None, False) when the text there is no such example."""
    text = task[start : start + _LONGEST]
    call = _longest(text, 0, lambda node: isinstance(node, ast.Call) and _literal_call(node, function))
    if call is None:
        return None, False
    said = _SAID.match(text, call)
    expected = _longest(text, said.end(), _is_literal) if said is not None else None
    if said is None or expected is None:
        return None, False
    example = Example(function, text[:call], text[said.end() : expected])
    return example, said.group("goal") is not None


def _longest(text: str, start: int, fits: Callable[[ast.expr], bool]) -> int | None:
    """The end of the longest expression from `start` that `fits`, or None."""
    best = None
    for end in range(start + 1, len(text) + 1):
        if text[end - 1].isspace() or (text[end - 1] in ".," and not text[end : end + 1].strip()):
            continue  # a sentence's full stop or comma is not the expression's
        try:
            node = ast.parse(text[start:end].strip(), mode="eval").body
        except (SyntaxError, ValueError):
            continue
        if fits(node):
            best = end
    return best


def _is_literal(node: ast.expr) -> bool:
    try:
        ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False
    return True


def _literal_call(node: ast.Call, function: str) -> bool:
    named = isinstance(node.func, ast.Name) and node.func.id == function
    arguments = [*node.args, *(k.value for k in node.keywords)]
    return named and all(k.arg is not None for k in node.keywords) and all(map(_is_literal, arguments))


def _now_before(task: str, start: int) -> bool:
    return bool(_NOW.search(_sentence_before(task, start)))


def _example_at(task: str, start: int, function: str) -> Example | None:
    """The longest `function(literals) == literal` the task has from `start`, or None."""
    text = task[start : start + _LONGEST]
    end = _longest(text, 0, lambda node: _as_example(node, text, function) is not None)
    return None if end is None else _as_example(ast.parse(text[:end], mode="eval").body, text[:end], function)


def _as_example(node: ast.expr, source: str, function: str) -> Example | None:
    """`node` as an example when it is `function(literals) == literal`."""
    if not (isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.Eq)):
        return None
    call, expected = node.left, node.comparators[0]
    if not (isinstance(call, ast.Call) and _literal_call(call, function) and _is_literal(expected)):
        return None  # another function, a method, a name, **kwargs: nothing to call
    segment = ast.get_source_segment
    return Example(function, segment(source, call) or "", segment(source, expected) or "")


def _stated_as_goal(task: str, start: int) -> bool:
    """Whether the words of the sentence before the example say it is to hold, and none says it
    is what the code does now."""
    before = _sentence_before(task, start)
    return bool(_GOAL.search(before)) and not _NOW.search(before)


def _sentence_before(task: str, start: int) -> str:
    ends = list(_SENTENCE_END.finditer(task, 0, start))
    return task[ends[-1].end() if ends else 0 : start]


def defining_file(root: Path, function: str, named: Sequence[str]) -> str | None:
    """The workspace Python file that defines `function` at its top level: among the files the
    task names first, then among the workspace's top folder; None when no file, or more than one,
    does."""
    named_python = [n for n in named if n.endswith(".py")]
    for candidates in (named_python, _top_python(root)):
        found = [rel for rel in dict.fromkeys(candidates) if function in _top_functions(root / rel)]
        if found:
            return found[0] if len(found) == 1 else None
    return None


def _top_python(root: Path) -> list[str]:
    try:
        entries = sorted(os.scandir(root), key=lambda e: e.name)
    except OSError:
        return []
    return [e.name for e in entries if e.name.endswith(".py") and e.is_file(follow_symlinks=False)][:40]


def _top_functions(path: Path) -> set[str]:
    text = read_text_file(path)
    try:
        tree = ast.parse(text) if text is not None else None
    except (SyntaxError, ValueError):
        return set()
    body = tree.body if tree is not None else []
    return {n.name for n in body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}


def example_command(task: str, root: Path, named: Sequence[str]) -> str | None:
    """A `python3` command that calls each stated example's function, where a workspace file
    defines it, and prints a line for each that does not hold; None when there is none to run."""
    lines: list[str] = []
    modules: dict[str, str] = {}
    for example in stated_examples(task):
        rel = defining_file(root, example.function, named)
        if rel is None:
            continue
        alias = modules.setdefault(rel, f"m{len(modules)}")
        lines.append(f"check({alias}, {example.function!r}, {example.call!r}, {example.expected!r})")
    if not lines:
        return None
    loads = [f"{alias} = load({rel!r})" for rel, alias in modules.items()]
    script = _SCRIPT.replace("MARK", _MARK) + "\n".join([*loads, *lines]) + "\n"
    return f"python3 -c {shlex.quote(script)} < /dev/null"


# Imports each file as a module (its own folder first on the path, its output hidden, its command
# line empty), then calls each example. A file that cannot be imported checks nothing: a script
# that runs its main() on import is not the example's to judge.
_SCRIPT = """\
import ast, contextlib, importlib.util, io, os, sys
def load(rel):
    sys.argv = [rel]
    sys.path.insert(0, os.path.dirname(os.path.abspath(rel)))
    spec = importlib.util.spec_from_file_location(os.path.basename(rel)[:-3], rel)
    module = importlib.util.module_from_spec(spec)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            spec.loader.exec_module(module)
    except BaseException:
        return None
    return module
def check(module, name, call, expected):
    if module is None:
        return
    want = ast.literal_eval(expected)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            got = eval(call, {name: getattr(module, name)})
    except Exception as error:
        print(f"MARK {call} raises {type(error).__name__}: {error}; the task says {expected}")
        return
    if got != want:
        print(f"MARK {call} returns {got!r}; the task says {expected}")
"""


def examples_failing(output: str) -> list[str]:
    """The examples that did not hold, from the check's output (a line each, without the mark)."""
    return [line.removeprefix(_MARK).strip() for line in output.splitlines() if line.startswith(_MARK)]
