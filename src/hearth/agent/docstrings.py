"""A Python file's docstrings taken out and put back.

A small model asked to write a whole file that opens with a long docstring (an exercise's spec,
its examples) often copies the docstring, runs on into the examples or the tests it was shown,
and never closes it: the file does not parse and no code is written. Shown the file without its
docstrings (their text said apart), it writes the code; Hearth puts the docstrings back.

The other way round, a task asking for docstrings only ("Add a docstring to each function in
shapes.py ... Do not change any of the code itself"): the 1.5B wrote good docstrings into a whole
file whose code it had also changed. Its docstrings are put on the file's own code
(`onto_code`)."""

from __future__ import annotations

import ast
import re

_SCOPES = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


def parses(text: str) -> bool:
    try:
        ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def _docstring(node: ast.AST) -> ast.Expr | None:
    """The module's, class's or function's docstring statement; None when it has none."""
    body = getattr(node, "body", None)
    first = body[0] if body else None
    if (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
        and first.end_lineno is not None
    ):
        return first
    return None


def without_docstrings(source: str) -> tuple[str, list[str]]:
    """The Python source without the docstrings of its module, classes and functions, and those
    docstrings' text; the source as it is when it does not parse."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return source, []
    spans: list[tuple[int, int]] = []
    docs: list[str] = []
    for node in ast.walk(tree):
        doc = _docstring(node) if isinstance(node, _SCOPES) else None
        if doc is not None and doc.end_lineno is not None:
            spans.append((doc.lineno, doc.end_lineno))
            docs.append(ast.get_docstring(node) or "")  # type: ignore[arg-type]
    lines = source.splitlines(keepends=True)
    kept = [line for i, line in enumerate(lines, 1) if not any(a <= i <= b for a, b in spans)]
    return "".join(kept), docs


def _scopes(tree: ast.Module) -> dict[str, ast.AST]:
    """The module and its definitions by dotted name (`Stack.push`), nested ones included."""
    found: dict[str, ast.AST] = {"": tree}

    def visit(node: ast.AST, prefix: str) -> None:
        for child in getattr(node, "body", []):
            if isinstance(child, _SCOPES):
                name = f"{prefix}{child.name}"  # type: ignore[union-attr]
                found[name] = child
                visit(child, name + ".")

    visit(tree, "")
    return found


def docstrings_back(text: str, original: str) -> str:
    """`text` (a version of the Python file `original`) with the docstrings it left out put back:
    those of the module and of each definition it kept under the same name. A version asked for
    without them is written with them (the file keeps its spec; a rewrite of a file shown with
    the task that drops lines of it is refused)."""
    try:
        old, new = ast.parse(original), ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return text
    source, lines = original.splitlines(keepends=True), text.splitlines(keepends=True)
    wanted = _scopes(old)
    inserts: list[tuple[int, list[str]]] = []
    for name, node in _scopes(new).items():
        doc = _docstring(wanted[name]) if name in wanted else None
        body = getattr(node, "body", None)
        if doc is None or doc.end_lineno is None or not body or _docstring(node) is not None:
            continue
        first = body[0]
        if name and first.lineno <= node.lineno:  # type: ignore[attr-defined]
            continue  # `def f(): return 1` on one line: nowhere to put it
        block = [
            line if line.endswith("\n") else line + "\n" for line in source[doc.lineno - 1 : doc.end_lineno]
        ]
        shift = first.col_offset - doc.col_offset
        if shift > 0:
            block = [" " * shift + line if line.strip() else line for line in block]
        elif shift < 0:
            block = [line[-shift:] if line.strip() and not line[:-shift].strip() else line for line in block]
        inserts.append((first.lineno - 1, block))
    for at, block in sorted(inserts, reverse=True):
        lines[at:at] = block
    joined = "".join(lines)
    return joined if parses(joined) else text


def runs_on(text: str) -> bool:
    """Whether the Python text fails to parse because a triple-quoted string is never closed."""
    try:
        ast.parse(text)
    except SyntaxError as exc:
        return "unterminated triple-quoted" in (exc.msg or "")
    except (ValueError, RecursionError, MemoryError):
        return False
    return False


_DOCSTRINGS = re.compile(r"\bdocstrings?\b", re.IGNORECASE)
# "Do not change any of the code itself", "without changing the code", "only the docstrings",
# "the code stays as it is"
_CODE_KEPT = re.compile(
    r"\b(?:do\s+not|don't|never|without|must\s+not|should\s+not)\s+(?:\w+\s+){0,2}?"
    r"(?:chang|modify|modif|touch|alter|edit|rewrit)\w*\s+(?:any\s+of\s+)?(?:the\s+|its\s+)?"
    r"(?:code|logic|behaviou?r|functions?)\b"
    r"|\bonly\s+(?:add\s+)?(?:the\s+)?docstrings\b|\bcode\s+(?:itself\s+)?(?:stays?\s+)?(?:unchanged|as\s+it\s+is)\b",
    re.IGNORECASE,
)


def asks_docstrings_only(task: str) -> bool:
    """Whether the task asks for docstrings and says the code stays as it is."""
    return bool(_DOCSTRINGS.search(task) and _CODE_KEPT.search(task))


def _code(source: str) -> str | None:
    """The file's code without its docstrings, as a syntax tree's dump (layout and comments
    aside); None when it does not parse."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    for node in ast.walk(tree):
        doc = _docstring(node) if isinstance(node, _SCOPES) else None
        if doc is not None:
            node.body.remove(doc)  # type: ignore[attr-defined]
    return ast.dump(tree)


def _count(source: str) -> int:
    tree = ast.parse(source)
    return sum(1 for node in ast.walk(tree) if isinstance(node, _SCOPES) and _docstring(node) is not None)


def onto_code(text: str, original: str) -> str | None:
    """`text`'s docstrings on `original`'s code, where `text` (a version of the Python file
    `original`) changed the code too: each definition's docstring from `text` when it has one,
    else `original`'s. None when `text` keeps the code already, does not parse, or its docstrings
    cannot be put on the code (a definition on one line)."""
    code = _code(original)
    if code is None or _code(text) in (None, code):
        return None
    bare, _ = without_docstrings(original)
    grafted = docstrings_back(docstrings_back(bare, text), original)
    if _code(grafted) != code or _count(grafted) < _count(original):
        return None
    return grafted
