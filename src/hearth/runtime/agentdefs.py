"""Agent definitions: Markdown files with front matter, in the format Claude Code uses.

    ---
    name: reviewer
    description: Reviews a change for bugs
    tools: read, grep, glob        # or a YAML list; Claude Code's names (Read, Bash) are mapped
    role: reviewer                 # or model: <model name>
    permission_mode: plan          # or permissionMode; may only make the parent's mode stricter
    max_turns: 10                  # or maxTurns
    ---
    The instructions the sub-agent gets, added to its system prompt.

Read from the user's config folder (`agents/`), then the workspace's `.claude/agents/` and
`.hearth/agents/` (a later file with the same name wins). A definition cannot widen anything:
its tools are cut to the parent's, its mode is never laxer than the parent's, and it names a
model on the configured server (or a configured role), never a server or key. So a workspace's
definitions are read without the user's trust.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from hearth.agent.modes import PermissionMode

FOLDERS = (".claude/agents", ".hearth/agents")
_CLAUDE_TOOLS = {
    "bash": "shell",
    "read": "read",
    "write": "write",
    "edit": "edit",
    "multiedit": "edit",
    "glob": "glob",
    "grep": "grep",
    "ls": "ls",
}
_CLAUDE_MODES = {
    "default": PermissionMode.NORMAL,
    "acceptedits": PermissionMode.NORMAL,
    "bypasspermissions": PermissionMode.AUTO,
    "plan": PermissionMode.PLAN,
}
MAX_BODY = 8000


@dataclass(frozen=True)
class AgentDefinition:
    name: str
    description: str
    body: str
    source: str
    tools: tuple[str, ...] | None = None  # None: the default sub-agent tools
    model: str = ""
    role: str = ""
    permission_mode: PermissionMode | None = None
    max_turns: int | None = None


def load_definitions(
    workspace: Path, user_folder: Path | None
) -> tuple[dict[str, AgentDefinition], list[str]]:
    """The definitions by name, and a line for each file that could not be used."""
    found: dict[str, AgentDefinition] = {}
    problems: list[str] = []
    folders = ([user_folder / "agents"] if user_folder else []) + [workspace / f for f in FOLDERS]
    for folder in folders:
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.md")):
            try:
                definition = parse_definition(path.read_text(encoding="utf-8"), str(path))
            except (OSError, UnicodeDecodeError, ValueError) as exc:
                problems.append(f"{path}: {exc}")
                continue
            found[definition.name] = definition
    return found, problems


def parse_definition(text: str, source: str) -> AgentDefinition:
    fields, body = _front_matter(text)
    name = str(fields.get("name") or Path(source).stem).strip()
    if not name or not all(c.isalnum() or c in "-_." for c in name):
        raise ValueError(f"the name {name!r} must be letters, digits, '-', '_' or '.'")
    tools_raw = fields.get("tools")
    tools: tuple[str, ...] | None = None
    if tools_raw:
        items = tools_raw if isinstance(tools_raw, list) else str(tools_raw).strip("[]").split(",")
        tools = tuple(dict.fromkeys(_tool_name(t) for t in items if str(t).strip()))
    mode_raw = str(fields.get("permission_mode") or fields.get("permissionMode") or "").strip()
    mode: PermissionMode | None = None
    if mode_raw:
        try:
            mode = PermissionMode(mode_raw.lower())
        except ValueError:
            mode = _CLAUDE_MODES.get(mode_raw.lower())
            if mode is None:
                raise ValueError(f"unknown permission mode {mode_raw!r}") from None
    turns_raw = str(fields.get("max_turns") or fields.get("maxTurns") or "").strip()
    if turns_raw and not (turns_raw.isdigit() and int(turns_raw) > 0):
        raise ValueError(f"max_turns must be a positive whole number, not {turns_raw!r}")
    model = str(fields.get("model") or "").strip()
    return AgentDefinition(
        name=name,
        description=" ".join(str(fields.get("description") or "").split())[:300],
        body=body.strip()[:MAX_BODY],
        source=source,
        tools=tools,
        model="" if model == "inherit" else model,
        role=str(fields.get("role") or "").strip(),
        permission_mode=mode,
        max_turns=int(turns_raw) if turns_raw else None,
    )


def _tool_name(raw: object) -> str:
    name = str(raw).strip().strip("'\"")
    return _CLAUDE_TOOLS.get(name.lower(), name)


def _front_matter(text: str) -> tuple[dict[str, str | list[str]], str]:
    """`key: value` lines (a value may be a `- item` list below its key) between `---` lines."""
    lines = text.lstrip("\ufeff").splitlines()
    if not lines or lines[0].strip() != "---":
        raise ValueError("no front matter (the file must start with a line of ---)")
    try:
        end = next(i for i in range(1, len(lines)) if lines[i].strip() == "---")
    except StopIteration:
        raise ValueError("the front matter has no closing ---") from None
    fields: dict[str, str | list[str]] = {}
    key = ""
    for line in lines[1:end]:
        stripped = line.split(" #")[0].strip()
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.startswith("- ") and key:
            current = fields.get(key)
            items = current if isinstance(current, list) else []
            fields[key] = [*items, stripped[2:].strip().strip("'\"")]
            continue
        if ":" not in stripped:
            raise ValueError(f"cannot read the front matter line {line!r}")
        key, value = (part.strip() for part in stripped.split(":", 1))
        fields[key] = value.strip("'\"")
    return fields, "\n".join(lines[end + 1 :])
