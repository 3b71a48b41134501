"""Backend choice, the honest fallback, and the backends that cannot run on this machine."""

from __future__ import annotations

import asyncio
import json
import subprocess
from pathlib import Path

import pytest

from hearth.core.errors import HearthError
from hearth.core.protocols import ExecSpec
from hearth.sandbox.choice import choose_sandbox
from hearth.sandbox.container import DockerBackend, PodmanBackend
from hearth.sandbox.limits import ResourceLimits
from hearth.sandbox.seatbelt import seatbelt_profile
from hearth.testing import ScriptedReply, ScriptedServer
from requirements import backend_params, need
from support import HearthCli, state_of


def test_auto_picks_an_isolating_backend_here(workspace: Path) -> None:
    need("bwrap")
    choice = asyncio.run(choose_sandbox("auto", workspace))
    assert choice.runner.name == "bwrap" and choice.runner.isolated and choice.warning is None


def test_a_backend_asked_for_by_name_is_never_swapped(workspace: Path) -> None:
    with pytest.raises(HearthError, match="'docker' cannot be used") as info:
        asyncio.run(choose_sandbox("docker", workspace))
    assert "HEARTH_SANDBOX" in str(info.value)
    with pytest.raises(HearthError, match="Unknown sandbox backend"):
        asyncio.run(choose_sandbox("chroot", workspace))


def test_process_fallback_says_it_does_not_isolate_and_still_cleans_up(workspace: Path) -> None:
    choice = asyncio.run(choose_sandbox("process", workspace))
    assert not choice.runner.isolated
    assert choice.warning and choice.warning.startswith("NOT ISOLATED")
    result = asyncio.run(choice.runner.run(ExecSpec("setsid sleep 777 & echo ok", workspace, timeout=10)))
    assert result.output.strip() == "ok"
    assert subprocess.run(["pgrep", "-f", "sleep 777"], capture_output=True).stdout == b""


def test_cli_prints_the_not_isolated_warning(hearth, server: ScriptedServer, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    server.add(ScriptedReply(text="fine"))
    res = hearth(
        "run",
        "x",
        "-w",
        str(workspace),
        "--json",
        env={"HEARTH_LLM_URL": server.url, "HEARTH_SANDBOX": "process"},
    )
    assert res.code == 0
    assert "NOT ISOLATED" in res.stderr
    assert all(json.loads(line) for line in res.stdout.splitlines())  # the warning stays off stdout
    doctor = hearth(
        "doctor", "-w", str(workspace), env={"HEARTH_LLM_URL": server.url, "HEARTH_SANDBOX": "process"}
    )
    assert "NOT ISOLATED" in doctor.stdout


def test_doctor_reports_backend_isolation_and_server(
    hearth: HearthCli, server: ScriptedServer, workspace: Path, home: Path
) -> None:
    res = hearth("doctor", "-w", str(workspace), env={"HEARTH_LLM_URL": server.url})
    assert res.code == 0, res.stdout
    lines = res.stdout.splitlines()
    assert any("state" in line and str(state_of(workspace, home)) in line for line in lines), res.stdout
    sandbox = next(line for line in lines if "sandbox" in line)
    auto = asyncio.run(choose_sandbox("auto", workspace)).runner  # bwrap, or Landlock without it
    assert f"{auto.name}: files: only the workspace is writable" in sandbox or not auto.isolated
    assert any("context window 8192 (llama.cpp /props)" in line for line in lines)
    assert any(line.startswith("✓ git") for line in lines)


def test_doctor_fails_clearly_when_the_server_is_down(hearth, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    res = hearth("doctor", "-w", str(workspace), env={"HEARTH_LLM_URL": "http://127.0.0.1:9/v1"})
    assert res.code == 1
    assert "did not answer /models" in res.stdout


def test_seatbelt_profile_denies_by_default_and_allows_only_the_workspace(tmp_path: Path) -> None:
    ws = tmp_path / "my proj"
    profile = seatbelt_profile(ws, network=False)
    assert profile.startswith("(version 1)\n(deny default)")
    assert f'(allow file-write* (subpath "{ws}")' in profile
    assert f'(deny file-write* (literal "{ws}/.git/hooks") (subpath "{ws}/.git/hooks"))' in profile
    assert f'(deny file-write* (literal "{ws}/.mcp.json")' in profile
    assert "(allow network*)" not in profile
    assert "(allow network*)" in seatbelt_profile(ws, network=True)
    assert profile.count("(") == profile.count(")")


def test_seatbelt_quotes_hostile_paths(tmp_path: Path) -> None:
    profile = seatbelt_profile(Path('/w/a"b) (allow file-write* (subpath "/'), network=False)
    # the quote inside the path is escaped, so the path cannot close the string and add rules
    assert '(allow file-write* (subpath "/w/a\\"b) (allow file-write* (subpath \\"")' in profile


@pytest.mark.parametrize("cls", [PodmanBackend, DockerBackend])
def test_container_command_line(cls: type[PodmanBackend], tmp_path: Path) -> None:
    backend = cls(tmp_path, ResourceLimits(processes=64, memory_bytes=256 << 20))
    backend.image = "local/hearth-sandbox"
    argv = backend.argv(ExecSpec("make test", tmp_path, timeout=5))
    joined = " ".join(argv)
    for flag in (
        "--rm",
        "--network none",
        "--cap-drop ALL",
        "--security-opt no-new-privileges",
        "--read-only",
        "--pids-limit 64",
        f"-v {tmp_path}:{tmp_path}:rw",
        "--user 65534:65534",
    ):
        assert flag in joined
    assert argv[-4:] == ["local/hearth-sandbox", "/bin/sh", "-c", "make test"]
    assert ("--runtime runc" in joined) == (cls is PodmanBackend)
    assert "--network bridge" in " ".join(backend.argv(ExecSpec("x", tmp_path, network=True)))


@pytest.mark.parametrize("backend", backend_params(("bwrap", "landlock")))
def test_git_in_the_sandbox_commits_as_the_user_and_a_repository_s_own_identity_wins(
    backend: str, tmp_path: Path
) -> None:
    """The sandbox hides the user's git config; git then could not tell who commits and refused
    every `git commit` and `git tag -a` run with the shell tool ("unable to auto-detect email
    address"), and named the sandbox's user. The command's HOME holds the user's identity alone."""
    from hearth.sandbox.gitconfig import user_identity

    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    runner = asyncio.run(choose_sandbox(backend, tmp_path)).runner
    commit = "git commit -q --allow-empty -m x && git log -1 --format=%an/%ae"
    result = asyncio.run(runner.run(ExecSpec(commit, tmp_path, timeout=30)))
    assert result.exit_code == 0 and result.output.strip() == "/".join(user_identity()), result.output
    for key, value in (("user.email", "repo@example.com"), ("user.name", "Repo Owner")):
        subprocess.run(["git", "-C", str(tmp_path), "config", key, value], check=True)
    result = asyncio.run(runner.run(ExecSpec(commit, tmp_path, timeout=30)))
    assert result.output.strip() == "Repo Owner/repo@example.com", result.output
    listed = asyncio.run(runner.run(ExecSpec("git config --global --list", tmp_path, timeout=30)))
    name, email = user_identity()
    assert listed.output.splitlines() == [f"user.name={name}", f"user.email={email}"], listed.output
