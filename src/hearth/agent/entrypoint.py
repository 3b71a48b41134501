"""A script that only defines its functions: running it prints nothing.

The 1.5B wrote `hours.py` as `def hours(FILE): ...` and nothing else; run, it printed nothing, and
told "is its main code ever called?" it wrote the same text again. What it needs is the missing
lines themselves, named for its own function: `if __name__ == "__main__":` and the call, with the
script's arguments for the function's parameters, printed when the function returns its result
rather than printing it.
"""

from __future__ import annotations

import ast

_ENTRY_TYPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom)


def missing_call(source: str) -> tuple[str, str] | None:
    """The script's main function and the lines that would call it; None when the module runs
    something at its top level already, defines no function, or does not parse."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None
    functions = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    if not functions or any(not _quiet(node) for node in tree.body):
        return None
    main = _main(functions)
    arguments = [a.arg for a in main.args.args]
    if len(arguments) == 1:
        call = f"{main.name}(sys.argv[1])"
    elif arguments:
        call = f"{main.name}(*sys.argv[1:{len(arguments) + 1}])"
    else:
        call = f"{main.name}()"
    if _returns_without_printing(main):
        call = f"print({call})"
    lines = ['if __name__ == "__main__":']
    if arguments:
        lines.append("    import sys")
    lines.append(f"    {call}")
    return main.name, "\n".join(lines)


def _quiet(node: ast.stmt) -> bool:
    """A top-level statement that runs nothing when the script starts: a definition, an import,
    an assignment of a constant, or the docstring."""
    if isinstance(node, _ENTRY_TYPES):
        return True
    if isinstance(node, ast.Expr):
        return isinstance(node.value, ast.Constant)
    if isinstance(node, (ast.Assign, ast.AnnAssign)):
        return node.value is None or isinstance(node.value, (ast.Constant, ast.Tuple, ast.List, ast.Dict))
    return False


def _main(functions: list[ast.FunctionDef]) -> ast.FunctionDef:
    """`main` when there is one; else the last function no other one calls (the others are its
    helpers)."""
    names = {f.name for f in functions}
    called = {
        n.func.id
        for f in functions
        for n in ast.walk(f)
        if isinstance(n, ast.Call)
        and isinstance(n.func, ast.Name)
        and n.func.id in names
        and n.func.id != f.name
    }
    for function in functions:
        if function.name == "main":
            return function
    roots = [f for f in functions if f.name not in called]
    return (roots or functions)[-1]


def _returns_without_printing(function: ast.FunctionDef) -> bool:
    prints = any(
        isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "print"
        for n in ast.walk(function)
    )
    returns = any(isinstance(n, ast.Return) and n.value is not None for n in ast.walk(function))
    return returns and not prints
