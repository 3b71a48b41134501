"""What a rename, a removal or an addition the task asks for left undone: evidence a finish is
premature.

"Rename the constant MAX_RETRIES to RETRY_LIMIT everywhere": a small model renamed it in one file
and finished, the others still importing the old name. "Remove the legacy_pool setting": it wrote
the file back with the key still there, and finished. Both are read from the task's own words:
the old name of a rename must be gone from the workspace's text files; a name the task says to
remove (one that reads as a name: quoted, or with an underscore) must be gone from the files the
task names. "Add py312 to the envlist right after py311": it rewrote tox.ini without it, and
finished; a name the task says to add (quoted, an option such as `--ignore-case`, an ini section
such as `[testenv:types]`, or a word with an underscore or a digit) must be in one of the files
the task names (in the workspace's text files when it names none). Only names are judged, never
prose ("remove the print calls", "add a test for it" are not read).
"""

from __future__ import annotations

import io
import os
import re
import stat
import tokenize
from collections.abc import Mapping
from pathlib import Path

from hearth.prompts import render

# "rename the method add_song of Playlist to enqueue", "the parameter tax_pct of invoice_total
# and describe to vat_rate": the owners after the name are skipped
# "the field qty of the Item dataclass": an owner may be said with its kind, and a name said with
# its kind (field, parameter, ...) reads as a name even when it is a plain word
_KINDS = (
    r"field|attribute|property|parameter|argument|function|method|class|constant|variable|key|"
    r"column|setting|option|flag|module|dataclass"
)
# a name: an identifier, or words joined by hyphens (a CSS class `btn-primary`), or a command-line
# option (`--out`, `-o`)
_NAME = r"(?:--?)?[A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*"
# "the environment variable NOTIFY_KEY": a kind may come after a word of its own
_RENAME = re.compile(
    rf"\brename\s+(?:(?:the|a|an)\s+)?(?:(?P<kind>{_KINDS})\s+|\w+\s+(?:(?P<kind2>{_KINDS})\s+)?)?"
    rf"[`'\"]?(?P<old>{_NAME})[`'\"]?(?:\s+(?:{_KINDS})\b)?"
    rf"(?:\s+(?:of|in|on)\s+(?:the\s+)?[\w.]+(?:\s+(?:{_KINDS}))?"
    r"(?:(?:\s*,\s*|\s+and\s+)(?!to\b)[\w.]+)*)?"
    rf"\s+(?:to|into|as)\s+[`'\"]?(?P<new>{_NAME})[`'\"]?",
    re.IGNORECASE,
)
# "remove the legacy_pool setting", "delete `debug` from ...", "delete the [testenv:docs] section",
# "delete the old-mirror host": a quoted word, a word with "_" or "-" inside, or an ini section
_REMOVE = re.compile(
    r"\b(?:remove|delete|drop)\s+(?:(?:the|a|an|all)\s+)?(?:\w+\s+)?"
    r"(?:[`'\"]([A-Za-z_][\w-]*)[`'\"]|([A-Za-z]\w*[_-][\w-]*\w)|(\[[\w:. -]+\]))",
    re.IGNORECASE,
)
# "add py312 to the envlist", "add an --ignore-case option", "add a [testenv:types] section", "add
# `retries`": the name right after the verb (and an article, and one more word: "add the option
# `-q`"); "git add x" is a commit's step, not a change
_ADD = re.compile(
    r"(?<!git )\b(?:add|adds|adding)\s+(?:(?:a|an|the|new)\s+)?(?:(?:option|flag|section|key|setting)\s+)?"
    r"(?:`([^`\s]+)`|'([^'\s]+)'|\"([^\"\s]+)\"|(--?[A-Za-z][\w-]*)|(\[[\w:. -]+\])|([A-Za-z_]\w*))",
    re.IGNORECASE,
)
# a quoted name after words saying what it is: "add a menu entry \"Plots\" for /plots/", "add a
# new nav link called `Plots`" (the 1.5B made the other three edits of the task, never this one, and
# finished with exit 0)
_ADD_QUOTED = re.compile(
    r"(?<!git )\b(?:add|adds|adding)\s+(?:(?:a|an|the|new)\s+)?(?:[A-Za-z-]+\s+){1,3}(?:called\s+|named\s+)?"
    r"(?:`([^`\s]+)`|'([^'\s]+)'|\"([^\"\s]+)\")",
    re.IGNORECASE,
)
# The new text of a change, in backticks: "its heading becomes `## [1.4.0] - 2026-11-20`", "set the
# port to `8080`", "replace the title with `Shop`", "a new empty `## [Unreleased]` section goes
# above it" (the 1.5B added the item asked in the same sentence, left the heading and the new
# section out, and finished with exit 0)
_SAME_CLAUSE = r"(?:[^.`\n]|\.(?=\S))"  # a dot inside a name (config.toml) ends no clause
_BECOMES = re.compile(
    r"\bbecomes?\s+`([^`\n]+)`"
    rf"|\b(?:change|set|bump|update|rename)\w*\b{_SAME_CLAUSE}{{0,60}}?\bto\s+`([^`\n]+)`"
    rf"|\breplace\w*\b{_SAME_CLAUSE}{{0,60}}?\bwith\s+`([^`\n]+)`"
    rf"|`([^`\n]+)`{_SAME_CLAUSE}{{0,40}}?\b(?:goes|go|comes|come)\s+(?:right\s+)?(?:above|below|before|after|under|first|last)\b",
    re.IGNORECASE,
)
_FILE_LIKE = re.compile(r"^\.|\.[A-Za-z]\w{0,4}$")  # .gitignore, notes.txt: files, not names in them
_TEST_FILE = re.compile(r"test_.*\.py$|.*_test\.py$")  # a test may check the name is gone
_SKIPPED_DIRS = frozenset({"__pycache__", "node_modules", "venv", ".venv"})
_MAX_FILES = 300
_MAX_BYTES = 200_000
_SHOWN = 4


