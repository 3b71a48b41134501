"""Runs one command confined, then makes sure nothing it started survives.

Started as `python -I -S helper.py [options] -- argv...` by the Landlock and
process backends. Standard library only, and only the cheap parts of it (no
json, re or platform), so it starts fast and imports nothing from the
workspace. Options: --cwd DIR, --env K=V, --landlock, --writable P, --readable P,
--seccomp, --drop-caps, --allow-net, --parent PID.

`helper.py --wait FD` is a launcher started ahead of its command (spare.py): it waits for
one message on the socket FD (a command line, its environment, descriptors and the numbers
they must have), then becomes that command: this helper run in place when the command line
is one (no second interpreter start), else an exec (bwrap). By then the runner has put it
in the command's cgroup and under its rlimits, which everything after inherits. It:

1. becomes a child subreaper, so orphans (a `setsid` grandchild too) come back to it,
   and asks for SIGTERM when Hearth (`--parent`) dies, however it dies (SIGKILL too);
2. where it may (root), puts the command in a new PID namespace with its own /proc: a
   small init that is SIGKILLed when the helper dies, and when that init ends the kernel
   kills every process left in the namespace;
3. forks the command (resource limits come from the runner, inherited) with optionally Landlock (files, TCP,
   abstract sockets, signals) and a seccomp filter (native system calls only: no other
   architecture's (i386 `int 0x80`) nor x32's; sockets of no family but AF_UNIX, and
   AF_INET/AF_INET6 only with the network allowed (so no DNS either); no user namespaces,
   ptrace or io_uring);
4. when the command ends, or on SIGTERM, kills every process left under it.
"""

from __future__ import annotations

import ctypes
import fcntl
import os
import select
import signal
import struct
import sys

PR_SET_NO_NEW_PRIVS = 38
PR_SET_CHILD_SUBREAPER = 36
PR_SET_SECCOMP = 22
PR_SET_PDEATHSIG = 1
SECCOMP_MODE_FILTER = 2
CLONE_NEWNS, CLONE_NEWUSER, CLONE_NEWPID = 0x00020000, 0x10000000, 0x20000000
MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REC, MS_PRIVATE = 2, 4, 8, 0x4000, 1 << 18

_libc = ctypes.CDLL(None, use_errno=True)  # the C library Python itself uses (find_library is slow)
_libc.syscall.restype = ctypes.c_long
_libc.prctl.restype = ctypes.c_int
_libc.unshare.restype = _libc.mount.restype = ctypes.c_int

# Landlock (uapi/linux/landlock.h). Syscall numbers are the same on x86_64 and aarch64.
SYS_CREATE, SYS_ADD_RULE, SYS_RESTRICT = 444, 445, 446
FS_EXECUTE, FS_WRITE_FILE, FS_READ_FILE, FS_READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
FS_ALL_V1 = (1 << 13) - 1
FS_REFER, FS_TRUNCATE, FS_IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15
NET_BIND_TCP, NET_CONNECT_TCP = 1 << 0, 1 << 1
SCOPE_ABSTRACT_UNIX, SCOPE_SIGNAL = 1 << 0, 1 << 1
READ_ONLY = FS_EXECUTE | FS_READ_FILE | FS_READ_DIR

ARCH = {
    "x86_64": (
        0xC000003E,
        {"socket": 41, "socketpair": 53, "ptrace": 101, "unshare": 272, "setns": 308, "clone": 56},
    ),
    "aarch64": (
        0xC00000B7,
        {"socket": 198, "socketpair": 199, "ptrace": 117, "unshare": 97, "setns": 268, "clone": 220},
    ),
}
AF_UNIX, AF_INET, AF_INET6 = 1, 2, 10
IO_URING = (425, 426, 427)
CLONE3 = 435  # its flags sit in a struct the filter cannot read: ENOSYS, and libc falls back to clone
X32_SYSCALL_BIT = 0x40000000  # x86_64: such numbers run the x32 ABI under the native architecture
SH_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


