"""Choose the sandbox at start: probe each backend and run a canary self-test.

The self-test runs in a throwaway workspace: writing a file outside it and
connecting to a listener on the host's loopback must both fail. A backend
that fails is refused, with the reason. `auto` takes the first that passes;
if none does, the process runner is used and says loudly that it does not
isolate. A backend asked for by name is never swapped for another.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import socket
import sys
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path

from hearth.core.errors import HearthError
from hearth.core.protocols import ExecSpec
from hearth.sandbox.backend import GET_BWRAP, NOT_ISOLATED, Backend
from hearth.sandbox.bwrap import BwrapBackend
from hearth.sandbox.confined import LandlockBackend, ProcessBackend
from hearth.sandbox.container import DockerBackend, PodmanBackend
from hearth.sandbox.limits import ResourceLimits
from hearth.sandbox.runner import SandboxRunner
from hearth.sandbox.seatbelt import SeatbeltBackend

BACKENDS: dict[str, type[Backend]] = {
    "bwrap": BwrapBackend,
    "landlock": LandlockBackend,
    "podman": PodmanBackend,
    "docker": DockerBackend,
    "seatbelt": SeatbeltBackend,
    "process": ProcessBackend,
}
AUTO_ORDER = ("bwrap", "landlock", "podman", "docker", "seatbelt")
_SELF_TEST_CACHE: dict[str, str | None] = {}
_ahead: threading.Event | None = None  # set once the self-test `test_ahead` started has ended


@dataclass
class SandboxChoice:
    runner: SandboxRunner
    tried: list[tuple[str, str]] = field(default_factory=list)  # (backend, why it was not used)
    warning: str | None = None

    def describe(self) -> str:
        return f"{self.runner.name}: {self.runner.backend.isolation.describe()}"


def test_ahead(preference: str, limits: ResourceLimits | None = None) -> None:
    """Start the self-test of the backend `choose_sandbox(preference)` will try first, in a
    thread with its own event loop, so that it runs while the command still imports (imports
    hold the caller's event loop; the test mostly waits for its sandboxed command). The
    self-test then takes that result, or waits for it. Once per process."""
    global _ahead
    names = AUTO_ORDER if preference == "auto" else (preference,)
    if _ahead is not None or preference in ("process", "none") or any(n not in BACKENDS for n in names):
        return
    done = _ahead = threading.Event()

    def ahead() -> None:
        try:
            for name in names:
                if name in ("podman", "docker"):
                    return  # tested with its image, when chosen
                cls = BACKENDS[name]
                if cls(Path(tempfile.gettempdir()), ResourceLimits()).available() is None:
                    asyncio.run(self_test(cls, limits or ResourceLimits(), waited=True))
                    return
        except Exception:  # nothing kept: choose_sandbox tests it again, and says what failed
            return
        finally:
            done.set()

    threading.Thread(target=ahead, name="hearth-sandbox-selftest", daemon=True).start()


async def self_test(cls: type[Backend], limits: ResourceLimits, *, waited: bool = False) -> str | None:
    """None when the backend confines a write and a connection; otherwise what went wrong."""
    if _ahead is not None and not waited and not _ahead.is_set():
        await asyncio.to_thread(_ahead.wait)
    if cls.__name__ in _SELF_TEST_CACHE:
        return _SELF_TEST_CACHE[cls.__name__]
    root = Path(tempfile.mkdtemp(prefix="hearth-selftest-"))
    ws, canary = root / "ws", root / "canary"
    ws.mkdir()
    canary.mkdir()
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(4)
    listener.setblocking(False)
    port = listener.getsockname()[1]
    backend = cls(ws, limits)
    runner = SandboxRunner(backend, spares=False)
    # One connection attempt: bash's /dev/tcp where there is bash (a Python start costs more than
    # the rest of the test), else Python's.
    command = (
        f"echo hearth-selftest; echo x > {canary}/written 2>/dev/null; "
        f"if command -v bash >/dev/null 2>&1; then bash -c 'echo > /dev/tcp/127.0.0.1/{port}'; "
        f"else python3 -c \"import socket; socket.create_connection(('127.0.0.1', {port}), 2)\"; "
        f"fi >/dev/null 2>&1; true"
    )
    problem: str | None = None
    try:
        result = await runner.run(ExecSpec(command=command, cwd=ws, timeout=30))
        if "hearth-selftest" not in result.output:
            problem = f"it could not run a command: {result.output.strip()[:300] or result.exit_code}"
        elif (canary / "written").exists():
            problem = "a command wrote outside the workspace"
        else:
            with contextlib.suppress(BlockingIOError):
                listener.accept()[0].close()
                problem = "a command reached the host's network"
    except OSError as exc:
        problem = f"it failed to start: {exc}"
    finally:
        listener.close()
        await runner.close()
        shutil.rmtree(root, ignore_errors=True)
    _SELF_TEST_CACHE[cls.__name__] = problem
    return problem


async def choose_sandbox(
    preference: str, workspace: Path, limits: ResourceLimits | None = None, image: str = ""
) -> SandboxChoice:
    limits = limits or ResourceLimits()
    if preference in ("process", "none"):
        return SandboxChoice(SandboxRunner(ProcessBackend(workspace, limits)), warning=NOT_ISOLATED)
    if preference != "auto" and preference not in BACKENDS:
        raise HearthError(
            f"Unknown sandbox backend {preference!r}.", f"Choose one of: auto, {', '.join(BACKENDS)}."
        )
    names = AUTO_ORDER if preference == "auto" else (preference,)
    tried: list[tuple[str, str]] = []
    for name in names:
        cls = BACKENDS[name]
        backend = cls(workspace, limits)
        if image and hasattr(backend, "image"):
            backend.image = image
        why = backend.available()
        if why is None:
            failed = await self_test(cls, limits)
            why = f"self-test failed: {failed}" if failed else None
        if why is None:
            return SandboxChoice(SandboxRunner(backend), tried, warning=caveat(backend))
        tried.append((name, why))
    if preference != "auto":
        raise HearthError(
            f"The sandbox backend {preference!r} cannot be used: {tried[-1][1]}.",
            "Fix that, or set HEARTH_SANDBOX=auto (or =process to run without isolation, knowingly).",
        )
    reasons = "; ".join(f"{n}: {w}" for n, w in tried)
    hint = f" {GET_BWRAP}" if sys.platform == "linux" else ""
    return SandboxChoice(
        SandboxRunner(ProcessBackend(workspace, limits)),
        tried,
        warning=f"{NOT_ISOLATED} (no sandbox backend works here: {reasons}){hint}",
    )


def caveat(backend: Backend) -> str | None:
    """What the chosen backend cannot protect, and how to get one that can (None: nothing to say)."""
    if not backend.cannot:
        return None
    hint = f" {GET_BWRAP}" if sys.platform == "linux" and backend.name != "bwrap" else ""
    return f"sandbox {backend.name}: {backend.cannot}{hint}"


async def _main() -> None:  # `python -m hearth.sandbox.choice` prints what would be chosen
    choice = await choose_sandbox("auto", Path.cwd())
    print(choice.describe())
    for name, why in choice.tried:
        print(f"  not {name}: {why}")
    if choice.warning:
        print(choice.warning)
    await choice.runner.close()


if __name__ == "__main__":
    asyncio.run(_main())
