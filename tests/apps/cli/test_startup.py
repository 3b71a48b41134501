"""What `hearth run` pays for before its first request: only what a run uses is imported, and
the garbage collector, off while the command imports, is on again for the session."""

from __future__ import annotations

import gc
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hearth.apps.cli import startup
from hearth.testing.script import ScriptedReply
from hearth.testing.server import ScriptedServer
from support import clean_env

# Imported by nothing a plain `hearth run` does: grammar-mode checks (jsonschema and what it
# brings), the REPL's Markdown (rich.markdown, pygments), httpx's command-line client (click).
NOT_FOR_A_RUN = ("jsonschema", "referencing", "rpds", "rich.markdown", "rich.syntax", "pygments", "click")


def test_hearth_run_imports_nothing_it_does_not_use(home: Path, tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    with ScriptedServer([ScriptedReply(text="Hi. TASK_COMPLETE")] * 2) as server:
        done = subprocess.run(
            [sys.executable, "-X", "importtime", "-m", "hearth", "run", "hi", "-w", str(ws), "--json"],
            env=clean_env(home, HEARTH_LLM_URL=server.url, HEARTH_TOOL_MODE="native"),
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert done.returncode == 0, done.stderr[-2000:]
    imported = {
        line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")
    }
    assert "hearth.agent.loop" in imported  # the list is the run's own
    unwanted = sorted(m for m in imported if m.split(".")[0] in NOT_FOR_A_RUN or m in NOT_FOR_A_RUN)
    assert unwanted == []


@pytest.fixture
def collector() -> object:
    was = gc.isenabled()
    yield
    gc.enable() if was else gc.disable()
    gc.unfreeze()


def test_the_collector_is_off_while_starting_and_on_once_started(collector: object) -> None:
    startup.starting()
    assert not gc.isenabled()
    frozen = gc.get_freeze_count()
    startup.started()
    assert gc.isenabled() and gc.get_freeze_count() > frozen
    startup.started()  # again: nothing changes
    assert gc.isenabled()


def test_a_command_that_never_says_it_started_gets_the_collector_back(
    collector: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(startup, "STARTUP_SECONDS", 0.05)
    startup.starting()
    assert not gc.isenabled()
    deadline = time.monotonic() + 10
    while not gc.isenabled() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert gc.isenabled()


def test_the_sandbox_self_test_runs_ahead_and_its_result_is_the_one_used(tmp_path: Path) -> None:
    """`hearth run` starts the self-test in a thread before it imports the rest; choosing the
    sandbox then takes that result instead of testing again."""
    from requirements import isolating_backend_here

    expected = isolating_backend_here()
    if expected is None:
        pytest.skip("no isolating sandbox backend can run here")
    probe = (
        "import asyncio, sys\n"
        "from pathlib import Path\n"
        "from hearth.sandbox import choice\n"
        "choice.test_ahead('auto')\n"
        "assert choice._ahead.wait(120)\n"
        "tested = dict(choice._SELF_TEST_CACHE)\n"
        "runs = []\n"
        "real = choice.SandboxRunner.run\n"
        "async def counted(self, spec):\n"
        "    runs.append(spec.command)\n"
        "    return await real(self, spec)\n"
        "choice.SandboxRunner.run = counted\n"
        "chosen = asyncio.run(choice.choose_sandbox('auto', Path(sys.argv[1])))\n"
        "print(sorted(tested.items()), chosen.runner.name, len(runs))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe, str(tmp_path)], capture_output=True, text=True, timeout=180
    )
    assert out.returncode == 0, out.stderr[-2000:]
    tested, chosen, runs = out.stdout.rsplit(" ", 2)
    assert expected in chosen and runs.strip() == "0", out.stdout  # no second self-test
    assert "None" in tested, tested  # the backend chosen passed the test made ahead


def test_hearth_run_starts_the_self_test_of_its_configured_sandbox_ahead(home: Path, tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    driver = (
        "import sys\n"
        "from hearth.sandbox import choice\n"
        "real = choice.test_ahead\n"
        "def seen(preference, *args):\n"
        "    sys.stderr.write(f'AHEAD {preference!r}\\n')\n"
        "    real(preference, *args)\n"
        "choice.test_ahead = seen\n"
        "from hearth.apps.cli.main import main\n"
        "sys.argv = ['hearth', 'run', 'hi', '-w', sys.argv[1], '--json']\n"
        "main()\n"
    )
    with ScriptedServer([ScriptedReply(text="Hi. TASK_COMPLETE")] * 2) as server:
        done = subprocess.run(
            [sys.executable, "-c", driver, str(ws)],
            env=clean_env(home, HEARTH_LLM_URL=server.url, HEARTH_SANDBOX="process"),
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "AHEAD 'process'" in done.stderr, done.stderr[-2000:]
