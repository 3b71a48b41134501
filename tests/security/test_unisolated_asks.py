"""Without isolation every shell command asks, whatever the rules.

The process runner isolates nothing: a command there can read ~/.ssh, write the
user's config (and so trust a workspace), and reach the network. So no allow rule,
no mode and no "allow for this session" answer lets a shell command through
unasked; a headless run refuses it. Deny rules still deny.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pexpect
import pytest

from hearth.agent.policy import UNISOLATED, Decision, PermissionMode, PermissionPolicy
from hearth.agent.rules import Rule
from hearth.testing import ScriptedCall, ScriptedReply, ScriptedServer
from hearth.tools.builtin.files import file_tools
from hearth.tools.builtin.git import git_tools
from hearth.tools.builtin.shell import shell_tools
from hearth.tools.toolset import Toolset
from support import HearthCli, clean_env

TOOLS = Toolset([*file_tools(), *shell_tools(), *git_tools()])
ALLOWS = [(), ("shell",), ("shell(*)",), ("*",), ("shell(ls*)",), ("shell(pytest*)", "shell(git status*)")]
COMMANDS = ["ls", "pytest -q", "git status", "cat notes.txt", "touch x", "git log --oneline"]


def decide(policy: PermissionPolicy, tool: str, **args: object) -> Decision:
    t = TOOLS.get(tool)
    assert t is not None
    return policy.decide(t, args).decision


@pytest.mark.parametrize("mode", ["auto", "normal", "manual"])
@pytest.mark.parametrize("allow", ALLOWS)
@pytest.mark.parametrize("command", COMMANDS)
def test_every_shell_command_asks_without_isolation(mode: str, allow: tuple[str, ...], command: str) -> None:
    p = PermissionPolicy.from_settings(PermissionMode(mode), allow, sandboxed=False)
    verdict = p.decide(TOOLS.get("shell"), {"command": command})  # type: ignore[arg-type]
    assert (verdict.decision, verdict.reason) == (Decision.ASK, UNISOLATED)
    remembered = p.with_allowed(Rule.exact("shell", {"command": command}))  # "allow for this session"
    assert decide(remembered, "shell", command=command) is Decision.ASK


def test_deny_and_plan_still_refuse_and_other_tools_are_unchanged() -> None:
    p = PermissionPolicy.from_settings(
        PermissionMode.AUTO, ("shell(*)",), deny=("shell(rm *)",), sandboxed=False
    )
    assert decide(p, "shell", command="rm -rf x") is Decision.DENY
    plan = PermissionPolicy.from_settings(PermissionMode.PLAN, ("shell(*)",), sandboxed=False)
    assert decide(plan, "shell", command="ls") is Decision.DENY
    assert decide(p, "read", path="a.txt") is Decision.ALLOW
    assert decide(p, "write", path="a.txt", content="") is Decision.ALLOW
    sandboxed = PermissionPolicy.from_settings(PermissionMode.AUTO, ("shell(*)",), sandboxed=True)
    assert decide(sandboxed, "shell", command="make") is Decision.ALLOW  # isolated: the rules apply


def call(name: str, **args: object) -> ScriptedReply:
    return ScriptedReply(tool_calls=[ScriptedCall(name=name, arguments=args)])


def test_headless_run_under_the_process_runner_refuses_every_command(
    hearth: HearthCli, server: ScriptedServer, workspace: Path, home: Path, tmp_path: Path
) -> None:
    canary = tmp_path / "canary"
    canary.mkdir()
    (home / ".config" / "hearth").mkdir(parents=True)
    (home / ".config" / "hearth" / "config.toml").write_text('allow = ["shell(*)", "shell"]\n')
    server.add(
        call("shell", command=f"touch {canary}/pwned"),
        call("shell", command="ls"),
        call("shell", command="hearth trust --yes ."),
        ScriptedReply(text="BLOCKED: I need to run commands."),
    )
    res = hearth(
        "run",
        "do it",
        "-w",
        str(workspace),
        "--json",
        "--permission",
        "auto",
        env={"HEARTH_LLM_URL": server.url, "HEARTH_SANDBOX": "process"},
    )
    assert res.code == 3, res.stderr
    perms = [line for line in res.json_lines() if line["type"] == "permission"]
    assert [(p["allowed"], p["by"], p["reason"]) for p in perms] == [(False, "headless", UNISOLATED)] * 3
    results = [line for line in res.json_lines() if line["type"] == "tool_result"]
    assert all("no one to ask" in r["output"] for r in results)
    assert list(canary.iterdir()) == []
    assert not (home / ".config" / "hearth" / "trusted-workspaces.json").exists()


def test_the_repl_asks_each_time_even_after_allow_for_this_session(
    server: ScriptedServer, workspace: Path, home: Path
) -> None:
    (home / ".config" / "hearth").mkdir(parents=True)
    (home / ".config" / "hearth" / "config.toml").write_text(
        'allow = ["shell(*)"]\npermission_mode = "auto"\n'
    )
    server.add(
        call("shell", command="echo one > one.txt"),
        call("shell", command="echo one > one.txt"),
        call("shell", command="echo two > two.txt"),
        ScriptedReply(text="Done."),
    )
    env = clean_env(home, HEARTH_LLM_URL=server.url, HEARTH_SANDBOX="process", TERM="xterm")
    child = pexpect.spawn(
        sys.executable, ["-m", "hearth", "-w", str(workspace)], env=env, encoding="utf-8", timeout=30
    )
    try:
        child.expect("›")
        child.sendline("make the files")
        child.expect("every shell command asks")
        child.expect("deny with a message")
        child.sendline("a")  # allow for this session...
        child.expect("every shell command asks")  # ...and it still asks the next time
        child.expect("deny with a message")
        child.sendline("y")
        child.expect("every shell command asks")
        child.expect("deny with a message")
        child.sendline("n")
        child.expect("Done.")
        child.expect("›")
    finally:
        child.close(force=True)
    assert (workspace / "one.txt").read_text() == "one\n"
    assert not (workspace / "two.txt").exists()
