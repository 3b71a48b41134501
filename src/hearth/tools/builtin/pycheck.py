"""A look at a Python file just written or edited, said in the tool's result.

Small models write `re.sub(...)` without `import re`, or leave a bracket open, and then read the
file back and call it done: nothing they read tells them it is wrong. The write and edit tools
therefore parse a `.py` file they changed and name a syntax error, or a name the file uses but
never defines or imports, so the fix is the model's next step. No code is run.

Names are checked without scopes: any binding anywhere in the file counts (so some mistakes are
missed, and nothing correct is reported); a file with `from x import *`, or that calls
`globals()`, is not checked for names. Of the 168 modules at the top of Python 3.11's standard
library, one is reported wrongly (ssl.py, whose enums put names into the module themselves).
"""

from __future__ import annotations

import ast
import builtins

MODULE_NAMES = frozenset(
    {"__file__", "__name__", "__doc__", "__builtins__", "__spec__", "__loader__", "__package__",
     "__path__", "__annotations__", "__dict__", "__class__", "__debug__"}
)  # fmt: skip
KNOWN = frozenset(dir(builtins)) | MODULE_NAMES | {"WindowsError"}  # built in on Windows only
TYPE_PARAMS = tuple(getattr(ast, n) for n in ("TypeVar", "ParamSpec", "TypeVarTuple") if hasattr(ast, n))
MAX_NAMED = 3
MAX_CHECKED_CHARS = 500_000  # larger files are written without a look
IGNORES = "ignores its parameter"
MAX_LINE_SHOWN = 80


def python_note(rel: str, text: str, before: str | None = None) -> str:
    """One line on what is wrong with the Python file `rel` (empty when nothing is found).
    `before`: the text it replaced, when it was Python too (a parameter it used and `text` no
    longer does is named)."""
    if len(text) > MAX_CHECKED_CHARS:
        return ""
    try:
        tree = ast.parse(text, filename=rel)
        missing = undefined_names(tree)
    except SyntaxError as exc:
        return f"Problem: {rel} is not valid Python ({_where(exc)}{exc.msg}). Fix it before going on."
    except (ValueError, RecursionError, MemoryError):  # a NUL byte; nesting too deep to parse
        return ""
    if not missing:
        return _ignored_note(rel, tree, before)
    named = ", ".join(f"`{name}` (line {line})" for name, line in missing[:MAX_NAMED])
    more = f" and {len(missing) - MAX_NAMED} more" if len(missing) > MAX_NAMED else ""
    return (
        f"Problem: {rel} uses {named}{more}, never imported or defined in the file; running it "
        "fails with NameError. Add the import or the definition."
    )


def _where(exc: SyntaxError) -> str:
    """The line a syntax error is at, with its text: the 1.5B, told only "line 20", edited other
    lines four times; line 20 was a stray fence it did not know was in the file."""
    if not exc.lineno:
        return ""
    line = (exc.text or "").strip()
    shown = f" {line[:MAX_LINE_SHOWN]!r}" if line else ""
    return f"line {exc.lineno}{shown}: "


def undefined_names(tree: ast.AST) -> list[tuple[str, int]]:
    """Names read somewhere and bound nowhere in the file (nor built in), with their first line. A
    function's parameter binds its name only inside that function (the 1.5B, moving argparse
    code into `parse_args(argv)`, left `parse_args(argv)` in `main()`, which has no `argv`)."""
    bound: set[str] = set()
    used: dict[str, int] = {}
    params: dict[str, list[ast.AST]] = {}
    loads: list[ast.Name] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names):
            return []
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "globals":
            return []  # names may be made through globals()
        if isinstance(node, ast.Import | ast.ImportFrom):
            bound.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.ClassDef):
            bound.add(node.name)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            bound.update([node.name] if not isinstance(node, ast.Lambda) else [])
            for arg in _arguments(node.args):
                params.setdefault(arg, []).append(node)
        elif isinstance(node, ast.Name):
            if isinstance(node.ctx, ast.Load):
                used.setdefault(node.id, node.lineno)
                loads.append(node)
            else:
                bound.add(node.id)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
        elif isinstance(node, ast.Global | ast.Nonlocal):
            bound.update(node.names)
        elif isinstance(node, ast.MatchAs | ast.MatchStar) and node.name:
            bound.add(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            bound.add(node.rest)
        elif TYPE_PARAMS and isinstance(node, TYPE_PARAMS):  # Python 3.12's `def f[T]()`
            bound.add(node.name)
    _scope_parameters(used, bound, params, loads)
    return sorted(
        ((name, line) for name, line in used.items() if name not in bound and name not in KNOWN),
        key=lambda item: item[1],
    )


def _scope_parameters(
    used: dict[str, int], bound: set[str], params: dict[str, list[ast.AST]], loads: list[ast.Name]
) -> None:
    """A name bound only as parameters counts as bound where it is read inside one of their
    functions; read elsewhere, its first such line is where it is used unbound."""
    for name in [n for n in used if n in params and n not in bound]:
        reads = [node for node in loads if node.id == name]
        stray = [node.lineno for node in reads if not any(_inside(node, f) for f in params[name])]
        if stray:
            used[name] = stray[0]
        else:
            bound.add(name)


def _arguments(args: ast.arguments) -> list[str]:
    """The names of a function's or lambda's parameters."""
    every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
    return [a.arg for a in every if a is not None]


def _inside(node: ast.Name, function: ast.AST) -> bool:
    """Whether `node` stands within `function`'s lines and columns."""
    start = (getattr(function, "lineno", 0), getattr(function, "col_offset", 0))
    end = (getattr(function, "end_lineno", 0) or 0, getattr(function, "end_col_offset", 0) or 0)
    return start <= (node.lineno, node.col_offset) <= end


def _ignored_note(rel: str, tree: ast.AST, before: str | None) -> str:
    """The note on parameters a function used before the change and ignores now (the 1.5B, moving
    a loop into a helper, wrote `read_records("users.txt")` in `load_users(path)`)."""
    if before is None or len(before) > MAX_CHECKED_CHARS:
        return ""
    try:
        old = ast.parse(before)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return ""
    before_use = _parameter_use(old)
    ignored = [
        (name, param) for name, params in _parameter_use(tree).items()
        for param, used in params.items()
        if not used and before_use.get(name, {}).get(param)
    ]  # fmt: skip
    if not ignored:
        return ""
    named = ", ".join(f"{name}() {IGNORES} `{param}`" for name, param in ignored[:MAX_NAMED])
    return (
        f"Problem: in {rel}, {named}, which it used before this change. Use the parameter where "
        "the function needs what the caller gives (not a fixed value)."
    )


def _parameter_use(tree: ast.AST) -> dict[str, dict[str, bool]]:
    """Per top-level or class-level function name: each parameter, and whether its body reads it."""
    found: dict[str, dict[str, bool]] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        args = node.args
        params = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
        params = [p for p in params if p not in ("self", "cls") and not p.startswith("_")]
        read = {
            n.id
            for stmt in node.body
            for n in ast.walk(stmt)
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
        }
        found[node.name] = {p: p in read for p in params}
    return found


def still_ignored(text: str, function: str, param: str) -> bool:
    """Whether `function` in the Python `text` has the parameter `param` and never reads it."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return _parameter_use(tree).get(function, {}).get(param) is False
