"""The one list of files that make a program run code from the workspace without being asked.

Git runs its hooks and `core.fsmonitor` on the user's `git status`; editors start MCP
servers, tasks and dev containers when the folder is opened; other agents load their own
settings and servers; hook managers install git hooks. A command or the model that writes
one of these can run code on the host later, outside any sandbox. Everything that asks
about, guards or mounts control files reads this list (controlscan.CONTROL_PATTERNS is it).

Left out, on purpose:
- `.gitattributes` and `.gitmodules`: a filter or diff driver named in `.gitattributes` runs
  only when a git config defines it (`.git/config` is guarded; the user's own config is theirs),
  and git refuses `update = !command` from `.gitmodules`.
- `Makefile`, `package.json` scripts, `setup.py`, test files: project code, which the user
  runs knowingly when they build or test; the agent is there to change it.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass
from pathlib import PurePosixPath


@dataclass(frozen=True)
class ControlFile:
    pattern: str  # relative to the workspace; a folder covers everything in it
    why: str  # what runs it, said when a write to it is asked about


CATALOGUE: tuple[ControlFile, ...] = (
    ControlFile(".git/hooks", "git runs its hooks on the user's commit, checkout, merge and push"),
    ControlFile(".git/config", "git runs core.fsmonitor, hooksPath hooks and filters from it"),
    ControlFile("*/.git/hooks", "git runs a nested repository's hooks"),
    ControlFile("*/.git/config", "git runs core.fsmonitor and filters from a nested repository's config"),
    ControlFile(".hearth/config.toml", "Hearth's own settings for this folder"),
    ControlFile(".hearth/hooks", "Hearth runs these hooks around tool calls"),
    ControlFile(".hearth/mcp.json", "Hearth starts these MCP servers"),
    ControlFile(".hearth/schedules.toml", "Hearth's scheduler runs these jobs"),
    ControlFile(".hearth/skills", "skills Hearth's agent follows"),
    ControlFile(".agents/skills", "skills agents follow"),
    ControlFile(".mcp.json", "Claude Code and other agents start these MCP servers"),
    ControlFile("mcp.json", "agents start these MCP servers"),
    ControlFile(".vscode", "VS Code starts its MCP servers and tasks, and applies its settings, on opening"),
    ControlFile(".devcontainer", "VS Code and devcontainer tools build and run this container"),
    ControlFile(".devcontainer.json", "VS Code and devcontainer tools build and run this container"),
    ControlFile(".idea", "JetBrains IDEs run its run configurations and tools"),
    ControlFile(".zed", "Zed runs its tasks and language servers"),
    ControlFile(".gemini", "Gemini CLI starts its MCP servers and runs its settings' commands"),
    ControlFile(".roo", "Roo Code starts its MCP servers"),
    ControlFile(".kiro", "Kiro starts its MCP servers and hooks"),
    ControlFile(".continue", "Continue starts its MCP servers"),
    ControlFile(".windsurf", "Windsurf runs its workflows and MCP servers"),
    ControlFile(".amazonq", "Amazon Q starts its MCP servers"),
    ControlFile(".agent", "agents load their definitions and hooks from it"),
    ControlFile(".claude", "Claude Code runs its hooks and MCP servers"),
    ControlFile(".cursor", "Cursor starts its MCP servers and rules"),
    ControlFile(".opencode", "OpenCode loads its agents, commands and plugins (Hearth reads its agents)"),
    ControlFile(".github/agents", "GitHub's custom agents (Hearth reads them as agent definitions)"),
    ControlFile(".github/workflows", "GitHub Actions runs these workflows, with the repository's secrets"),
    ControlFile(".husky", "husky makes these git hooks"),
    ControlFile(".pre-commit-config.yaml", "pre-commit runs these commands as git hooks"),
    ControlFile("lefthook.yml", "lefthook runs these commands as git hooks"),
    ControlFile(".lefthook.yml", "lefthook runs these commands as git hooks"),
    ControlFile(".envrc", "direnv runs it when a shell enters the folder"),
)

PATTERNS: tuple[str, ...] = tuple(c.pattern for c in CATALOGUE)
# The folders that hold workspace-level control entries: their own entry is recorded (a folder
# swapped for a symlink is noticed), and a new one a command made is kept (only what is in it goes).
CONTAINERS = (".hearth", ".vscode", ".github")


def why(rel: str) -> str | None:
    """Why `rel` (relative to the workspace) is a control file, or None when it is not one."""
    parts = PurePosixPath(rel).parts
    prefixes = ["/".join(parts[:i]) for i in range(1, len(parts) + 1)]
    for entry in CATALOGUE:
        if any(fnmatch.fnmatchcase(p, entry.pattern) for p in prefixes):
            return entry.why
    if ".git" in parts:
        return "git reads its settings from its own folder"
    return None
