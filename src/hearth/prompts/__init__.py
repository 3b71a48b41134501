"""Every prompt text lives in a template file here, rendered strictly.

`$name` placeholders; an unknown or missing variable is an error, never an
empty string.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from string import Template


@cache
def _load(name: str) -> Template:
    text = resources.files(__package__).joinpath(f"{name}.md").read_text(encoding="utf-8")
    return Template(text.rstrip("\n"))


def render(template_name: str, /, **values: object) -> str:
    template = _load(template_name)
    wanted = set(template.get_identifiers())
    extra = set(values) - wanted
    if extra:
        raise KeyError(f"prompt {template_name!r} has no placeholder(s) {sorted(extra)}")
    return template.substitute({k: str(v) for k, v in values.items()})
