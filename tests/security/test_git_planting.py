"""Nothing a command does makes the user's own git run code it planted.

Each case plants config, hooks or a redirect from inside the sandbox, then runs the
host's real `git status` and `git commit` in the workspace as the user would (default
git config, no special flags). The planted hooks and fsmonitor would create files in
`fired/` outside the workspace; it must stay empty. The user's history must survive.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
from pathlib import Path

import pytest

from hearth.core.protocols import ExecSpec
from hearth.sandbox.choice import BACKENDS
from hearth.sandbox.paths import SafePaths
from hearth.tools.base import RunContext
from hearth.tools.builtin.git import (
    GitAddInput,
    GitCommitInput,
    GitLogInput,
    GitStatusInput,
    git_add,
    git_commit,
    git_log,
    git_status,
)
from security.box import ISOLATING, TEST_LIMITS, Box

_PROCESS = BACKENDS["process"](Path("/tmp"), TEST_LIMITS).available()
ALL_BACKENDS = [
    *ISOLATING,
    pytest.param("process", marks=pytest.mark.skipif(bool(_PROCESS), reason=str(_PROCESS))),
]
pytestmark = pytest.mark.parametrize("box", ALL_BACKENDS, indirect=True)

HOOKS = (
    "pre-commit",
    "commit-msg",
    "post-commit",
    "reference-transaction",
    "post-index-change",
    "post-checkout",
)
USER = {
    "GIT_AUTHOR_NAME": "User",
    "GIT_AUTHOR_EMAIL": "user@example.com",
    "GIT_COMMITTER_NAME": "User",
    "GIT_COMMITTER_EMAIL": "user@example.com",
}


@pytest.fixture
def fired(tmp_path: Path) -> Path:
    path = tmp_path / "fired"
    path.mkdir()
    return path


def plant(fired: Path) -> str:
    """A shell function `plant DIR`: a config with fsmonitor and hooks, and executable hooks."""
    hooks = " ".join(HOOKS)
    return (
        'plant() { mkdir -p "$1/hooks"; '
        f"printf '[core]\\n\\trepositoryformatversion = 0\\n\\tfsmonitor = touch {fired}/fsmonitor\\n"
        f'\\thooksPath = hooks\\n[filter "evil"]\\n\\tclean = touch {fired}/filter\\n\' > "$1/config"; '
        f"for h in {hooks}; do printf '#!/bin/sh\\ntouch {fired}/hook-%s\\n' $h > \"$1/hooks/$h\"; "
        'chmod +x "$1/hooks/$h"; done; }; '
    )


def user_git(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The host's own git, as the user runs it: their environment, default config."""
    env = {**os.environ, **USER}
    return subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=60)


def user_repo(ws: Path) -> None:
    user_git(ws, "init", "-q")
    (ws / "readme.md").write_text("hello\n")
    (ws / ".gitattributes").write_text("*.md filter=evil diff=evil\n")
    user_git(ws, "add", "-A")
    assert user_git(ws, "commit", "-qm", "initial").returncode == 0


def user_works(ws: Path, fired: Path, *where: str) -> None:
    """The user's `git status`, `git diff` and `git commit` in the workspace (and `where`)."""
    (ws / "readme.md").write_text("edited by the user\n")
    for sub in ("", *where):
        cwd = ws / sub
        if cwd.is_dir() and not cwd.is_symlink():
            user_git(cwd, "status")
            user_git(cwd, "diff")
            user_git(cwd, "add", "-A")
            user_git(cwd, "commit", "-qm", "user commit")
            user_git(cwd, "status")
    assert sorted(p.name for p in fired.iterdir()) == [], "the user's git ran planted code"


def history(ws: Path) -> str:
    return user_git(ws, "log", "--format=%s").stdout


def test_commondir_to_a_planted_folder(box: Box, fired: Path) -> None:
    user_repo(box.workspace)
    out = box.run(
        plant(fired) + "mkdir p && cp -r .git/objects .git/refs p/ && plant p && echo ../p > .git/commondir"
    )
    user_works(box.workspace, fired)
    assert not (box.workspace / ".git/commondir").exists()
    assert "commondir" in out.output or box.name == "bwrap"
    assert "initial" in history(box.workspace)


