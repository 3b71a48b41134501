"""Which files the agent has seen, as they were when it saw them.

`write` and `edit` refuse an existing file the agent never read in this session, or
one that changed since it was read: a small model otherwise overwrites a file with
what it imagines is in it. A file the agent wrote or edited itself counts as seen.

The record is derived from the session's events, so it survives a resume: each
successful read, write or edit names its path in the call the model made.
"""

from __future__ import annotations

import ast
import difflib
import hashlib
import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from hearth.core.errors import ToolError
from hearth.core.events import Event, HearthMessage, ModelReply, ToolResult
from hearth.core.protocols import WorkspacePaths
from hearth.tools.builtin.pycheck import python_note

SEEN_BY = frozenset({"read", "write", "edit"})
HASH_LIMIT = 8 << 20  # larger files are compared by size and time only
MIN_LINES_GUARDED = 2  # a write that drops most lines of a file at least this long is checked once


@dataclass(frozen=True)
class Fingerprint:
    mtime_ns: int
    size: int
    sha256: str | None


@dataclass
class KnownFiles:
    # strict (a small model's session): a write that would drop most of a file is refused every
    # time, not only once; such a model repeats what it sent, so repeating must not confirm.
    strict: bool = False
    _seen: dict[Path, Fingerprint] = field(default_factory=dict)
    _warned: set[tuple[Path, str, str]] = field(default_factory=set)  # (file, tool, content hash) warned
    _shown: set[Path] = field(default_factory=set)  # shown whole with the task, not read since
    task: str = ""  # the turn's task: a line it says to remove is not dropped by a rewrite

    def note(self, paths: WorkspacePaths, path: Path, *, shown: bool = False) -> None:
        """Remember the file as it is now (after the agent read, wrote or edited it; `shown`:
        after Hearth showed it whole with the task)."""
        fp = _fingerprint(paths, path)
        if fp is not None:
            self._seen[path] = fp
        if shown:
            self._shown.add(path)
        else:
            self._shown.discard(path)

    def check(self, paths: WorkspacePaths, path: Path, shown: str) -> None:
        """Raise ToolError when an existing file was not read in this session or changed since."""
        seen = self._seen.get(path)
        if seen is None:
            if os.path.lexists(path):
                raise ToolError(
                    f"{shown} already exists and you have not read it in this session. "
                    f"Read it first (read path={shown!r}), then change it with edit, or write it "
                    "in full once you know what it holds. To add text at its end, send the same "
                    "write with append=true."
                )
            return
        now = _fingerprint(paths, path)
        if now is None:  # deleted since: writing it anew loses nothing
            return
        same = (now.mtime_ns, now.size) == (seen.mtime_ns, seen.size) or (
            now.sha256 is not None and now.sha256 == seen.sha256
        )
        if not same:
            raise ToolError(
                f"{shown} changed since you last read it (by a command or someone else). "
                f"Read it again (read path={shown!r}) before you change it."
            )

    def check_overwrite(self, path: Path, old: str, new: str, shown: str, *, by_edit: bool = False) -> None:
        """Raise ToolError when a change to a file the agent has seen would wreck it.

        The result is judged, not how many old lines it replaces: a whole-file rewrite of a file
        the agent read is an edit (the format small models do best), so a `write` is refused only
        when it would empty a file that held text, turn a Python file that parsed into one that
        does not, or keep none of a Python file's two or more functions and classes (or leave a file
        that had one with none: the 1.5B wrote a script's expected output over the fixed script). An `edit` is refused once per (file, content) when it deletes most of the file's
        lines outright; one that changes words inside lines deletes none."""
        if not by_edit:
            self._check_rewrite(old, new, shown)
            self._check_kept(path, old, new, shown)
            return
        old_lines = [line for line in old.splitlines() if line.strip()]
        if len(old_lines) < MIN_LINES_GUARDED:
            return
        lost = deleted_lines(old, new)
        if len(lost) * 2 < len(old_lines) or (len(lost) * 2 == len(old_lines) and not self.strict):
            return
        key = (path, "edit", hashlib.sha256(new.encode("utf-8", "replace")).hexdigest())
        if key in self._warned and not self.strict:
            return
        self._warned.add(key)
        examples = "; ".join(f"`{line.strip()[:60]}`" for line in lost[:3])
        confirm = "" if self.strict else " If you really mean to remove them, send the same edit again."
        raise ToolError(
            f"Not changed: this edit would delete {len(lost)} of the {len(old_lines)} lines in {shown} "
            f"(e.g. {examples}). To add code, keep the old lines in `new` (the old text, then what "
            f"you add).{confirm}"
        )

    @staticmethod
    def _check_rewrite(old: str, new: str, shown: str) -> None:
        if old.strip() and not new.strip():
            raise ToolError(
                f"Not changed: this write would leave {shown} empty. Write the file's full new "
                "content, or, to add text at its end, send the write with append=true."
            )
        if not shown.endswith(".py") or not _parses(old):
            return
        if not _parses(new):
            note = python_note(shown, new)
            raise ToolError(
                f"Not changed: {shown} parses now and this write would break it. {note} "
                "Send the whole file again, fixed."
            )
        module = Path(shown).stem
        if _imports(new, module) and not _imports(old, module):
            # the 1.5B wrote a test file's text (`from durations import parse_duration` and its
            # tests) over the module it tests, twice on two suites
            raise ToolError(
                f"Not changed: this text imports {module} itself, so it is not {shown}'s text (another "
                f"file's, such as a test of it?). Write {shown} whole with its own code and your changes."
            )
        before, after = _definitions(old), _definitions(new)
        if (len(before) >= MIN_LINES_GUARDED and not before & after) or (before and not after):
            # what a small model sends when it writes only the function it was asked to add
            names = ", ".join(sorted(before)[:5])
            raise ToolError(
                f"Not changed: this write would remove every function and class {shown} has "
                f"({names}). Write the whole file: its old definitions and your changes (or, to add "
                "code at its end, send the write with append=true)."
            )

    def _check_kept(self, path: Path, old: str, new: str, shown: str) -> None:
        """A whole-file write of a file Hearth showed with the task (and the model never read)
        that drops lines of it outright (no line like them is left) is refused once per content
        (the same write again goes through): the 1.5B rewrote a README for a version bump and left
        out its last line, or wrote only the line it was asked to add. After a read, a rewrite is
        an edit and goes through. So does a Python file that still parses: it is judged by its
        result (its definitions are kept, `_check_rewrite`), and a fix replaces lines (the 1.5B's
        right fix of a one-line bug was refused as dropping that line)."""
        if path not in self._shown or len([ln for ln in old.splitlines() if ln.strip()]) < MIN_LINES_GUARDED:
            return
        if shown.endswith(".py") and _parses(new):
            return
        dropped = [line for line in dropped_lines(old, new) if not _removal_asked(self.task, line)]
        if not dropped:
            return
        key = (path, "write", hashlib.sha256(new.encode("utf-8", "replace")).hexdigest())
        if key in self._warned:
            return
        self._warned.add(key)
        examples = "; ".join(f"`{line[:60]}`" for line in dropped[:3])
        total = len({line.strip() for line in old.splitlines() if line.strip()})
        # only the new text sent: what the model meant was most likely to add it
        add = " To add text at its end, send the write with append=true." if len(dropped) == total else ""
        raise ToolError(
            f"Not changed: this write would drop {len(dropped)} of the {total} lines of {shown} "
            f"({examples}). Write the whole file: every line to keep, with your changes.{add} If you "
            "really mean to drop them, send the same write again."
        )

    def __contains__(self, path: Path) -> bool:
        return path in self._seen

    @classmethod
    def from_events(
        cls,
        events: Iterable[Event],
        paths: WorkspacePaths,
        canonical: Callable[[str], str | None],
        *,
        strict: bool = False,
    ) -> KnownFiles:
        """The files this session's successful reads, writes and edits touched, and those Hearth
        showed whole with a task, as they are now.

        `canonical` maps a tool name the model used (maybe an alias) to the tool's own name."""
        known = cls(strict=strict)
        calls: dict[str, str] = {}
        for event in events:
            if isinstance(event, HearthMessage):
                for shown in event.shown:  # the files shown whole with the task, as when first shown
                    try:
                        known.note(paths, paths.resolve(shown), shown=True)
                    except ToolError:
                        continue
            elif isinstance(event, ModelReply):
                for call in event.tool_calls:
                    target = call.arguments.get("path")
                    if canonical(call.name) in SEEN_BY and isinstance(target, str):
                        calls[call.id] = target
            elif isinstance(event, ToolResult) and event.ok and event.call_id in calls:
                try:
                    known.note(paths, paths.resolve(calls[event.call_id]))
                except ToolError:
                    continue
        return known


