"""A config file's sections that a whole-file write left out, and the task never named.

"In ssh_config, change the Port of the build host ... delete the old-mirror host ... Keep
everything else as it is": the 1.5B deleted `Host old-mirror` as asked, and `Host db` with it, and
finished (exit 0). The file as the model read it is in the turn (a file is read before it is
overwritten); its sections are the lines at the start of a line that open a block: an ini
section (`[testenv:docs]`), or a line whose following lines are indented (`Host db`, a YAML
`db:`). One that is gone after the turn's writes, whose name the task does not say, was lost.
Python files are left to the change guard, which keeps their definitions.
"""

from __future__ import annotations

import re

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
