"""A model server that goes away in the middle of the pipeline's work: the real `hearth pipeline
run` against a scripted server in a process of its own, killed with SIGKILL mid-reply and started
again on the same port. The cut attempt is redone (its session resumed), never counted as failed."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import forkserver
from pipelinesupport import make_plan
from support import TESTS, clean_env, state_of

# A scripted server in its own process, answering one stage of the story; it notes in `out`
# when the coder's slow reply has started, what the resumed coder sent, and on SIGTERM what it saw.
SERVER = r"""
import json, pathlib, signal, sys, time
from hearth.testing.script import ScriptedReply
from hearth.testing.server import ScriptedServer
from pipelinesupport import (coder_marker, done, planned, planner_marker, reviewer_marker, task,
                             verdict, write)

port, stage, out = int(sys.argv[1]), sys.argv[2], pathlib.Path(sys.argv[3])
cut = sys.argv[4] if len(sys.argv) > 4 else "coder"  # whose request the server dies in
server = ScriptedServer(port=port)


def slow(body):
    (out / "inflight").write_text("1")
    return ScriptedReply(text="Thinking it over. " * 300, chunk_size=4, delay=0.05)


def resumed(body):
    (out / "resumed.json").write_text(json.dumps(body))
    return done()


plan = planned(task("t1", "Ok", ["ok.txt"]))
if stage == "first":
    server.route(planner_marker("steady"), slow if cut == "planner" else plan)
    if cut == "coder":
        server.route(coder_marker("t1"), write("ok.txt", "ok\n"), slow)
    elif cut == "reviewer":
        server.route(coder_marker("t1"), write("ok.txt", "ok\n"), done())
        server.route(reviewer_marker("t1"), slow)
else:
    if cut == "planner":
        server.route(planner_marker("steady"), plan)
        server.route(coder_marker("t1"), write("ok.txt", "ok\n"), done())
    elif cut == "coder":
        server.route(coder_marker("t1"), resumed)
    server.route(reviewer_marker("t1"), verdict("pass"))


def stop(*_):
    seen = {"violations": server.violations, "remaining": server.remaining, "requests": len(server.requests)}
    (out / f"{stage}.json").write_text(json.dumps(seen))
    sys.exit(0)


signal.signal(signal.SIGTERM, stop)
server.start()
print(server.url, flush=True)
while True:
    time.sleep(1)
