"""Secrets do not reach the model through git, a backend that cannot hide them, `.env`
interpolation, or a server URL.

Before: under Landlock `cat .env` was "a read-only command, allowed by default" and the
`git_diff` tool printed a tracked `.env`; under bwrap `git show HEAD:.env` printed a committed
secret (bwrap hides the file, not git's objects); an untrusted workspace `.env` with
`HEARTH_MODEL="m-${HEARTH_API_KEY}"` copied the key into a setting the workspace may set, and from
there into requests and the store; a password in the server URL was stored in `session_started`.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from hearth.agent.policy import Decision, PermissionMode, PermissionPolicy
from hearth.core.text import shown_url
from hearth.sandbox.choice import BACKENDS
from hearth.sandbox.limits import ResourceLimits
from hearth.testing import ScriptedCall, ScriptedReply, ScriptedServer
from hearth.tools.builtin.shell import shell_tools
from support import HearthCli

SHELL = shell_tools()[0]
SECRET = "sk-committed-7f3a9c2e1d"
SECRET2 = "sk-worktree-88b1c0ffee"
API_KEY = "sk-process-env-key-5511aa"

LANDLOCK_CANNOT_HIDE = [
    "cat .env",
    "head .env",
    "tail -n 3 .env",
    "grep KEY .env",
    "wc -c .env",
    "cat .e*",
    "cat *",
    "head ./.env",
    "cat config/prod.env",
    "cat .e''nv",
    "python3 -c \"print(open('.env').read())\"",
    "cat .ssh/id_rsa",
]
GIT_CONTENT = [
    "git show HEAD:.env",
    "git show HEAD",
    "git log -p",
    "git log -p -- .env",
    "git log -S KEY",
    "git log -G KEY --oneline",
    "git log -L 1,2:.env",
    "git diff",
    "git diff HEAD~1 -- .env",
    "git diff --stat",
    "git cat-file -p HEAD:.env",
    "git grep KEY",
    "git blame .env",
    "git archive HEAD",
    "git stash show -p",
    "git -C . show HEAD:.env",
    "git --no-pager show HEAD:.env",
    "sh -c 'git show HEAD:.env'",
    "g''it show HEAD:.env",
    "ls && git show HEAD:.env",
    "git checkout HEAD~1 -- .env && head .env",
    "git restore --source=HEAD~1 .env",
]


def policy(mode: PermissionMode, hides: bool, allow: tuple[str, ...] = ()) -> PermissionPolicy:
    return PermissionPolicy.from_settings(mode, allow, hides_secrets=hides)


@pytest.mark.parametrize("command", LANDLOCK_CANNOT_HIDE)
def test_a_read_a_backend_cannot_hide_asks_in_every_mode(command: str) -> None:
    for mode, allow in ((PermissionMode.NORMAL, ()), (PermissionMode.AUTO, ("shell(*)", "shell"))):
        verdict = policy(mode, False, allow).decide(SHELL, {"command": command})
        assert verdict.decision is Decision.ASK, (command, mode, verdict.reason)
        assert "cannot hide" in verdict.reason


@pytest.mark.parametrize("command", ["cat .env", "head .env", "cat .e*"])
def test_where_the_backend_hides_secrets_a_plain_read_stays_a_default(command: str) -> None:
    """bwrap binds /dev/null over every secret: `cat .env` reads nothing there."""
    verdict = policy(PermissionMode.NORMAL, True).decide(SHELL, {"command": command})
    assert verdict.decision is Decision.ALLOW, verdict.reason


@pytest.mark.parametrize("command", GIT_CONTENT)
@pytest.mark.parametrize("hides", [False, True])
def test_git_reading_objects_or_history_asks_under_every_backend_and_mode(command: str, hides: bool) -> None:
    for mode, allow in ((PermissionMode.NORMAL, ()), (PermissionMode.AUTO, ("shell(*)", "shell(git *)"))):
        verdict = policy(mode, hides, allow).decide(SHELL, {"command": command})
        assert verdict.decision is Decision.ASK, (command, mode, hides, verdict.reason)
        assert "git" in verdict.reason


@pytest.mark.parametrize(
    "command", ["git status", "git log --oneline -5", "git log --stat -1", "ls", "cat a.py"]
)
def test_reads_that_cannot_print_a_secret_stay_defaults(command: str) -> None:
    for hides in (False, True):
        verdict = policy(PermissionMode.NORMAL, hides).decide(SHELL, {"command": command})
        assert verdict.decision is Decision.ALLOW, (command, verdict.reason)


@pytest.fixture
def repo(workspace: Path) -> Path:
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(["git", "init", "-q"], cwd=workspace, check=True)
    (workspace / ".env").write_text(f"KEY={SECRET}\n")
    (workspace / "config").mkdir()
    (workspace / "config" / "prod.env").write_text(f"KEY={SECRET}\n")
    (workspace / "a.py").write_text("x = 1\n")
    subprocess.run([*git, "add", "-A"], cwd=workspace, check=True)
    subprocess.run([*git, "commit", "-qm", "one"], cwd=workspace, check=True)
    (workspace / ".env").write_text(f"KEY={SECRET2}\n")
    (workspace / "config" / "prod.env").write_text(f"KEY={SECRET2}\n")
    (workspace / "a.py").write_text("x = 2\n")
    subprocess.run(["git", "add", "config/prod.env"], cwd=workspace, check=True)
    return workspace


def call(name: str, **args: object) -> ScriptedReply:
    return ScriptedReply(tool_calls=[ScriptedCall(name=name, arguments=args)])


def _landlock(workspace: Path) -> None:
    reason = BACKENDS["landlock"](workspace, ResourceLimits()).available()
    if reason:
        pytest.skip(reason)


@pytest.mark.parametrize("mode", ["normal", "auto"])
def test_a_headless_run_under_landlock_never_shows_a_secret(
    hearth: HearthCli, server: ScriptedServer, repo: Path, home: Path, tmp_path: Path, mode: str
) -> None:
    _landlock(repo)
    canary = tmp_path / "canary"
    canary.mkdir()
    (canary / "secret").write_text("outside")
    if mode == "auto":
        (home / ".config" / "hearth").mkdir(parents=True)
        (home / ".config" / "hearth" / "config.toml").write_text('allow = ["shell(*)"]\n')
    attempts = [*LANDLOCK_CANNOT_HIDE[:6], "git show HEAD:.env", "git log -p", "git diff", "git grep KEY"]
    attempts.append(f"git show HEAD:.env > {canary}/secret")
    for command in attempts:  # each refusal followed by a read that works (the loop guard stops repeats)
        server.add(call("shell", command=command), call("shell", command="cat a.py"))
    server.add(
        call("git_diff"), call("git_diff", staged=True), call("git_log"), call("shell", command="cat a.py")
    )
    server.add(ScriptedReply(text="Looked.\nTASK_COMPLETE"))
    res = hearth(
        "run", "look", "-w", str(repo), "--json", "--permission", mode,
        env={"HEARTH_LLM_URL": server.url, "HEARTH_SANDBOX": "landlock"},
    )  # fmt: skip
    assert res.code == 0, [
        (e.get("status"), e.get("reason")) for e in res.json_lines() if e["type"] == "done"
    ]
    lines = res.json_lines()
    refused = [p for p in lines if p["type"] == "permission" and not p["allowed"]]
    assert len(refused) == len(attempts), refused
    results = [r for r in lines if r["type"] == "tool_result"]
    diff = results[2 * len(attempts)]["output"]
    assert "x = 2" in diff and ".env" not in diff, diff  # the ordinary change shows, the secret's does not
    assert "prod.env" not in results[2 * len(attempts) + 1]["output"]
    assert "x = 2" in results[-1]["output"]
    for secret in (SECRET, SECRET2):
        assert secret not in res.stdout and secret not in res.stderr
        assert all(secret not in json.dumps(req) for req in server.requests)
    assert (canary / "secret").read_text() == "outside"


@pytest.mark.parametrize("trusted", [False, True])
def test_a_workspace_env_is_never_interpolated(
    hearth: HearthCli, server: ScriptedServer, workspace: Path, trusted: bool
) -> None:
    (workspace / ".env").write_text(
        'HEARTH_MODEL="m-${HEARTH_API_KEY}"\nHEARTH_MAX_ITERATIONS=${HEARTH_MAX_ITERATIONS_X:-7}\n'
    )
    if trusted:
        assert hearth("trust", "--yes", str(workspace)).code == 0
    server.add(ScriptedReply(text="ok\nTASK_COMPLETE"))
    res = hearth(
        "run", "hi", "-w", str(workspace), "--json",
        env={"HEARTH_LLM_URL": server.url, "HEARTH_API_KEY": API_KEY},
    )  # fmt: skip
    assert API_KEY not in res.stdout + res.stderr
    for request in server.requests:
        assert API_KEY not in json.dumps(request.get("model", "")), request.get("model")
    shown = hearth("config", "-w", str(workspace), env={"HEARTH_API_KEY": API_KEY})
    assert API_KEY not in shown.stdout + shown.stderr


@pytest.mark.parametrize(
    ("url", "hidden"),
    [
        ("http://alice:pa55word-x1@127.0.0.1:{port}/v1", "pa55word-x1"),
        ("http://tok3n-as-user-77@127.0.0.1:{port}/v1", "tok3n-as-user-77"),
    ],
)
def test_a_password_in_the_server_url_is_masked_in_events_output_and_export(
    hearth: HearthCli, server: ScriptedServer, workspace: Path, url: str, hidden: str
) -> None:
    port = server.url.rsplit(":", 1)[1].split("/", 1)[0]
    server.add(ScriptedReply(text="ok\nTASK_COMPLETE"))
    res = hearth("run", "hi", "-w", str(workspace), "--json", env={"HEARTH_LLM_URL": url.format(port=port)})
    assert res.code == 0, res.stderr
    started = next(e for e in res.json_lines() if e["type"] == "session_started")
    assert hidden not in started["server"] and "***@127.0.0.1" in started["server"]
    assert hidden not in res.stdout + res.stderr
    sid = next(e for e in res.json_lines() if e.get("session"))["session"]
    for fmt in ("md", "json"):
        exported = hearth("sessions", "export", sid, "--format", fmt, "-w", str(workspace))
        assert exported.code == 0 and hidden not in exported.stdout
    shown = hearth("sessions", "show", sid, "-w", str(workspace))
    assert hidden not in shown.stdout
    config = hearth("config", "-w", str(workspace), env={"HEARTH_LLM_URL": url.format(port=port)})
    assert config.code == 0 and "127.0.0.1" in config.stdout and hidden not in config.stdout


@pytest.mark.parametrize(
    "text",
    [
        "http://u:p4ss@host/v1",
        "https://host/v1?api_key=k3y-zz",
        "https://host/v1?x=1&token=k3y-zz",
        "https://host/v1?access_token=k3y-zz#f",
        "wss://k3y-zz@host/",
        "server at http://bob:k3y-zz@10.0.0.1:8080 failed",
    ],
)
def test_shown_url_masks_every_credential_form(text: str) -> None:
    out = shown_url(text)
    assert "k3y-zz" not in out and "p4ss" not in out and "***" in out


@pytest.mark.parametrize(
    "code",
    [
        "print(open('.env').read())",
        "import pathlib; pathlib.Path('config/prod.env').read_text()",
        "import subprocess; subprocess.run(['git', 'show', 'HEAD:.env'])",
        "import glob; [open(p).read() for p in glob.glob('.e*')]",
    ],
)
def test_the_python_tool_asks_for_the_same_reads(code: str) -> None:
    from hearth.tools.builtin.python import python_tools

    tool = next(t for t in python_tools() if t.name == "python")
    landlock = policy(PermissionMode.AUTO, False, ("python",)).decide(tool, {"code": code})
    assert landlock.decision is Decision.ASK, landlock.reason
    if "git" in code:
        assert (
            policy(PermissionMode.AUTO, True, ("python",)).decide(tool, {"code": code}).decision
            is Decision.ASK
        )
    plain = policy(PermissionMode.AUTO, False, ("python",)).decide(tool, {"code": "print(1 + 1)"})
    assert plain.decision is Decision.ALLOW


@pytest.mark.parametrize("command", ["git checkout -b feature", "git switch main", "git log --oneline"])
def test_git_that_prints_no_content_is_left_to_the_mode(command: str) -> None:
    verdict = policy(PermissionMode.AUTO, True).decide(SHELL, {"command": command})
    assert verdict.decision is Decision.ALLOW, verdict.reason
