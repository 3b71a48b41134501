"""The shell and git tools through a real sandbox (bwrap here and in CI; the process runner too)."""

from __future__ import annotations

import asyncio
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from hearth.core.errors import ToolError
from hearth.sandbox.choice import choose_sandbox
from hearth.sandbox.paths import SafePaths
from hearth.tools.base import RunContext, Tool
from hearth.tools.builtin.git import git_tools, validate_ref
from hearth.tools.builtin.shell import shell_tools
from hearth.tools.toolset import Toolset
from requirements import need

TOOLS = Toolset([*shell_tools(), *git_tools()])


class Env:
    def __init__(self, ws: Path, backend: str) -> None:
        self.ws = ws
        self.loop = asyncio.Runner()
        self.choice = self.loop.run(choose_sandbox(backend, ws))
        self.ctx = RunContext(paths=SafePaths(ws), sandbox=self.choice.runner)

    def call(self, tool_name: str, /, **args: object) -> str:
        tool = TOOLS.get(tool_name)
        assert isinstance(tool, Tool)
        return self.loop.run(tool.run(tool.input_model.model_validate(args), self.ctx))

    def close(self) -> None:
        self.loop.run(self.choice.runner.close())
        self.loop.close()


@pytest.fixture(params=["bwrap", "process"])
def env(request: pytest.FixtureRequest, workspace: Path) -> Iterator[Env]:
    if request.param == "bwrap":
        need("bwrap")
    e = Env(workspace, request.param)
    yield e
    e.close()


def test_shell_runs_in_the_workspace_and_reports_failures(env: Env) -> None:
    assert env.call("shell", command="echo hi > f.txt && cat f.txt && pwd") == f"hi\n{env.ws}"
    with pytest.raises(ToolError, match=r"nope\n\[exit code 3\]"):
        env.call("shell", command="echo nope; exit 3")
    with pytest.raises(ToolError, match=r"no exit after 0\.5s"):
        env.call("shell", command="sleep 5", timeout=0.5)
    assert env.call("shell", command="true") == "(no output)"


def test_shell_background_jobs_through_the_tools(env: Env) -> None:
    out = env.call("shell", command="echo started; sleep 30", background=True)
    job = out.split()[1]
    assert job in env.call("shell_jobs", action="list")
    for _ in range(50):
        if "started" in env.call("shell_jobs", action="read", id=job):
            break
        env.loop.run(asyncio.sleep(0.05))
    assert "started" in env.call("shell_jobs", action="read", id=job)
    assert env.call("shell_jobs", action="stop", id=job) == f"Stopped {job}."
    with pytest.raises(ToolError, match="No background job"):
        env.call("shell_jobs", action="read", id="job_nope")


def test_network_is_off_by_default_and_on_when_allowed(workspace: Path) -> None:
    need("bwrap")
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(2)
    port = srv.getsockname()[1]
    probe = f"python3 -c \"import socket; socket.create_connection(('127.0.0.1', {port}), 2); print('connected')\""
    e = Env(workspace, "bwrap")
    try:
        with pytest.raises(ToolError):
            e.call("shell", command=probe)
        e.ctx.network = True
        assert e.call("shell", command=probe) == "connected"
    finally:
        e.close()
        srv.close()


def _repo(ws: Path) -> None:
    subprocess.run(["git", "init", "-q", "-b", "main", str(ws)], check=True)
    hook = ws / ".git/hooks/pre-commit"
    hook.write_text(f"#!/bin/sh\ntouch {ws}/HOOK_RAN\n")
    hook.chmod(0o755)
    subprocess.run(["git", "config", "core.fsmonitor", f"touch {ws}/FSMONITOR_RAN"], cwd=ws, check=True)


def test_git_tools_work_and_never_run_repository_code(env: Env) -> None:
    _repo(env.ws)
    (env.ws / "app.py").write_text("print(1)\n")
    assert "?? app.py" in env.call("git_status")
    assert env.call("git_add", paths=["app.py"]) == "Staged: app.py"
    assert "+print(1)" in env.call("git_diff", staged=True)
    assert "add app" in env.call("git_commit", message="add app")
    (env.ws / "app.py").write_text("print(2)\n")
    assert "+print(2)" in env.call("git_diff", path="app.py")
    assert (
        env.call("git_branch", name="feature/x", create=True, switch=True)
        == "Created and switched to feature/x."
    )
    assert "* feature/x" in env.call("git_branch")
    assert "add app" in env.call("git_log", n=5)
    assert not (env.ws / "HOOK_RAN").exists()
    assert not (env.ws / "FSMONITOR_RAN").exists()


