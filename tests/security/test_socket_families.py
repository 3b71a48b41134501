"""seccomp allows only the socket families the sandbox needs.

Before, the filter refused AF_INET/AF_INET6/AF_UNIX under Landlock (network blocked) and
nothing under bwrap, so AF_VSOCK (the hypervisor's host), AF_NETLINK (the kernel's routing
and audit), AF_PACKET and AF_XDP sockets opened under both backends, and a vsock listener
accepted connections. Now every family but AF_UNIX (and AF_INET/AF_INET6 with the network
allowed) answers EPERM, for socket() and socketpair() alike.
"""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest

from hearth.sandbox.helper import seccomp_program
from hearth.testing import ScriptedCall, ScriptedReply, ScriptedServer
from security.box import Box
from support import HearthCli

# name -> (family, type); the numbers as in linux/socket.h, so no Python build lacks them
FORBIDDEN = {
    "AF_VSOCK": (40, socket.SOCK_STREAM),
    "AF_NETLINK": (16, socket.SOCK_RAW),
    "AF_PACKET": (17, socket.SOCK_RAW),
    "AF_BLUETOOTH": (31, socket.SOCK_STREAM),
    "AF_ALG": (38, socket.SOCK_SEQPACKET),
    "AF_KEY": (15, socket.SOCK_RAW),
    "AF_XDP": (44, socket.SOCK_RAW),
    "AF_CAN": (29, socket.SOCK_RAW),
    "AF_TIPC": (30, socket.SOCK_RDM),
    "AF_APPLETALK": (5, socket.SOCK_DGRAM),
}

PROBE = """
import errno, json, socket, sys
wanted = json.loads(sys.argv[1])
out = {}
for name, (family, kind) in wanted.items():
    try:
        s = socket.socket(family, kind)
    except OSError as exc:
        out[name] = errno.errorcode.get(exc.errno, str(exc.errno))
    else:
        out[name] = "open"
        if name == "AF_VSOCK":
            try:
                s.bind((0xFFFFFFFF, 4321))  # VMADDR_CID_ANY
                s.listen(1)
                out[name] = "listening"
            except OSError:
                pass
        s.close()
try:
    a, b = socket.socketpair()
    a.sendall(b"x")
    out["socketpair"] = "ok" if b.recv(1) == b"x" else "broken"
except OSError as exc:
    out["socketpair"] = errno.errorcode.get(exc.errno, str(exc.errno))
for name, (family, kind) in wanted.items():
    try:
        socket.socketpair(family, kind)
        out["pair " + name] = "open"
    except OSError as exc:
        out["pair " + name] = errno.errorcode.get(exc.errno, str(exc.errno))
try:
    socket.socket(socket.AF_UNIX, socket.SOCK_STREAM).close()
    out["AF_UNIX"] = "open"
except OSError as exc:
    out["AF_UNIX"] = errno.errorcode.get(exc.errno, str(exc.errno))
print("RESULT " + json.dumps(out))
"""


def _probe(box: Box, network: bool = False) -> dict[str, str]:
    (box.workspace / "probe.py").write_text(PROBE)
    arg = json.dumps({k: list(v) for k, v in FORBIDDEN.items()})
    result = box.run(f"python3 probe.py '{arg}'", network=network)
    line = next((ln for ln in result.output.splitlines() if ln.startswith("RESULT ")), None)
    assert line is not None, f"the probe did not run: {result.output}"
    return dict(json.loads(line[len("RESULT ") :]))


def test_every_family_but_unix_is_refused(box: Box) -> None:
    got = _probe(box)
    for name in FORBIDDEN:
        assert got[name] == "EPERM", (name, got)
        assert got["pair " + name] == "EPERM", (name, got)
    assert got["socketpair"] == "ok", got  # local IPC (multiprocessing, subprocess pipes) still works
    # Unix sockets: under bwrap the host's are out of reach (own mount and network namespaces);
    # under Landlock, which does not govern connect() to them, socket() is refused when the
    # network is (see the next test for the network allowed).
    assert got["AF_UNIX"] == ("open" if box.name == "bwrap" else "EPERM"), got


