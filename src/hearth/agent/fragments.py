"""The new or changed code of a Python file, written alone, put into the file where it belongs.

A small model asked for a whole file it has just been shown often copies it unchanged: asked
again at a higher temperature, and asked which lines must change, the 1.5B copied textutils.py
and wordfreq.py each time, while asked for "only the code that is new or changed" it wrote the
new function (or `main()` with its new option) at once, in a fraction of the time. That fragment
is put into the file by its top-level statements: a function or class the file has replaces it
where it is, a new one goes before the `if __name__ == "__main__":` block (or at the end), a new
import after the file's imports, the main block over the file's own; the module's docstring and
imports the file has already are left as they are. A module the new code uses by name and never
imports (`re.sub` with no `import re`), from the standard library, is imported.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass

from hearth.tools.builtin.pycheck import undefined_names

_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_IMPORTS = (ast.Import, ast.ImportFrom)


@dataclass(frozen=True)
class _Edit:
    """Lines `start` to `end` (0-based, end excluded) of the file replaced by `text`'s lines."""

    start: int
    end: int
    text: str


def merged(current: str, fragment: str) -> str | None:
    """`current` (a Python file) with `fragment` (its new or changed top-level code) put in; None
    when either does not parse, the fragment has a statement with no place (a bare call), or the
    result does not parse."""
    try:
        old, new = ast.parse(current), ast.parse(fragment)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    pieces = fragment.split("\n")
    edits: list[_Edit] = []
    added: list[str] = []
    imports: list[str] = []
    for index, node in enumerate(new.body):
        text = "\n".join(pieces[_first_line(node) - 1 : node.end_lineno])
        if index == 0 and _is_docstring(node):
            continue
        if isinstance(node, _IMPORTS):
            if ast.unparse(node) not in {ast.unparse(n) for n in old.body if isinstance(n, _IMPORTS)}:
                imports.append(text)
            continue
        same = _same(old, node)
        if same is not None:
            edits.append(_Edit(_first_line(same) - 1, same.end_lineno or same.lineno, text))
        elif isinstance(node, (*_DEFINITIONS, ast.If, ast.Assign, ast.AnnAssign)):
            added.append(text)
        else:
            return None
    return _built(current, old, edits, added, imports)


def _built(
    current: str, old: ast.Module, edits: list[_Edit], added: list[str], imports: list[str]
) -> str | None:
    lines = current.rstrip("\n").split("\n")
    main = _main_block(old)
    if added:
        at = main.lineno - 1 if main is not None else len(lines)
        text = "\n\n\n".join(added) + ("\n\n" if main is not None else "")
        edits.append(_Edit(at, at, ("\n\n" if main is None else "") + text))
    if imports:
        edits.append(_imports_added(old, imports))
    for edit in sorted(edits, key=lambda e: (e.start, e.end), reverse=True):
        lines[edit.start : edit.end] = edit.text.split("\n")
    return _with_stdlib_imports("\n".join(lines).rstrip("\n") + "\n")


def _with_stdlib_imports(text: str) -> str | None:
    """`text` with `import X` added for each standard-library module it uses as `X.name` and
    never binds; None when it does not parse."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    bases = {
        n.value.id for n in ast.walk(tree) if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)
    }
    missing = sorted(
        {name for name, _ in undefined_names(tree) if name in bases and name in sys.stdlib_module_names}
    )
    if not missing:
        return text
    lines = text.split("\n")
    edit = _imports_added(tree, [f"import {m}" for m in missing])
    lines[edit.start : edit.end] = edit.text.split("\n")
    return "\n".join(lines)


def _imports_added(tree: ast.Module, imports: list[str]) -> _Edit:
    """`imports` put after the module's last import; with none, after its docstring (a blank
    line between) or at the top (a blank line after)."""
    last = max((n.end_lineno or n.lineno for n in tree.body if isinstance(n, _IMPORTS)), default=None)
    if last is not None:
        return _Edit(last, last, "\n".join(imports))
    if tree.body and _is_docstring(tree.body[0]):
        end = tree.body[0].end_lineno or 0
        return _Edit(end, end, "\n" + "\n".join(imports))
    return _Edit(0, 0, "\n".join(imports) + "\n")


def _same(old: ast.Module, node: ast.stmt) -> ast.stmt | None:
    """The top-level statement of the file that `node` takes the place of: the function or class
    of its name, the main block, an assignment to the same names."""
    for candidate in old.body:
        if (
            isinstance(node, _DEFINITIONS)
            and isinstance(candidate, _DEFINITIONS)
            and candidate.name == node.name
        ):
            return candidate
        if _is_main(node) and _is_main(candidate):
            return candidate
        if (
            isinstance(node, (ast.Assign, ast.AnnAssign))
            and _targets(node)
            and _targets(node) == _targets(candidate)
        ):
            return candidate
    return None


def _targets(node: ast.stmt) -> list[str]:
    if isinstance(node, ast.Assign):
        return [ast.unparse(t) for t in node.targets]
    if isinstance(node, ast.AnnAssign):
        return [ast.unparse(node.target)]
    return []


def _first_line(node: ast.stmt) -> int:
    decorators = getattr(node, "decorator_list", [])
    return min([d.lineno for d in decorators] + [node.lineno])


def _is_docstring(node: ast.stmt) -> bool:
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    )


def _is_main(node: ast.stmt) -> bool:
    return isinstance(node, ast.If) and "__main__" in ast.unparse(node.test)


def _main_block(tree: ast.Module) -> ast.If | None:
    return next((n for n in tree.body if isinstance(n, ast.If) and _is_main(n)), None)