def renamed(task: str) -> list[tuple[str, str]]:
    """(old, new) for each rename the task asks for of a name that reads as one (quoted, said
    with its kind, "the field qty", or with an underscore or a capital inside: a plain word such
    as `get` stands in too many places), its old name not kept (see `kept_old`)."""
    return [(old, new) for old, new, kept in _renames(task) if not kept]


def kept_old(task: str) -> list[tuple[str, str]]:
    """(old, new) for each rename the task asks that keeps the old name beside the new one."""
    return [(old, new) for old, new, kept in _renames(task) if kept]


def _renames(task: str) -> list[tuple[str, str, bool]]:
    found = []
    for m in _RENAME.finditer(task):
        old, new = m.group("old"), m.group("new")
        quoted = m.group(0).split(old, 1)[0][-1:] in "`'\""
        readable = quoted or m.group("kind") or m.group("kind2") or _distinctive(old)
        if old != new and readable:
            found.append((old, new, _old_kept(task, old)))
    return found


def undefined_kept(task: str, root: Path, named: list[str]) -> str:
    """What the finish review says when a name the task keeps beside its new one (a wrapper, an
    alias) is defined in none of the Python files the task names (of the workspace when it names
    none): the 1.5B renamed fetch_rate, left the wrapper out and finished. "" when each is."""
    files = [root / n for n in named if n.endswith(".py") and _regular(root / n)]
    files = files or [f for f in text_files(root) if f.suffix == ".py"]
    texts = [t for t in (read_text_file(f) for f in files) if t is not None]
    for old, new in kept_old(task):
        defined = re.compile(
            rf"^\s*(?:(?:async\s+)?def|class)\s+{re.escape(old)}\b|^{re.escape(old)}\s*=", re.M
        )
        if files and not any(defined.search(text) for text in texts):
            shown = ", ".join(str(f.relative_to(root)) for f in files[:_SHOWN])
            return render("finish_problem_kept_undefined", old=old, new=new, files=shown)
    return ""


def _old_kept(task: str, old: str) -> bool:
    """Whether the task keeps the old name beside the new one ("Keep fetch_rate working for old
    code as a wrapper that calls get_rate", "keep `load` as an alias"): then it is no leftover,
    and replacing it everywhere (the 1.5B's wrapper became a second get_rate) undoes the work."""
    name = rf"[`'\"]?{re.escape(old)}(?![\w-])[`'\"]?"
    kept = (
        rf"\bkeep(?:s|ing)?\s+(?:the\s+old\s+(?:name\s+|function\s+)?)?{name}",
        rf"(?<![\w-]){name}\s+(?:\w+\s+){{0,6}}?(?:as\s+(?:a|an)\s+)?(?:\w+\s+)?(?:wrapper|alias|deprecated)\b",
        rf"\b(?:wrapper|alias)\s+(?:named\s+|called\s+)?{name}",
    )
    return any(re.search(pattern, task, re.IGNORECASE) for pattern in kept)


