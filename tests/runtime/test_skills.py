"""Skills: discovery from SKILL.md folders under workspace trust, the compact listing in the
`skill` tool, and the body entering the conversation only after the model loads it."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from hearth.agent.dispatch import Dispatcher
from hearth.agent.loop import Agent, Limits
from hearth.agent.policy import PermissionMode, PermissionPolicy
from hearth.agent.prompt import system_prompt
from hearth.core.events import ToolResult
from hearth.llm.profiles import ModelProfile, ToolMode
from hearth.runtime.config import folder_settings, trust_store
from hearth.runtime.skills import approve_skills, session_skills, skill_tools, workspace_skill_prints
from hearth.sandbox.paths import SafePaths
from hearth.store.sessions import SessionStore
from hearth.testing import ScriptedCall, ScriptedModel, ScriptedReply
from hearth.tools.base import RunContext
from hearth.tools.builtin.skills import discover, parse_skill
from hearth.tools.toolset import Toolset

BODY = "Step 1: run ./release.sh --dry-run first. SECRET-MARKER-BODY"


def write_skill(root: Path, name: str, description: str = "Cut a release", body: str = BODY) -> Path:
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(f"---\nname: {name}\ndescription: {description}\n---\n{body}\n")
    (folder / "release.sh").write_text("#!/bin/sh\necho releasing\n")
    return folder


@pytest.fixture
def dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    ws = tmp_path / "ws"
    ws.mkdir()
    return ws, tmp_path / "data" / "hearth" / "skills"


def trust(ws: Path) -> None:
    trust_store().record(ws, folder_settings(ws).fingerprint, [])
    approve_skills(ws, workspace_skill_prints(ws))  # what `hearth trust` records for skills


def test_parse_rejects_missing_or_bad_front_matter(tmp_path: Path) -> None:
    good = write_skill(tmp_path, "release")
    assert parse_skill(good / "SKILL.md") is not None
    for i, text in enumerate(
        ["no front matter", "---\nname: x\n---\nno description", "---\nname: ../evil\ndescription: d\n---\n"]
    ):
        p = tmp_path / f"bad{i}" / "SKILL.md"
        p.parent.mkdir()
        p.write_text(text)
        assert parse_skill(p) is None, text


def test_untrusted_workspace_skills_are_not_loaded(dirs: tuple[Path, Path]) -> None:
    ws, user = dirs
    for sub in (".hearth/skills", ".agents/skills", ".claude/skills"):
        write_skill(ws / sub, "ws-" + sub.split("/")[0].strip("."))
    write_skill(user, "mine")
    assert [s.name for s in session_skills(ws)] == ["mine"]
    trust(ws)
    assert [s.name for s in session_skills(ws)] == ["mine", "ws-agents", "ws-claude", "ws-hearth"]


def test_no_skills_means_no_skill_tool(dirs: tuple[Path, Path]) -> None:
    ws, _ = dirs
    assert skill_tools(ws) == []


def test_earlier_folder_wins_a_name(tmp_path: Path) -> None:
    write_skill(tmp_path / "a", "release", description="from a")
    write_skill(tmp_path / "b", "release", description="from b")
    assert [s.description for s in discover([tmp_path / "a", tmp_path / "b"])] == ["from a"]


def test_skill_body_absent_from_first_request_and_present_after_the_call(dirs: tuple[Path, Path]) -> None:
    ws, user = dirs
    write_skill(user, "release")
    tools = Toolset(skill_tools(ws))
    store = SessionStore(ws / ".hearth" / "sessions.db")
    sid = store.create(str(ws), "scripted")
    model = ScriptedModel(
        [
            ScriptedReply(tool_calls=[ScriptedCall(id="c1", name="skill", arguments={"name": "release"})]),
            ScriptedReply(tool_calls=[ScriptedCall(id="c2", name="skill", arguments={"name": "nope"})]),
            ScriptedReply(text="done"),
        ]
    )
    agent = Agent(
        model=model,
        profile=ModelProfile(tool_mode=ToolMode.AUTO),
        dispatcher=Dispatcher(
            tools, PermissionPolicy(PermissionMode.AUTO), RunContext(paths=SafePaths(ws), session_id=sid)
        ),
        store=store,
        session_id=sid,
        system_prompt=system_prompt(tools, ToolMode.AUTO),
        limits=Limits(max_iterations=5),
    )
    asyncio.run(agent.run("cut a release"))
    first = json.dumps(model.requests[0])
    assert "release: Cut a release" in first  # the compact listing
    assert "SECRET-MARKER-BODY" not in first
    assert "SECRET-MARKER-BODY" in json.dumps(model.requests[1])
    out = [e for e in agent.history if isinstance(e, ToolResult)]
    assert "release.sh" in out[0].output and "shell tool" in out[0].output
    assert not out[1].ok and "No skill 'nope'" in out[1].output


@pytest.mark.parametrize(
    "path",
    [
        ".agents/skills/evil/SKILL.md",
        "./.agents/skills/evil/SKILL.md",
        "src/../.agents/skills/evil/SKILL.md",
        ".hearth/skills/evil/SKILL.md",
        ".claude/skills/evil/SKILL.md",
    ],
)
def test_writing_into_a_discovered_skill_folder_asks_even_in_auto_mode(tmp_path: Path, path: str) -> None:
    """Every folder skills are discovered from is a control path: a skill the model writes itself
    would be instructions it later follows, so the user is asked first, whatever the spelling."""
    from hearth.agent.policy import Decision
    from hearth.runtime.offer import default_toolset

    ws = tmp_path / "ws"
    (ws / "src").mkdir(parents=True)
    write = default_toolset().get("write")
    assert write is not None
    verdict = PermissionPolicy(PermissionMode.AUTO).decide(
        write, {"path": path, "content": "x"}, SafePaths(ws)
    )
    assert verdict.decision in (Decision.ASK, Decision.DENY), verdict
