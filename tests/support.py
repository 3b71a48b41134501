"""Helpers shared by the tests that run the real `hearth` command."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

TESTS = Path(__file__).resolve().parent  # tests/: the shared helpers, on sys.path for every test
ROOT = TESTS.parent  # the checkout


def clean_env(home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HEARTH_", "LLM_"))}
    env.pop("WORKSPACE", None)
    env.pop("PERMISSION_MODE", None)
    env.update(
        HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), XDG_DATA_HOME=str(home / ".local/share")
    )
    env.update(extra)
    return env


def state_of(workspace: Path, home: Path | None = None) -> Path:
    """Hearth's state folder for `workspace` (sessions.db, logs/, checkpoints.git, inbox/...) as
    a `hearth` started by these tests sees it: under `home`'s data folder (clean_env and the web
    and scheduler helpers put it there), `home` defaulting to the `home` fixture's folder beside
    the workspace when that has one, else this process's data folder."""
    from hearth.runtime.config import state_key, user_data_path

    if home is None and (workspace.parent / "home" / ".local/share/hearth").is_dir():
        home = workspace.parent / "home"
    data = home / ".local/share/hearth" if home is not None else user_data_path()
    return data / "workspaces" / state_key(workspace)


@dataclass
class CliResult:
    code: int
    stdout: str
    stderr: str

    def json_lines(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.stdout.splitlines() if line.strip()]


class HearthCli(Protocol):
    """The `hearth` fixture: runs the real command line in a subprocess (conftest.py)."""

    def __call__(
        self, *args: str, env: dict[str, str] | None = None, timeout: float = 60, cwd: Path | None = None
    ) -> CliResult: ...


def wait_reflected(workspace: Path, session_id: str, timeout: float = 60) -> Any:
    """The `Reflected` event `hearth run` leaves to its detached reflection, once it is recorded.
    It reads the sessions where the `hearth` the test started keeps them (`state_of`), not this
    process's own data folder."""
    import time

    from hearth.core.events import Reflected
    from hearth.store.sessions import SessionStore

    deadline = time.monotonic() + timeout
    while True:
        store = SessionStore(state_of(workspace) / "sessions.db")
        try:
            found = [e for e in store.events(store.resolve(session_id)) if isinstance(e, Reflected)]
        finally:
            store.close()
        if found:
            return found[-1]
        assert time.monotonic() < deadline, f"no reflection was recorded in {session_id}"
        time.sleep(0.1)
