"""Permission decisions and rule matches are made on the path the tool opens.

Every call goes through the real Dispatcher, the real policy, the real file and git tools and
the real SafePaths; a canary folder outside the workspace must never change.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import subprocess
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hearth.agent.dispatch import Dispatcher
from hearth.agent.policy import Approval, Decision, PermissionMode, PermissionPolicy
from hearth.core.events import PermissionDecided, ToolResult
from hearth.core.types import ToolCall
from hearth.sandbox.paths import SafePaths
from hearth.tools.base import RunContext, Tool
from hearth.tools.builtin.files import file_tools
from hearth.tools.builtin.git import git_tools
from hearth.tools.toolset import Toolset

TOOLS = Toolset([*file_tools(), *git_tools()])
CONTROL = (".mcp.json", ".vscode/tasks.json", ".claude/settings.json", ".cursor/mcp.json")


@dataclass
class Outcome:
    ok: bool
    output: str
    decision: Decision  # as the audit trail recorded it
    subject: str
    asked: list[dict[str, Any]]  # the arguments the approver was shown


def dispatch(
    ws: Path, policy: PermissionPolicy, name: str, *, approve: bool | None = None, **arguments: Any
) -> Outcome:
    asked: list[dict[str, Any]] = []

    async def approver(tool: Tool, args: dict[str, Any], reason: str) -> Approval:
        asked.append(args)
        return Approval(allowed=bool(approve))

    d = Dispatcher(TOOLS, policy, RunContext(paths=SafePaths(ws)), approver if approve is not None else None)
    events = asyncio.run(d.dispatch(ToolCall(id="c1", name=name, arguments=arguments)))
    result = next(e for e in events if isinstance(e, ToolResult))
    audit = [e for e in events if isinstance(e, PermissionDecided)]
    assert len(audit) == 1, events
    a = audit[0]
    decision = (
        Decision.ALLOW
        if a.allowed and a.by == "policy"
        else Decision.DENY
        if a.by == "policy"
        else Decision.ASK
    )
    return Outcome(result.ok, result.output, decision, a.subject, asked)


def policy(
    mode: str = "auto", allow: tuple[str, ...] = (), ask: tuple[str, ...] = (), deny: tuple[str, ...] = ()
) -> PermissionPolicy:
    return PermissionPolicy.from_settings(PermissionMode(mode), allow, ask, deny)


def digest(folder: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(folder.rglob("*")):
        h.update(str(p.relative_to(folder)).encode())
        if p.is_file() and not p.is_symlink():
            h.update(p.read_bytes())
    return h.hexdigest()


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    w = tmp_path / "proj"
    (w / "src").mkdir(parents=True)
    (w / "docs").mkdir()
    return w


@pytest.fixture
def canary(tmp_path: Path) -> Any:
    c = tmp_path / "canary"
    c.mkdir()
    (c / "keep.txt").write_text("canary")
    before = digest(c)
    yield c
    assert digest(c) == before, "the canary folder outside the workspace changed"


def spellings(ws: Path, rel: str) -> list[str]:
    """Ways to write `rel` that are not `rel`: absolute, `x/../`, `.//`, `./`, doubled slashes."""
    head, _, tail = rel.rpartition("/")
    return [
        str(ws / rel),
        f"{ws}//{rel}",
        f"src/../{rel}",
        f"docs/./../{rel}",
        f".//{rel}",
        f"./{rel}",
        f"{head}//{tail}" if head else f"./././{rel}",
        f"{head}/./{tail}" if head else f"src/../docs/../{rel}",
        f"nowhere/../{rel}",
    ]


@pytest.mark.parametrize("rel", CONTROL)
def test_control_files_ask_in_every_spelling(ws: Path, rel: str, canary: Path) -> None:
    p = policy("auto", allow=("write", "write(src/**)"))
    for spelling in spellings(ws, rel):
        out = dispatch(ws, p, "write", path=spelling, content="{}")
        assert out.decision is Decision.ASK and not out.ok, (spelling, out.output)
        assert "control file" in out.output
        assert not (ws / rel).exists(), spelling


@pytest.mark.parametrize("rel", CONTROL)
def test_control_files_ask_through_symlinked_aliases(ws: Path, rel: str, canary: Path) -> None:
    top = rel.split("/")[0]
    if "/" in rel:
        (ws / top).mkdir()
        (ws / "cfg").symlink_to(top)  # a folder alias
        aliases = [f"cfg/{rel.split('/', 1)[1]}", f"src/../cfg/{rel.split('/', 1)[1]}"]
    else:
        aliases = []
    (ws / "docs" / "alias.json").symlink_to(f"../{rel}")  # a file alias, dangling until created
    (ws / "up").symlink_to(".")  # a loop back to the root
    aliases += ["docs/alias.json", f"up/{rel}", f"up/up/./{rel}", str(ws / "up" / rel)]
    p = policy("auto", allow=("write", "edit", "mkdir"))
    for alias in aliases:
        out = dispatch(ws, p, "write", path=alias, content="{}")
        assert out.decision is Decision.ASK and not out.ok, (alias, out.output)
        assert not (ws / rel).exists(), alias
        out = dispatch(ws, p, "edit", path=alias, old="", new="{}")
        assert out.decision is Decision.ASK and not (ws / rel).exists(), alias


def test_the_approver_sees_and_a_remembered_rule_names_the_real_path(ws: Path) -> None:
    (ws / "cfg").symlink_to(".vscode")
    (ws / ".vscode").mkdir()
    out = dispatch(ws, policy("auto"), "write", approve=True, path="src/../cfg//tasks.json", content="{}")
    assert out.asked == [{"path": ".vscode/tasks.json", "content": "{}"}]
    assert out.subject == ".vscode/tasks.json"  # the audit trail names what was decided on
    assert out.ok and (ws / ".vscode/tasks.json").read_text() == "{}"
    assert "Created .vscode/tasks.json" in out.output


def test_a_folder_rule_does_not_match_a_path_that_leaves_the_folder(ws: Path, canary: Path) -> None:
    (ws / "src" / "link").symlink_to("../docs")
    p = policy("manual", allow=("write(src/**)",))
    assert dispatch(ws, p, "write", path="src/ok.py", content="x").decision is Decision.ALLOW
    for path in ("src/../.vscode/tasks.json", "src/../docs/a.md", "src/link/a.md", "./src/../../proj/docs/a"):
        out = dispatch(ws, p, "write", path=path, content="x")
        assert out.decision is Decision.ASK and not out.ok, path
    assert not (ws / "docs" / "a.md").exists()
    assert not (ws / ".vscode").exists()


def test_a_rule_written_with_dot_slash_still_matches(ws: Path) -> None:
    p = policy("manual", allow=("write(./src/**)",))
    assert dispatch(ws, p, "write", path=str(ws / "src" / "x.py"), content="x").decision is Decision.ALLOW


def test_deny_rules_hold_for_every_spelling_and_alias(ws: Path, canary: Path) -> None:
    (ws / "private").mkdir()
    (ws / "private" / "plan.md").write_text("keep")
    (ws / "pv").symlink_to("private")
    (ws / "docs" / "p.md").symlink_to("../private/plan.md")
    p = policy("auto", deny=("write(private/**)", "read(private/**)", "edit(private/**)"))
    calls: list[tuple[str, dict[str, Any]]] = [
        ("write", {"content": "x"}),
        ("read", {}),
        ("edit", {"old": "keep", "new": "x"}),
    ]
    for path in [*spellings(ws, "private/plan.md"), "pv/plan.md", "docs/p.md", "pv/../private/plan.md"]:
        for tool, args in calls:
            out = dispatch(ws, p, tool, path=path, **args)
            assert out.decision is Decision.DENY and not out.ok, (tool, path, out.output)
    assert (ws / "private" / "plan.md").read_text() == "keep"


def test_paths_that_do_not_resolve_are_denied_with_the_tools_reason(
    ws: Path, tmp_path: Path, canary: Path
) -> None:
    (ws / "esc").symlink_to(canary)
    p = policy("auto", allow=("write", "read", "mkdir"))
    calls: list[tuple[str, dict[str, Any]]] = [("write", {"content": "x"}), ("mkdir", {}), ("read", {})]
    for path in ("../canary/x", str(canary / "x"), "esc/x", "src/../../canary/x", f"{ws}/../canary/x"):
        for tool, args in calls:
            out = dispatch(ws, p, tool, path=path, **args)
            assert out.decision is Decision.DENY and "outside the workspace" in out.output, (tool, path)
    out = dispatch(ws, p, "write", path="a\x00b", content="x")
    assert out.decision is Decision.DENY and "NUL" in out.output


def test_of_several_paths_the_strictest_decision_wins(ws: Path, canary: Path) -> None:
    subprocess.run(["git", "init", "-q", str(ws)], check=True)
    (ws / "src" / "a.py").write_text("a")
    (ws / "private").mkdir()
    (ws / "private" / "k.txt").write_text("k")
    p = policy("auto", deny=("git_add(private/**)",), ask=("git_add(docs/**)",))
    assert dispatch(ws, p, "git_add", paths=["src/a.py", "src/../private/k.txt"]).decision is Decision.DENY
    assert dispatch(ws, p, "git_add", paths=["./src/a.py", "docs//x"]).decision is Decision.ASK
    assert dispatch(ws, p, "git_add", paths=["src/a.py", "../canary/keep.txt"]).decision is Decision.DENY
    assert dispatch(ws, p, "git_add", paths=["src/a.py"]).decision is Decision.ALLOW


def test_a_hardlink_to_a_control_file_is_not_written(ws: Path) -> None:
    (ws / ".mcp.json").write_text("{}")
    os.link(ws / ".mcp.json", ws / "src" / "innocent.json")
    out = dispatch(ws, policy("auto"), "write", path="src/innocent.json", content='{"servers": 1}')
    assert not out.ok and "hardlink to the control file '.mcp.json'" in out.output
    out = dispatch(ws, policy("auto"), "edit", path="src/innocent.json", old="{}", new="{1}")
    assert not out.ok and (ws / ".mcp.json").read_text() == "{}"


def test_a_symlink_swapped_in_after_the_decision_is_not_followed(ws: Path, canary: Path) -> None:
    """A background process flips `a.json` between a plain file and a link to `.mcp.json` (and
    `d` between a folder and a link to `.vscode`) while writes the policy allows run."""
    (ws / ".vscode").mkdir()
    stop = threading.Event()
    held = [0]

    def flip() -> None:
        while not stop.is_set():
            for make in (
                lambda p: p.write_text("plain"),
                lambda p: p.symlink_to(".mcp.json"),
            ):
                tmp = ws / "a.tmp"
                try:
                    tmp.unlink(missing_ok=True)
                    make(tmp)
                    os.replace(tmp, ws / "a.json")
                except OSError:
                    pass
            held[0] += 1
            for step in (
                lambda: (ws / "d").rename(ws / f"held{held[0]}"),  # the real folder goes...
                lambda: (ws / "d").symlink_to(".vscode"),  # ...a link takes its place...
                lambda: (ws / "d").unlink(),
                lambda: (ws / "d").mkdir(),  # ...and a real folder comes back
            ):
                with contextlib.suppress(OSError):
                    step()

    (ws / "d").mkdir()
    thread = threading.Thread(target=flip)
    thread.start()
    p = policy("auto")
    written = 0
    try:
        for i in range(1500):
            for path in ("a.json", "d/tasks.json"):
                out = dispatch(ws, p, "write", path=path, content=f"{i}")
                written += out.ok
                assert not (ws / ".mcp.json").exists(), out
                assert not (ws / ".vscode" / "tasks.json").exists(), out
    finally:
        stop.set()
        thread.join()
    assert written > 0


# -- the property: a decision on a spelling is the decision on the path the tool opened ----------

PARTS = ["", ".", "..", "src", "docs", "secret", ".vscode", "l1", "l2", "new"]
TARGETS = ["src", "docs", "secret", ".vscode", ".", "src/sub", "../canary", "missing"]
NAMES = ["a.py", "tasks.json", ".mcp.json", "b.md"]
POLICIES: dict[str, dict[str, tuple[str, ...]]] = {
    "auto": dict(ask=("write(docs/**)", "mkdir(docs/**)"), deny=("write(secret/**)", "mkdir(secret/**)")),
    "manual": dict(allow=("write(src/**)", "mkdir(src/**)"), deny=("write(secret/**)",)),
    "normal": dict(ask=("write(*.py)",), deny=("mkdir(**/new)",)),
}


def _oracle(ws: Path, spelling: str) -> str | None:
    """The workspace-relative real path of `spelling`, computed without Hearth (None: outside)."""
    real = os.path.realpath(os.path.join(ws, spelling))
    root = os.path.realpath(ws)
    if real != root and not real.startswith(root + os.sep):
        return None
    return os.path.relpath(real, root)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    parts=st.lists(st.sampled_from(PARTS), max_size=5),
    name=st.sampled_from(NAMES),
    absolute=st.booleans(),
    links=st.tuples(st.sampled_from(TARGETS), st.sampled_from(TARGETS)),
    mode=st.sampled_from(sorted(POLICIES)),
    tool=st.sampled_from(["write", "mkdir"]),
)
def test_property_the_decision_is_the_decision_on_the_canonical_path(
    tmp_path_factory: pytest.TempPathFactory,
    parts: list[str],
    name: str,
    absolute: bool,
    links: tuple[str, str],
    mode: str,
    tool: str,
) -> None:
    base = tmp_path_factory.mktemp("prop")
    ws, canary = base / "proj", base / "canary"
    for folder in ("src/sub", "docs", "secret", ".vscode"):
        (ws / folder).mkdir(parents=True)
    canary.mkdir()
    (ws / "l1").symlink_to(links[0])
    (ws / "l2").symlink_to(links[1])
    spelling = "/".join([*parts, name])
    if absolute:
        spelling = f"{ws}/{spelling}"
    p = policy(mode, **POLICIES[mode])
    args: dict[str, Any] = {"content": "x"} if tool == "write" else {}
    out = dispatch(ws, p, tool, path=spelling, **args)

    canonical = _oracle(ws, spelling)
    if canonical is None:
        assert out.decision is Decision.DENY and not out.ok
    else:
        t = TOOLS.get(tool)
        assert t is not None
        expected = p.decide(t, {"path": canonical, **args}).decision
        assert out.decision is expected, (spelling, canonical, out.output)
        if out.ok:  # what was made is exactly the canonical path
            made = ws / canonical
            assert made.is_file() if tool == "write" else made.is_dir(), (spelling, canonical)
    assert list(canary.iterdir()) == []
