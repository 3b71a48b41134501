"""A task that asks only to move Python definitions into another module, done as a refactoring
tool does it.

"Move the function parse_price from shop.py into a new module prices.py, and import it from
there in shop.py and importer.py": the 1.5B wrote prices.py, then rewrote shop.py with a broken
docstring three times, refused each time, until the loop guard stopped it. Moving a definition
is mechanical: a write of any of the task's files in such a task is the file with the move made
and nothing else.

- the new module: the moved definitions as the task's source file had them when the task was
  shown (with the source's imports they use), after what the module already holds;
- the source: without them, importing from the new module those it still uses or the task says
  to import there;
- another Python file the task names: its `from source import ...` of a moved name imports it
  from the new module.

A moved definition takes along the module-level definitions only it uses ("MONTHS too, as only
they use it"). Anything the mover cannot read (no such definition, a file that does not parse)
leaves the write to the model.
"""

from __future__ import annotations

import ast
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from hearth.agent.leftovers import text_files
from hearth.prompts import render

_FILE = r"((?:[\w-]+/)*\w+\.py)\b"
_MOVE = re.compile(
    r"\bmove\s+(?P<what>[^.;]*?)\s+(?:out\s+of|from)\s+"
    + _FILE.replace("(", "(?P<source>", 1)
    + r"\s+(?:in)?to\s+(?:(?:a|the)\s+(?:new\s+)?(?:module|file)\s+)?"
    + _FILE.replace("(", "(?P<target>", 1),
    re.IGNORECASE,
)
_NAME = re.compile(r"(?<![\w.])([A-Za-z_]\w*)(?![\w.(])")
# a sentence of a moves-only task besides the move: where to import from, and that the output
# stays the same ("python3 shop.py must print the same as before")
_BESIDE = re.compile(
    r"\bimport|\bsame\b|\bunchanged\b|\bas\s+before\b|\bstill\s+(?:work|run|print)|\bwhat\s+it\s+prints\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Move:
    """Definitions named in the task, to go from `source` to `target` (workspace paths)."""

    names: tuple[str, ...]
    source: str
    target: str


def move_asked(task: str) -> Move | None:
    """The move a moves-only task asks: every sentence is the move, where to import it from, or
    that the output stays the same. None for any other task."""
    found = _MOVE.search(task)
    if found is None or found.group("source") == found.group("target"):
        return None
    rest = task[: found.start()] + task[found.end() :]
    for sentence in re.split(r"(?<=[.!?])\s+|,\s+and\s+|;\s*", rest):
        words = sentence.strip(" .,()")
        if words and not _BESIDE.search(words) and not re.fullmatch(r"[\w\s,]*\btoo\b.*", words):
            return None
    names = tuple(dict.fromkeys(_NAME.findall(found.group("what") + " " + _aside(rest))))
    return Move(names, found.group("source"), found.group("target")) if names else None


def _aside(rest: str) -> str:
    """Names said beside the move ("(MONTHS too, as only they use it)")."""
    return " ".join(m.group(1) for m in re.finditer(r"\(([^)]*\btoo\b[^)]*)\)", rest))


def moved_text(move: Move, path: str, current: str | None, source: str) -> str | None:
    """The text of `path` with the move made, `source` being the source file as shown with the
    task; None when the path is none of the move's, or the move cannot be read."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    moved = _moved_nodes(tree, move.names)
    if moved is None:
        return None
    names = [n for node in moved for n in _defined(node)]
    module = _module_name(move.target)
    if path == move.target:
        return _target_text(tree, source, moved, current)
    if current is None:
        return None
    if path == move.source:
        return _source_text(current, names, module)
    return _importer_text(current, names, _module_name(move.source), module)


def rest_of_move(
    move: Move, root: Path, shown: Mapping[str, str], read: Callable[[str], str | None]
) -> dict[str, tuple[str, str]]:
    """For a move the task asks, each workspace Python file (the new module once it is there)
    whose text with the move made differs from what it holds, by its workspace path, with both
    texts: the move finished the way a refactoring tool does it. The source is read as shown
    with the task, else as it is now; `read` gives a file's text by its workspace path (through
    the workspace's safe paths)."""
    changes: dict[str, tuple[str, str]] = {}
    source = shown.get(move.source) or read(move.source)
    if source is None:
        return changes
    for path in text_files(root):
        rel = str(path.relative_to(root))
        now = read(rel) if path.suffix == ".py" else None
        after = moved_text(move, rel, now, source) if now is not None else None
        if now is not None and after is not None and after != now:
            changes[rel] = (now, after)
    return changes


def moved_names(move: Move, source: str) -> list[str]:
    """The names the move takes from `source` (those asked, and those only they use)."""
    try:
        moved = _moved_nodes(ast.parse(source), move.names)
    except SyntaxError:
        return []
    return [n for node in moved or [] for n in _defined(node)]


def _moved_nodes(tree: ast.Module, asked: tuple[str, ...]) -> list[ast.stmt] | None:
    """The top-level statements to move: those defining a name asked (every name that is a
    definition of the file; None when no asked name is), and those only they use."""
    defines = {n: node for node in tree.body for n in _defined(node)}
    picked = [defines[n] for n in asked if n in defines]
    if not picked or not any(
        isinstance(p, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) for p in picked
    ):
        return None
    chosen = {id(p) for p in picked}
    changed = True
    while changed:  # a definition used by moved ones only goes with them
        changed = False
        for node in tree.body:
            if id(node) in chosen or not _defined(node) or _is_import(node):
                continue
            users = [u for u in tree.body if u is not node and _uses(u, _defined(node))]
            if users and all(id(u) in chosen for u in users):
                chosen.add(id(node))
                changed = True
    return [node for node in tree.body if id(node) in chosen]


def _defined(node: ast.stmt) -> list[str]:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, ast.Assign):
        return [t.id for t in node.targets if isinstance(t, ast.Name)]
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        return [node.target.id]
    if _is_import(node):
        return [(a.asname or a.name).split(".")[0] for a in node.names]  # type: ignore[attr-defined]
    return []


