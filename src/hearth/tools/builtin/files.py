"""File tools: read, write, edit, glob, grep, ls, mkdir.

Every path goes through the run context's safe resolver, and everything after that through
file descriptors opened beneath the workspace: stat, open, folder creation, listing and walks
never follow a symlink swapped in between the check and the act. Outputs are short and say
what happened, so a small model can take the next step.
"""

from __future__ import annotations

import fnmatch
import io
import os
import re
import stat
from collections.abc import Iterable, Iterator
from itertools import islice
from pathlib import Path
from typing import BinaryIO

from pydantic import Field

from hearth.core.errors import ToolError
from hearth.tools.base import RunContext, Tool, ToolInput
from hearth.tools.builtin.edit_match import Ambiguous, NoMatch, find_matches
from hearth.tools.builtin.pycheck import python_note
from hearth.tools.builtin.walk import walk_files
from hearth.tools.globs import glob_match

DEFAULT_READ_LINES = 400
MAX_LINE_CHARS = 2000
MAX_LISTED = 200
MAX_GREP_FILE_BYTES = 5_000_000
WHOLE_READ_BYTES = 1 << 20


O_DIR = os.O_RDONLY | os.O_DIRECTORY


def _kind(ctx: RunContext, path: Path) -> str | None:
    """ "dir", "file" (a symlink counts as one: opening it will refuse) or None (missing)."""
    st = ctx.paths.stat(path)
    if st is None:
        return None
    return "dir" if stat.S_ISDIR(st.st_mode) else "file"


def _make_parents(ctx: RunContext, path: Path) -> None:
    try:
        ctx.paths.makedirs(path.parent)
    except (FileNotFoundError, NotADirectoryError) as exc:
        raise ToolError(f"Could not create the folders for {_rel(ctx, path)}: {exc.strerror}.") from None


def _open_dir(ctx: RunContext, path: Path) -> int:
    try:
        return ctx.paths.open(path, O_DIR)
    except (FileNotFoundError, NotADirectoryError) as exc:
        raise ToolError(f"Could not open the folder {_rel(ctx, path)}: {exc.strerror}.") from None


def _is_binary(fh: BinaryIO) -> bool:
    head = fh.read(8192)
    fh.seek(0)
    return b"\x00" in head


def _open_read(ctx: RunContext, path: Path) -> BinaryIO:
    try:
        return os.fdopen(ctx.paths.open(path, os.O_RDONLY), "rb")
    except (FileNotFoundError, NotADirectoryError) as exc:
        raise ToolError(f"Could not open {_rel(ctx, path)}: {exc.strerror}.") from None


def _write_file(ctx: RunContext, path: Path, data: bytes) -> None:
    try:
        fd = ctx.paths.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError) as exc:
        raise ToolError(f"Could not write {_rel(ctx, path)}: {exc.strerror}.") from None
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)


def _text(fh: BinaryIO) -> io.TextIOWrapper:
    return io.TextIOWrapper(fh, encoding="utf-8", errors="replace", newline="")


COUNTED_READ_LINES = 10  # a whole file at least this long is read with its line count at the end


def _seen(ctx: RunContext, path: Path) -> None:
    """The agent now knows this file as it is: later writes and edits may change it."""
    if ctx.known is not None:
        ctx.known.note(ctx.paths, path)


def _rel(ctx: RunContext, path: Path) -> str:
    return ctx.paths.display(path)


class ReadInput(ToolInput):
    """Read a text file; shows numbered lines (offset: first line, 1-based)."""

    path: str
    offset: int = Field(1, ge=0)
    limit: int = Field(DEFAULT_READ_LINES, ge=1, le=5000)