def test_with_the_network_allowed_only_inet_and_unix_open(box: Box) -> None:
    got = _probe(box, network=True)
    for name in FORBIDDEN:
        assert got[name] == "EPERM", (name, got)
    assert got["AF_UNIX"] == "open", got
    assert got["socketpair"] == "ok", got
    out = box.run(
        "python3 -c 'import socket; socket.socket(socket.AF_INET6).close(); "
        'socket.socket(socket.AF_INET, socket.SOCK_DGRAM).close(); print("inet ok")\'',
        network=True,
    ).output
    assert "inet ok" in out, out


@pytest.mark.parametrize("block_inet", [True, False])
def test_the_filter_itself_refuses_vsock_and_netlink_families(block_inet: bool) -> None:
    """The program's own text: each family constant the old filter let through is now refused.

    Runs anywhere (no backend needed): the filter is interpreted here, instruction by instruction.
    """
    import os
    import struct

    machine = os.uname().machine
    if machine not in ("x86_64", "aarch64"):
        pytest.skip(f"no seccomp filter for {machine}")
    raw = seccomp_program(block_inet)
    prog = [struct.unpack("HBBI", raw[i : i + 8]) for i in range(0, len(raw), 8)]
    arch = 0xC000003E if machine == "x86_64" else 0xC00000B7
    nr = {"x86_64": (41, 53), "aarch64": (198, 199)}[machine]

    def verdict(number: int, arg0: int) -> int:
        data = struct.pack("<iI", number, arch) + struct.pack("<Q", 0) + struct.pack("<Q", arg0) + bytes(40)
        pc, acc = 0, 0
        while True:
            code, jt, jf, k = prog[pc]
            if code == 0x20:
                acc = struct.unpack_from("<I", data, k)[0]
            elif code == 0x06:
                return k
            elif code == 0x15:
                pc += jt if acc == k else jf
            elif code == 0x35:
                pc += jt if acc >= k else jf
            elif code == 0x45:
                pc += jt if acc & k else jf
            pc += 1

    eperm, allow = 0x00050001, 0x7FFF0000
    for sock in nr:
        for family, _ in FORBIDDEN.values():
            assert verdict(sock, family) == eperm, (sock, family)
    assert verdict(nr[1], 1) == allow  # socketpair(AF_UNIX)
    assert verdict(nr[0], 1) == (eperm if block_inet else allow)
    assert verdict(nr[0], 2) == (eperm if block_inet else allow)


def test_through_the_shell_tool_of_a_real_run(
    hearth: HearthCli, server: ScriptedServer, workspace: Path, home: Path
) -> None:
    """The model asks for the snippet through `shell` under Landlock: each family is EPERM."""
    from hearth.sandbox.choice import BACKENDS
    from hearth.sandbox.limits import ResourceLimits

    reason = BACKENDS["landlock"](workspace, ResourceLimits()).available()
    if reason:
        pytest.skip(reason)
    (workspace / "probe.py").write_text(PROBE)
    arg = json.dumps(
        {k: list(v) for k, v in FORBIDDEN.items() if k in ("AF_VSOCK", "AF_NETLINK", "AF_PACKET")}
    )
    (home / ".config" / "hearth").mkdir(parents=True)
    (home / ".config" / "hearth" / "config.toml").write_text('allow = ["shell(python3 *)"]\n')
    server.add(
        ScriptedReply(
            tool_calls=[ScriptedCall(name="shell", arguments={"command": f"python3 probe.py '{arg}'"})]
        ),
        ScriptedReply(text="done"),
    )
    res = hearth(
        "run",
        "probe",
        "-w",
        str(workspace),
        "--json",
        "--permission",
        "auto",
        env={"HEARTH_LLM_URL": server.url, "HEARTH_SANDBOX": "landlock"},
    )
    outputs = [e["output"] for e in res.json_lines() if e["type"] == "tool_result"]
    line = next((ln for out in outputs for ln in out.splitlines() if ln.startswith("RESULT ")), None)
    assert line is not None, (res.stdout, res.stderr)
    got = json.loads(line[len("RESULT ") :])
    assert {k: got[k] for k in ("AF_VSOCK", "AF_NETLINK", "AF_PACKET")} == dict.fromkeys(
        ("AF_VSOCK", "AF_NETLINK", "AF_PACKET"), "EPERM"
    )
    assert got["socketpair"] == "ok"