"""


def _free_port() -> int:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = int(sock.getsockname()[1])
    sock.close()
    return port


def _serve(port: int, stage: str, out: Path, home: Path, cut: str = "coder") -> subprocess.Popen[str]:
    env = clean_env(home, PYTHONPATH=str(TESTS))
    proc = subprocess.Popen(
        [sys.executable, "-c", SERVER, str(port), stage, str(out), cut],
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == f"http://127.0.0.1:{port}/v1"
    return proc


def _wait(predicate: Any, timeout: float = 300) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def _runner(home: Path, workspace: Path, port: int, log: Path, *extra: str) -> forkserver.Process:
    env = clean_env(
        home, HEARTH_LLM_URL=f"http://127.0.0.1:{port}/v1", HEARTH_TOOL_MODE="native", HEARTH_RETRIES="1"
    )
    cmd = ["pipeline", "run", "--once", "--poll", "0.1", "-w", str(workspace), *extra]
    return forkserver.popen(
        [*cmd],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=log.open("w"),
        text=True,
    )


def _status(home: Path, workspace: Path) -> dict[str, Any]:
    out = forkserver.run(
        ["pipeline", "status", "--json", "-w", str(workspace)],
        env=clean_env(home),
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    return dict(json.loads(out.stdout))


CUT = {
    "coder": "attempt 1 at task t1",
    "reviewer": "attempt 1 at task t1",
    "planner": "the planning of plan #1",
}


@pytest.mark.parametrize("cut", list(CUT))
def test_a_server_killed_mid_request_is_waited_for_and_the_work_redone_uncounted(
    home: Path, workspace: Path, tmp_path: Path, cut: str
) -> None:
    port, out, log = _free_port(), tmp_path / "out", tmp_path / "runner.log"
    out.mkdir()
    make_plan(workspace, "steady", "Write ok.txt.\n")
    first = _serve(port, "first", out, home, cut)
    runner = _runner(home, workspace, port, log)
    second = None
    try:
        _wait(lambda: (out / "inflight").exists())
        first.send_signal(signal.SIGKILL)  # gone mid-reply: the stream is cut, the port refuses
        first.wait(60)
        _wait(lambda: f"went away during {CUT[cut]}" in log.read_text())
        time.sleep(1.0)  # the runner waits (it does not give up, nor count anything)
        assert runner.poll() is None
        plan = _status(home, workspace)["plans"][0]
        if cut == "planner":
            assert (plan["status"], plan["reason"]) == ("new", "")
        else:
            t1 = plan["tasks"][0]
            assert (t1["status"], t1["attempts"], t1["reason"]) == ("pending", 1, "")
        second = _serve(port, "second", out, home, cut)  # back, on the same port
        assert runner.wait(300) == 0, log.read_text()
    finally:
        for proc in (runner, first, second):
            if proc is not None and proc.poll() is None:
                proc.terminate()
                proc.wait(60)
    said = log.read_text()
    assert f"answers again; redoing {CUT[cut]}" in said
    plan = _status(home, workspace)["plans"][0]
    assert plan["status"] == "done"
    assert [(t["id"], t["status"], t["attempts"]) for t in plan["tasks"]] == [("t1", "done", 1)]
    report = json.loads((state_of(workspace) / "pipeline/reports/steady-v1/quality_report.json").read_text())
    assert [a["outcome"] for a in report["tasks"][0]["attempts"]] == ["pass"]
    if cut == "coder":  # the redone attempt went on in the same session: it saw its own write
        resumed = json.loads((out / "resumed.json").read_text())
        calls = [
            c for m in resumed["messages"] if m["role"] == "assistant" for c in m.get("tool_calls") or []
        ]
        assert [c["function"]["name"] for c in calls] == ["write"]
    assert (workspace / "ok.txt").read_text() == "ok\n"
    seen = json.loads((out / "second.json").read_text())
    assert seen["violations"] == [] and seen["remaining"] == 0


def test_with_once_a_server_that_stays_away_ends_the_run_after_the_wait_and_the_next_run_goes_on(
    home: Path, workspace: Path, tmp_path: Path
) -> None:
    port, out, log = _free_port(), tmp_path / "out", tmp_path / "runner.log"
    out.mkdir()
    make_plan(workspace, "steady", "Write ok.txt.\n")
    first = _serve(port, "first", out, home)
    runner = _runner(home, workspace, port, log, "--server-wait", "1")
    try:
        _wait(lambda: (out / "inflight").exists())
        first.send_signal(signal.SIGKILL)
        first.wait(60)
        assert runner.wait(300) == 1
    finally:
        for proc in (runner, first):
            if proc.poll() is None:
                proc.kill()
    said = log.read_text()
    assert f"The model server at http://127.0.0.1:{port}/v1 went away during attempt 1 at task t1" in said
    assert "did not answer again within 1s" in said
    t1 = _status(home, workspace)["plans"][0]["tasks"][0]
    assert (t1["status"], t1["attempts"], t1["reason"]) == ("pending", 1, "")

    second = _serve(port, "second", out, home)
    try:
        again = _runner(home, workspace, port, tmp_path / "again.log")
        assert again.wait(300) == 0, (tmp_path / "again.log").read_text()
    finally:
        second.terminate()
        second.wait(60)
    plan = _status(home, workspace)["plans"][0]
    assert [(t["id"], t["status"], t["attempts"]) for t in plan["tasks"]] == [("t1", "done", 1)]
