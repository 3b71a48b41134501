"""A text file's sections that a whole-file write left out, and blocks it left twice.

"In ssh_config, change the Port of the build host ... delete the old-mirror host ... Keep
everything else as it is": the 1.5B deleted `Host old-mirror` as asked, and `Host db` with it, and
finished (exit 0). The file as the model read it is in the turn (a file is read before it is
overwritten); its sections are the lines at the start of a line that open a block: an ini
section (`[testenv:docs]`), or a line whose following lines are indented (`Host db`, a YAML
`db:`). One that is gone after the turn's writes, whose name the task does not say, was lost.
Python files are left to the change guard, which keeps their definitions.

The other way round: asked to move or rename a part of a file, a small model writes the part
anew and leaves the old one too (the 1.5B, releasing a changelog's Unreleased section as 1.4.0,
wrote the new heading with a copy of the whole section under it, and its entries stayed under
Unreleased). A run of lines the file had once and now has twice, when the task asks no copy, is
such a leftover.
"""

from __future__ import annotations

import re
from collections import Counter

_INI = re.compile(r"^\[([^\]\n]+)\]\s*$")
_NUMBERED = re.compile(r"^\d+\t", re.MULTILINE)
_READ_END = re.compile(r"\n\[(?:lines \d+-\d+ of \d+|end of )[^\n]*\]\s*\Z")


def read_text(output: str) -> str | None:
    """A whole file's text from a `read` result (numbered lines); None when the read showed only
    part of it."""
    if re.search(r"\n\[lines \d+-\d+ of \d+", output) and "the end of the file" not in output:
        return None
    body = _READ_END.sub("", output)
    if not body or not re.match(r"\d+\t", body):
        return None
    return _NUMBERED.sub("", body) + "\n"


def sections(text: str) -> dict[str, str]:
    """Each section's opening line (stripped) with its block: the opening line and what follows
    until the next opening line or a blank line."""
    lines = text.splitlines()
    found: dict[str, str] = {}
    for i, line in enumerate(lines):
        if not _opens(lines, i):
            continue
        block, ini = [line], bool(_INI.match(line))
        for after in lines[i + 1 :]:
            # an ini section's keys stand at the line's start; another block's are indented
            ends = _INI.match(after) or (not ini and after[:1].strip() and not after.startswith("#"))
            if not after.strip() or ends:
                break
            block.append(after)
        found[line.strip()] = "\n".join(block)
    return found


def _opens(lines: list[str], i: int) -> bool:
    line = lines[i]
    if not line.strip() or line[0].isspace() or line.startswith(("#", ";")):
        return False
    if _INI.match(line):
        return True
    following = lines[i + 1] if i + 1 < len(lines) else ""
    return bool(following.strip()) and following[0].isspace()


def dropped(before: str, after: str, task: str) -> list[str]:
    """The blocks of `before`'s sections that `after` no longer opens and whose name (the
    opening line's words past its keyword: `db` of `Host db`, `testenv:docs`) the task does not say."""
    now = set(sections(after))
    lost = []
    for opening, block in sections(before).items():
        if opening in now:
            continue
        words = _INI.match(opening)
        names = [words.group(1)] if words else opening.rstrip(":").split()[1:] or [opening.rstrip(":")]
        if not any(re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", task) for n in names):
            lost.append(block)
    return lost


# a task asking a copy, or a new part modelled on one there ("add a job like test-py311": its
# steps are the same lines), may leave lines twice
_COPY_WORDS = re.compile(
    r"\b(?:cop(?:y|ies)|duplicat\w*|twice|repeat\w*|again|like|same|similar|another|each|every)\b",
    re.IGNORECASE,
)
_COPY_LINES = 3  # a shorter run (a `### Added` heading and one entry) repeats in a sound file
_COPY_CHARS = 40


def doubled(before: str, after: str, task: str) -> str:
    """The first run of at least three non-blank lines that `after` has twice (or more) and
    `before` had at most once, "" when there is none or the task asks for a copy."""
    if _COPY_WORDS.search(task):
        return ""
    now, old = _runs(after), _runs(before)
    for run, count in now.items():  # in the order the runs first stand in `after`
        if count > 1 and old[run] <= 1:
            return "\n".join(run)
    return ""


def _runs(text: str) -> Counter[tuple[str, ...]]:
    """How often each run of `_COPY_LINES` non-blank lines (long enough to count) stands in `text`."""
    lines = [line.rstrip() for line in text.splitlines()]
    runs: Counter[tuple[str, ...]] = Counter()
    for start in range(len(lines) - _COPY_LINES + 1):
        run = tuple(lines[start : start + _COPY_LINES])
        if all(line.strip() for line in run) and sum(len(line.strip()) for line in run) >= _COPY_CHARS:
            runs[run] += 1
    return runs