def _is_import(node: ast.stmt) -> bool:
    return isinstance(node, (ast.Import, ast.ImportFrom))


def _uses(node: ast.AST, names: list[str]) -> bool:
    wanted = set(names)
    return any(isinstance(n, ast.Name) and n.id in wanted for n in ast.walk(node))


def _first_line(node: ast.stmt) -> int:
    """The statement's first line, its decorators included."""
    return min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])


def _segment(source: str, node: ast.stmt) -> str:
    return "\n".join(source.splitlines()[_first_line(node) - 1 : node.end_lineno])


def _module_name(path: str) -> str:
    return path.removesuffix(".py").replace("/", ".")


def _target_text(tree: ast.Module, source: str, moved: list[ast.stmt], current: str | None) -> str:
    """The target module: what it holds, the source's imports the moved code uses (those it
    lacks), then the moved definitions."""
    have = current or ""
    try:
        there = {n for node in ast.parse(have).body for n in _defined(node) if not _is_import(node)}
    except SyntaxError:
        there = set()
    moved = [node for node in moved if not set(_defined(node)) <= there]  # not twice
    if not moved:
        return have
    imports = [
        _segment(source, node)
        for node in tree.body
        if _is_import(node) and any(_uses(m, _defined(node)) for m in moved)
    ]
    imports = [line for line in imports if line not in have.splitlines()]
    parts = [have.rstrip("\n")] if have.strip() else []
    if imports:
        parts.append("\n".join(imports))
    parts += [_segment(source, node) for node in moved]
    return "\n\n\n".join(parts) + "\n"


def _source_text(current: str, names: list[str], module: str) -> str | None:
    """The source now without the moved definitions, importing from the target those it uses."""
    try:
        tree = ast.parse(current)
    except SyntaxError:
        return None
    lines = current.splitlines()
    gone = [n for n in tree.body if set(_defined(n)) & set(names) and not _is_import(n)]
    for node in sorted(gone, key=lambda n: n.lineno, reverse=True):
        del lines[_first_line(node) - 1 : node.end_lineno]
    text = re.sub(r"\n{4,}", "\n\n\n", "\n".join(lines)).strip("\n") + "\n"
    used = [n for n in names if re.search(rf"(?<![\w.]){re.escape(n)}\b", text)]
    if not used or f"from {module} import" in text:
        return text
    return _with_import(text, f"from {module} import {', '.join(used)}")


