"""The fork server the `hearth` fixture starts commands through behaves as a fresh `python -m`."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

import forkserver

PROBE = """\
import atexit, os, signal, sys, threading, time

def later():
    # a probe that ends by a signal is killed before its thread speaks, however slow the machine
    time.sleep(120 if sys.argv[1:] in (["serve"], ["sleep"], ["term"]) else 0.2)
    print("thread done", flush=True)

atexit.register(lambda: print("atexit ran", flush=True))
threading.Thread(target=later).start()
print("argv", sys.argv[1:], "name", __name__)
print("cwd", os.getcwd())
print("env", os.environ.get("PROBE_VALUE"), os.environ.get("XDG_CONFIG_HOME"))
print("path0", sys.path[0] == os.getcwd())
print("stdin", sys.stdin.read() if sys.argv[1:] != ["serve"] else "not read")
print("leader", os.getsid(0) == os.getpid())
print("sigint", signal.getsignal(signal.SIGINT) is signal.default_int_handler)
print("to stderr\\r\\nline", file=sys.stderr)
if sys.argv[1:] == ["sleep"]:
    sys.stdout.flush()
    time.sleep(60)
if sys.argv[1:] == ["serve"]:
    print("serving", flush=True)
    time.sleep(60)
if sys.argv[1:] == ["term"]:
    os.kill(os.getpid(), signal.SIGTERM)
sys.exit(3)
"""


@pytest.fixture
def probe(tmp_path: Path) -> Path:
    (tmp_path / "probe.py").write_text(PROBE)
    return tmp_path


def _both(probe: Path, monkeypatch: pytest.MonkeyPatch, *args: str, input: str) -> list[tuple[int, str, str]]:
    """What a fresh interpreter and a fork print, the probe's value masked."""
    results = []
    for exec_ in ("1", "0"):
        monkeypatch.setenv("HEARTH_TEST_EXEC", exec_)
        # conftest set XDG_CONFIG_HOME before the server started: a start without it has none
        env = {k: v for k, v in os.environ.items() if k != "XDG_CONFIG_HOME"} | {"PROBE_VALUE": "v" + exec_}
        done = forkserver.run(args, env=env, cwd=probe, timeout=30, module="probe", input=input)
        results.append((done.returncode, done.stdout.replace("v" + exec_, "V"), done.stderr))
    return results


def test_a_forked_start_is_what_a_fresh_interpreter_does(
    probe: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fresh, forked = _both(probe, monkeypatch, "a", "b c", input="typed in")
    assert forked == fresh
    code, out, err = fresh
    assert code == 3 and "argv ['a', 'b c'] name __main__" in out and "env V None" in out
    assert "stdin typed in" in out and "atexit ran" in out and "thread done" in out
    assert "sigint True" in out and "path0 True" in out and err == "to stderr\nline\n"


def test_a_signal_and_a_timeout_end_a_forked_start_as_they_end_a_fresh_one(
    probe: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fresh, forked = _both(probe, monkeypatch, "term", input="")
    assert forked == fresh and fresh[0] == -15
    monkeypatch.setenv("HEARTH_TEST_EXEC", "0")
    with pytest.raises(subprocess.TimeoutExpired) as caught:
        forkserver.run(["sleep"], env=dict(os.environ), cwd=probe, timeout=2, module="probe", input="")
    assert "argv ['sleep']" in str(caught.value.output)


def test_a_forked_server_is_read_polled_and_stopped_as_a_popen_is(
    probe: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen = []
    for exec_ in ("1", "0"):
        monkeypatch.setenv("HEARTH_TEST_EXEC", exec_)
        proc = forkserver.popen(
            ["serve"], env=dict(os.environ), cwd=probe, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True, start_new_session=True, module="probe",
        )  # fmt: skip
        assert proc.stdout is not None
        lines: list[str] = []
        while not lines or lines[-1] != "serving\n":
            lines.append(proc.stdout.readline())
        assert proc.poll() is None
        with pytest.raises(subprocess.TimeoutExpired):
            proc.wait(timeout=0.2)
        proc.terminate()
        assert proc.wait(timeout=10) == -15 and proc.poll() == -15
        seen.append((lines, proc.stdout.read()))
        proc.stdout.close()
    assert seen[0] == seen[1]
    assert "leader True\n" in seen[0][0] and "to stderr\n" in seen[0][0]


def test_hearth_itself_says_the_same_forked_as_fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A module the server has imported (Hearth's command line) runs afresh, with nothing more
    on stderr than a fresh interpreter prints."""
    seen = []
    for exec_ in ("1", "0"):
        monkeypatch.setenv("HEARTH_TEST_EXEC", exec_)
        done = forkserver.run(
            ["sessions", "-w", str(tmp_path)], env=dict(os.environ), cwd=tmp_path, timeout=60
        )
        seen.append((done.returncode, done.stdout, done.stderr))
    assert seen[0] == seen[1] and seen[0][0] == 0 and "No sessions yet" in seen[0][1]
