"""Helpers shared by the tests that run the real `hearth` command."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any


def clean_env(home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HEARTH_", "LLM_"))}
    env.pop("WORKSPACE", None)
    env.pop("PERMISSION_MODE", None)
    env.update(
        HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), XDG_DATA_HOME=str(home / ".local/share")
    )
    env.update(extra)
    return env


@dataclass
class CliResult:
    code: int
    stdout: str
    stderr: str

    def json_lines(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.stdout.splitlines() if line.strip()]