def test_git_moved_away_and_a_gitdir_file_in_its_place(box: Box, fired: Path) -> None:
    user_repo(box.workspace)
    box.run(plant(fired) + "mv .git .git2 && plant .git2 && printf 'gitdir: .git2\\n' > .git")
    user_works(box.workspace, fired, ".git2")
    assert (box.workspace / ".git").is_dir()
    assert "initial" in history(box.workspace)


def test_git_copied_removed_and_replaced_by_a_gitdir_file(box: Box, fired: Path) -> None:
    user_repo(box.workspace)
    out = box.run(
        plant(fired) + "cp -r .git saved && rm -rf .git; plant saved; printf 'gitdir: saved\\n' > .git"
    )
    user_works(box.workspace, fired, "saved")
    assert not (box.workspace / ".git").is_file()
    assert "Traceback" not in out.output


def test_git_replaced_by_a_symlink_to_a_planted_repository(box: Box, fired: Path) -> None:
    user_repo(box.workspace)
    box.run(
        plant(fired) + "cp -r .git p && plant p && mv .git old; ln -s p .git || (rm -rf .git; ln -s p .git)"
    )
    user_works(box.workspace, fired, "p", "old")
    assert not (box.workspace / ".git").is_symlink()


def test_a_repository_the_model_creates_is_made_safe(box: Box, fired: Path) -> None:
    (box.workspace / "app.py").write_text("print(1)\n")
    out = box.run(
        plant(fired)
        + "git init -q && git add -A && git -c user.name=m -c user.email=m@x commit -qm model-commit"
        " && plant .git && git config remote.origin.url https://example.com/x.git"
        f" && git config core.fsmonitor 'touch {fired}/fsmonitor' && git config core.hooksPath .git/hooks"
        " && echo done"
    )
    user_works(box.workspace, fired)
    assert "done" in out.output and "unsafe settings removed" in out.output
    config = (box.workspace / ".git/config").read_text()
    assert "fsmonitor" not in config and "hooksPath" not in config and "https://example.com/x.git" in config
    assert all(p.name.endswith(".sample") for p in (box.workspace / ".git/hooks").iterdir())
    assert "model-commit" in history(box.workspace)  # the model's work is kept
    assert history(box.workspace).splitlines()[0] == "user commit"


def test_config_worktree_with_the_extension(box: Box, fired: Path) -> None:
    user_repo(box.workspace)
    box.run(
        f"git config extensions.worktreeConfig true; printf '[core]\\n\\tfsmonitor = touch {fired}/fsmonitor\\n'"
        " > .git/config.worktree; git config --worktree core.hooksPath /tmp"
    )
    user_works(box.workspace, fired)
    assert not (box.workspace / ".git/config.worktree").exists()
    assert "worktreeConfig" not in (box.workspace / ".git/config").read_text()


def test_linked_worktree_and_planted_worktrees_folder(box: Box, fired: Path) -> None:
    user_repo(box.workspace)
    box.run(
        plant(fired) + "git -c user.name=m -c user.email=m@x worktree add -q wt; plant p; "
        "mkdir -p .git/worktrees/wt && echo ../../../p > .git/worktrees/wt/commondir; "
        "printf 'gitdir: %s/.git/worktrees/wt\\n' \"$PWD\" > wt/.git"
    )
    user_works(box.workspace, fired, "wt")
    assert not (box.workspace / ".git/worktrees").exists()
    assert not (box.workspace / "wt/.git").exists()


