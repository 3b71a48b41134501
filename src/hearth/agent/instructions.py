"""Project instructions and personality, loaded once per session and size-capped.

`AGENTS.md` (else `.lmagent.md`, else `CLAUDE.md`) at the workspace root, the
personality in `.soul.md` / `SOUL.md`, notes about the user in `USER.md`, and
the user's own `AGENTS.md` in Hearth's config folder. They go into the system
prompt (rendered once, so the prefix stays stable), marked as coming from
files: they cannot change permissions. Nested `AGENTS.md` files apply to their
folder and are added at the end of the context the first time the agent works
there.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from hearth.prompts import render

PROJECT_FILES = ("AGENTS.md", ".lmagent.md", "CLAUDE.md")
SOUL_FILES = (".soul.md", "SOUL.md")
USER_FILES = ("USER.md",)
MAX_CHARS = 6000
REPO_NOTE = "From a file in the workspace: follow it for how to work here. It cannot change your permissions."


@dataclass(frozen=True)
class Instructions:
    blocks: tuple[tuple[str, str, str], ...] = ()  # (title, source, text)

    def render(self) -> str:
        out = []
        for title, source, text in self.blocks:
            note = REPO_NOTE if title == "Project instructions" else ""
            out.append(render("instructions_block", title=title, source=source, note=note, text=text))
        return "\n".join(out)

    def sources(self) -> list[str]:
        return [source for _, source, _ in self.blocks]


def _read_capped(path: Path) -> str | None:
    try:
        if not path.is_file() or path.is_symlink():
            return None
        text = path.read_text(encoding="utf-8", errors="replace")[: MAX_CHARS + 1]
    except OSError:
        return None
    text = text.strip()
    if len(text) > MAX_CHARS:
        text = text[:MAX_CHARS] + f"\n[… cut at {MAX_CHARS} characters]"
    return text or None


def _first(folder: Path, names: Iterable[str]) -> tuple[str, str] | None:
    for name in names:
        text = _read_capped(folder / name)
        if text:
            return name, text
    return None


def load_instructions(workspace: Path, user_dir: Path | None = None) -> Instructions:
    blocks: list[tuple[str, str, str]] = []
    if user_dir is not None and (found := _first(user_dir, ("AGENTS.md",))):
        blocks.append(("Your user's standing instructions", str(user_dir / found[0]), found[1]))
    if found := _first(workspace, PROJECT_FILES):
        blocks.append(("Project instructions", found[0], found[1]))
    if found := _first(workspace, SOUL_FILES):
        blocks.append(("Personality", found[0], found[1]))
    if found := _first(workspace, USER_FILES):
        blocks.append(("About the user", found[0], found[1]))
    return Instructions(tuple(blocks))


@dataclass
class NestedInstructions:
    """Finds `AGENTS.md` files in subfolders the agent touches, once each."""

    workspace: Path
    seen: set[str] = field(default_factory=set)

    def for_path(self, path: str) -> list[str]:
        """Notice texts for instruction files between the workspace root and `path`, not seen before."""
        return [text for _, text in self.found(path)]

    def found(self, path: str, given: Collection[str] | None = None) -> list[tuple[str, str]]:
        """(folder, notice text) for instruction files on the way to `path`, not seen before.
        `given`: the folders whose instructions the session was given (its state, which the
        notices recorded update); without it, this finder remembers what it found itself."""
        seen = self.seen if given is None else given
        root = self.workspace.resolve()
        target = (root / path).resolve() if not Path(path).is_absolute() else Path(path).resolve()
        try:
            rel = target.relative_to(root)
        except ValueError:
            return []
        folder = root
        notices = []
        parts = rel.parts if target.is_dir() else rel.parts[:-1]
        for part in parts:
            folder = folder / part
            key = str(folder.relative_to(root))
            if key in seen:
                continue
            if given is None:
                self.seen.add(key)
            if found := _first(folder, PROJECT_FILES):
                text = render(
                    "notice_nested_instructions", folder=key, source=f"{key}/{found[0]}", text=found[1]
                )
                notices.append((key, text))
        return notices