def _check(ret: int, what: str) -> int:
    if ret < 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")
    return ret


def landlock_abi() -> int:
    try:
        return int(_libc.syscall(SYS_CREATE, None, ctypes.c_size_t(0), ctypes.c_uint32(1)))
    except OSError:
        return -1


def apply_landlock(writable: list[str], readable: list[str], block_net: bool) -> None:
    abi = landlock_abi()
    if abi < 1:
        raise OSError("Landlock is not available in this kernel")
    fs = FS_ALL_V1 | (FS_REFER if abi >= 2 else 0) | (FS_TRUNCATE if abi >= 3 else 0)
    fs |= FS_IOCTL_DEV if abi >= 5 else 0
    net = (NET_BIND_TCP | NET_CONNECT_TCP) if block_net and abi >= 4 else 0
    scoped = (SCOPE_ABSTRACT_UNIX | SCOPE_SIGNAL) if abi >= 6 else 0
    if abi >= 6:
        attr = struct.pack("QQQ", fs, net, scoped)
    elif abi >= 4:
        attr = struct.pack("QQ", fs, net)
    else:
        attr = struct.pack("Q", fs)
    buf = ctypes.create_string_buffer(attr, len(attr))
    ruleset = _check(
        _libc.syscall(SYS_CREATE, buf, ctypes.c_size_t(len(attr)), ctypes.c_uint32(0)), "ruleset"
    )
    for paths, access in ((readable, READ_ONLY), (writable, fs)):
        for path in paths:
            try:
                fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
            except OSError:
                continue
            allowed = (
                access
                if os.path.isdir(path)
                else access & (FS_EXECUTE | FS_WRITE_FILE | FS_READ_FILE | FS_TRUNCATE)
            )
            rule = ctypes.create_string_buffer(struct.pack("=Qi", allowed, fd), 12)
            _check(_libc.syscall(SYS_ADD_RULE, ruleset, 1, rule, 0), f"rule for {path}")
            os.close(fd)
    _check(_libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")
    _check(_libc.syscall(SYS_RESTRICT, ruleset, 0), "restrict_self")
    os.close(ruleset)


def seccomp_program(block_inet: bool) -> bytes:
    """A classic-BPF seccomp filter (struct sock_filter[]), as bwrap's --seccomp takes it.

    A system call from any other architecture (i386's `int 0x80` on x86_64, arm32 on
    aarch64) kills the process: those tables have other numbers (i386 `socketcall`), so
    the checks below would not see them. x32 calls (native architecture, number with bit
    30 set) get ENOSYS, as on a kernel built without x32.
    """
    machine = os.uname().machine
    if machine not in ARCH:
        raise OSError(f"no seccomp filter for {machine}")
    audit_arch, nr = ARCH[machine]
    ld_w_abs, jeq_k, jge_k, jset_k, ret_k = 0x20, 0x15, 0x35, 0x45, 0x06
    allow, kill_process = 0x7FFF0000, 0x80000000
    eperm, enosys = 0x00050000 | 1, 0x00050000 | 38
    prog: list[tuple[int, int, int, int]] = [
        (ld_w_abs, 0, 0, 4),  # arch
        (jeq_k, 1, 0, audit_arch),
        (ret_k, 0, 0, kill_process),
        (ld_w_abs, 0, 0, 0),  # syscall number
    ]
    if machine == "x86_64":
        prog += [(jge_k, 0, 1, X32_SYSCALL_BIT), (ret_k, 0, 0, enosys)]
    for name in ("ptrace", "unshare", "setns"):
        prog += [(jeq_k, 0, 1, nr[name]), (ret_k, 0, 0, eperm)]
    for number in (*IO_URING, CLONE3):
        prog += [(jeq_k, 0, 1, number), (ret_k, 0, 0, enosys)]
    prog += _socket_rules(nr, block_inet)
    # Last, as it loads an argument: clone() making a user namespace (unshare's other door).
    prog += [
        (jeq_k, 0, 3, nr["clone"]),
        (ld_w_abs, 0, 0, 16),  # args[0], the flags
        (jset_k, 0, 1, CLONE_NEWUSER),
        (ret_k, 0, 0, eperm),
    ]
    prog.append((ret_k, 0, 0, allow))
    return b"".join(struct.pack("HBBI", *ins) for ins in prog)


def _socket_rules(nr: dict[str, int], block_inet: bool) -> list[tuple[int, int, int, int]]:
    """socket() and socketpair() by address family: an allow-list, every other family EPERM.

    The sandbox needs Unix sockets and, when the network is allowed, AF_INET/AF_INET6; no
    vsock (the hypervisor's host), netlink (the kernel's routing, audit, uevents), packet,
    Bluetooth, AF_ALG, AF_KEY, XDP or anything a kernel adds later. With the network
    blocked (Landlock) socket() is refused for every family, Unix too: Landlock does not
    govern connect() to a host's Unix sockets. socketpair() stays for local IPC, Unix only.
    Each branch ends in a return, as it leaves an argument (not the call number) loaded.
    """
    ld_w_abs, jeq_k, ret_k = 0x20, 0x15, 0x06
    allow, eperm = 0x7FFF0000, 0x00050000 | 1
    family = (ld_w_abs, 0, 0, 16)  # args[0], the family: an int, so its low 32 bits (little-endian)
    if block_inet:
        sockets = [(jeq_k, 0, 1, nr["socket"]), (ret_k, 0, 0, eperm)]
    else:
        sockets = [
            (jeq_k, 0, 6, nr["socket"]),
            family,
            (jeq_k, 2, 0, AF_UNIX),
            (jeq_k, 1, 0, AF_INET),
            (jeq_k, 0, 1, AF_INET6),
            (ret_k, 0, 0, allow),
            (ret_k, 0, 0, eperm),
        ]
    pairs = [
        (jeq_k, 0, 4, nr["socketpair"]),
        family,
        (jeq_k, 0, 1, AF_UNIX),
        (ret_k, 0, 0, allow),
        (ret_k, 0, 0, eperm),
    ]
    return sockets + pairs


def apply_seccomp(block_inet: bool) -> None:
    raw = seccomp_program(block_inet)
    filters = ctypes.create_string_buffer(raw, len(raw))
    fprog = struct.pack("HxxxxxxP", len(raw) // 8, ctypes.addressof(filters))
    fbuf = ctypes.create_string_buffer(fprog, len(fprog))
    _check(_libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")
    _check(_libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, fbuf, 0, 0), "seccomp")


def children(of: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as fh:
                stat = fh.read()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2 :].split()
        if int(fields[1]) == of:
            found.append(int(entry))
    return found


def kill_all_descendants() -> None:
    """Kill every child; orphans of the killed come back to us (subreaper) and go next."""
    me = os.getpid()
    while True:
        kids = children(me)
        if not kids:
            return
        for pid in kids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        for pid in kids:
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass


def drop_capabilities() -> None:
    """Root without capabilities: no bypassing file modes, no reading other processes' memory."""
    pr_capbset_drop, pr_set_securebits = 24, 28
    noroot = 0x1 | 0x2 | 0x4 | 0x8  # NOROOT, NOROOT_LOCKED, NO_SETUID_FIXUP, NO_SETUID_FIXUP_LOCKED
    _libc.prctl(pr_set_securebits, noroot, 0, 0, 0)
    for cap in range(64):
        _libc.prctl(pr_capbset_drop, cap, 0, 0, 0)
    header = ctypes.create_string_buffer(struct.pack("Ii", 0x20080522, 0), 8)
    data = ctypes.create_string_buffer(b"\0" * 24, 24)
    sys_capset = {"x86_64": 126, "aarch64": 91}.get(os.uname().machine)
    if sys_capset is not None:
        _check(_libc.syscall(sys_capset, header, data), "capset")


class Options:
    def __init__(self, args: list[str]) -> None:
        self.cwd = "."
        self.env: dict[str, str] = {}
        self.writable: list[str] = []
        self.readable: list[str] = []
        self.landlock = self.seccomp = self.drop_caps = False
        self.block_net = True
        self.parent = 0
        values = iter(args)
        for opt in values:
            if opt == "--landlock":
                self.landlock = True
            elif opt == "--seccomp":
                self.seccomp = True
            elif opt == "--drop-caps":
                self.drop_caps = True
            elif opt == "--allow-net":
                self.block_net = False
            elif opt == "--cwd":
                self.cwd = next(values)
            elif opt == "--parent":
                self.parent = int(next(values))
            elif opt == "--env":
                key, _, val = next(values).partition("=")
                self.env[key] = val
            elif opt == "--writable":
                self.writable.append(next(values))
            elif opt == "--readable":
                self.readable.append(next(values))
            else:
                raise SystemExit(f"hearth sandbox helper: unknown option {opt}")


def new_pid_namespace() -> bool:
    """Children from now on start in a new PID namespace; False where that is not allowed."""
    return _libc.unshare(CLONE_NEWPID) == 0


def die_with_parent(sig: int, parent: int) -> bool:
    """Ask for `sig` when the parent dies; False if it is already gone (or is not `parent`)."""
    _libc.prctl(PR_SET_PDEATHSIG, sig, 0, 0, 0)
    return os.getppid() == parent


def own_proc() -> None:
    """A private mount namespace with a /proc of this PID namespace (so ps and /proc/PID agree)."""
    if _libc.unshare(CLONE_NEWNS) != 0:
        return
    if _libc.mount(b"none", b"/", None, MS_REC | MS_PRIVATE, None) == 0:
        _libc.mount(b"proc", b"/proc", b"proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, None)


def run_command(opts: Options, argv: list[str], mask: set[int | signal.Signals]) -> None:
    """In the forked child: confine, then exec the command. Never returns."""
    try:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        if opts.landlock:
            apply_landlock(opts.writable, opts.readable, opts.block_net)
        if opts.drop_caps:
            drop_capabilities()
        if opts.seccomp:
            apply_seccomp(opts.block_net)
        os.chdir(opts.cwd)
        os.execvpe(argv[0], argv, opts.env)
    except BaseException as exc:  # report why the command could not start
        os.write(2, f"hearth sandbox: cannot start the command: {exc}\n".encode())
    os._exit(126)


def namespace_init(opts: Options, argv: list[str], mask: set[int | signal.Signals]) -> None:
    """PID 1 of the command's namespace: reaps orphans, ends with the command. Never returns.

    It dies with the helper (SIGKILL), and when it ends the kernel kills the whole namespace.
    """
    try:
        own_proc()
        command = os.fork()
        if command == 0:
            run_command(opts, argv, mask)
        while True:
            done, status = os.wait()
            if done == command:
                code = os.waitstatus_to_exitcode(status)
                os._exit(code if code >= 0 else 128 - code)
    except BaseException as exc:
        os.write(2, f"hearth sandbox: cannot start the command: {exc}\n".encode())
    os._exit(126)


def receive(sock_fd: int) -> tuple[list[str], dict[str, str], list[int]] | None:
    """The message of `--wait`: (command line, environment, descriptors at the numbers they
    must have, inheritable), or None when the runner dropped this launcher (EOF)."""
    import _socket  # the C module: socket.py imports enum and selectors

    sock = _socket.socket(fileno=sock_fd)
    max_fds = 253  # the kernel's SCM_MAX_FD
    data, ancillary, _flags, _addr = sock.recvmsg(
        1 << 20, _socket.CMSG_SPACE(max_fds * 4), _socket.MSG_CMSG_CLOEXEC
    )
    received: list[int] = []
    for level, kind, raw in ancillary:
        if level == _socket.SOL_SOCKET and kind == _socket.SCM_RIGHTS:
            usable = len(raw) - len(raw) % 4
            received += list(struct.unpack(f"{usable // 4}i", raw[:usable]))
    if not data:
        return None
    fields = [f.decode("utf-8", "surrogateescape") for f in data.split(b"\0")]
    n_argv = int(fields[0])
    argv = fields[1 : 1 + n_argv]
    n_env = int(fields[1 + n_argv])
    env = dict(f.partition("=")[::2] for f in fields[2 + n_argv : 2 + n_argv + n_env])
    targets = [int(f) for f in fields[2 + n_argv + n_env :]]
    if len(targets) != len(received):
        raise OSError(f"expected {len(targets)} descriptors, got {len(received)}")
    # Out of the way first (above every number in play), then onto the numbers asked for.
    floor = max([sock_fd, *received, *targets, 2]) + 1
    moved = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, floor) for fd in received]
    for fd in received:
        os.close(fd)
    sock.close()
    for fd, target in zip(moved, targets, strict=True):
        os.dup2(fd, target)  # inheritable
        os.close(fd)
    return argv, env, targets


def wait_and_become(sock_fd: int) -> int:
    """`--wait FD`: see the module's docstring. Never returns once a command came."""
    try:
        message = receive(sock_fd)
    except (OSError, ValueError) as exc:
        os.write(2, f"hearth sandbox: bad launch message: {exc}\n".encode())
        return 126
    if message is None:
        return 0
    argv, env, _ = message
    if (
        len(argv) > 3
        and argv[1:3] == ["-I", "-S"]
        and os.path.realpath(argv[3]) == os.path.realpath(__file__)
    ):
        return main(argv[4:])  # this helper again: already started
    try:
        execute(argv, env)
    except OSError as exc:
        os.write(2, f"hearth sandbox: cannot start {argv[0]}: {exc}\n".encode())
    return 127


def execute(argv: list[str], env: dict[str, str]) -> None:
    """exec, a bare name looked up as the shell that launched it before did (its default PATH
    when the environment has none)."""
    name, error = argv[0], OSError(f"{argv[0]}: not found")
    for folder in [""] if "/" in name else env.get("PATH", SH_PATH).split(":"):
        try:
            os.execve(os.path.join(folder, name) if folder else name, argv, env)
        except OSError as exc:
            error = exc
    raise error


def main(args: list[str] | None = None) -> int:
    args = sys.argv[1:] if args is None else args
    if args == ["--abi"]:
        print(landlock_abi())
        return 0
    if args[:1] == ["--wait"]:
        return wait_and_become(int(args[1]))
    opts = Options(args[: args.index("--")])
    argv = args[args.index("--") + 1 :]
    _libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    # Signals are taken synchronously: a handler would wait until a blocking waitpid returned.
    watched = {signal.SIGCHLD, signal.SIGTERM, signal.SIGINT, signal.SIGHUP}
    old_mask = signal.pthread_sigmask(signal.SIG_BLOCK, watched)
    if opts.parent and not die_with_parent(signal.SIGTERM, opts.parent):
        return 128 + signal.SIGTERM  # Hearth is gone already
    alive, lifeline = os.pipe()  # EOF on `alive` once the helper is gone (close-on-exec both)
    namespaced = new_pid_namespace()
    pid = os.fork()
    if pid == 0:
        os.close(lifeline)
        _libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if select.select([alive], [], [], 0)[0]:  # the helper died before that took effect
            os._exit(128 + signal.SIGKILL)
        if namespaced:
            namespace_init(opts, argv, old_mask)
        run_command(opts, argv, old_mask)
    while True:
        info = signal.sigwaitinfo(watched)
        if info.si_signo != signal.SIGCHLD:
            kill_all_descendants()
            return 128 + info.si_signo
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            kill_all_descendants()
            return os.waitstatus_to_exitcode(status)


if __name__ == "__main__":
    code = main()
    sys.exit(code if code >= 0 else 128 - code)
