"""Layered configuration: defaults < user file < project file < .env < environment < flags.

(What a project's own files may set without trust: tests/security/test_workspace_trust.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from hearth.agent.policy import PermissionMode
from hearth.core.errors import ConfigError
from hearth.runtime.config import load_settings


def user_toml(tmp_path: Path) -> Path:
    """The user's file, outside the folder the tests work in (one inside is not trusted)."""
    return tmp_path.parent / f"{tmp_path.name}-user.toml"


def load(tmp_path: Path, env: dict[str, str] | None = None, **flags: object):  # type: ignore[no-untyped-def]
    return load_settings(flags, environ=env or {}, cwd=tmp_path, user_file=user_toml(tmp_path))


def test_defaults(tmp_path: Path) -> None:
    s = load(tmp_path).settings
    assert (
        s.model.url == ""
        and s.permissions.mode is PermissionMode.NORMAL
        and s.workspace == tmp_path.resolve()
    )


def test_each_layer_overrides_the_one_before(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    (ws / ".hearth").mkdir(parents=True)
    user_toml(tmp_path).write_text("max_iterations = 30\nmodel = 'user'\ntemperature = 0.5\nretries = 1\n")
    (ws / ".hearth" / "config.toml").write_text("max_iterations = 20\nmodel = 'project'\ntemperature = 0.6\n")
    (tmp_path / ".env").write_text("HEARTH_MODEL=dotenv\nHEARTH_TEMPERATURE=0.7\n")
    loaded = load(tmp_path, {"HEARTH_TEMPERATURE": "0.8"}, workspace=str(ws), max_iterations=None)
    s = loaded.settings
    assert (s.model.retries, s.agent.max_iterations, s.model.name, s.model.temperature) == (
        1,
        20,
        "dotenv",
        0.8,
    )
    assert loaded.sources["retries"].endswith("-user.toml")
    assert loaded.sources["max_iterations"].endswith(".hearth/config.toml")
    assert loaded.sources["temperature"] == "environment"
    flagged = load(tmp_path, {"HEARTH_TEMPERATURE": "0.8"}, workspace=str(ws), temperature=0.9).settings
    assert flagged.model.temperature == 0.9


def test_seed_names_are_read_and_hearth_names_win(tmp_path: Path) -> None:
    env = {"LLM_URL": "http://a:1/v1/chat/completions", "LLM_API_KEY": "k", "PERMISSION_MODE": "auto"}
    s = load(tmp_path, env).settings
    assert (s.model.url, s.model.api_key.get_secret_value(), s.permissions.mode) == (
        "http://a:1/v1/chat/completions",
        "k",
        PermissionMode.AUTO,
    )
    assert load(tmp_path, {**env, "HEARTH_LLM_URL": "http://b:2/v1"}).settings.model.url == "http://b:2/v1"


def test_workspace_from_env_decides_where_the_project_file_is(tmp_path: Path) -> None:
    ws = tmp_path / "elsewhere"
    (ws / ".hearth").mkdir(parents=True)
    (ws / ".hearth" / "config.toml").write_text("max_iterations = 3\n")
    s = load(tmp_path, {"WORKSPACE": str(ws)}).settings
    assert s.workspace == ws.resolve() and s.agent.max_iterations == 3


def test_secrets_are_masked_in_the_description(tmp_path: Path) -> None:
    rows = {n: v for n, v, _ in load(tmp_path, {"HEARTH_API_KEY": "sk-live-abcdefghijklmnop"}).describe()}
    assert "abcdefghijklmnop" not in rows["api_key"] and "masked" in rows["api_key"]


def test_unknown_and_invalid_settings_are_clear_errors(tmp_path: Path) -> None:
    user_toml(tmp_path).write_text("max_iteration = 3\n")
    with pytest.raises(ConfigError, match=r"Unknown setting 'max_iteration'.*-user.toml"):
        load(tmp_path)
    user_toml(tmp_path).write_text("permission_mode = 'yolo'\n")
    with pytest.raises(ConfigError, match="permission_mode"):
        load(tmp_path)
    user_toml(tmp_path).write_text("this is [ not toml")
    with pytest.raises(ConfigError, match="TOML"):
        load(tmp_path)


def test_blank_value_in_dotenv_means_unset(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("HEARTH_CONTEXT_WINDOW=\nHEARTH_MODEL=\n")
    s = load(tmp_path).settings
    assert s.model.context_window is None and s.model.name == ""
