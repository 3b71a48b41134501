"""A registry of projects (`hearth projects list|add|use`), kept in the user's data folder.

A project is a named workspace folder. The one chosen with `use` is the default workspace of
`hearth pipeline` and `hearth pilot` when no --workspace (or HEARTH_WORKSPACE) is given.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

from hearth.core.errors import HearthError, NotFound
from hearth.runtime.config import user_data_path

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")


@dataclass(frozen=True)
class Project:
    name: str
    path: str


class Projects:
    def __init__(self, path: Path | None = None) -> None:
        self.path = path or user_data_path() / "projects.json"

    def _load(self) -> tuple[list[Project], str | None]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return [], None
        except (OSError, ValueError) as exc:
            raise HearthError(
                f"The project registry {self.path} cannot be read: {exc}", "Fix the file or move it away."
            ) from exc
        if not isinstance(data, dict) or not isinstance(data.get("projects"), list):
            raise HearthError(f"The project registry {self.path} is not a registry.", "Move it away.")
        projects = [
            Project(str(p["name"]), str(p["path"]))
            for p in data["projects"]
            if isinstance(p, dict) and "name" in p and "path" in p
        ]
        current = data.get("current")
        return projects, current if isinstance(current, str) else None

    def _save(self, projects: list[Project], current: str | None) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        data = {"projects": [p.__dict__ for p in projects], "current": current}
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".projects-")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh, indent=1)
        os.replace(tmp, self.path)

    def list(self) -> tuple[list[Project], str | None]:
        return self._load()

    def add(self, folder: Path, name: str | None = None) -> Project:
        real = folder.expanduser().resolve()
        if not real.is_dir():
            raise HearthError(f"{folder} is not a folder.", "Create it first, or give an existing folder.")
        chosen = name or real.name
        if not _NAME.match(chosen):
            raise HearthError(f"{chosen!r} is not a project name.", "Use letters, digits, '.', '_' and '-'.")
        projects, current = self._load()
        for p in projects:
            if p.path == str(real):
                return p
            if p.name == chosen:
                raise HearthError(f"The name {chosen!r} is taken by {p.path}.", "Give another with --name.")
        project = Project(chosen, str(real))
        self._save([*projects, project], current)
        return project

    def use(self, ref: str) -> Project:
        projects, _ = self._load()
        real = str(Path(ref).expanduser().resolve())
        found = next((p for p in projects if p.name == ref or p.path == real), None)
        if found is None:
            known = ", ".join(p.name for p in projects) or "none yet"
            raise NotFound(f"No project {ref!r} (known: {known}).", "Add it with `hearth projects add PATH`.")
        self._save(projects, found.name)
        return found

    def current_path(self) -> Path | None:
        projects, current = self._load()
        found = next((p for p in projects if p.name == current), None)
        return Path(found.path) if found and Path(found.path).is_dir() else None