# a change a task asks for besides its renames ("... and add a --verbose flag")
_OTHER_CHANGE = re.compile(
    r"\b(?:add|fix|create|remove|delete|drop|replace|implement|refactor|append|insert|move|write|"
    r"commit|update|change|bump|edit|make|split|extract|sort)\b",
    re.IGNORECASE,
)


def only_renames(task: str) -> bool:
    """Whether the task asks for renames of names (see `renamed`) and no other change: its words
    with the renames left out ask for nothing ("..., the error message included. The tests must
    still pass" asks for nothing more)."""
    if not renamed(task):
        return False
    return _OTHER_CHANGE.search(_RENAME.sub(" ", task)) is None


def _distinctive(name: str) -> bool:
    return "_" in name.strip("_") or "-" in name or any(c.isupper() for c in name[1:])


def removed(task: str) -> list[str]:
    """The names the task says to remove."""
    return [next(g for g in m.groups() if g) for m in _REMOVE.finditer(task)]


def added(task: str) -> list[str]:
    """The names the task says to add: quoted, an option, an ini section, a word with an
    underscore or a digit inside (`py312`, `MAX_SIZE`), or one said with its value (`serde = ...`);
    never a file's name, a number or a plain word ("add a test"). And the new text of a change, in
    backticks (see `_BECOMES`)."""
    found: list[str] = []
    for m in _ADD.finditer(task):
        quoted = next((g for g in m.groups()[:3] if g), None)
        name = quoted or next(g for g in m.groups()[3:] if g)
        if _FILE_LIKE.search(name) or name.isdigit():
            continue
        plain = m.group(6) is not None
        # a plain word said as a key with its value ("add serde = { version = \"1\" } to the
        # dependencies", "add timeout = 30") is a name too
        key = re.match(r"\s*=(?!=)", task[m.end() :]) is not None
        if plain and not (_distinctive(name) or any(c.isdigit() for c in name[1:]) or key):
            continue
        if name not in found:
            found.append(name)
    for m in _ADD_QUOTED.finditer(task):
        name = next(g for g in m.groups() if g)
        if not _FILE_LIKE.search(name) and not name.isdigit() and name not in found:
            found.append(name)
    for m in _BECOMES.finditer(task):
        text = next(g for g in m.groups() if g).strip()
        if text and not _FILE_LIKE.search(text) and text not in found:
            found.append(text)
    return found


def leftover_problem(task: str, root: Path, named: list[str]) -> str:
    """What the finish review says when a renamed name is still in the workspace, or a removed
    one still in the files the task names (`named`); "" when nothing is left."""
    for old, new in renamed(task):
        files = [f for f in text_files(root) if not _only_in_words(task, old, f)]
        places = _where(old, files, root, in_test_names=True, new=new)
        if places:
            return render("finish_problem_leftover_rename", old=old, new=new, places=places)
    files = [root / n for n in named if _regular(root / n) and not _TEST_FILE.match(os.path.basename(n))]
    for name in removed(task):
        places = _where(name, files, root)
        if places:
            return render("finish_problem_leftover_removed", name=name, places=places)
    return ""


def _only_in_words(task: str, old: str, path: Path) -> bool:
    """Whether a Python file holds the code name `old` only in its strings' words, which a
    rename of the function (class, ...) leaves as they are."""
    if not _code_name(task, old, str(path)):
        return False
    text = read_text_file(path)
    return text is not None and renamed_text(task, text, str(path)) == text


def missing_added(task: str, root: Path, named: list[str]) -> str:
    """What the finish review says when a name the task says to add is in none of the files the
    task names (none of the workspace's text files when it names none); "" when each is."""
    files = [root / n for n in named if _regular(root / n)] or text_files(root)
    texts = [t for t in (read_text_file(f) for f in files) if t is not None]
    for name in added(task):
        if not any(_stands_in(name, text) for text in texts):
            shown = ", ".join(str(f.relative_to(root)) for f in files[:_SHOWN]) or "the workspace"
            return render("finish_problem_missing_added", name=name, files=shown)
    return ""


def rest_of_rename(
    task: str, root: Path, start: Mapping[str, str] | None = None
) -> dict[str, tuple[str, str]]:
    """For the renames the task asks: each workspace text file where an old name still stands
    as a word or in a test's name, by its workspace path, with its text and the text with the
    new name in those places (a rename done the way an editor's refactoring does it). `start`:
    texts to rename instead of what some files hold now (the files as shown with the task); each
    of those is in the result when its renamed text differs from what the file holds."""
    changes: dict[str, tuple[str, str]] = {}
    if not renamed(task):
        return changes
    for path in text_files(root):
        rel = str(path.relative_to(root))
        now = read_text_file(path)
        if now is None:
            continue
        after = renamed_text(task, start[rel] if start and rel in start else now, rel)
        if after != now:
            changes[rel] = (now, after)
    return changes


