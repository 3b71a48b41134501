"""What the planner and the reviewer must answer, as pydantic models (their JSON schemas are
sent to roles whose server can answer to one, and shown to the others)."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

_KEY = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$")


class TaskSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str = Field(description="Short unique id, e.g. t1")
    title: str = Field(min_length=1, max_length=200)
    description: str = Field("", max_length=4000, description="What to do, precisely enough to do it")
    files: list[str] = Field(default_factory=list, description="Files the task creates or changes")
    depends_on: list[str] = Field(default_factory=list, description="Ids of tasks that must be done first")
    phase: int = Field(1, ge=1, le=50, description="The plan's phase this task belongs to (1 if none)")

    @field_validator("id")
    @classmethod
    def _id(cls, value: str) -> str:
        if not _KEY.match(value):
            raise ValueError(
                "an id is 1-40 letters, digits, '-', '_' or '.', starting with a letter or digit"
            )
        return value

    @field_validator("files")
    @classmethod
    def _files(cls, value: list[str]) -> list[str]:
        for path in value:
            if not path.strip() or path.startswith("/") or ".." in path.split("/"):
                raise ValueError(f"{path!r}: files are relative paths inside the workspace")
        return value


class TaskList(BaseModel):
    model_config = ConfigDict(extra="forbid")

    tasks: list[TaskSpec] = Field(min_length=1, max_length=100)

    @model_validator(mode="after")
    def _graph(self) -> TaskList:
        ids = [t.id for t in self.tasks]
        repeated = sorted({i for i in ids if ids.count(i) > 1})
        if repeated:
            raise ValueError(f"task ids must be unique; repeated: {', '.join(repeated)}")
        known = set(ids)
        for t in self.tasks:
            unknown = [d for d in t.depends_on if d not in known]
            if unknown:
                raise ValueError(f"task {t.id} depends on unknown task(s): {', '.join(unknown)}")
            if t.id in t.depends_on:
                raise ValueError(f"task {t.id} depends on itself")
        placed: set[str] = set()
        while len(placed) < len(self.tasks):
            ready = [t.id for t in self.tasks if t.id not in placed and set(t.depends_on) <= placed]
            if not ready:
                cycle = ", ".join(t.id for t in self.tasks if t.id not in placed)
                raise ValueError(f"the dependencies form a cycle among: {cycle}")
            placed.update(ready)
        return self


class Verdict(BaseModel):
    model_config = ConfigDict(extra="forbid")

    verdict: Literal["pass", "rework"]
    reasons: list[str] = Field(default_factory=list, description="What is wrong (for rework)")
    summary: str = Field("", max_length=2000)

    @model_validator(mode="after")
    def _reasons(self) -> Verdict:
        if self.verdict == "rework" and not [r for r in self.reasons if r.strip()]:
            raise ValueError("a rework verdict needs at least one reason saying what to fix")
        return self
