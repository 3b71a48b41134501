"""One secret predicate for the file tools, the shell sandbox and the web viewer.

Every usual spelling of a secret file, at any depth (inside `node_modules/` and `.venv/` too),
and symlinks and hardlinks to one, must be unreadable by all three; templates stay readable.
A canary outside the workspace holds a secret that a symlink points to.
"""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

import pytest

from hearth.agent.policy import PermissionMode, PermissionPolicy
from hearth.core.errors import ToolError
from hearth.sandbox.paths import SafePaths
from hearth.sandbox.secrets import SecretIndex, is_secret_name, is_secret_path
from hearth.tools.base import RunContext
from hearth.tools.builtin.files import GrepInput, ReadInput, file_tools, grep, read
from security.box import SECRET, Box
from websupport import Web

SECRET_FILES = [
    ".env",
    ".envrc",
    ".env-local",
    "prod.env",
    ".env_prod",
    ".env.production",
    "PROD.ENV",
    "a/b/c/d/e/.env",
    "node_modules/pkg/.env",
    ".venv/lib/python3.12/site-packages/pkg/.env.test",
    "config/.netrc",
    ".git-credentials",
    "keys/id_ed25519",
    "certs/server.key",
    "certs/tls.pem",
    "deploy/credentials.json",
    "app/.pgpass",
    ".ssh/config",
    "infra/.aws/credentials",
]
SHAREABLE = [
    ".env.example",
    ".env-sample",
    ".env_template",
    "example.env",
    "src/environment.py",
    "src/keys.py",
    "src/credentials.py",
    "docs/secrets.md",
    "venv.txt",
    ".environment",
    "src/tokenizer.env.py",
]
LINKS = ["link.txt", "deep/er/link.txt", "hard.txt", "node_modules/x/hard.txt"]


def plant(ws: Path, rel: str, text: str = f"TOKEN={SECRET}\n") -> Path:
    path = ws / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def plant_links(ws: Path, canary: Path) -> list[str]:
    """Symlinks and hardlinks to secrets, and a symlink to a secret outside the workspace."""
    env = plant(ws, "a/b/c/d/e/.env")
    rc = plant(ws, ".envrc")
    (ws / "link.txt").symlink_to(".envrc")
    (ws / "deep/er").mkdir(parents=True)
    (ws / "deep/er/link.txt").symlink_to("../../a/b/c/d/e/.env")
    os.link(rc, ws / "hard.txt")
    (ws / "node_modules/x").mkdir(parents=True)
    os.link(env, ws / "node_modules/x/hard.txt")
    (ws / "outside.txt").symlink_to(canary / "secret")
    return [*LINKS, "outside.txt"]


def ctx_for(ws: Path) -> RunContext:
    return RunContext(paths=SafePaths(ws))


# -- the predicate --------------------------------------------------------------------------


@pytest.mark.parametrize("rel", SECRET_FILES)
def test_secret_names_are_secret(rel: str) -> None:
    assert is_secret_path(rel)


@pytest.mark.parametrize("rel", SHAREABLE)
def test_templates_and_ordinary_files_are_not(rel: str) -> None:
    assert not is_secret_path(rel)


def test_folders_named_like_tools_are_not_secret_but_credential_folders_are() -> None:
    assert not is_secret_name("venv") and not is_secret_name(".venv") and not is_secret_name("environment")
    assert is_secret_path("a/.ssh") and is_secret_path("a/.gnupg/pubring.kbx")


# -- the file tools -----------------------------------------------------------------------------


@pytest.mark.parametrize("rel", SECRET_FILES)
def test_the_file_tools_refuse_every_spelling(tmp_path: Path, rel: str) -> None:
    ws = tmp_path / "ws"
    plant(ws, rel)
    ctx = ctx_for(ws)
    for spelling in (rel, f"./{rel}", str(ws / rel), f"x/../{rel}"):
        with pytest.raises(ToolError, match="secret"):
            read(ReadInput(path=spelling), ctx)
    folder = os.path.dirname(rel) or "."
    assert SECRET not in grep(GrepInput(pattern="TOKEN", path="."), ctx)
    if not is_secret_path(folder):
        assert SECRET not in grep(GrepInput(pattern="TOKEN", path=folder), ctx)


def test_the_file_tools_refuse_links_to_secrets(tmp_path: Path) -> None:
    ws, canary = tmp_path / "ws", tmp_path / "canary"
    ws.mkdir()
    canary.mkdir()
    (canary / "secret").write_text(SECRET)
    ctx = ctx_for(ws)
    for rel in plant_links(ws, canary):
        with pytest.raises(ToolError, match=r"secret|outside|hardlink"):
            read(ReadInput(path=rel), ctx)
    for folder in (".", "deep", "node_modules/x"):
        assert SECRET not in grep(GrepInput(pattern="TOKEN|canary", path=folder), ctx)
    assert (canary / "secret").read_text() == SECRET