def renamed_text(task: str, text: str, path: str = "") -> str:
    """`text` with each old name the task renames replaced by its new name, as a word and in the
    tests' names; for a long option (`--out` to `--dest`), also the attribute argparse reads it
    into (`args.out` to `args.dest`), and no other option holding it (`--out-format`). In a
    Python file (`path`), a name the task calls a function, class, variable ... is not renamed in
    its strings' words (see `_renamed_code`)."""
    for old, new in renamed(task):
        word = re.compile(rf"(?<![\w-]){re.escape(old)}(?![\w-])")
        in_test = _in_test_name(old, new)
        code = _renamed_code(text, word, in_test, new) if _code_name(task, old, path) else None
        text = code if code is not None else in_test.sub(rf"\g<1>{new}", word.sub(new, text))
        attributes = _attributes(old, new)
        if attributes:
            read = re.compile(rf"(?<![\w.])({_NAMESPACES})\.{re.escape(attributes[0])}(?!\w)")
            text = read.sub(rf"\g<1>.{attributes[1]}", text)
    return text


# what names the task calls by a kind that lives in code, not in strings ("the column qty" may be a
# dictionary key, "the option --out" a string argparse reads)
_CODE_KINDS = r"function|method|class|constant|variable|parameter|argument|dataclass"


def _in_test_name(old: str, new: str) -> re.Pattern[str]:
    """`old` as a part of a test's name, not where that part is `new` already (`tip` renamed
    `tip_amount`: `test_tip_amount_rounds` is renamed)."""
    done = rf"(?!{re.escape(new[len(old) :])}(?![A-Za-z0-9]))" if new.startswith(old) and new != old else ""
    return re.compile(rf"\b(test_\w*?)(?<![A-Za-z0-9]){re.escape(old)}(?![A-Za-z0-9]){done}")


def _code_name(task: str, old: str, path: str) -> bool:
    """Whether the rename of `old` is of a name in Python code, in a Python file."""
    if not path.endswith(".py") or not old.isidentifier():
        return False
    # "the environment variable NOTIFY_KEY" lives in strings (`os.environ.get("NOTIFY_KEY")`)
    said = (
        rf"(?<!environment )(?<!env )\b(?:{_CODE_KINDS})\s+[`'\"]?{re.escape(old)}(?!\w)"
        rf"|(?<![\w.]){re.escape(old)}\(\)"
    )
    return re.search(said, task, re.IGNORECASE) is not None