# "remove six", "delete the `legacy_mode` row": the name after the verb
_REMOVE_NAMED = re.compile(r"\b(?:remove|delete|drop)\s+(?:(?:the|a|an)\s+)?[`'\"]?([\w.-]+)", re.IGNORECASE)


def _removal_asked(task: str, line: str) -> bool:
    """Whether `line` is an item the task says to remove: it starts with the name (after a list
    marker or quotes). The 1.5B's right rewrite of requirements.txt without `six==1.16.0`
    ("remove six") was refused as dropping a line."""
    item = line.strip().lstrip("-*+ ").lstrip("`'\"|").strip()
    names = [m.group(1).rstrip(".") for m in _REMOVE_NAMED.finditer(task)]
    return any(re.match(rf"{re.escape(n)}(?![\w-])", item) for n in names if n)


def deleted_lines(old: str, new: str) -> list[str]:
    """The non-blank lines of `old` a change removes outright: a line replaced by another (a word
    changed inside it) is not deleted; only what a replaced block loses past its new length is."""
    a, b = old.splitlines(), new.splitlines()
    lost: list[str] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if tag == "delete":
            lost += a[i1:i2]
        elif tag == "replace" and (i2 - i1) > (j2 - j1):
            lost += a[i1 + (j2 - j1) : i2]
    return [line for line in lost if line.strip()]


