"""The system parts some tests need (bubblewrap, Chromium, PostgreSQL, Redis, node, gcc, git).

A test that needs a part calls `need("bwrap")` (or `need_module("bwrap")` at the top of a module):
when the part is missing the test is skipped with a reason that names the part and the Debian
packages that bring it, unless HEARTH_TEST_REQUIRE asks for it (`all`, or a comma list such as
`bwrap,chromium`), as .ci/run does: then the test fails instead. conftest's terminal summary reads
those reasons back and lists, at the end of the run, what was missing and how to install it.
"""

from __future__ import annotations

import glob
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from _pytest.mark import ParameterSet

from hearth.sandbox.choice import BACKENDS
from hearth.sandbox.limits import ResourceLimits
from hearth.testing import postgres, redis_server

ROOT = Path(__file__).resolve().parents[1]
# The MCP tests' npm servers (.ci/run installs them under /opt: bwrap hides /tmp, /root and /home)
NODE_PREFIX = Path(os.environ.get("HEARTH_TEST_NODE_PREFIX") or ROOT / ".ci" / "node")
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
# Every skip for a missing part starts with this, so the summary can find them among the reports.
MARK = "missing system part"


@dataclass(frozen=True)
class Part:
    what: str
    install: str  # how to get it on Debian
    present: Callable[[], bool]


def _postgres() -> bool:
    """initdb and postgres on PATH or in Debian's /usr/lib/postgresql/N/bin, and runnable."""
    for name in ("initdb", "postgres"):
        found = [shutil.which(name), *sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))]
        if not any(p and Path(p).is_file() and os.access(p, os.X_OK) for p in found):
            return False
    return postgres.available()


def _npm_servers() -> bool:
    found = NODE_PREFIX / "node_modules" / "@modelcontextprotocol"
    return bool(shutil.which("node")) and (found / "server-filesystem").exists()


PARTS: dict[str, Part] = {
    "bwrap": Part("bubblewrap (the bwrap sandbox)", "apt-get install bubblewrap", lambda: bool(shutil.which("bwrap"))),
    "chromium": Part("Chromium (the browser tests)", "apt-get install chromium", lambda: Path(CHROMIUM).is_file() and os.access(CHROMIUM, os.X_OK)),
    "postgres": Part("PostgreSQL (the distributed queue)", "apt-get install postgresql", _postgres),
    "redis": Part("Redis (the queue engines benchmark)", "apt-get install redis-server", redis_server.available),
    "node": Part(
        "node and the npm MCP servers",
        "apt-get install nodejs npm && npm install --prefix .ci/node "
        "@modelcontextprotocol/server-filesystem @modelcontextprotocol/server-everything",
        _npm_servers,
    ),
    "gcc": Part("gcc (builds the other-ABI seccomp probe)", "apt-get install gcc libc6-dev", lambda: bool(shutil.which("gcc"))),
    "git": Part("git", "apt-get install git", lambda: bool(shutil.which("git"))),
}  # fmt: skip


def required(name: str) -> bool:
    """Whether HEARTH_TEST_REQUIRE asks for this part (then a test needing it fails when it is missing)."""
    asked = {p.strip() for p in os.environ.get("HEARTH_TEST_REQUIRE", "").split(",") if p.strip()}
    return "all" in asked or name in asked


def have(name: str) -> bool:
    return PARTS[name].present()


def reason(name: str) -> str:
    part = PARTS[name]
    return f"{MARK} {name}: {part.what}, not installed here ({part.install})"


def need(name: str) -> None:
    """Skip the calling test when the part is missing (fail instead when HEARTH_TEST_REQUIRE asks for it)."""
    if have(name):
        return
    if required(name):
        pytest.fail(f"{reason(name)}; HEARTH_TEST_REQUIRE asks for it")
    pytest.skip(reason(name))


def need_module(name: str) -> None:
    """`need` at a module's top: every test of the module is skipped."""
    if have(name):
        return
    if required(name):
        raise RuntimeError(f"{reason(name)}; HEARTH_TEST_REQUIRE asks for it")
    pytest.skip(reason(name), allow_module_level=True)


def missing_from(reasons: list[str]) -> dict[str, str]:
    """The parts named in skip reasons, with how to install each (for the end-of-run summary)."""
    found: dict[str, str] = {}
    for text in reasons:
        at = text.find(MARK + " ")
        if at < 0:
            continue
        name = text[at + len(MARK) + 1 :].split(":", 1)[0]
        if name in PARTS:
            found[name] = f"{PARTS[name].what}: {PARTS[name].install}"
    return found


def backend_params(names: tuple[str, ...], limits: ResourceLimits | None = None) -> list[ParameterSet]:
    """One parameter per sandbox backend, skipped with the reason when it cannot run here (bwrap
    missing counts as a missing part: it fails instead when HEARTH_TEST_REQUIRE asks for it)."""
    params = []
    for name in names:
        why = BACKENDS[name](Path("/tmp"), limits or ResourceLimits()).available()
        if name in PARTS and not have(name):
            why = None if required(name) else reason(name)
        params.append(pytest.param(name, marks=pytest.mark.skipif(bool(why), reason=str(why))))
    return params


def isolating_backend() -> str:
    """An isolating sandbox backend that runs here: bwrap, else Landlock (skip when neither does)."""
    if have("bwrap"):
        return "bwrap"
    if required("bwrap"):
        pytest.fail(f"{reason('bwrap')}; HEARTH_TEST_REQUIRE asks for it")
    if BACKENDS["landlock"](Path("/tmp"), ResourceLimits()).available() is None:
        return "landlock"
    pytest.skip(f"{reason('bwrap')}, and Landlock cannot be used here either")


def isolating_backend_here() -> str | None:
    """The isolating backend `auto` picks on this machine (bwrap, else landlock), without skipping."""
    if have("bwrap"):
        return "bwrap"
    return "landlock" if BACKENDS["landlock"](Path("/tmp"), ResourceLimits()).available() is None else None
