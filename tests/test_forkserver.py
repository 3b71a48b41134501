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
    time.sleep(0.2)
    print("thread done", flush=True)

atexit.register(lambda: print("atexit ran", flush=True))
threading.Thread(target=later).start()
print("argv", sys.argv[1:], "name", __name__)
print("cwd", os.getcwd())
print("env", os.environ.get("PROBE_VALUE"), os.environ.get("XDG_CONFIG_HOME"))
print("path0", sys.path[0] == os.getcwd())
print("stdin", sys.stdin.read())
print("sigint", signal.getsignal(signal.SIGINT) is signal.default_int_handler)
print("to stderr\\r\\nline", file=sys.stderr)
if sys.argv[1:] == ["sleep"]:
    sys.stdout.flush()
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