def _renamed_code(text: str, word: re.Pattern[str], in_test: re.Pattern[str], new: str) -> str | None:
    """`text` with the name renamed where Python reads it (names, the fields of f-strings) and in
    its comments; not in the words of other strings: a function `tip` renamed `tip_amount` must
    not change what `print(f"... + tip {extra}")` prints. None when `text` does not tokenize."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError):
        return None
    starts = [0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    edits: list[tuple[int, int, str]] = []
    for tok in tokens:
        if tok.type in (tokenize.NAME, tokenize.COMMENT):
            after = in_test.sub(rf"\g<1>{new}", word.sub(new, tok.string))
        elif tok.type == tokenize.STRING and "f" in _prefix(tok.string).lower():
            after = _renamed_fields(tok.string, word, new)
        else:
            continue
        if after != tok.string:
            edits.append(
                (starts[tok.start[0] - 1] + tok.start[1], starts[tok.end[0] - 1] + tok.end[1], after)
            )
    for begin, end, after in reversed(edits):
        text = text[:begin] + after + text[end:]
    return text


def _prefix(literal: str) -> str:
    return literal[: min(i for i in (literal.find("'"), literal.find('"')) if i >= 0)]


def _renamed_fields(literal: str, word: re.Pattern[str], new: str) -> str:
    """An f-string with the name renamed inside its `{...}` fields only (`{{` is a brace)."""
    parts = re.split(r"(\{\{|\}\}|\{[^{}]*\})", literal)
    return "".join(word.sub(new, p) if p.startswith("{") and p != "{{" else p for p in parts)


# what a script's parsed options are usually called: `args.out`
_NAMESPACES = r"args|opts|options|ns|namespace|arguments|parsed|params"


def _attributes(old: str, new: str) -> tuple[str, str] | None:
    """The attributes argparse reads two long options into (`--dry-run`: `dry_run`), or None
    when the rename is not of a long option to another."""
    if not (old.startswith("--") and new.startswith("--")):
        return None
    return old[2:].replace("-", "_"), new[2:].replace("-", "_")


def alike_renamed(task: str, shown: Mapping[str, str], now: Mapping[str, str | None]) -> str:
    """What the finish review says when a name holding an old name of a rename as a part
    (`--out-format` beside `--out`, `max_items_in_search` beside `max_items`) was in a file as
    shown with the task (`shown`), is gone from it now (`now`: the same files' texts as they are,
    read by the caller), and stands there renamed with it (`--dest-format`), though the task does
    not ask for that name; "" when no such name."""
    for old, new in renamed(task):
        attributes = _attributes(old, new)
        for part_old, part_new in [(old, new), *([attributes] if attributes else [])]:
            for path, before in shown.items():
                text = now.get(path)
                alike = _alike(part_old, part_new, before, text, task) if text is not None else ""
                if alike:
                    renamed_alike = alike.replace(part_old, part_new)
                    return render(
                        "finish_problem_alike_renamed",
                        alike=alike,
                        renamed=renamed_alike,
                        path=path,
                        old=old,
                        new=new,
                    )
    return ""


def _alike(old: str, new: str, before: str, now: str, task: str) -> str:
    """A name of `before` holding `old` as a part (between `-`, `_` or its ends) that is gone
    from `now`, where it stands with `new` in its place; "" when none."""
    part = re.compile(rf"(?:^|[_-]){re.escape(old.lstrip('-'))}(?:[_-]|$)")
    for name in dict.fromkeys(re.findall(r"-{0,2}[A-Za-z_][\w-]*\w", before)):
        if name == old or not part.search(name.lstrip("-")) or old not in name:
            continue
        if renamed_text(task, name) != name:
            continue  # the rename's own (a test's name, `test_calc_bmi_works`)
        changed = name.replace(old, new)
        if (
            not _stands_in(name, now)
            and _stands_in(changed, now)
            and not _stands_in(changed, before)
            and not _stands_in(changed, task)
        ):
            return name
    return ""


def _stands_in(name: str, text: str) -> bool:
    """Whether `name` is in `text` as a word of its own: "lint" is not in "eslint"."""
    before = r"(?<![\w-])" if name[:1].isalnum() or name[:1] == "_" else ""
    after = r"(?![\w-])" if name[-1:].isalnum() or name[-1:] == "_" else ""
    return re.search(before + re.escape(name) + after, text) is not None


def _where(
    name: str, files: list[Path], root: Path | None = None, *, in_test_names: bool = False, new: str = ""
) -> str:
    """ "fetcher.py (line 3), test_fetcher.py (lines 4, 9)": where `name` stands as a word, or
    (`in_test_names`) as a part of a test's name (`test_add_song_returns_the_position` still
    names `add_song`: a rename "everywhere" reaches the tests' names)."""
    pattern = rf"(?<![\w-]){re.escape(name)}(?![\w-])"
    if in_test_names:
        pattern += "|" + _in_test_name(name, new or name).pattern
    word = re.compile(pattern)
    found: list[str] = []
    for path in files:
        text = read_text_file(path)
        if text is None:
            continue
        lines = [str(i) for i, line in enumerate(text.splitlines(), 1) if word.search(line)]
        if lines:
            shown = path.relative_to(root) if root else path
            found.append(f"{shown} (line{'s' if len(lines) > 1 else ''} {', '.join(lines[:5])})")
        if len(found) >= _SHOWN:
            break
    return ", ".join(found)


def text_files(root: Path) -> list[Path]:
    """The workspace's files a rename would touch: regular, not hidden, not too large."""
    files: list[Path] = []
    for folder, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIPPED_DIRS)
        for name in sorted(names):
            path = Path(folder) / name
            if not name.startswith(".") and _regular(path):
                files.append(path)
            if len(files) >= _MAX_FILES:
                return files
    return files


def read_text_file(path: Path) -> str | None:
    """The file's text, opened without following a symlink (one a process swapped in after the
    walk is never read) and only while it is a regular file."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
            return None
        data = fh.read(_MAX_BYTES + 1)
    try:
        return data.decode("utf-8") if len(data) <= _MAX_BYTES else None
    except UnicodeDecodeError:
        return None


def _regular(path: Path) -> bool:
    """A regular file (a symlink is never followed), small enough to read."""
    try:
        info = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISREG(info.st_mode) and info.st_size <= _MAX_BYTES