def read(args: ReadInput, ctx: RunContext) -> str:
    path = ctx.paths.resolve(args.path)
    offset = max(1, args.offset)
    kind = _kind(ctx, path)
    if kind == "dir":
        raise ToolError(f"{args.path!r} is a directory; use ls to list it.")
    if kind is None:
        raise ToolError(f"{args.path!r} does not exist. Use glob or ls to find the right path.")
    out: list[str] = []
    total = 0
    with _open_read(ctx, path) as raw:
        head = raw.read(WHOLE_READ_BYTES)
        if b"\x00" in head[:8192]:
            size = os.fstat(raw.fileno()).st_size
            _seen(ctx, path)
            return f"<binary file {_rel(ctx, path)}: {size} bytes, not shown>"
        if len(head) < WHOLE_READ_BYTES:  # small file: one read, split in memory
            lines: Iterable[str] = io.StringIO(head.decode("utf-8", errors="replace"), newline="")
        else:  # large file: stream it line by line
            raw.seek(0)
            lines = _text(raw)
        for total, line in enumerate(lines, start=1):
            if offset <= total < offset + args.limit:
                text = line.rstrip("\r\n")
                if len(text) > MAX_LINE_CHARS:
                    text = text[:MAX_LINE_CHARS] + f" …[line cut, {len(text)} chars]"
                out.append(f"{total}\t{text}")
    if total == 0:
        _seen(ctx, path)
        return f"{_rel(ctx, path)} is empty."
    if offset > total:
        raise ToolError(f"{args.path!r} has only {total} lines; offset {offset} is past the end.")
    _seen(ctx, path)
    shown_end = offset + len(out) - 1
    body = "\n".join(out)
    if shown_end < total:
        body += f"\n[lines {offset}-{shown_end} of {total}; use offset={shown_end + 1} to read on]"
    elif offset > 1:
        body += f"\n[lines {offset}-{shown_end} of {total}: the end of the file]"
    elif total >= COUNTED_READ_LINES:  # stated, so a count is read off, not made by hand
        body += f"\n[end of {_rel(ctx, path)}: {total} lines]"
    return body


class WriteInput(ToolInput):
    """Create or overwrite a file (append=true adds to its end)."""

    path: str
    content: str
    append: bool = False


# A whole-file write wrapped in a Markdown fence (```python ... ```), or with every line still
# carrying the `N<tab>` prefix read shows: the model copied the chat's form into the file. What
# it meant is the text inside; a Markdown file's fences are its text.
_FENCED = re.compile(r"\A\s*```[\w+#.-]*[ \t]*\n(.*?)\n?```\s*\Z", re.DOTALL)
_NUMBERED = re.compile(r"[ \t]*(\d+)\t(.*)")
_MARKDOWN = frozenset({".md", ".markdown", ".mdx", ".rst", ".txt"})
_TABLES = frozenset({".tsv", ".tab", ".csv", ".txt", ".dat", ".log", ""})


def as_meant(path: Path, content: str) -> tuple[str, str]:
    """(the content to write, a note on what was taken out: "" when nothing was)."""
    if path.suffix.lower() not in _MARKDOWN:
        fenced = _FENCED.match(content)
        if fenced and "```" not in fenced.group(1):
            return fenced.group(1) + "\n", " (the ``` fence around the content was left out)"
    if path.suffix.lower() in _TABLES:
        return content, ""  # "1<tab>alice" rows are a table's data
    text = without_numbers(content)
    if text is not None:
        return text, " (the line numbers read shows were left out)"
    return content, ""


def without_numbers(content: str) -> str | None:
    """The text without read's consecutive `N<tab>` line numbers, when every line has one, or
    every line but the first and they count from 2 (a small model copying a read dropped the
    first `1<tab>` only, and wrote the others into the file)."""
    lines = content.splitlines()
    numbered = [_NUMBERED.fullmatch(line) for line in lines]
    first = ""
    if len(lines) > 2 and not numbered[0] and all(numbered[1:]):
        first, numbered = lines[0], numbered[1:]
    if len(numbered) < 2 or not all(numbered):
        return None
    numbers = [int(m.group(1)) for m in numbered if m]
    start = 2 if first else numbers[0]
    if numbers != list(range(start, start + len(numbers))):
        return None
    body = [m.group(2) for m in numbered if m]
    return "\n".join([first, *body] if first else body) + ("\n" if content.endswith("\n") else "")


