"""The seams. Everything else plugs into these few protocols."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol

from hearth.core.events import Event, ModelUsed
from hearth.core.types import Message, Timings, ToolSpec, Usage


@dataclass(frozen=True)
class ModelRequest:
    messages: Sequence[Message]
    tools: Sequence[ToolSpec] = ()
    temperature: float | None = None
    max_tokens: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)  # extra HTTP headers, e.g. to mark a probe
    # Given the reply's text so far each time a tool call written as text closes: True ends the
    # stream there (a model allowed one call per reply is not left generating calls that will not
    # run: a small model's whole plan, or a finish claimed before the result).
    stop_after_call: Callable[[str], bool] | None = None


@dataclass(frozen=True)
class RawToolCall:
    """A structured call exactly as the server sent it (arguments still a string)."""

    id: str
    name: str
    arguments: str


@dataclass(frozen=True)
class ModelResponse:
    """A completed reply. `content` still holds any think tags; the agent splits them."""

    content: str
    reasoning: str
    tool_calls: tuple[RawToolCall, ...]
    finish_reason: str | None
    usage: Usage
    timings: Timings
    model: str

    def used(self, purpose: str, model: str = "") -> ModelUsed:
        """What this reply cost, for a request beside the conversation (`model`: the name asked
        for, when the server gave none)."""
        return ModelUsed(purpose=purpose, model=self.model or model, usage=self.usage, timings=self.timings)


@dataclass(frozen=True)
class Delta:
    """A streamed piece of a reply, for live display."""

    kind: Literal["text", "thinking", "retry"]
    text: str


DeltaSink = Callable[[Delta], None]


class Model(Protocol):
    """Anything that answers a chat request: an HTTP server, a scripted double."""

    @property
    def name(self) -> str: ...

    async def complete(self, request: ModelRequest, on_delta: DeltaSink | None = None) -> ModelResponse: ...


class EventStore(Protocol):
    def append(self, session_id: str, event: Event) -> int: ...

    def events(self, session_id: str) -> list[Event]: ...


class WorkspacePaths(Protocol):
    """Safe path resolution inside one workspace (implemented in sandbox/)."""

    @property
    def root(self) -> Path: ...

    def canonical(self, path: str) -> str:
        """The workspace-relative real path a tool opens for `path` ("." for the root), or ToolError."""
        ...

    def resolve(self, path: str, *, write: bool = False) -> Path:
        """The real path inside the workspace, or raise ToolError saying why not."""
        ...

    def contains(self, path: Path) -> bool: ...

    def is_secret(self, path: Path) -> bool: ...

    def display(self, path: Path) -> str: ...

    def open(self, path: Path, flags: int, mode: int = 0o644) -> int:
        """A file descriptor for a resolved path, opened without any way out of the workspace."""
        ...

    def stat(self, path: Path) -> os.stat_result | None:
        """lstat of a resolved path, through a folder opened beneath the workspace; None if missing."""
        ...

    def makedirs(self, path: Path) -> bool:
        """Create a resolved folder and its parents beneath the workspace; True if any was new."""
        ...

    def pinned(self) -> WorkspacePaths:
        """A view for already canonical paths: one that has come to hold a symlink is refused."""
        ...


@dataclass(frozen=True)
class ExecSpec:
    """One shell command to run in the sandbox, as a fresh process."""

    command: str
    cwd: Path
    timeout: float = 120.0
    network: bool = False


@dataclass(frozen=True)
class ExecResult:
    exit_code: int | None  # None when the process was killed
    output: str  # stdout and stderr, capped head and tail, control characters stripped
    total_bytes: int
    duration_ms: float
    killed: str | None = None  # "timeout" | "output limit" | None


@dataclass(frozen=True)
class JobInfo:
    id: str
    command: str
    running: bool
    exit_code: int | None


class Sandbox(Protocol):
    """Runs commands isolated from the host (or says plainly that it does not)."""

    @property
    def name(self) -> str: ...

    @property
    def isolated(self) -> bool: ...

    async def run(self, spec: ExecSpec) -> ExecResult: ...

    async def start(self, spec: ExecSpec) -> JobInfo: ...

    def jobs(self) -> list[JobInfo]: ...

    def read(self, job_id: str) -> str: ...

    async def stop(self, job_id: str) -> JobInfo: ...
