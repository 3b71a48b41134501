"""`hearth web` as a person starts it: a subprocess that prints where to go and how to log in."""

from __future__ import annotations

import re
import socket
import stat
import subprocess
import sys
import time
from pathlib import Path

import httpx

from hearth.testing.server import ScriptedServer
from support import clean_env


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start(args: list[str], env: dict[str, str]) -> tuple[subprocess.Popen[str], list[str]]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "hearth.apps.cli.main", "web", *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines: list[str] = []
    assert proc.stdout is not None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        if line.strip().startswith("sandbox"):
            break
    return proc, lines


def test_hearth_web_prints_a_pin_keeps_a_private_token_and_serves(
    workspace: Path, home: Path, server: ScriptedServer
) -> None:
    port = _port()
    env = clean_env(home, HEARTH_LLM_URL=server.url)
    proc, lines = _start(["-w", str(workspace), "--port", str(port)], env)
    try:
        out = "".join(lines)
        assert f"http://127.0.0.1:{port}/" in out, out
        pin = re.search(r"PIN\s+(\d{6})", out)
        assert pin, out
        token_file = home / ".local/share/hearth/web-token"
        token = token_file.read_text().strip()
        assert stat.S_IMODE(token_file.stat().st_mode) == 0o600
        assert token not in out  # the terminal says where the token is, not what it is
        deadline = time.monotonic() + 20
        while True:
            try:
                status = httpx.get(
                    f"http://127.0.0.1:{port}/api/status", headers={"Authorization": f"Bearer {token}"}
                )
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline
                time.sleep(0.1)
        assert status.status_code == 200 and status.json()["workspace"] == str(workspace)
        login = httpx.post(f"http://127.0.0.1:{port}/api/login", json={"pin": pin.group(1)})
        assert login.status_code == 200
    finally:
        proc.terminate()
        proc.wait(10)


def test_hearth_web_on_the_network_says_so_and_a_missing_workspace_is_a_clear_error(
    tmp_path: Path, home: Path, server: ScriptedServer, workspace: Path
) -> None:
    env = clean_env(home, HEARTH_LLM_URL=server.url, HEARTH_WEB_TOKEN="from-env-token")
    proc, lines = _start(["-w", str(workspace), "--port", str(_port()), "--host", "0.0.0.0"], env)
    proc.terminate()
    proc.wait(10)
    out = "".join(lines)
    assert "HEARTH_WEB_TOKEN" in out and "from-env-token" not in out
    assert re.search(
        r"^  network   (http://[\d.]+:\d+/  \(anyone on your network|listening on 0\.0\.0\.0)", out, re.M
    ), out
    missing = subprocess.run(
        [
            sys.executable,
            "-m",
            "hearth.apps.cli.main",
            "web",
            "-w",
            str(tmp_path / "nope"),
            "--port",
            str(_port()),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (
        missing.returncode == 1 and "does not exist" in missing.stderr and "Traceback" not in missing.stderr
    )
