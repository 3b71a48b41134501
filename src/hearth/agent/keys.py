"""A JSON or TOML file's keys that a whole-file write left out, and an item the task adds to a list
that the list does not hold.

"In tsconfig.json, make the target ES2022 ..., remove allowJs, and add dist to the exclude list
after node_modules. Keep everything else as it is": the 1.5B wrote the file whole without
`sourceMap`, which the task never names, and with `exclude` as it was; told the task's changes one
by one, it wrote the same file again and finished (exit 0 on wrong work). A data file parses, so
what a write did to it can be judged by its keys rather than by its lines: a key the file had
before the turn (as shown with the task, or as first read whole) and has no longer, whose name the
task does not say, was lost; and "add V to the K list", where the file has a list under K, is done
only when that list holds V. Files that do not parse, before or after, are left alone (a broken
file is the change guard's and the checks' to report), and so are lists of tables and values
inside lists: a key is a path of object keys from the top.
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from collections.abc import Iterator
from typing import Any

_LOADERS = {".json": json.loads, ".toml": tomllib.loads}

# "add dist to the exclude list", "add \"staging\" to the environments", "add 'rich>=13' into
# dependencies": the item (quoted, or one word) and the key of the list
_ADD_TO = re.compile(
    r"\badd\s+(?:\"([^\"\n]+)\"|'([^'\n]+)'|`([^`\n]+)`|([\w.@/<>=~^+-]+))\s+"
    r"(?:to|into)\s+(?:the\s+)?[\"'`]?([\w.-]+)",
    re.IGNORECASE,
)


def load(rel: str, text: str) -> dict[str, Any] | None:
    """The file's data when it is a JSON or TOML file whose top is an object, None otherwise."""
    loader = _LOADERS.get(os.path.splitext(rel)[1].lower())
    if loader is None:
        return None
    try:
        data = loader(text)
    except ValueError:  # json.JSONDecodeError and tomllib.TOMLDecodeError are ValueErrors
        return None
    return data if isinstance(data, dict) else None


def _paths(data: dict[str, Any], prefix: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    for key, value in data.items():
        path = (*prefix, str(key))
        yield path, value
        if isinstance(value, dict):
            yield from _paths(value, path)


def _said(name: str, task: str) -> bool:
    """Whether the task says a key's name: as it is, or with its words apart (`source_map`,
    `sourceMap` said "source map")."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name).replace("_", " ").replace("-", " ")
    return any(
        re.search(rf"(?<![\w-]){re.escape(form)}(?![\w-])", task, re.IGNORECASE) for form in {name, spaced}
    )


def lost_keys(rel: str, before: str, after: str, task: str) -> list[tuple[tuple[str, ...], Any]]:
    """The keys (paths from the top, with their old values) `before` has and `after` has not,
    whose names the task does not say; only the outermost of a lost object and its keys."""
    old, new = load(rel, before), load(rel, after)
    if old is None or new is None:
        return []
    now = {path for path, _ in _paths(new)}
    return [
        (path, value)
        for path, value in _paths(old)
        # a key inside an object that is gone is judged with that object
        if path not in now and (len(path) == 1 or path[:-1] in now) and not _said(path[-1], task)
    ]


def unadded(rel: str, after: str, task: str) -> tuple[str, str, str] | None:
    """An item the task adds to a list (`add V to the K list`) that no list under a key K in
    the file holds, with that key and the list as it is (JSON form); None when each is there,
    or the file has no such list."""
    data = load(rel, after)
    if data is None:
        return None
    for match in _ADD_TO.finditer(task):
        item = next(g for g in match.groups()[:4] if g)
        key = match.group(5)
        lists = [v for path, v in _paths(data) if path[-1].lower() == key.lower() and isinstance(v, list)]
        if lists and not any(item in [_plain(x) for x in values] for values in lists):
            return item, key, shown_value(lists[0])
    return None


def _plain(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def shown_value(value: Any) -> str:
    """A lost key's old value as the file's readers would see it (JSON form)."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 200 else text[:200] + " ..."