# What stands where code is to be written: replacing it is the task, not a loss.
_PLACEHOLDER = re.compile(
    r"(?:raise NotImplementedError\b.*|pass|\.\.\.|return None|#\s*(?:TODO|FIXME|your code)\b.*|"
    r"//\s*TODO\b.*|throw new Error\(.not implemented.*)$",
    re.IGNORECASE,
)

# A line that sets a name or key: `BASE_URL = "..."`, `port = 8000`, `"debug": true,`, `name: x`
_KEYED = re.compile(r"""(?:["']?[\w.-]+["']?\s*(?::|=(?!=))|def \w+\(|class \w+\b)""")


def dropped_lines(old: str, new: str) -> list[str]:
    """The non-blank lines of `old` that `new` leaves out with nothing like them left: a line with
    a word or number changed is changed, and one whose text is still there (a JSON file written
    on one line) is kept."""
    flat = " ".join(new.split())
    lines = [" ".join(line.split()) for line in new.splitlines() if line.strip()]
    dropped: list[str] = []
    for line in dict.fromkeys(" ".join(line.split()) for line in old.splitlines() if line.strip()):
        if _PLACEHOLDER.match(line):
            continue  # a stub's body is there to be replaced
        key = _KEYED.match(line)
        if key and any(other.startswith(key.group(0)) for other in lines):
            continue  # the same name or key given a new value: `BASE = ...`, `port = 9090`
        if difflib.get_close_matches(line, lines, n=1, cutoff=0.6) or _one_word_changed(line, lines):
            continue  # changed in place (`class TempReading:` renamed `class Measurement:`)
        match = difflib.SequenceMatcher(None, line, flat, autojunk=False).find_longest_match()
        if match.size < 0.6 * len(line):
            dropped.append(line)
    return dropped


_TOKEN = re.compile(r"\w+|[^\w\s]")


def _one_word_changed(line: str, lines: list[str]) -> bool:
    """Whether one of `lines` is `line` with one word (a name, a number) replaced, and a word kept
    (`class TempReading:` and `class Measurement:`; not `[server]` and `[database]`)."""
    tokens = _TOKEN.findall(line)
    for other in lines:
        others = _TOKEN.findall(other)
        if len(others) != len(tokens):
            continue
        pairs = list(zip(tokens, others, strict=True))
        if sum(a != b for a, b in pairs) == 1 and any(a == b and a[0].isalnum() for a, b in pairs):
            return True
    return False


def _imports(text: str, module: str) -> bool:
    """Whether the Python text imports `module` (at its top level: `import m`, `from m import x`)."""
    for node in ast.parse(text).body:
        if isinstance(node, ast.Import) and any(a.name == module for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module == module:
            return True
    return False


def _definitions(text: str) -> set[str]:
    """The names of a module's top-level functions and classes."""
    tree = ast.parse(text)
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    return {node.name for node in tree.body if isinstance(node, kinds)}


def _parses(text: str) -> bool:
    try:
        ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def _fingerprint(paths: WorkspacePaths, path: Path) -> Fingerprint | None:
    try:
        fd = paths.open(path, os.O_RDONLY)
    except (OSError, ToolError):
        return None
    with os.fdopen(fd, "rb") as fh:
        st = os.fstat(fh.fileno())
        digest: str | None = None
        if st.st_size <= HASH_LIMIT:
            h = hashlib.sha256()
            while chunk := fh.read(1 << 20):
                h.update(chunk)
            digest = h.hexdigest()
    return Fingerprint(st.st_mtime_ns, st.st_size, digest)
