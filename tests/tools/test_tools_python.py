"""The `python` tool: a persistent interpreter inside the real bwrap sandbox."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from hearth.core.errors import ToolError
from hearth.sandbox.choice import choose_sandbox
from hearth.sandbox.paths import SafePaths
from hearth.tools.base import RunContext
from hearth.tools.builtin.python import PythonInput, python_tools
from requirements import need_module

need_module("bwrap")


class Py:
    def __init__(self, ws: Path) -> None:
        self.loop = asyncio.Runner()
        self.choice = self.loop.run(choose_sandbox("bwrap", ws))
        self.ctx = RunContext(paths=SafePaths(ws), session_id="s1", sandbox=self.choice.runner)
        (self.tool,) = python_tools()

    def __call__(self, code: str, **extra: object) -> str:
        return self.loop.run(self.tool.run(PythonInput.model_validate({"code": code, **extra}), self.ctx))

    def close(self) -> None:
        self.loop.run(self.choice.runner.close())
        self.loop.close()


@pytest.fixture
def py(workspace: Path) -> Iterator[Py]:
    p = Py(workspace)
    yield p
    p.close()


def test_variables_survive_and_reset_clears_them(py: Py) -> None:
    assert py("x = 20\nprint('set')") == "set"
    assert py("x * 2 + 2") == "42"
    with pytest.raises(ToolError, match="NameError"):
        py("x", reset=True)
    assert py("1+1") == "2"


def test_errors_and_output_go_back_and_the_session_goes_on(py: Py) -> None:
    with pytest.raises(ToolError) as err:
        py("y = 5\nprint('before')\n1/0")
    assert "before" in str(err.value) and "ZeroDivisionError" in str(err.value)
    assert "pyrepl" not in str(err.value)  # the driver's own frames are not shown
    with pytest.raises(ToolError, match="SyntaxError"):
        py("def (")
    with pytest.raises(ToolError, match="SystemExit"):
        py("raise SystemExit(3)")
    assert py("y") == "5"
    assert py("import os; os.system('echo from-a-child')").startswith("from-a-child")
    big = py("print('z' * 1_000_000)")
    assert "bytes cut" in big and len(big) < 60_000
    assert py("input")  # stdin is not the control channel
    with pytest.raises(ToolError, match="EOFError"):
        py("input()")
    assert py("y + 1") == "6"


def test_writes_only_in_the_workspace(py: Py, workspace: Path, tmp_path: Path) -> None:
    py("open('made.txt', 'w').write('hi')")
    assert (workspace / "made.txt").read_text() == "hi"
    outside = tmp_path / "outside.txt"
    with pytest.raises(ToolError):  # /tmp is the sandbox's own; the host's is out of sight
        py(f"open({str(outside)!r}, 'w').write('x')\nprint(open({str(outside)!r}).read())\nraise ValueError")
    assert not outside.exists()
    for place in ("/var/tmp/hearth-test", "/etc/hearth-test", str(Path.home() / "hearth-test")):
        with contextlib.suppress(ToolError):  # refused, or written to a folder private to the sandbox
            py(f"open({place!r}, 'w').write('x')")
        assert not Path(place).exists()
    with pytest.raises(ToolError, match=r"Read-only file system|Permission"):
        py("open('/usr/hearth-test', 'w')")
    with pytest.raises(ToolError, match="Error"):
        py("open('/etc/hearth-test', 'w')")


def test_no_network(py: Py) -> None:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    port = server.getsockname()[1]
    try:
        with pytest.raises(ToolError, match="Error"):
            py(f"import socket; socket.create_connection(('127.0.0.1', {port}), timeout=3)")
        with pytest.raises(ToolError, match="Error"):
            py("import urllib.request; urllib.request.urlopen('http://example.com', timeout=3)")
    finally:
        server.close()


def test_timeout_stops_the_session_and_the_next_call_starts_fresh(py: Py) -> None:
    py("kept = 1")
    started = time.monotonic()
    with pytest.raises(ToolError, match="no result after 1s"):
        py("while True: pass", timeout=1)
    assert time.monotonic() - started < 8
    out = py("'kept' in globals()")
    assert "fresh one" in out and out.endswith("False")


def test_forks_are_killed_at_the_timeout(py: Py, workspace: Path) -> None:
    code = (
        "import os, time\n"
        "for _ in range(3):\n"
        "    if os.fork() == 0:\n"
        "        while True:\n"
        "            open('alive', 'w').write(str(time.time())); time.sleep(0.1)\n"
        "time.sleep(60)"
    )
    with pytest.raises(ToolError, match="no result"):
        py(code, timeout=1.5)
    time.sleep(0.5)
    stamp = (workspace / "alive").stat().st_mtime
    time.sleep(1.0)
    assert (workspace / "alive").stat().st_mtime == stamp  # nothing writes it any more
    assert py("2+2").endswith("4")


SURVIVOR = """
import asyncio, sys
from pathlib import Path
from hearth.sandbox.choice import choose_sandbox
from hearth.sandbox.paths import SafePaths
from hearth.tools.base import RunContext
from hearth.tools.builtin.python import PythonInput, python_tools

async def main():
    ws = Path(sys.argv[1])
    choice = await choose_sandbox("bwrap", ws)
    (tool,) = python_tools()
    ctx = RunContext(paths=SafePaths(ws), session_id="s", sandbox=choice.runner)
    code = (
        "import threading, time\\n"
        "def beat():\\n"
        "    while True:\\n"
        "        open('beat', 'w').write(str(time.time())); time.sleep(0.1)\\n"
        "threading.Thread(target=beat, daemon=True).start()"
    )
    await tool.run(PythonInput(code=code), ctx)
    print("ready", flush=True)
    await asyncio.sleep(600)

asyncio.run(main())
"""


def test_the_interpreter_dies_with_hearth(workspace: Path, tmp_path: Path) -> None:
    import signal
    import subprocess
    import sys

    script = tmp_path / "host.py"
    script.write_text(SURVIVOR)
    host = subprocess.Popen([sys.executable, str(script), str(workspace)], stdout=subprocess.PIPE, text=True)
    try:
        assert host.stdout is not None and host.stdout.readline().strip() == "ready"
        time.sleep(0.3)
        assert (workspace / "beat").exists()
        host.send_signal(signal.SIGKILL)
        host.wait(10)
        time.sleep(1.0)
        stamp = (workspace / "beat").stat().st_mtime
        time.sleep(1.0)
        assert (workspace / "beat").stat().st_mtime == stamp
    finally:
        host.kill()


def test_endless_allocation_is_a_memory_error_and_the_session_goes_on(py: Py) -> None:
    py("kept = 7")
    with pytest.raises(ToolError, match="MemoryError"):
        py("blob = bytearray(64 << 30)")  # past the sandbox's address-space limit
    assert py("kept") == "7"


def test_the_write_budget_stops_the_interpreter(workspace: Path) -> None:
    from hearth.sandbox.budget import SessionCaps

    p = Py(workspace)
    try:
        p.choice.runner.set_caps(SessionCaps(write_bytes=2 << 20))
        with pytest.raises(ToolError, match="ended") as err:
            p(
                "import time\nfor i in range(200):\n    open(f'f{i}', 'wb').write(b'x' * 100_000); time.sleep(0.01)"
            )
        assert "max_session_write_bytes" in str(err.value)
        assert sum(f.stat().st_size for f in workspace.iterdir()) < 10 << 20
    finally:
        p.close()
