"""The remedy an error message names, if it names one.

Tools and the programs they run often say what to do next: git's
`(use "git add" ...)` and `hint:` lines, Python's `Did you mean ...?`, Hearth's
own `Use glob or ls to find the right path.` A model that answers such an error
with BLOCKED is given that advice back once.
"""

from __future__ import annotations

import re

_ADVICE = re.compile(
    r"\b(?:use|try|run|did you mean|perhaps you meant|maybe you meant|you (?:must|need to|should|can|may)"
    r"|please (?:run|use|install|add|commit|specify|set|tell)|to fix|consider|install|create it|read it)\b",
    re.IGNORECASE,
)
_HINT_PREFIX = re.compile(r"^\s*(?:hint|help|note)\s*:\s*", re.IGNORECASE)
MAX_LINES = 3


def remedy(output: str) -> str:
    """The advice lines of an error message (at most three), or "" when it gives none."""
    found: list[str] = []
    for raw in output.splitlines():
        line = raw.strip()
        if not line:
            continue
        if _HINT_PREFIX.match(line) or _ADVICE.search(line):
            text = _HINT_PREFIX.sub("", line)[:240]
            if text and text not in found:
                found.append(text)
        if len(found) >= MAX_LINES:
            break
    return "\n".join(found)