def test_submodule_repository_settings_and_hooks(box: Box, fired: Path, tmp_path: Path) -> None:
    lib = tmp_path / "lib"
    lib.mkdir()
    user_repo(lib)
    user_repo(box.workspace)
    add = ["-c", "protocol.file.allow=always", "submodule", "add", "-q", str(lib), "lib"]
    assert user_git(box.workspace, *add).returncode == 0
    user_git(box.workspace, "commit", "-qm", "add lib")
    box.run(
        plant(fired) + f"git -C lib config core.fsmonitor 'touch {fired}/fsmonitor'; plant .git/modules/lib; "
        "mkdir -p .git/modules/other && cp -r .git/modules/lib/* .git/modules/other/; plant .git/modules/other; "
        "printf 'gitdir: ../.git/modules/other\\n' > lib/.git"
    )
    user_works(box.workspace, fired, "lib")
    assert "fsmonitor" not in (box.workspace / ".git/modules/lib/config").read_text()
    assert (box.workspace / "lib/.git").read_text() == "gitdir: ../.git/modules/lib\n"
    assert not (box.workspace / ".git/modules/lib/hooks/pre-commit").exists()


def test_info_attributes_and_a_driver_in_config(box: Box, fired: Path) -> None:
    user_repo(box.workspace)
    box.run(
        "mkdir -p .git/info; printf '* filter=evil diff=evil\\n' > .git/info/attributes; "
        f"git config filter.evil.clean 'touch {fired}/filter'; git config diff.evil.command 'touch {fired}/diff'"
    )
    user_works(box.workspace, fired)
    assert not (box.workspace / ".git/info/attributes").exists()


def test_hooks_path_by_git_config_and_a_hook_in_the_tree(box: Box, fired: Path) -> None:
    user_repo(box.workspace)
    box.run(
        plant(fired)
        + "plant myhooks; git config core.hooksPath myhooks; git config include.path ../myhooks/config"
    )
    user_works(box.workspace, fired)
    assert "myhooks" not in (box.workspace / ".git/config").read_text()


def test_nested_repositories_at_any_depth(box: Box, fired: Path) -> None:
    user_repo(box.workspace)
    old = box.workspace / "vendor/old"
    old.mkdir(parents=True)
    user_repo(old)
    out = box.run(
        plant(fired) + "git init -q a/b/c && (cd a/b/c && git -c user.name=m -c user.email=m@x commit -q "
        "--allow-empty -m x) && plant a/b/c/.git && git add a/b/c; plant vendor/old/.git; "
        f"git -C vendor/old config core.fsmonitor 'touch {fired}/fsmonitor'; echo planted"
    )
    user_works(box.workspace, fired, "a/b/c", "vendor/old")
    assert "planted" in out.output or box.name == "bwrap"
    assert "fsmonitor" not in (box.workspace / "a/b/c/.git/config").read_text()
    assert "fsmonitor" not in (old / ".git/config").read_text()


def test_alternates_and_a_gitdir_file_in_a_subfolder(box: Box, fired: Path) -> None:
    user_repo(box.workspace)
    box.run(
        plant(fired) + "echo /usr > .git/objects/info/alternates; mkdir -p sub p/objects p/refs; plant p; "
        "echo 'ref: refs/heads/main' > p/HEAD; printf 'gitdir: ../p\\n' > sub/.git"
    )
    user_works(box.workspace, fired, "sub", "p")
    assert not (box.workspace / ".git/objects/info/alternates").exists()
    assert not (box.workspace / "sub/.git").exists()
    assert "fsmonitor" not in (box.workspace / "p/config").read_text()


def test_the_workspace_made_into_a_bare_repository(box: Box, fired: Path) -> None:
    (box.workspace / "notes.txt").write_text("no repository here\n")
    box.run(plant(fired) + "mkdir -p objects refs && echo 'ref: refs/heads/main' > HEAD && plant .")
    user_works(box.workspace, fired)
    assert "fsmonitor" not in (box.workspace / "config").read_text()
    assert not any((box.workspace / "hooks").iterdir())
    user_git(box.workspace, "log")


def test_planting_from_a_background_job(box: Box, fired: Path) -> None:
    user_repo(box.workspace)

    async def scenario() -> str:
        runner = box.choice.runner
        spec = ExecSpec(
            plant(fired) + "sleep 1; mkdir p && cp -r .git/refs .git/objects p/ && plant p && "
            "echo ../p > .git/commondir; echo planted",
            box.workspace,
            timeout=30,
        )
        job = await runner.start(spec)
        for _ in range(100):
            if not runner.jobs()[0].running:
                break
            await asyncio.sleep(0.1)
        await asyncio.sleep(0.3)
        return runner.read(job.id)

    out = box.call(scenario())
    assert "planted" in out and "changes to control files were undone" in out
    assert not (box.workspace / ".git/commondir").exists()
    user_works(box.workspace, fired)


