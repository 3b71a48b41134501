"""A removal the task asks, left undone in a data file: the lines that are the removed item.

Measured with a 1.5B model: told at its finish that the `legacy_mode` row the task said to delete
was still in README.md's settings table, it wrote the file back with the row again and again until
the loop guard stopped it. Deleting one item from a table, a list or a settings file is what an
editor does in one keystroke, and where the item is a line of its own the line is the item: the
table row that starts with the name, the list item that is the name, the `name = value` line, or
(for a name in brackets) the ini/TOML section with its keys. Hearth deletes those lines itself,
the way it finishes a rename (agent/leftovers), and only when every line of the file that holds the
name is such an item, and there is one: a name also said in prose, an item in several places (the
key in two sections: which is meant?), or an item with lines of its own beneath it (a
nested list, a YAML block), is left to the model, and so is a JSON or TOML file that would no longer
parse (the last key of a JSON object leaves its comma behind). Python files are never touched (a
name in code is not an item), nor test files.
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from pathlib import Path

from hearth.agent.leftovers import read_text_file, removed

_CODE = (".py", ".pyi", ".js", ".ts", ".go", ".rs", ".c", ".h", ".java", ".rb", ".sh")
# what may stand around an item's name on its line: a list item's marker (a checkbox) and any
# words after the name, a table row's first cell, or a key with its value; quotes, backticks and
# bold marks around the name
_AROUND = r"[`'\"*]*"
_ITEMS = (
    r"^\s*(?:[-*+]\s+(?:\[[ xX]\]\s+)?|\d+[.)]\s+){around}{name}{around}(?:\s|[:=,]|$)",
    r"^\s*\|\s*{around}{name}{around}\s*\|",
    r"^\s*{around}{name}{around}\s*(?:[:=,]|$)",
)
_SECTION = re.compile(r"^\s*\[")


# "remove six": a plain word after the verb, a name only where a file holds it as an item
_REMOVE_WORD = re.compile(
    r"\b(?:remove|delete|drop)\s+(?:(?:the|a|an)\s+)?([A-Za-z][\w.]*[A-Za-z0-9]|[A-Za-z])(?![\w-])",
    re.IGNORECASE,
)


def removed_items(task: str, root: Path, named: list[str]) -> list[str]:
    """The names the task says to remove (leftovers.removed), and each plain word after the verb
    that a file the task names holds as an item of its own, once ("In requirements.txt, upgrade
    django, remove six, and add requests": the line `six==1.16.0`; the 1.5B upgraded and added,
    left six, and exited 0). A plain word is a name only so: "remove it", "remove the duplicate
    line" name nothing a file holds alone on a line."""
    names = removed(task)
    return names + [w for w in dict.fromkeys(w for w, _ in left_items(task, root, named)) if w not in names]


def left_items(task: str, root: Path, named: list[str]) -> list[tuple[str, str]]:
    """The plain words the task says to remove that a file it names still holds as an item:
    (word, file), each file read once. The names `removed` finds are judged by
    leftovers.leftover_problem."""
    quoted = set(removed(task))
    texts = [(rel, t) for rel in named if (t := _data_text(root, rel)) is not None]
    words = dict.fromkeys(m.group(1) for m in _REMOVE_WORD.finditer(task))
    return [
        (word, rel)
        for word in words
        if word not in quoted
        for rel, text in texts
        if _without(text, word) is not None
    ]


def _data_text(root: Path, rel: str) -> str | None:
    """The text of a data file the task names (not code, not a test); None otherwise."""
    if rel.endswith(_CODE) or os.path.basename(rel).startswith("test_"):
        return None
    path = root / rel
    if path.is_symlink() or not path.is_file():
        return None
    return read_text_file(path)


def rest_of_removal(task: str, root: Path, named: list[str]) -> dict[str, tuple[str, str]]:
    """For the names the task says to remove: each file the task names (not code, not a test)
    where the name is still an item, by its workspace path, with its text and the text without
    those items. A file where the name is also anywhere else is not in the result."""
    changes: dict[str, tuple[str, str]] = {}
    names = removed_items(task, root, named)
    if not names:
        return changes
    for rel in named:
        now = _data_text(root, rel)
        if now is None:
            continue
        after = now
        for name in names:
            without = _without(after, name)
            if without is None:
                break
            after = without
        else:
            if after != now and _still_reads(rel, now, after):
                changes[rel] = (now, after)
    return changes


def _still_reads(rel: str, before: str, after: str) -> bool:
    """Whether a JSON or TOML file that parsed still does without the lines (the last key of a
    JSON object leaves a comma behind: left to the model)."""
    load = {".json": json.loads, ".toml": tomllib.loads}.get(os.path.splitext(rel)[1].lower())
    if load is None:
        return True
    try:
        load(before)
    except ValueError:
        return True  # it did not parse before either: nothing to keep
    try:
        load(after)
    except ValueError:
        return False
    return True


def _without(text: str, name: str) -> str | None:
    """`text` without the items that are `name`; None when the name is also anywhere else."""
    lines = text.splitlines(keepends=True)
    word = re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])")
    if name.startswith("["):
        return _without_section(lines, name)
    item = re.compile("|".join(f.format(around=_AROUND, name=re.escape(name)) for f in _ITEMS))
    kept = [line for line in lines if not word.search(line)]
    held = [i for i, line in enumerate(lines) if word.search(line)]
    if len(held) != 1 or not item.match(lines[held[0]]) or _has_block(lines, held[0]):
        return None  # said elsewhere too, or an item in several places (which one is meant?)
    return "".join(kept)


def _has_block(lines: list[str], i: int) -> bool:
    """Whether the next line is indented beneath line `i` (its item goes on there)."""
    if i + 1 >= len(lines) or not lines[i + 1].strip():
        return False
    indent = len(lines[i]) - len(lines[i].lstrip())
    return len(lines[i + 1]) - len(lines[i + 1].lstrip()) > indent


def _without_section(lines: list[str], header: str) -> str | None:
    """The lines without the section `header` (`[testenv:lint]`) and its keys, up to the next
    section; None when the header is not a line of its own or the name is said elsewhere."""
    inner = re.escape(header[1:-1].strip())
    head = re.compile(rf"^\s*\[\s*{inner}\s*\]\s*$")
    starts = [i for i, line in enumerate(lines) if head.match(line)]
    if len(starts) != 1:
        return None
    start = starts[0]
    end = next((j for j in range(start + 1, len(lines)) if _SECTION.match(lines[j])), len(lines))
    rest = lines[:start] + lines[end:]
    if any(header[1:-1].strip() in line for line in rest):
        return None
    return "".join(rest)