def _with_import(text: str, line: str) -> str:
    """`line` after the module's last top-level import (after its docstring when none)."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return text
    lines = text.splitlines()
    imports = [n for n in tree.body if _is_import(n)]
    docstring = (
        tree.body[0]
        if tree.body and isinstance(tree.body[0], ast.Expr) and isinstance(tree.body[0].value, ast.Constant)
        else None
    )
    at = (imports[-1].end_lineno if imports else docstring.end_lineno if docstring else 0) or 0
    if imports:
        block = [line]
    elif at:
        block = ["", line]
    else:
        block = [line, ""]
    return "\n".join(lines[:at] + block + lines[at:]) + "\n"


def _importer_text(current: str, names: list[str], source: str, target: str) -> str | None:
    """A file importing moved names from the source, importing them from the target; None when
    it imports none of them that way."""
    try:
        tree = ast.parse(current)
    except SyntaxError:
        return None
    lines = current.splitlines()
    found = False
    for node in sorted(tree.body, key=lambda n: n.lineno, reverse=True):
        if not isinstance(node, ast.ImportFrom) or node.module != source or node.level:
            continue
        moving = [a for a in node.names if a.name in names]
        if not moving:
            continue
        found = True
        staying = [a for a in node.names if a.name not in names]
        new = [f"from {target} import {', '.join(_alias(a) for a in moving)}"]
        if staying:
            new.insert(0, f"from {source} import {', '.join(_alias(a) for a in staying)}")
        lines[node.lineno - 1 : node.end_lineno] = new
    return "\n".join(lines) + "\n" if found else None


def _alias(alias: ast.alias) -> str:
    return f"{alias.name} as {alias.asname}" if alias.asname else alias.name


# "Move next_interval, due_date and due_cards into a new module, scheduling.py", with or without
# "from flashcards.py": definitions asked to go into a Python module, in any task
_MOVE_INTO = re.compile(
    r"\bmove\s+(?P<what>[^.;:]*?)\s+(?:(?:out\s+of|from)\s+(?:[\w-]+/)*\w+\.py\s+)?(?:in)?to\s+"
    r"(?:(?:a|the)\s+(?:new\s+)?(?:module|file)\s*(?:called\s+|named\s+|,\s*)?)?"
    + _FILE.replace("(", "(?P<target>", 1),
    re.IGNORECASE,
)
_MAX_SCANNED = 40


def left_behind(task: str, root: Path, read: Callable[[str], str | None]) -> str:
    """What a move of definitions into a module the task asks left undone at a finish: the module
    not there, a name it does not define, or a name another top-level Python file still defines
    (the 1.5B wrote scheduling.py and left the three functions in flashcards.py too, and the run
    ended 0). Only names some workspace file defines are judged; "" when the move is done or none
    is asked. `read` gives a file's text by its workspace path (through the safe paths)."""
    found = _MOVE_INTO.search(task)
    if found is None or re.search(r"\w\.\w+\b", found.group("what")):
        return ""  # "Move utils.py to lib/utils.py" moves a file (agent/asked.file_not_moved)
    target = os.path.normpath(found.group("target"))
    defined = _definitions(root, read, target)
    asked = [
        n for n in dict.fromkeys(_NAME.findall(found.group("what"))) if any(n in d for d in defined.values())
    ]
    if not asked:
        return ""
    if target not in defined:
        return render("finish_problem_move_target", target=target, names=", ".join(asked))
    missing = [n for n in asked if n not in defined[target]]
    if missing:
        return render("finish_problem_move_missing", target=target, names=", ".join(missing))
    for path, names in defined.items():
        kept = [n for n in asked if n in names]
        if path != target and kept and not Path(path).name.startswith("test_"):
            module = _module_name(target)
            return render(
                "finish_problem_move_left", path=path, target=target, names=", ".join(kept), module=module
            )
    return ""


def _definitions(root: Path, read: Callable[[str], str | None], target: str) -> dict[str, set[str]]:
    """The names the target and each top-level Python file of the workspace define (not import),
    by workspace path; a file that is not there or does not parse is left out."""
    found: dict[str, set[str]] = {}
    paths = [p.name for p in sorted(root.glob("*.py"))[:_MAX_SCANNED]]
    for rel in dict.fromkeys([target, *paths]):
        text = read(rel)
        try:
            tree = ast.parse(text) if text is not None else None
        except (SyntaxError, ValueError):
            tree = None
        if tree is not None:
            found[rel] = {n for node in tree.body if not _is_import(node) for n in _defined(node)}
    return found
