from __future__ import annotations

import atexit
import os
import shutil
import signal
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

import forkserver
from hearth.testing.server import ScriptedServer
from support import CliResult, HearthCli, clean_env
from websupport import Web, running_web

# No wall clock in property tests: under a loaded machine one parser case took 424 ms against
# hypothesis's default 200 ms deadline, and the run failed on timing alone.
settings.register_profile("hearth", deadline=None)
settings.load_profile("hearth")

# Tests never read or write the real user's config and data folders (~/.config/hearth,
# ~/.local/share/hearth): set before any test runs, in the environment, so every subprocess a
# test starts inherits it too. A test that wants its own folders still sets them (clean_env, home).
USER_DIRS = Path(tempfile.mkdtemp(prefix="hearth-tests-user-"))
os.environ["XDG_CONFIG_HOME"] = str(USER_DIRS / "config")
os.environ["XDG_DATA_HOME"] = str(USER_DIRS / "data")
atexit.register(shutil.rmtree, USER_DIRS, True)


@pytest.fixture(autouse=True)
def _default_signal_handling() -> Iterator[None]:
    """Every test starts and ends with SIGINT and SIGTERM handled the default way in this process:
    a test that runs Hearth in-process may leave them ignored, and an ignored signal is inherited
    by every program a later test starts (a Ctrl-C test's `hearth` then never sees its Ctrl-C)."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    yield
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


@pytest.fixture
def user_dirs() -> Path:
    """The temporary folder that stands in for the user's config and data folders in this run."""
    return USER_DIRS


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    ws.mkdir()
    return ws


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """A private HOME so no user config or data leaks into a test."""
    h = tmp_path / "home"
    h.mkdir()
    return h


@pytest.fixture
def server() -> Iterator[ScriptedServer]:
    srv = ScriptedServer().start()
    yield srv
    srv.stop()


@pytest.fixture
def hearth(home: Path, tmp_path: Path, request: pytest.FixtureRequest) -> HearthCli:
    """Run the real `hearth` command line in a subprocess.

    Reflection after a run is off (HEARTH_REFLECT=false) unless the test is marked `reflects`
    or sets HEARTH_REFLECT itself: a run that did work otherwise starts a Python process of its
    own to reflect, and most tests do not look at what it stores (a second of processor each,
    over a hundred runs)."""
    quiet = {} if request.node.get_closest_marker("reflects") else {"HEARTH_REFLECT": "false"}

    def run(
        *args: str, env: dict[str, str] | None = None, timeout: float = 60, cwd: Path | None = None
    ) -> CliResult:
        full = clean_env(home, **{**quiet, **(env or {})})
        proc = forkserver.run(args, env=full, cwd=cwd or tmp_path, timeout=timeout)
        return CliResult(proc.returncode, proc.stdout, proc.stderr)

    return run


@pytest.fixture
def web(
    workspace: Path, home: Path, server: ScriptedServer, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Web]:
    """A real `hearth web` app (uvicorn on 127.0.0.1) with the scripted server behind it."""
    with running_web(workspace, home, server, monkeypatch, tool_mode="native") as w:
        yield w


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """At the end of the run: which system parts were missing (their tests skipped) and how to get them."""
    from requirements import missing_from

    reasons = []
    for report in terminalreporter.stats.get("skipped", []):
        longrepr = getattr(report, "longrepr", None)
        if isinstance(longrepr, tuple) and len(longrepr) == 3:
            reasons.append(str(longrepr[2]))
    missing = missing_from(reasons)
    if not missing:
        return
    terminalreporter.section("system parts missing: their tests were skipped")
    for name, how in sorted(missing.items()):
        terminalreporter.write_line(f"  {name:<9} {how}")
    terminalreporter.write_line("  (.ci/run installs them all; HEARTH_TEST_REQUIRE=all makes them required)")
