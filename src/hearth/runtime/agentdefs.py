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

Read, lowest precedence first (a later file with the same name wins): the user's Claude Code
agents (`~/.claude/agents/`), the user's config folder (`agents/`), then the workspace's
conventions next to its AGENTS.md: GitHub's `.github/agents/` (`NAME.agent.md`), OpenCode's
`.opencode/agent/` (or `agents/`), Claude Code's `.claude/agents/`, and Hearth's own
`.hearth/agents/`. OpenCode's spellings are understood: `tools` as a map (`bash: false` takes a
tool away), `permission` (`edit: deny` takes the file-changing tools away), `mode: primary` (not a
sub-agent, skipped). `disallowedTools` takes tools away too. Claude Code's model aliases (sonnet,
opus, haiku, inherit) name no model on the user's server and are ignored.

A definition cannot widen anything: its tools are cut to the parent's, its mode is never laxer
than the parent's, and it names a model on the configured server (or a configured role), never a
server or key. So a workspace's definitions are read without the user's trust.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from hearth.agent.modes import PermissionMode

FOLDERS = (".github/agents", ".opencode/agent", ".opencode/agents", ".claude/agents", ".hearth/agents")
USER_FOLDERS = (".claude/agents",)  # under the home folder, before Hearth's own config folder
# Other agents' tool names (Claude Code, OpenCode, GitHub's custom agents) as Hearth's
_FOREIGN_TOOLS: dict[str, tuple[str, ...]] = {
    "bash": ("shell",),
    "execute": ("shell",),
    "runcommands": ("shell",),
    "read": ("read",),
    "write": ("write",),
    "edit": ("edit",),
    "multiedit": ("edit",),
    "patch": ("edit",),
    "glob": ("glob",),
    "grep": ("grep",),
    "search": ("grep", "glob"),
    "ls": ("ls",),
    "list": ("ls",),
    "webfetch": ("web_fetch",),
    "task": ("delegate",),
}
_CLAUDE_MODEL_ALIASES = frozenset({"inherit", "sonnet", "opus", "haiku", "default"})
# OpenCode's permission names: denying one takes these tools away
_PERMISSION_TOOLS = {"edit": ("write", "edit"), "bash": ("shell",), "webfetch": ("web_fetch",)}
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
    denied: tuple[str, ...] = ()  # tools it must not have, whatever `tools` says


def load_definitions(
    workspace: Path, user_folder: Path | None, *, home: Path | None = None
) -> tuple[dict[str, AgentDefinition], list[str]]:
    """The definitions by name, and a line for each file that could not be used."""
    found: dict[str, AgentDefinition] = {}
    problems: list[str] = []
    folders = [home / f for f in USER_FOLDERS] if home else []
    folders += [user_folder / "agents"] if user_folder else []
    folders += [workspace / f for f in FOLDERS]
    for folder in folders:
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.md")):
            try:
                definition = parse_definition(path.read_text(encoding="utf-8"), str(path))
            except (OSError, UnicodeDecodeError, ValueError) as exc:
                problems.append(f"{path}: {exc}")
                continue
            if definition is not None:
                found[definition.name] = definition
    return found, problems


def parse_definition(text: str, source: str) -> AgentDefinition | None:
    """The definition a file holds; None for one that is not a sub-agent (OpenCode's `mode:
    primary`); ValueError saying what is wrong with a broken one."""
    fields, body = _front_matter(text)
    if str(fields.get("mode") or "").strip().lower() == "primary":
        return None
    stem = Path(source).name.removesuffix(".md").removesuffix(".agent")
    name = str(fields.get("name") or stem).strip()
    if not name or not all(c.isalnum() or c in "-_." for c in name):
        raise ValueError(f"the name {name!r} must be letters, digits, '-', '_' or '.'")
    tools_raw = fields.get("tools")
    tools: tuple[str, ...] | None = None
    denied: list[str] = []
    if isinstance(tools_raw, dict):  # OpenCode: every tool unless switched off
        denied += [
            n for k, v in tools_raw.items() if v.lower() in ("false", "no", "off") for n in _tool_names(k)
        ]
    elif tools_raw:
        items = tools_raw if isinstance(tools_raw, list) else str(tools_raw).strip("[]").split(",")
        tools = tuple(dict.fromkeys(n for t in items if str(t).strip() for n in _tool_names(t)))
    for key in ("disallowedTools", "disallowed_tools"):
        raw = fields.get(key)
        if raw and not isinstance(raw, dict):
            items = raw if isinstance(raw, list) else str(raw).strip("[]").split(",")
            denied += [n for t in items if str(t).strip() for n in _tool_names(t)]
    permission = fields.get("permission")
    if isinstance(permission, dict):
        for key, value in permission.items():
            if value.lower() == "deny":
                denied += _PERMISSION_TOOLS.get(key.lower(), _tool_names(key))
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
    if not isinstance(fields.get("model"), str) or model.lower() in _CLAUDE_MODEL_ALIASES:
        model = ""  # Claude Code's aliases name no model on the user's server
    return AgentDefinition(
        name=name,
        description=" ".join(str(fields.get("description") or "").split())[:300],
        body=body.strip()[:MAX_BODY],
        source=source,
        tools=tools,
        model=model,
        role=str(fields.get("role") or "").strip(),
        permission_mode=mode,
        max_turns=int(turns_raw) if turns_raw else None,
        denied=tuple(dict.fromkeys(denied)),
    )


def _tool_names(raw: object) -> tuple[str, ...]:
    name = str(raw).strip().strip("'\"")
    return _FOREIGN_TOOLS.get(name.lower(), (name,))


def _front_matter(text: str) -> tuple[dict[str, str | list[str] | dict[str, str]], str]:
    """`key: value` lines (a value may be a `- item` list, or indented `name: value` lines, below
    its key) between `---` lines."""
    lines = text.lstrip("\ufeff").splitlines()
    if not lines or lines[0].strip() != "---":
        raise ValueError("no front matter (the file must start with a line of ---)")
    try:
        end = next(i for i in range(1, len(lines)) if lines[i].strip() == "---")
    except StopIteration:
        raise ValueError("the front matter has no closing ---") from None
    fields: dict[str, str | list[str] | dict[str, str]] = {}
    key = ""
    for line in lines[1:end]:
        stripped = line.split(" #")[0].strip()
        if not stripped or stripped.startswith("#"):
            continue
        current = fields.get(key)
        if stripped.startswith("- ") and key and not isinstance(current, dict):
            items = current if isinstance(current, list) else []
            fields[key] = [*items, stripped[2:].strip().strip("'\"")]
            continue
        if ":" not in stripped:
            raise ValueError(f"cannot read the front matter line {line!r}")
        name, value = (part.strip() for part in stripped.split(":", 1))
        if line[:1] in (" ", "\t") and key and (current == "" or isinstance(current, dict)):
            table = current if isinstance(current, dict) else {}
            table[name.strip("'\"")] = value.strip("'\"")  # an indented map below its key
            fields[key] = table
            continue
        key = name
        fields[key] = value.strip("'\"")
    return fields, "\n".join(lines[end + 1 :])
