"""Permission rules: `tool` or `tool(pattern)`, e.g. `shell(git status*)`, `write(src/**)`, `read(.env)`.

A rule's pattern is matched against the call's subject: the command for
`shell`, the path for file tools, made canonical first (`canonical_subjects`):
the workspace-relative real path the tool will open, so `src/../.vscode/x`
is `.vscode/x` and never matches `src/**`. Paths use glob syntax (`*` within
a folder, `**` across folders). A command that cannot be read simply (substitution,
`eval`, redirection, more than a few chained parts) is never allowed by a
pattern; deny patterns are checked against each of its parts.
"""

from __future__ import annotations

import fnmatch
import posixpath
import re
import shlex
from dataclasses import dataclass
from typing import Any

from hearth.core.protocols import WorkspacePaths
from hearth.tools.globs import glob_match

_RULE = re.compile(r"^\s*([\w*.-]+)\s*(?:\((.*)\))?\s*$", re.DOTALL)
_UNSAFE = re.compile(r"[`$<>\n\r]|\beval\b|\bexec\b|\bsource\b|(?:^|\s)\.\s")
_SPLIT = re.compile(r"\s*(?:&&|\|\||;|\||&)\s*")
MAX_PARTS = 3
PATH_ARGUMENTS = ("path", "paths")  # a workspace path, or a list of them


@dataclass(frozen=True)
class Rule:
    tool: str
    pattern: str | None

    @classmethod
    def parse(cls, text: str) -> Rule:
        m = _RULE.match(text)
        if not m:
            raise ValueError(f"not a permission rule: {text!r} (write tool or tool(pattern))")
        return cls(m.group(1), m.group(2).strip() if m.group(2) is not None else None)

    @classmethod
    def exact(cls, tool: str, arguments: dict[str, Any]) -> Rule:
        """Allows this very call again (same command or path), not everything the tool does."""
        subject = subject_of(arguments)
        return cls(tool, re.sub(r"([*?\[])", r"[\1]", subject) if subject else None)

    def __str__(self) -> str:
        return self.tool if self.pattern is None else f"{self.tool}({self.pattern})"

    def matches(self, tool: str, subject: str | None, *, for_allow: bool) -> bool:
        if self.tool not in ("*", tool):
            return False
        if self.pattern is None:
            return True
        if subject is None:
            return False
        if tool == "shell":
            return _command_matches(self.pattern, subject, for_allow=for_allow)
        return glob_match(self.pattern.removeprefix("./"), subject.removeprefix("./"))


def canonical_arguments(arguments: dict[str, Any], paths: WorkspacePaths | None) -> dict[str, Any]:
    """`arguments` with each path (`path`, or the list `paths`) replaced by the canonical path the
    tool opens (`paths.canonical`, which raises ToolError for a path it cannot resolve). Without
    `paths` (no workspace) a path is only normalized: `a/./b//../c` -> `a/c`."""
    if isinstance(arguments.get("command"), str) or not any(k in arguments for k in PATH_ARGUMENTS):
        return arguments

    def canon(p: str) -> str:
        return paths.canonical(p) if paths is not None else posixpath.normpath(p.strip() or ".")

    out = dict(arguments)
    if isinstance(out.get("path"), str):
        out["path"] = canon(out["path"])
    elif isinstance(out.get("paths"), list):
        out["paths"] = [canon(str(p)) for p in out["paths"]]
    return out


def canonical_subjects(arguments: dict[str, Any], paths: WorkspacePaths | None) -> list[str | None]:
    """What a decision is made on: the command for `shell`; otherwise each canonical path."""
    args = canonical_arguments(arguments, paths)
    if isinstance(args.get("command"), str):
        return [args["command"]]
    if isinstance(args.get("path"), str):
        return [args["path"]]
    if isinstance(args.get("paths"), list) and args["paths"]:
        return list(args["paths"])
    return [None]


def subject_of(arguments: dict[str, Any]) -> str | None:
    """The call's subject as the model wrote it (for display and the audit log)."""
    for key in ("command", "path"):
        if isinstance(arguments.get(key), str):
            return str(arguments[key])
    paths = arguments.get("paths")
    if isinstance(paths, list) and paths:
        return " ".join(str(p) for p in paths)
    return None


def is_simple_command(command: str) -> bool:
    """One to three plain commands: no substitution, eval, redirection or quoting tricks."""
    if _UNSAFE.search(command) or "\\" in command:
        return False
    parts = [p for p in _SPLIT.split(command.strip()) if p]
    if not parts or len(parts) > MAX_PARTS:
        return False
    try:
        return all(shlex.split(p) for p in parts)
    except ValueError:
        return False


def command_parts(command: str) -> list[str]:
    """The commands of a chain or pipeline (`a && b | c` -> a, b, c), as the text of each."""
    return [p for p in _SPLIT.split(command.strip()) if p] or [command]


def _command_matches(pattern: str, command: str, *, for_allow: bool) -> bool:
    if for_allow:
        # Every part must be allowed by this pattern, and the whole must be simple.
        return is_simple_command(command) and all(
            fnmatch.fnmatchcase(p, pattern) for p in command_parts(command)
        )
    normalized = " ".join(command.split())
    return fnmatch.fnmatchcase(normalized, pattern) or any(
        fnmatch.fnmatchcase(p, pattern) for p in command_parts(command)
    )