def write(args: WriteInput, ctx: RunContext) -> str:
    path = ctx.paths.resolve(args.path, write=True)
    content, cleaned = as_meant(path, args.content)
    if cleaned:
        args = args.model_copy(update={"content": content})
    kind = _kind(ctx, path)
    if kind == "dir":
        raise ToolError(f"{args.path!r} is a directory; give a file path.")
    existed = kind is not None
    if existed and args.append:
        return _append(args, ctx, path)
    data = args.content.encode("utf-8")
    before: str | None = None  # the text written over, for the look at a Python file (pycheck)
    if existed:
        if ctx.known is not None:
            ctx.known.check(ctx.paths, path, args.path)
        st = ctx.paths.stat(path)
        if ctx.known is not None or (st is not None and stat.S_ISREG(st.st_mode)):
            with _open_read(ctx, path) as raw:
                old = b"" if _is_binary(raw) else raw.read(WHOLE_READ_BYTES + 1)
            # a table's text with read's line numbers still on, otherwise as it is: the model
            # copied what read showed, and meant no change (in a table they cannot be left out)
            plain = without_numbers(args.content)
            if (old == data or (plain is not None and old == plain.encode("utf-8"))) and len(
                old
            ) <= WHOLE_READ_BYTES:
                _seen(ctx, path)
                raise ToolError(
                    f"Not written: {args.path} already has exactly this content, so nothing would "
                    "change. If the task is done, check it (run it) and finish; "
                    "otherwise change something else."
                )
            before = (
                old[:WHOLE_READ_BYTES].decode("utf-8", "replace") if len(old) <= WHOLE_READ_BYTES else None
            )
            if ctx.known is not None:
                text = old[:WHOLE_READ_BYTES].decode("utf-8", "replace")
                ctx.known.check_overwrite(path, text, args.content, args.path)
    else:
        _make_parents(ctx, path)
    _write_file(ctx, path, data)
    _seen(ctx, path)
    lines = args.content.count("\n") + (0 if args.content.endswith("\n") or not args.content else 1)
    verb = "Overwrote" if existed else "Created"
    return _with_check(
        f"{verb} {_rel(ctx, path)} ({lines} lines, {len(data)} bytes){cleaned}.",
        ctx,
        path,
        args.content,
        before,
    )


def _with_check(result: str, ctx: RunContext, path: Path, text: str, before: str | None = None) -> str:
    """The result, and what is wrong with a Python file just changed (see pycheck); `before`:
    the text it replaced."""
    if path.suffix != ".py":
        return result
    note = python_note(_rel(ctx, path), text, before)
    return f"{result}\n{note}" if note else result


def _append(args: WriteInput, ctx: RunContext, path: Path) -> str:
    """Add text at the end of an existing text file, on a line of its own. Nothing already in the
    file can be lost, so the file need not have been read; one that changed since it was read is
    still refused (the agent's picture of it is out of date)."""
    if ctx.known is not None and path in ctx.known:
        ctx.known.check(ctx.paths, path, args.path)
    with _open_read(ctx, path) as raw:
        if _is_binary(raw):
            raise ToolError(f"{args.path!r} is not a text file; append adds to text files only.")
        old = _text(raw).read()
    text = args.content.strip("\r\n")
    if text.strip() and old.rstrip("\r\n").endswith(text):
        raise ToolError(
            f"Not appended: {args.path} already ends with this text, so it is there. "
            "If that was the task, it is done; otherwise change something else."
        )
    added = args.content
    if old and not old.endswith("\n") and not added.startswith("\n"):
        added = "\n" + added  # the file's last line is ended first
    elif old.endswith("\n") and added.startswith("\n"):
        added = added[1:]  # a newline meant to end the file's last line, which already has one
    if old.endswith("\n") and added and not added.endswith("\n"):
        added += "\n"  # the file's lines end with a newline; so does the one added
    _write_file(ctx, path, (old + added).encode("utf-8"))
    _seen(ctx, path)
    total = (old + added).count("\n") + (0 if (old + added).endswith("\n") else 1)
    return f"Appended to {_rel(ctx, path)}: it now has {_plural(total, 'line')}."


class EditInput(ToolInput):
    """Replace `old` with `new` in a file; `old` must be unique unless replace_all.

    Small differences in whitespace and indentation are tolerated."""

    path: str
    old: str
    new: str
    replace_all: bool = False