def test_a_forgotten_file_goes_into_the_last_commit_with_amend(env: Env) -> None:
    """ "My last commit forgot about.css: put it into that same commit": git_commit amends."""
    _repo(env.ws)
    (env.ws / "about.html").write_text("<h1>About</h1>\n")
    env.call("git_add", paths=["about.html"])
    env.call("git_commit", message="Add about page")
    (env.ws / "about.css").write_text("h1 { color: red; }\n")
    env.call("git_add", paths=["about.css"])
    env.call("git_commit", message="Add about page", amend=True)
    log = subprocess.run(
        ["git", "log", "--format=%s", "--name-only"], cwd=env.ws, capture_output=True, text=True
    ).stdout.split("\n")
    assert [line for line in log if line] == ["Add about page", "about.css", "about.html"]  # one commit


def _subjects(ws: Path) -> list[str]:
    return subprocess.run(
        ["git", "log", "--format=%s"], cwd=ws, capture_output=True, text=True
    ).stdout.splitlines()


def _committed(env: Env) -> str:
    """A repository with one commit; its HEAD."""
    _repo(env.ws)
    (env.ws / "README.md").write_text("# app\n")
    env.call("git_add", paths=["README.md"])
    env.call("git_commit", message="init")
    return _head(env.ws)


def _head(ws: Path) -> str:
    return subprocess.run(["git", "rev-parse", "HEAD"], cwd=ws, capture_output=True, text=True).stdout


def test_the_last_commits_become_one_with_squash(env: Env) -> None:
    """ "Squash the two WIP commits into one with the message Add search": git_commit squashes."""
    _committed(env)
    for name in ("search.py", "search_test.py"):
        (env.ws / name).write_text(f"# {name}\n")
        env.call("git_add", paths=[name])
        env.call("git_commit", message="WIP")
    before = _subjects(env.ws)
    out = env.call("git_commit", message="Add search", squash=2)
    assert "Squashed the last 2 commits" in out
    assert _subjects(env.ws) == ["Add search", *before[2:]] == ["Add search", "init"]
    files = subprocess.run(
        ["git", "show", "--name-only", "--format="], cwd=env.ws, capture_output=True, text=True
    ).stdout.split()
    assert sorted(files) == ["search.py", "search_test.py"]


def test_a_squash_past_the_first_commit_or_with_amend_is_refused_and_changes_nothing(env: Env) -> None:
    head = _committed(env)
    commits = len(_subjects(env.ws))
    with pytest.raises(ToolError, match="at most"):
        env.call("git_commit", message="All of it", squash=commits)
    with pytest.raises(ToolError, match="not both"):
        env.call("git_commit", message="All of it", squash=1, amend=True)
    assert _head(env.ws) == head


def test_a_squash_whose_commit_fails_puts_the_branch_back(env: Env) -> None:
    _committed(env)
    (env.ws / "a.txt").write_text("a\n")
    env.call("git_add", paths=["a.txt"])
    env.call("git_commit", message="add a")
    head = _head(env.ws)
    with pytest.raises(ToolError, match="empty commit message"):
        env.call("git_commit", message=" ", squash=1)  # git refuses a blank message
    assert _head(env.ws) == head and _subjects(env.ws) == ["add a", "init"]


def test_a_commit_keeps_the_repositorys_own_identity(env: Env) -> None:
    _repo(env.ws)
    subprocess.run(["git", "config", "user.name", "Repo Owner"], cwd=env.ws, check=True)
    subprocess.run(["git", "config", "user.email", "owner@example.org"], cwd=env.ws, check=True)
    (env.ws / "a.txt").write_text("a\n")
    env.call("git_add", paths=["a.txt"])
    env.call("git_commit", message="first")
    author = subprocess.run(
        ["git", "log", "-1", "--format=%an <%ae>|%cn <%ce>"], cwd=env.ws, capture_output=True, text=True
    ).stdout.strip()
    assert author == "Repo Owner <owner@example.org>|Repo Owner <owner@example.org>"


def test_git_refuses_bad_refs_and_paths(env: Env) -> None:
    _repo(env.ws)
    for bad in ("-delete", "a..b", "x~1", "has space", "end.lock", ".hidden", "a//b", "@", "x@{1}"):
        with pytest.raises(ToolError, match="not a valid branch name"):
            env.call("git_branch", name=bad, create=True)
    with pytest.raises(ToolError, match="outside the workspace"):
        env.call("git_add", paths=["../elsewhere"])
    assert validate_ref("feature/ok-1.2") == "feature/ok-1.2"


def test_git_outside_a_repository_says_so(env: Env) -> None:
    with pytest.raises(ToolError, match="not a git repository"):
        env.call("git_status")
