"""`hearth health`, `hearth init` and `hearth projects`: the real command in a subprocess, a
private HOME, the scripted server (or a closed port) as the model server."""

from __future__ import annotations

import json
import socket
import tomllib
from pathlib import Path
from typing import Any

from hearth.apps.cli.scaffold import config_text
from hearth.runtime.config import KEYS, load_settings
from hearth.testing.server import ScriptedServer
from support import state_of


def _closed_port() -> int:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = int(sock.getsockname()[1])
    sock.close()
    return port


def test_health_exits_0_when_everything_answers_and_1_naming_what_does_not(
    hearth: Any, workspace: Path, server: ScriptedServer
) -> None:
    env = {"HEARTH_LLM_URL": server.url, "HEARTH_MODEL": "scripted-model"}
    ok = hearth("health", "-w", str(workspace), env=env)
    assert ok.code == 0, ok.stdout + ok.stderr
    groups = [line.split()[:2] for line in ok.stdout.splitlines()]
    assert ["ok", "server"] in groups and ["ok", "model"] in groups and ["ok", "window"] in groups
    assert ["ok", "store"] in groups and any(g[1] == "sandbox" for g in groups)
    quiet = hearth("health", "-q", "-w", str(workspace), env=env)
    assert quiet.code == 0 and quiet.stdout == ""

    missing_role = {**env, "HEARTH_ROLES": json.dumps({"coder": {"model": "not-there-7b"}})}
    bad = hearth("health", "--json", "-w", str(workspace), env=missing_role)
    assert bad.code == 1
    failed = [c for c in json.loads(bad.stdout) if c["status"] == "fail"]
    assert failed == [
        {"group": "model", "status": "fail", "message": f"coder: not-there-7b is not served by {server.url}"}
    ]

    down = hearth(
        "health", "-w", str(workspace), env={"HEARTH_LLM_URL": f"http://127.0.0.1:{_closed_port()}/v1"}
    )
    assert down.code == 1 and "did not answer /models" in down.stdout


def test_init_writes_a_commented_config_and_an_example_plan_and_keeps_existing_files(
    hearth: Any, workspace: Path, home: Path
) -> None:
    result = hearth("init", "-w", str(workspace))
    assert result.code == 0, result.stderr
    assert "wrote .hearth/config.toml" in result.stdout and "wrote plans/example.md" in result.stdout
    config = (workspace / ".hearth/config.toml").read_text()
    assert tomllib.loads(config) == {}  # all commented out: it changes nothing
    assert "Test: python3" in (workspace / "plans/example.md").read_text()
    (workspace / "plans/example.md").write_text("mine\n")
    again = hearth("init", "-w", str(workspace))
    assert "kept  plans/example.md" in again.stdout
    assert (workspace / "plans/example.md").read_text() == "mine\n"
    assert hearth("projects").stdout.split() == ["ws", str(workspace.resolve())]  # init registered it


def test_the_commented_config_uncommented_gives_the_defaults(tmp_path: Path) -> None:
    lines = []
    for line in config_text().split("# Roles:")[0].splitlines():
        body = line.removeprefix("# ")
        key = body.split(" = ", 1)[0]
        if " = " in body and key in KEYS:
            lines.append(body)
    user = tmp_path / "config.toml"
    user.write_text("\n".join(lines) + "\n")
    assert len(lines) >= 25
    loaded = load_settings({}, environ={}, cwd=tmp_path, user_file=user).settings
    defaults = load_settings({}, environ={}, cwd=tmp_path, user_file=tmp_path / "none.toml").settings
    assert loaded == defaults


def test_projects_add_list_use_and_the_pipeline_defaults_to_the_project_in_use(
    hearth: Any, tmp_path: Path, home: Path
) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir()
    two.mkdir()
    assert "No projects yet" in hearth("projects").stdout
    assert hearth("projects", "add", str(one)).stdout.strip() == f"Added one: {one}"
    assert hearth("projects", "add", str(two), "--name", "second").code == 0
    clash = hearth("projects", "add", str(tmp_path), "--name", "one")
    assert clash.code == 1 and "taken by" in clash.stderr
    assert hearth("projects", "add", str(tmp_path / "nope")).code == 1
    assert hearth("projects", "use", "nothing").code == 1
    assert hearth("projects", "use", "second").stdout.strip() == f"Using second: {two}"
    lines = hearth("projects").stdout.splitlines()
    assert lines == [f"  one                  {one}", f"* second               {two}"]
    status = hearth("pipeline", "status", cwd=tmp_path)
    assert status.code == 0 and "No plans yet" in status.stdout
    assert (state_of(two, home) / "sessions.db").is_file()  # the project in use, not the current folder
    assert not (state_of(tmp_path, home) / "sessions.db").exists()
    assert not (tmp_path / ".hearth").exists() and not (two / ".hearth").exists()