def edit(args: EditInput, ctx: RunContext) -> str:
    path = ctx.paths.resolve(args.path, write=True)
    kind = _kind(ctx, path)
    if kind is None:
        if args.old == "":
            _make_parents(ctx, path)
            _write_file(ctx, path, args.new.encode("utf-8"))
            _seen(ctx, path)
            return f"Created {_rel(ctx, path)}."
        raise ToolError(f"{args.path!r} does not exist. Use write to create it.")
    if kind == "dir":
        raise ToolError(f"{args.path!r} is a folder, not a text file.")
    if args.old == "":
        raise ToolError(
            "`old` is empty. To replace the whole file use write; to edit, copy the text to change."
        )
    if args.old == args.new:
        raise ToolError("`old` and `new` are the same; nothing would change.")
    if ctx.known is not None:
        ctx.known.check(ctx.paths, path, args.path)
    with _open_read(ctx, path) as raw:
        if _is_binary(raw):
            raise ToolError(f"{args.path!r} is not a text file.")
        text = _text(raw).read()
    try:
        matches = find_matches(text, args.old, args.new, replace_all=args.replace_all)
    except Ambiguous as exc:
        where = ", ".join(str(n) for n in exc.lines[:10])
        raise ToolError(
            f"`old` occurs {len(exc.lines)} times in {args.path} (at lines {where}). "
            "Include more surrounding lines to pick one, or set replace_all=true."
        ) from None
    except NoMatch as exc:
        raise ToolError(f"{args.path}: {exc.hint}") from None
    before = text
    for m in reversed(matches):
        text = text[: m.start] + m.replacement + text[m.end :]
    if ctx.known is not None:
        ctx.known.check_overwrite(path, before, text, args.path, by_edit=True)
    _write_file(ctx, path, text.encode("utf-8"))
    _seen(ctx, path)
    lines = ", ".join(str(m.first_line) for m in matches[:10])
    how = "" if matches[0].how == "exact" else f" (matched {matches[0].how})"
    count = "1 occurrence" if len(matches) == 1 else f"{len(matches)} occurrences"
    return _with_check(
        f"Edited {_rel(ctx, path)}: replaced {count} at line {lines}{how}.", ctx, path, text, before
    )


def _walk(root: Path, ctx: RunContext) -> Iterator[Path]:
    """Files under root (see walk.walk_files), from a descriptor opened beneath the workspace."""
    fd = _open_dir(ctx, root)
    try:
        yield from walk_files(fd, root, ctx)
    finally:
        os.close(fd)


class GlobInput(ToolInput):
    """Find files by name, e.g. '*.py' (any folder) or 'src/**/*.ts'."""

    pattern: str
    path: str = "."


def glob(args: GlobInput, ctx: RunContext) -> str:
    root = ctx.paths.resolve(args.path)
    if _kind(ctx, root) != "dir":
        raise ToolError(f"{args.path!r} is not a folder.")
    pattern = args.pattern.removeprefix("./")
    by_name = "/" not in pattern
    hits: list[str] = []
    for p in _walk(root, ctx):
        rel = p.relative_to(root).as_posix()
        ok = fnmatch.fnmatch(p.name, pattern) if by_name else glob_match(pattern, rel)
        if ok:
            hits.append(_rel(ctx, p))
    if not hits:
        return f"No files match {args.pattern!r} under {args.path!r}."
    more = (
        f"\n[{len(hits) - MAX_LISTED} more not shown; narrow the pattern]" if len(hits) > MAX_LISTED else ""
    )
    return "\n".join(hits[:MAX_LISTED]) + more


class GrepInput(ToolInput):
    """Search file contents with a Python regex (glob filters file names, e.g. '*.py')."""

    pattern: str
    path: str = "."
    glob: str | None = None
    ignore_case: bool = False


def grep(args: GrepInput, ctx: RunContext) -> str:
    """Regex search; a pattern that is not a valid regex, or that finds nothing as one but does as
    plain text (a model pasting `def f(x):` as the pattern), is searched as plain text, and says so.
    The result ends with how many lines matched, so a count never has to be made by hand."""
    flags = re.IGNORECASE if args.ignore_case else 0
    literal = re.compile(re.escape(args.pattern), flags)
    try:
        rx, note = re.compile(args.pattern, flags), ""
    except re.error as exc:
        rx, note = (
            literal,
            f"{args.pattern!r} is not a valid regular expression ({exc}); searched as plain text.",
        )
    root = ctx.paths.resolve(args.path)
    kind = _kind(ctx, root)
    if kind is None:
        raise ToolError(f"{args.path!r} does not exist. Use glob or ls to find the right path.")
    files = [root] if kind == "file" else list(_walk(root, ctx))
    hits, total, matched = _search(rx, files, args.glob, ctx)
    if not total and rx is not literal and literal.pattern != rx.pattern:
        hits, total, matched = _search(literal, files, args.glob, ctx)
        if total:
            note = f"No matches for {args.pattern!r} as a regular expression; these match it as plain text."
    if not hits:
        return "\n".join(filter(None, [note, f"No matches for {args.pattern!r}."]))
    more = f"\n[{total - len(hits)} more matches not shown; narrow the search]" if total > len(hits) else ""
    count = (
        f"[{_plural(total, 'matching line')} in {_plural(matched, 'file')}]"  # first: read before the lines
    )
    return "\n".join(filter(None, [note, count, "\n".join(hits) + more]))


