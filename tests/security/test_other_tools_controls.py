"""Other programs' control files (editors, agents, hook managers, CI) are control files too.

Each makes a program run code when the user opens the folder, commits, or pushes. Writing one
through the file tools asks in every mode (auto too), naming the file and what runs it; a user's
rule that names it allows it; a shell command or python code that writes one has it undone.
"""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from hearth.agent.dispatch import Dispatcher
from hearth.agent.modes import PermissionMode
from hearth.agent.policy import Decision, PermissionPolicy
from hearth.core.events import Event, PermissionDecided, ToolResult
from hearth.core.protocols import Sandbox
from hearth.core.types import ToolCall
from hearth.sandbox.catalogue import why
from hearth.sandbox.paths import SafePaths
from hearth.tools.base import RunContext, Tool
from hearth.tools.builtin.files import file_tools
from hearth.tools.builtin.python import python_tools
from hearth.tools.builtin.shell import shell_tools
from hearth.tools.toolset import Toolset
from security.box import Box

OTHERS = (
    ".vscode/mcp.json",
    ".vscode/settings.json",
    ".vscode/tasks.json",
    ".vscode/launch.json",
    ".vscode/extensions.json",
    ".devcontainer/devcontainer.json",
    ".gemini/settings.json",
    ".zed/tasks.json",
    ".roo/mcp.json",
    ".kiro/settings/mcp.json",
    ".continue/config.json",
    ".husky/pre-commit",
    ".pre-commit-config.yaml",
    ".github/workflows/ci.yml",
    ".idea/workspace.xml",
    ".cursor/mcp.json",
    ".claude/settings.json",
    ".envrc",
    ".mcp.json",
)
NOT_CONTROL = ("Makefile", ".gitattributes", "src/app.py", ".github/README.md", "docs/.vscode.md")


def _dispatch(
    ws: Path, name: str, args: dict[str, object], policy: PermissionPolicy, sandbox: Sandbox | None = None
) -> list[Event]:
    import asyncio

    tools = Toolset([*file_tools(), *shell_tools(), *python_tools()])
    ctx = RunContext(paths=SafePaths(ws), session_id="s1", sandbox=sandbox)
    return asyncio.run(Dispatcher(tools, policy, ctx).dispatch(ToolCall(id="c1", name=name, arguments=args)))


@pytest.mark.parametrize("rel", OTHERS)
def test_writing_one_asks_even_in_auto_mode_and_says_why(tmp_path: Path, rel: str) -> None:
    events = _dispatch(
        tmp_path, "write", {"path": rel, "content": "x\n"}, PermissionPolicy(PermissionMode.AUTO)
    )
    result = events[-1]
    assert isinstance(result, ToolResult) and not result.ok
    assert rel in result.output and "control file" in result.output
    assert str(why(rel)) in result.output  # what would run it
    assert not (tmp_path / rel).exists()


@pytest.mark.parametrize("rel", NOT_CONTROL)
def test_project_files_are_not_control_files(tmp_path: Path, rel: str) -> None:
    assert why(rel) is None
    events = _dispatch(
        tmp_path, "write", {"path": rel, "content": "x\n"}, PermissionPolicy(PermissionMode.AUTO)
    )
    result = events[-1]
    assert isinstance(result, ToolResult) and result.ok, result


def test_edit_of_an_existing_one_asks(tmp_path: Path) -> None:
    (tmp_path / ".vscode").mkdir()
    (tmp_path / ".vscode/settings.json").write_text('{"a": 1}\n')
    policy = PermissionPolicy(PermissionMode.AUTO)
    events = _dispatch(tmp_path, "edit", {"path": ".vscode/settings.json", "old": "1", "new": "2"}, policy)
    decided = [e for e in events if isinstance(e, PermissionDecided)]
    assert decided and not decided[0].allowed and "VS Code" in decided[0].reason
    assert (tmp_path / ".vscode/settings.json").read_text() == '{"a": 1}\n'


def test_a_rule_naming_it_allows_it_and_a_catch_all_does_not(tmp_path: Path) -> None:
    named = PermissionPolicy.from_settings(PermissionMode.AUTO, allow=["write(.vscode/**)"])
    assert named.decide(_tool("write"), {"path": ".vscode/tasks.json"}).decision is Decision.ALLOW
    catch_all = PermissionPolicy.from_settings(PermissionMode.AUTO, allow=["write(**)", "write"])
    verdict = catch_all.decide(_tool("write"), {"path": ".vscode/tasks.json"})
    assert verdict.decision is Decision.ASK and ".vscode/tasks.json" in verdict.reason
    other = named.decide(_tool("write"), {"path": ".github/workflows/ci.yml"})
    assert other.decision is Decision.ASK and "GitHub Actions" in other.reason


def _tool(name: str) -> Tool:
    return next(t for t in file_tools() if t.name == name)


def test_a_shell_command_writing_them_has_them_undone(box: Box) -> None:
    ws = box.workspace
    writes = "; ".join(
        f"mkdir -p {shlex.quote(str(Path(r).parent))} && echo planted > {shlex.quote(r)}" for r in OTHERS
    )
    out = box.run(writes + "; true")
    assert [r for r in OTHERS if (ws / r).exists()] == [], out.output
    assert "control files were undone" in out.output or box.name == "bwrap"


def test_python_writing_them_has_them_undone(box: Box) -> None:
    ws = box.workspace
    code = (
        "import pathlib\n"
        f"for r in {list(OTHERS)!r}:\n"
        "    p = pathlib.Path(r)\n"
        "    p.parent.mkdir(parents=True, exist_ok=True)\n"
        "    p.write_text('planted')\n"
    )
    events = box.call(_adispatch(ws, box, code))
    result = events[-1]
    assert isinstance(result, ToolResult) and result.ok, result
    assert [r for r in OTHERS if (ws / r).exists()] == []
    assert "control files were undone" in result.output


def test_existing_ones_changed_by_a_command_are_put_back(box: Box) -> None:
    ws = box.workspace
    (ws / ".vscode").mkdir()
    (ws / ".vscode/settings.json").write_text('{"files.autoSave": "off"}\n')
    (ws / ".pre-commit-config.yaml").write_text("repos: []\n")
    box.run(
        'echo \'{"terminal.integrated.shellArgs.linux": ["-c", "evil"]}\' > .vscode/settings.json; '
        "echo 'repos: [{repo: local, hooks: [{id: x, entry: evil, language: system}]}]' > .pre-commit-config.yaml; true"
    )
    assert (ws / ".vscode/settings.json").read_text() == '{"files.autoSave": "off"}\n'
    assert (ws / ".pre-commit-config.yaml").read_text() == "repos: []\n"


async def _yes(tool: object, arguments: object, reason: str) -> bool:
    return True


async def _adispatch(ws: Path, box: Box, code: str) -> list[Event]:
    tools = Toolset(python_tools())
    ctx = RunContext(paths=SafePaths(ws), session_id="s1", sandbox=box.choice.runner)
    # A person who says yes: code naming `.envrc` asks where the backend cannot hide secrets;
    # what is tested here is the guard, not that question.
    dispatcher = Dispatcher(tools, PermissionPolicy(PermissionMode.AUTO), ctx, approver=_yes)
    return await dispatcher.dispatch(ToolCall(id="c1", name="python", arguments={"code": code}))
