"""`hearth init`: a commented project config and an example plan, never over existing files.

The config lists every setting with its description and default, all commented out (so it
changes nothing until a line is uncommented; a workspace's own config is read only once the
folder is trusted, see `hearth trust`).
"""

from __future__ import annotations

import json
import os
from enum import Enum
from pathlib import Path
from typing import Any

from pydantic import SecretStr

from hearth.core.errors import HearthError
from hearth.pipeline.plans import PLANS_DIR
from hearth.runtime.config import FIELDS, PROJECT_FILES
from hearth.sandbox.dirfd import made

EXAMPLE_PLAN = """\
# Example plan: a tiny calculator

Hearth's pipeline splits this plan into tasks, works each with the coder, checks the files,
runs the test command below and asks the reviewer. Edit it, or write your own next to it.

## Phase 1
- `calc.py` with `add(a, b)` and `sub(a, b)`.

## Phase 2
- `test_calc.py` with a test for each function.

Test: python3 -c "import calc; assert calc.add(2, 3) == 5"
"""

PLANS_README = """\
# Plans

Each Markdown file here (except this README) is a plan. `hearth pipeline run` registers a plan
once per content (an edit registers a new version), plans it into tasks and works them.
A line `Test: <command>` names the command every task must pass.
"""


def config_text() -> str:
    lines = [
        "# Hearth project settings. Every line is commented out: uncomment what you change.",
        "# Read only once you trust this folder (`hearth trust`). Order: defaults, your user config,",
        "# this file, .env, the environment (HEARTH_*), then command-line flags.",
        "",
    ]
    for name, field in FIELDS.items():
        if name in ("workspace", "roles", "api_key"):
            continue
        if field.description:
            lines.append(f"# {field.description}")
        lines.append(f"# {name} = {_toml(field.get_default(call_default_factory=True))}")
        lines.append("")
    lines += [
        "# Roles: which model does which job (blank = the main model). For example:",
        "# [roles.planner]",
        '# model = "qwen2.5-coder-14b-instruct"',
        "# json_schema = true",
        "# [roles.coder]",
        '# model = "qwen2.5-coder-7b-instruct"',
        "# temperature = 0.2",
        "# [roles.reviewer]",
        '# model = "qwen2.5-coder-14b-instruct"',
        "",
    ]
    return "\n".join(lines)


def _toml(value: Any) -> str:
    if value is None:
        return '""  # blank: unset'
    if isinstance(value, SecretStr):
        return '""'
    if isinstance(value, Enum):
        return json.dumps(value.value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, Path):
        return json.dumps(str(value))
    return json.dumps(value)


def init_project(workspace: Path) -> list[tuple[str, bool]]:
    """(path, written) for each file: False when it existed already and was left alone."""
    files = {
        PROJECT_FILES[0]: config_text(),
        f"{PLANS_DIR}/example.md": EXAMPLE_PLAN,
        f"{PLANS_DIR}/README.md": PLANS_README,
    }
    out = []
    root = os.open(workspace, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        for rel, text in files.items():
            out.append((rel, _create(root, rel, text)))
    finally:
        os.close(root)
    return out


def _create(root: int, rel: str, text: str) -> bool:
    """Write `rel` under the workspace unless it exists; a symlinked step (a `.hearth` or `plans`
    a repository made a symlink) is refused rather than written through."""
    parent, _, name = rel.rpartition("/")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        with made(root, parent) as fd:
            out = os.open(name, flags, 0o644, dir_fd=fd)
    except FileExistsError:
        return False
    except OSError as exc:
        raise HearthError(
            f"Cannot write {rel}: {exc.strerror} (is a step of it a symlink?).",
            "Hearth writes only into plain folders of the workspace; remove the symlink and run it again.",
        ) from None
    with os.fdopen(out, "w", encoding="utf-8") as fh:
        fh.write(text)
    return True