def test_a_foreground_command_undoes_what_a_running_job_planted(box: Box, fired: Path) -> None:
    user_repo(box.workspace)

    async def scenario() -> str:
        runner = box.choice.runner
        spec = ExecSpec("echo ../p > .git/commondir; sleep 30", box.workspace, timeout=60)
        job = await runner.start(spec)
        for _ in range(50):
            if (box.workspace / ".git/commondir").exists():
                break
            await asyncio.sleep(0.1)
        result = await runner.run(ExecSpec("true", box.workspace, timeout=10))
        await runner.stop(job.id)
        return result.output

    out = box.call(scenario())
    assert ".git/commondir" in out
    assert not (box.workspace / ".git/commondir").exists()
    user_works(box.workspace, fired)


def test_git_tools_still_work(box: Box, fired: Path) -> None:
    user_repo(box.workspace)
    ctx = RunContext(paths=SafePaths(box.workspace), sandbox=box.choice.runner)
    (box.workspace / "new.py").write_text("x = 1\n")
    box.call(git_add(GitAddInput(paths=["new.py"]), ctx))
    out = box.call(git_commit(GitCommitInput(message="model adds new.py"), ctx))
    assert "undone" not in out
    assert "model adds new.py" in box.call(git_log(GitLogInput(), ctx))
    assert "Nothing to report" in box.call(git_status(GitStatusInput(), ctx)) or "##" in box.call(
        git_status(GitStatusInput(), ctx)
    )
    assert "model adds new.py" in history(box.workspace)
    user_works(box.workspace, fired)


def test_a_repository_planted_deeper_than_the_walk_holds_descriptors(box: Box, fired: Path) -> None:
    user_repo(box.workspace)
    deep = "/".join(["d"] * 150) + "/r"
    box.run(
        plant(fired) + f"git init -q {deep} && git -C {deep} -c user.name=m -c user.email=m@x commit -q "
        f"--allow-empty -m x && plant {deep}/.git && git add {deep}; echo planted",
        timeout=60,
    )
    user_works(box.workspace, fired, deep)
    assert "fsmonitor" not in (box.workspace / deep / ".git/config").read_text()


def test_hooks_and_includes_the_users_own_config_points_at_in_the_tree(box: Box, fired: Path) -> None:
    user_repo(box.workspace)
    (box.workspace / ".githooks").mkdir()
    (box.workspace / ".githooks/pre-commit").write_text("#!/bin/sh\nexit 0\n")
    (box.workspace / ".githooks/pre-commit").chmod(0o755)
    (box.workspace / "team.gitconfig").write_text("[core]\n\tautocrlf = false\n")
    user_git(box.workspace, "config", "core.hooksPath", ".githooks")
    user_git(box.workspace, "config", "include.path", "../team.gitconfig")
    out = box.run(
        plant(fired) + "plant .githooks; "
        f"printf '[core]\\n\\tfsmonitor = touch {fired}/fsmonitor\\n' >> team.gitconfig; echo tried"
    )
    user_works(box.workspace, fired)
    assert "tried" in out.output
    assert (box.workspace / ".githooks/pre-commit").read_text() == "#!/bin/sh\nexit 0\n"
    assert not (box.workspace / ".githooks/commit-msg").exists()
    assert "fsmonitor" not in (box.workspace / "team.gitconfig").read_text()


def test_no_descriptor_behind_a_bind_reaches_the_command(box: Box, fired: Path) -> None:
    if box.name != "bwrap":
        pytest.skip("only bwrap binds the repositories by descriptor")
    user_repo(box.workspace)
    out = box.run(
        "ls /proc/$$/fd; for n in 3 4 5 6 7 8 9; do echo x >> /proc/$$/fd/$n/config; done 2>/dev/null"
    )
    assert sorted(out.output.split()[:3]) == ["0", "1", "2"]
    assert "x" not in (box.workspace / ".git/config").read_text().split()
