"""The seccomp filter refuses every system call of another ABI.

A 64-bit process may still enter the kernel through i386's `int 0x80` (whose table has
other numbers: socket is 359, socketcall 102, ptrace 26) or through x32 (the native
number with bit 30 set). Before the fix the filter allowed any foreign architecture, so
those calls opened host Unix and UDP sockets under Landlock and ptrace/io_uring under
bwrap. The test program makes the real calls from inside each isolating backend, with a
Unix and a UDP listener on the host outside the workspace that must receive nothing.
"""

from __future__ import annotations

import contextlib
import platform
import shutil
import socket
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from requirements import need
from security.box import Box

SOURCE = Path(__file__).with_name("progs") / "otherabi.c"
SIGSYS_EXIT = 128 + 31

pytestmark = pytest.mark.skipif(platform.machine() != "x86_64", reason="i386 and x32 are x86_64's other ABIs")


@pytest.fixture(scope="module")
def program(tmp_path_factory: pytest.TempPathFactory) -> Path:
    need("gcc")
    gcc = shutil.which("gcc") or "gcc"
    out = tmp_path_factory.mktemp("otherabi") / "otherabi"
    subprocess.run([gcc, "-O1", "-no-pie", "-o", str(out), str(SOURCE)], check=True, capture_output=True)
    return out


@dataclass
class Listeners:
    unix_path: Path
    unix: socket.socket
    udp: socket.socket

    @property
    def udp_port(self) -> int:
        return int(self.udp.getsockname()[1])

    def received(self) -> list[str]:
        got = []
        try:
            conn, _ = self.unix.accept()
            got.append("unix connection")
            conn.close()
        except BlockingIOError:
            pass
        with contextlib.suppress(BlockingIOError):
            got.append(f"udp datagram {self.udp.recv(100)!r}")
        return got


@pytest.fixture
def listeners(box: Box) -> Iterator[Listeners]:
    path = box.workspace.parent / "host.sock"  # outside the workspace, as a host service would be
    unix = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    unix.bind(str(path))
    path.chmod(0o777)
    unix.listen(4)
    unix.setblocking(False)
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.bind(("127.0.0.1", 0))
    udp.setblocking(False)
    yield Listeners(path, unix, udp)
    unix.close()
    udp.close()


def _run(box: Box, program: Path, mode: str, target: str = "") -> str:
    local = box.workspace / "otherabi"
    shutil.copy2(program, local)
    result = box.run(f"./otherabi {mode} {target}; echo exit=$?")
    assert f"start {mode}" in result.output, f"the program did not run: {result.output}"
    return result.output


def test_the_program_runs_and_the_listeners_listen(box: Box, program: Path, listeners: Listeners) -> None:
    """Control: the native ABI works in the sandbox, and the host listeners do receive."""
    out = _run(box, program, "native")
    assert "native ok" in out and "exit=0" in out
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        probe.connect(str(listeners.unix_path))
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.sendto(b"x", ("127.0.0.1", listeners.udp_port))
    assert len(listeners.received()) == 2


@pytest.mark.parametrize(
    "mode", ["i386-unix", "i386-socketcall", "i386-udp", "i386-ptrace", "i386-io_uring", "i386-getpid"]
)
def test_an_i386_system_call_kills_the_process(
    box: Box, program: Path, listeners: Listeners, mode: str
) -> None:
    target = str(listeners.udp_port) if mode == "i386-udp" else str(listeners.unix_path)
    out = _run(box, program, mode, target)
    assert "DONE" not in out, out
    assert f"exit={SIGSYS_EXIT}" in out, f"expected death by SIGSYS: {out}"
    assert listeners.received() == []


@pytest.mark.parametrize("mode", ["x32-unix", "x32-ptrace"])
def test_an_x32_system_call_is_refused(box: Box, program: Path, listeners: Listeners, mode: str) -> None:
    """(On a kernel without CONFIG_X86_X32_ABI the call fails natively too; the filter still answers.)"""
    out = _run(box, program, mode, str(listeners.unix_path))
    assert "DONE" not in out, out
    assert "socket=-38" in out or "ptrace=-38" in out, f"expected ENOSYS: {out}"
    assert listeners.received() == []


def test_threads_still_start_and_clone_makes_no_user_namespace(box: Box) -> None:
    """clone3 answers ENOSYS, so libc falls back to clone; clone(CLONE_NEWUSER) is refused."""
    script = (
        "import ctypes, os, threading\n"
        "t = threading.Thread(target=print, args=('thread ok',)); t.start(); t.join()\n"
        "libc = ctypes.CDLL(None, use_errno=True)\n"
        "r = libc.syscall(56, 0x10000000 | 17, 0, 0, 0, 0)\n"
        "if r == 0:\n    os._exit(0)\n"
        "print('clone-newuser', r)\n"
    )
    (box.workspace / "probe.py").write_text(script)
    result = box.run("python3 probe.py")
    assert "thread ok" in result.output
    assert "clone-newuser -1" in result.output, result.output
