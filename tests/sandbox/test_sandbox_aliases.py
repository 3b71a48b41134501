"""`python`, `pip` and `pip3` work in every sandbox backend on a system that has only `python3`.

A real 1.5B run lost its finish to `python: not found` (bench/RESULTS.md): models type `python`.
Run for real through each backend usable here; the others' command lines are checked.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from hearth.core.protocols import ExecSpec
from hearth.sandbox.aliases import ALIASES, SANDBOX_ALIASES, alias_dir
from hearth.sandbox.backend import SANDBOX_PATH
from hearth.sandbox.choice import choose_sandbox
from hearth.sandbox.container import DockerBackend, PodmanBackend
from hearth.sandbox.limits import ResourceLimits
from hearth.sandbox.seatbelt import SeatbeltBackend
from requirements import backend_params

RUNNABLE = backend_params(("bwrap", "landlock", "process"))


def _run(backend: str, workspace: Path, command: str) -> tuple[int | None, str]:
    async def go() -> tuple[int | None, str]:
        choice = await choose_sandbox(backend, workspace)
        try:
            result = await choice.runner.run(ExecSpec(command, workspace, timeout=30))
        finally:
            await choice.runner.close()
        return result.exit_code, result.output

    return asyncio.run(go())


@pytest.mark.parametrize("backend", RUNNABLE)
def test_python_and_pip_spellings_run_python3(backend: str, workspace: Path) -> None:
    (workspace / "hello.py").write_text("print('hello from', __name__)\n")
    code, out = _run(
        backend, workspace, "python hello.py && python -c 'import sys; print(sys.version_info[0])'"
    )
    assert code == 0, out
    assert out.splitlines() == ["hello from __main__", "3"]
    for spelling in ("pip --version", "pip3 --version"):
        code, out = _run(backend, workspace, spelling)
        # `python3 -m pip`: either pip answers or python3 says plainly that pip is not installed
        assert "not found" not in out, out
        assert ("pip " in out and code == 0) or "No module named pip" in out, out


@pytest.mark.parametrize("backend", RUNNABLE)
def test_a_script_asking_for_env_python_runs(backend: str, workspace: Path) -> None:
    script = workspace / "tool.py"
    script.write_text("#!/usr/bin/env python\nprint(6 * 7)\n")
    script.chmod(0o755)
    code, out = _run(backend, workspace, "./tool.py")
    assert (code, out.strip()) == (0, "42")


@pytest.mark.parametrize("backend", [p for p in RUNNABLE if p.values[0] != "process"])
def test_a_command_cannot_rewrite_the_aliases(backend: str, workspace: Path) -> None:
    host = alias_dir()
    _code, out = _run(
        backend,
        workspace,
        f"for d in {host} {SANDBOX_ALIASES}; do echo 'echo pwned' > $d/python; done; python -c 'print(1)'",
    )
    assert out.strip().splitlines()[-1] == "1", out
    assert "pwned" not in (Path(host) / "python").read_text()


@pytest.mark.parametrize("backend", RUNNABLE)
def test_aliases_come_last_so_a_real_command_wins(backend: str, workspace: Path) -> None:
    _code, out = _run(backend, workspace, 'echo "$PATH"; command -v python3')
    path, python3 = out.strip().splitlines()
    assert path.startswith(SANDBOX_PATH + ":") and path.count(":") == SANDBOX_PATH.count(":") + 1
    assert not python3.startswith((SANDBOX_ALIASES, alias_dir()))


@pytest.mark.parametrize("cls", [PodmanBackend, DockerBackend])
def test_containers_mount_the_aliases_read_only(cls: type[PodmanBackend], tmp_path: Path) -> None:
    backend = cls(tmp_path, ResourceLimits())
    backend.image = "local/hearth-sandbox"
    argv = backend.argv(ExecSpec("python x.py", tmp_path, timeout=5))
    assert f"{alias_dir()}:{SANDBOX_ALIASES}:ro" in argv
    assert f"PATH={SANDBOX_PATH}:{SANDBOX_ALIASES}" in argv


def test_seatbelt_puts_the_aliases_on_path(tmp_path: Path) -> None:
    argv = SeatbeltBackend(tmp_path, ResourceLimits()).argv(ExecSpec("python x.py", tmp_path, timeout=5))
    assert f"PATH={SANDBOX_PATH}:{alias_dir()}" in argv


def test_each_alias_is_a_script_that_passes_its_arguments() -> None:
    folder = Path(alias_dir())
    for name, target in ALIASES.items():
        text = (folder / name).read_text()
        assert text.startswith("#!/bin/sh\n") and f'exec {target} "$@"' in text
        assert (folder / name).stat().st_mode & 0o777 == 0o755