def test_a_hardlink_made_after_the_first_scan_is_still_caught(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    env = plant(ws, "sub/.env")
    ctx = ctx_for(ws)
    (ws / "plain.txt").write_text("x")
    assert read(ReadInput(path="plain.txt"), ctx) == "1\tx"
    os.link(env, ws / "sub" / "copy.txt")
    with pytest.raises(ToolError, match=r"hardlink to the secret 'sub/\.env'"):
        read(ReadInput(path="sub/copy.txt"), ctx)


@pytest.mark.parametrize("rel", SHAREABLE)
def test_templates_stay_readable(tmp_path: Path, rel: str) -> None:
    ws = tmp_path / "ws"
    plant(ws, rel)
    assert SECRET in read(ReadInput(path=rel), ctx_for(ws))


def test_an_allow_rule_still_lets_a_named_secret_through(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    plant(ws, ".env.local")
    plant(ws, ".envrc")
    policy = PermissionPolicy.from_settings(PermissionMode.NORMAL, allow=["read(.env.local)"])
    ctx = RunContext(paths=SafePaths(ws, secret_exceptions=policy.secret_exceptions()))
    tool = next(t for t in file_tools() if t.name == "read")
    assert SECRET in asyncio.run(tool.run(ReadInput(path=".env.local"), ctx))
    with pytest.raises(ToolError, match="secret"):
        asyncio.run(tool.run(ReadInput(path=".envrc"), ctx))


# -- the shell sandbox ----------------------------------------------------------------------------


def test_the_shell_sees_no_secret_at_any_depth_nor_through_links(box: Box) -> None:
    if box.name != "bwrap":
        pytest.skip("Landlock cannot hide one file inside the readable workspace (README, Security)")
    ws = box.workspace
    for rel in SECRET_FILES:
        plant(ws, rel)
    plant_links(ws, box.canary)
    for rel in SHAREABLE:
        plant(ws, rel, "shareable\n")
    files = " ".join(f"'{r}'" for r in [*SECRET_FILES, *LINKS])
    out = box.run(f"cat {files} 2>&1; grep -r TOKEN . 2>/dev/null; echo done").output
    assert "done" in out and SECRET not in out
    shown = box.run("cat " + " ".join(f"'{r}'" for r in SHAREABLE)).output
    assert shown.count("shareable") == len(SHAREABLE)


def test_a_secret_created_between_commands_is_hidden_in_the_next(box: Box) -> None:
    if box.name != "bwrap":
        pytest.skip("Landlock cannot hide one file inside the readable workspace (README, Security)")
    ws = box.workspace
    plant(ws, "node_modules/a/b/index.js")
    assert "index" in box.run("ls node_modules/a/b").output
    plant(ws, "node_modules/a/b/.env")
    os.link(ws / "node_modules/a/b/.env", ws / "twin.txt")
    assert SECRET not in box.run("cat node_modules/a/b/.env twin.txt").output


def test_a_repeated_scan_of_a_large_tree_reads_only_changed_folders(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    for i in range(200):
        plant(ws, f"node_modules/p{i}/lib/index.js")
    old = time.time() - 3600
    for folder, _, _ in os.walk(ws):
        os.utime(folder, (old, old))
    index = SecretIndex(ws)
    assert index.scan().files == ()
    plant(ws, "node_modules/p7/lib/.env.local")
    assert index.scan().files == ("node_modules/p7/lib/.env.local",)
    (ws / "node_modules/p7/lib/.env.local").rename(ws / "node_modules/p7/lib/notes.txt")
    assert index.scan().files == ()


# -- the web file viewer ----------------------------------------------------------------------------


def test_the_web_viewer_neither_lists_nor_shows_secrets(web: Web, tmp_path: Path) -> None:
    ws = web.workspace
    canary = tmp_path / "canary"
    canary.mkdir()
    (canary / "secret").write_text(SECRET)
    for rel in SECRET_FILES:
        plant(ws, rel)
    links = plant_links(ws, canary)
    plant(ws, ".env.example")
    with web.client() as api:
        listed = api.get("/api/files").json()["files"]
        assert [f["path"] for f in listed if SECRET in api.get("/api/files/raw", params=f).text] == [
            ".env.example"
        ]
        for rel in [*SECRET_FILES, *links]:
            for spelling in (rel, f"./{rel}", str(ws / rel)):
                shown = api.get("/api/files/raw", params={"path": spelling})
                assert shown.status_code == 403 and SECRET not in shown.text, (spelling, shown.text)