def _plural(n: int, what: str) -> str:
    return f"{n} {what}" if n == 1 else f"{n} {what}s"


def _search(
    rx: re.Pattern[str], files: list[Path], glob: str | None, ctx: RunContext
) -> tuple[list[str], int, int]:
    """(the matching lines to show, how many lines matched, in how many files)."""
    hits: list[str] = []
    total = matched = 0
    for f in files:
        if glob and not fnmatch.fnmatch(f.name, glob):
            continue
        if ctx.paths.is_secret(f):
            continue
        before = total
        try:
            with _open_read(ctx, f) as raw:
                st = os.fstat(raw.fileno())
                if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_GREP_FILE_BYTES:
                    continue
                if _is_binary(raw):
                    continue
                for n, line in enumerate(_text(raw), start=1):
                    if rx.search(line):
                        total += 1
                        if len(hits) < MAX_LISTED:
                            hits.append(f"{_rel(ctx, f)}:{n}: {line.rstrip()[:300]}")
        except (OSError, ToolError):  # unreadable, or swapped for a symlink out: skip it
            continue
        matched += total > before
    return hits, total, matched


class LsInput(ToolInput):
    """List a folder: names and sizes."""

    path: str = Field(".")


def ls(args: LsInput, ctx: RunContext) -> str:
    """Lists the folder through a descriptor opened beneath the workspace: a folder swapped for a
    symlink is refused, never listed; entries are described by lstat, symlinks not followed."""
    root = ctx.paths.resolve(args.path)
    st = ctx.paths.stat(root)
    if st is None:
        raise ToolError(f"{args.path!r} does not exist.")
    if not stat.S_ISDIR(st.st_mode):
        return f"{_rel(ctx, root)} ({st.st_size} bytes)"
    fd = _open_dir(ctx, root)
    try:
        with os.scandir(fd) as it:
            described = [_describe(e, fd) for e in it]
    finally:
        os.close(fd)
    entries = sorted(described, key=lambda d: (not d[1].endswith("/"), d[0]))
    lines = [line for _, line in islice(entries, MAX_LISTED)]
    if not lines:
        return f"{_rel(ctx, root)} is empty."
    more = f"\n[{len(entries) - MAX_LISTED} more entries not shown]" if len(entries) > MAX_LISTED else ""
    return "\n".join(lines) + more


def _describe(e: os.DirEntry[str], fd: int) -> tuple[str, str]:
    """(name, line) for ls: `name/` for folders, `name -> target` for symlinks, else the size."""
    try:
        if e.is_dir(follow_symlinks=False):
            return e.name, f"{e.name}/"
        if e.is_symlink():
            return e.name, f"{e.name} -> {os.readlink(e.name, dir_fd=fd)}"
        return e.name, f"{e.name}  ({e.stat(follow_symlinks=False).st_size} bytes)"
    except OSError:
        return e.name, e.name


class MkdirInput(ToolInput):
    """Create a folder and its parents."""

    path: str


def mkdir(args: MkdirInput, ctx: RunContext) -> str:
    path = ctx.paths.resolve(args.path, write=True)
    kind = _kind(ctx, path)
    if kind == "dir":
        return f"{_rel(ctx, path)}/ already exists."
    if kind is not None:
        raise ToolError(f"{args.path!r} exists and is a file.")
    ctx.paths.makedirs(path)
    return f"Created folder {_rel(ctx, path)}/."


def file_tools() -> list[Tool]:
    return [
        Tool("read", ReadInput, read, read_only=True, aliases=("read_file", "view", "cat")),
        Tool("write", WriteInput, write, aliases=("write_file", "create_file")),
        Tool("edit", EditInput, edit, aliases=("edit_file", "str_replace", "replace")),
        Tool("glob", GlobInput, glob, read_only=True, aliases=("find_files",)),
        Tool("grep", GrepInput, grep, read_only=True, aliases=("search", "search_files")),
        Tool("ls", LsInput, ls, read_only=True, aliases=("list_dir", "list_files", "list_directory")),
        Tool("mkdir", MkdirInput, mkdir, aliases=("make_dir", "create_directory")),
    ]
