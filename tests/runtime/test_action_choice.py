"""Which way a small model acts: the embedded server holds a grammar without being asked."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from hearth.llm.actions import JSON_OBJECT
from hearth.llm.client import ClientSettings, OpenAICompatModel
from hearth.llm.profiles import ModelProfile, ToolMode
from hearth.runtime.config import Settings
from hearth.runtime.offer import choose_actions
from hearth.testing import ScriptedServer


@pytest.fixture
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # no remembered answers
    return tmp_path


def choose(server: ScriptedServer, *, embedded: bool, small: bool = True, mode: str = "auto") -> ModelProfile:
    settings = Settings.model_validate({"model": {"tool_mode": mode}})
    model = OpenAICompatModel(ClientSettings(base_url=server.url, model="local", retries=0))
    profile = ModelProfile(tool_mode=ToolMode.TEXT, small=small)
    return asyncio.run(choose_actions(settings, server.url, model, profile, embedded=embedded, probe=False))


def test_the_embedded_small_model_acts_through_a_grammar_with_no_probe(data_home: Path) -> None:
    with ScriptedServer([]) as server:  # any request at all would be a violation: no replies
        chosen = choose(server, embedded=True)
        assert server.requests == [] and server.probes == []
    assert chosen.tool_mode is ToolMode.GRAMMAR and chosen.action_format == JSON_OBJECT


def test_text_mode_asked_for_stays_text_on_the_embedded_server(data_home: Path) -> None:
    with ScriptedServer([]) as server:
        assert choose(server, embedded=True, mode="text").tool_mode is ToolMode.TEXT
        assert choose(server, embedded=True, small=False).tool_mode is ToolMode.TEXT
        assert server.requests == [] and server.probes == []
