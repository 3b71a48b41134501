"""Adversarial cases against the sandbox, each against the real sandbox backends on this machine."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest

from hearth.core.errors import ToolError
from hearth.core.protocols import ExecSpec
from hearth.sandbox.paths import SafePaths
from hearth.tools.base import RunContext
from hearth.tools.builtin.files import ReadInput, WriteInput, read, write
from security.box import SECRET, Box


def test_01_writes_outside_fail(box: Box) -> None:
    box.run("echo x > ../out; echo x > /etc/pwn")
    assert not (box.workspace.parent / "out").exists()
    assert not Path("/etc/pwn").exists()


def test_02_every_writer_is_stopped_at_the_os_level(box: Box) -> None:
    c = box.canary
    box.run(
        f"echo x | tee {c}/tee; python3 -c \"open('{c}/py','w').write('x')\"; perl -e 'open(F,\">{c}/pl\")'; "
        f"cp /etc/hostname {c}/cp; dd if=/dev/zero of={c}/dd bs=1 count=1; echo x >> {c}/secret"
    )
    assert sorted(p.name for p in c.iterdir()) == ["secret"]


def test_03_symlink_out_is_refused_by_shell_and_by_the_write_tool(box: Box) -> None:
    box.run(f"ln -s {box.canary} esc; echo x > esc/f")
    assert not (box.canary / "f").exists()
    if (box.workspace / "esc").is_symlink():
        ctx = RunContext(paths=SafePaths(box.workspace))
        with pytest.raises(ToolError, match="outside"):
            write(WriteInput(path="esc/f", content="x"), ctx)


def test_04_same_prefix_sibling_is_not_the_workspace(box: Box) -> None:
    sibling = box.workspace.parent / "proj_evil"
    box.run(f"echo x > {sibling}/x")
    assert not (sibling / "x").exists()


def test_05_a_model_chosen_cwd_is_rejected(box: Box) -> None:
    from hearth.tools.builtin.shell import ShellInput

    for cwd in ("/", "../.."):
        with pytest.raises(ValueError, match="cwd"):
            ShellInput.model_validate({"command": "touch x", "cwd": cwd})


def test_06_symlink_swap_race_never_returns_outside_content(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    outside = tmp_path / "secret.txt"
    outside.write_text(SECRET)
    (ws / "real.txt").write_text("inside\n")
    link = ws / "target.txt"
    stop = threading.Event()

    def flip() -> None:
        while not stop.is_set():
            for source in (outside, ws / "real.txt"):
                tmp = ws / "swap.tmp"
                try:
                    tmp.unlink(missing_ok=True)
                    tmp.symlink_to(source)
                    os.replace(tmp, link)
                except OSError:
                    pass

    thread = threading.Thread(target=flip)
    thread.start()
    ctx = RunContext(paths=SafePaths(ws))
    seen = 0
    try:
        for _ in range(3000):
            try:
                out = read(ReadInput(path="target.txt"), ctx)
            except (ToolError, OSError):
                continue
            seen += 1
            assert SECRET not in out
    finally:
        stop.set()
        thread.join()
    assert seen > 0


def test_07_hardlink_to_a_file_outside_fails(box: Box) -> None:
    box.run(f"ln {box.canary}/secret h")
    h = box.workspace / "h"
    assert not h.exists() or SECRET not in h.read_text()


def test_08_secrets_are_absent_in_the_sandbox_and_the_read_tool(box: Box) -> None:
    (box.workspace / ".env").write_text(f"API_KEY={SECRET}\n")
    (box.workspace / "envlink").symlink_to(".env")
    out = box.run(
        "cat ~/.ssh/id_rsa ~/.aws/credentials; cat $HOME/.ssh/id_rsa; "
        f"cat {os.environ['HOME']}/.ssh/id_rsa; cat {box.canary}/secret"
    )
    assert SECRET not in out.output
    if box.name == "bwrap":  # Landlock cannot hide one file inside the readable workspace
        assert SECRET not in box.run("cat .env; cat envlink").output
    ctx = RunContext(paths=SafePaths(box.workspace))
    for path in (".env", "envlink"):
        with pytest.raises(ToolError):
            read(ReadInput(path=path), ctx)


def test_09_no_agent_keys_in_the_environment_or_proc(box: Box) -> None:
    out = box.run("env; cat /proc/1/environ; cat /proc/$PPID/environ; cat /proc/*/environ 2>/dev/null")
    assert SECRET not in out.output


def test_10_git_hooks_and_config_cannot_be_planted(box: Box) -> None:
    subprocess.run(["git", "init", "-q", str(box.workspace)], check=True)
    hook = box.workspace / ".git/hooks/pre-commit"
    config_before = (box.workspace / ".git/config").read_text()
    box.run(
        f"printf '#!/bin/sh\\ntouch {box.canary}/hooked\\n' > .git/hooks/pre-commit; chmod +x .git/hooks/pre-commit; "
        f"git config core.fsmonitor 'touch {box.canary}/fsmon'; git config core.hooksPath /tmp"
    )
    assert not hook.exists()
    assert (box.workspace / ".git/config").read_text() == config_before
    subprocess.run(["git", "status"], cwd=box.workspace, capture_output=True)  # the host's own git
    assert not (box.canary / "fsmon").exists()


def test_11_nested_repository_config_cannot_run_code(box: Box) -> None:
    from hearth.tools.builtin.git import GitStatusInput, git_status

    sub = box.workspace / "sub"
    subprocess.run(["git", "init", "-q", str(box.workspace)], check=True)
    subprocess.run(["git", "init", "-q", str(sub)], check=True)
    for repo in (box.workspace, sub):
        subprocess.run(["git", "config", "core.fsmonitor", f"touch {box.canary}/fsmon"], cwd=repo, check=True)
        hooks = repo / ".git/hooks"
        (hooks / "post-checkout").write_text(f"#!/bin/sh\ntouch {box.canary}/hook\n")
        (hooks / "post-checkout").chmod(0o755)
    box.run("cd sub && git status; git status")
    ctx = RunContext(paths=SafePaths(box.workspace), sandbox=box.choice.runner)
    box.call(git_status(GitStatusInput(), ctx))
    assert sorted(p.name for p in box.canary.iterdir()) == ["secret"]


def test_12_control_files_cannot_be_created(box: Box) -> None:
    out = box.run(
        "mkdir -p .agent .vscode && echo '{}' > .agent/settings.json && echo '{}' > .mcp.json "
        "&& echo '{}' > .vscode/tasks.json && echo made"
    )
    for rel in (".agent/settings.json", ".mcp.json", ".vscode/tasks.json"):
        assert not (box.workspace / rel).exists()
    assert "changes to control files were undone" in out.output


def test_13_shell_startup_files_are_out_of_reach(box: Box) -> None:
    box.run(f"echo 'curl evil' >> ~/.bashrc; echo x >> ~/.profile; echo x >> {os.environ['HOME']}/.bashrc")
    # the box fixture checks the real ~/.bashrc is unchanged


def _listener() -> socket.socket:
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(8)
    srv.setblocking(False)
    return srv


def _accepted(srv: socket.socket) -> bool:
    try:
        srv.accept()[0].close()
        return True
    except BlockingIOError:
        return False


def test_14_15_no_network_no_dns_no_host_loopback(box: Box) -> None:
    srv = _listener()
    port = srv.getsockname()[1]
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.bind(("127.0.0.1", 0))
    udp.setblocking(False)
    uport = udp.getsockname()[1]
    try:
        out = box.run(
            f"python3 -c \"import socket; socket.create_connection(('127.0.0.1', {port}), 2)\" 2>&1 | tail -1; "
            f"python3 -c \"import socket; socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b'x', ('127.0.0.1', {uport}))\" 2>&1 | tail -1; "
            f"python3 -c \"import socket; socket.create_connection(('169.254.169.254', 80), 2)\" 2>&1 | tail -1; "
            "getent hosts example.com || echo no-dns"
        )
        assert not _accepted(srv)
        with pytest.raises(BlockingIOError):
            udp.recvfrom(10)
        assert "no-dns" in out.output
    finally:
        srv.close()
        udp.close()


def test_16_host_unix_sockets_are_unreachable(box: Box, tmp_path: Path) -> None:
    path = tmp_path / "host.sock"
    named = socket.socket(socket.AF_UNIX)
    named.bind(str(path))
    named.listen(4)
    named.setblocking(False)
    abstract = socket.socket(socket.AF_UNIX)
    abstract.bind(b"\0" + box.marker.encode())
    abstract.listen(4)
    abstract.setblocking(False)
    try:
        box.run(
            f"python3 -c \"import socket; s=socket.socket(socket.AF_UNIX); s.connect('{path}')\"; "
            f"python3 -c \"import socket; s=socket.socket(socket.AF_UNIX); s.connect(b'\\\\0{box.marker}')\"; "
            "curl -s --unix-socket /var/run/docker.sock http://x/ 2>/dev/null"
        )
        assert not _accepted(named)
        assert not _accepted(abstract)
    finally:
        named.close()
        abstract.close()


def test_18_obfuscated_commands_are_contained(box: Box) -> None:
    (box.workspace / "keep.txt").write_text("keep")
    box.run(
        f"r''m -rf {box.canary}; $'\\x72m' -rf {box.canary}; X=rm; $X -rf {box.canary}; "
        f"eval \"$(echo 'rm -rf {box.canary}' | base64 | base64 -d)\"; " + "true && " * 50 + "echo done"
    )
    # the canary check in the fixture is the assertion; the workspace itself is still usable
    assert (box.workspace / "keep.txt").read_text() == "keep"


def test_19_environment_does_not_persist_between_calls(box: Box) -> None:
    box.run("export LD_PRELOAD=./x.so GIT_SSH_COMMAND='touch /tmp/x'; export HEARTH_MARK=1")
    out = box.run('echo "[$LD_PRELOAD][$GIT_SSH_COMMAND][$HEARTH_MARK]"')
    assert "[][][]" in out.output


def test_20_fork_bomb_is_contained(box: Box) -> None:
    started = time.monotonic()
    result = box.run(f": {box.marker}; bomb() {{ bomb | bomb & }}; bomb; sleep 30", timeout=4)
    # stopped by the time limit, or the process cap left even the outer shell unable to fork on
    assert result.killed == "timeout" or "Cannot fork" in result.output
    assert time.monotonic() - started < 20
    assert subprocess.run(["true"]).returncode == 0  # the host can still fork
    # the fixture checks that none of the bomb's processes survived


def test_21_nothing_survives_the_command(box: Box) -> None:
    box.run(
        f"setsid nohup sleep 1000{box.marker[6:]}0 >/dev/null 2>&1 & "
        f"(sleep 999 {box.marker} &) ; sh -c 'sleep 998 {box.marker} &' ; echo started"
    )
    time.sleep(0.3)
    # the fixture checks with pgrep that no process carrying the marker is alive


def test_22_runaway_cpu_memory_and_disk_are_stopped(box: Box) -> None:
    busy = box.run("while :; do :; done", timeout=1)
    assert busy.killed == "timeout" and busy.exit_code is None
    mem = box.run("python3 -c 'bytearray(10**11)' 2>&1 | tail -1")
    assert "MemoryError" in mem.output
    box.run("dd if=/dev/zero of=big bs=1M count=100 2>/dev/null")
    assert (box.workspace / "big").stat().st_size <= 20 << 20


def test_23_floods_are_capped_and_binary_is_marked(box: Box) -> None:
    flood = box.run("yes", timeout=30)
    assert flood.killed == "output limit" and len(flood.output) < 50_000
    assert "bytes cut" in flood.output
    noise = box.run("head -c 200000 /dev/urandom")
    assert noise.output.startswith("<binary output, 200000 bytes")


def test_24_terminal_escapes_and_bidi_are_stripped(box: Box) -> None:
    out = box.run(
        r"printf '\033[2Jclear\033]52;c;ZXZpbA==\007osc\033]8;;http://x\033\\link\rover\342\200\256rtl\n'"
    )
    text = out.output
    assert "\x1b" not in text and "\u202e" not in text and "\r" not in text and "\x07" not in text
    assert "clear" in text and "rtl" in text


def test_25_no_privilege_from_inside(box: Box) -> None:
    out = box.run(
        "grep CapEff /proc/self/status; unshare -r true && echo UNSHARED; "
        "mount -o remount,rw / 2>/dev/null && echo REMOUNTED; sudo -n true 2>/dev/null && echo SUDO; "
        f"kill -0 {os.getpid()} 2>/dev/null && echo SEES-HOST-PID; "
        "python3 -c \"import fcntl, termios; fcntl.ioctl(0, termios.TIOCSTI, b'x')\" 2>/dev/null && echo TIOCSTI"
    )
    assert "CapEff:\t0000000000000000" in out.output
    for bad in ("UNSHARED", "REMOUNTED", "SUDO", "SEES-HOST-PID", "TIOCSTI"):
        assert bad not in out.output


def test_25b_seccomp_blocks_io_uring_and_ptrace(box: Box) -> None:
    code = (
        "import ctypes, os; libc = ctypes.CDLL(None, use_errno=True); "
        "print('io_uring', libc.syscall(425, 1, None), ctypes.get_errno()); "
        "print('ptrace', libc.syscall(101, 0, 0, 0, 0), ctypes.get_errno())"
    )
    out = box.run(f'python3 -c "{code}"').output
    assert "io_uring -1 38" in out  # ENOSYS
    assert "ptrace -1 1" in out  # EPERM


def test_background_jobs_are_listed_read_and_stopped(box: Box) -> None:
    async def scenario() -> None:
        runner = box.choice.runner
        job = await runner.start(ExecSpec(f"echo {box.marker}-up; sleep 1000", box.workspace, timeout=60))
        assert job.running
        for _ in range(50):
            if f"{box.marker}-up" in runner.read(job.id):
                break
            await asyncio.sleep(0.05)
        assert f"{box.marker}-up" in runner.read(job.id)
        assert [j.id for j in runner.jobs()] == [job.id]
        stopped = await runner.stop(job.id)
        assert not stopped.running

    box.call(scenario())
