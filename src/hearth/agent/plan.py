"""Reading the steps out of a plan the model wrote."""

from __future__ import annotations

import re

_STEP = re.compile(r"^\s*(?:\d+[.)]|[-*])\s+(.+?)\s*$")


def parse_plan(text: str) -> list[str]:
    """Numbered (`1.` / `1)`) or bulleted lines; other lines are ignored."""
    return [m.group(1) for line in text.splitlines() if (m := _STEP.match(line))]
