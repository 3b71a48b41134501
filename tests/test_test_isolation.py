"""The test run never reads or writes the real user's config and data folders.

Tests used to leave `tool_modes.json` entries for scripted servers on random ports in the real
`~/.local/share/hearth`; conftest.py now points both folders at a temporary one for the whole run,
in the environment, so subprocesses use it too.
"""

from __future__ import annotations

import os
import pwd
import subprocess
import sys
from pathlib import Path

from hearth.runtime.config import user_config_path, user_data_path

REAL_HOME = Path(pwd.getpwuid(os.getuid()).pw_dir)  # not $HOME: a test may have changed that
REAL_FOLDERS = (REAL_HOME / ".local" / "share" / "hearth", REAL_HOME / ".config" / "hearth")


def _outside_the_real_folders(path: Path, user_dirs: Path) -> None:
    resolved = path.resolve()
    assert resolved.is_relative_to(user_dirs.resolve()), f"{resolved} is not under the test run's {user_dirs}"
    for real in REAL_FOLDERS:
        assert not resolved.is_relative_to(real.resolve()), f"{resolved} is the real user's {real}"


def test_the_user_folders_are_temporary_in_this_process(user_dirs: Path) -> None:
    _outside_the_real_folders(user_data_path(), user_dirs)
    _outside_the_real_folders(user_config_path(), user_dirs)
    assert user_dirs.resolve() != REAL_HOME.resolve() and not REAL_HOME.resolve().is_relative_to(user_dirs)


def test_a_subprocess_a_test_starts_uses_them_too(user_dirs: Path) -> None:
    code = (
        "from hearth.runtime.config import user_config_path, user_data_path\n"
        "print(user_data_path()); print(user_config_path())"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    data, config = out.stdout.splitlines()
    _outside_the_real_folders(Path(data), user_dirs)
    _outside_the_real_folders(Path(config), user_dirs)


def test_the_tool_mode_cache_goes_to_the_temporary_folder(user_dirs: Path) -> None:
    """What wrote into the real folder before: the remembered tool mode of a probed server."""
    import asyncio

    from hearth.llm.client import ClientSettings, OpenAICompatModel
    from hearth.llm.profiles import ToolMode
    from hearth.runtime.config import Settings
    from hearth.runtime.offer import probed_tool_mode
    from hearth.testing.server import ScriptedServer

    srv = ScriptedServer(tool_style="text").start()
    try:
        model = OpenAICompatModel(ClientSettings(base_url=srv.url, model="isolation-check"))

        async def probe() -> ToolMode:
            try:
                return await probed_tool_mode(Settings(), srv.url, model)
            finally:
                await model.aclose()

        assert asyncio.run(probe()) is ToolMode.TEXT and srv.probes
    finally:
        srv.stop()
    cache = user_data_path() / "tool_modes.json"
    assert cache.is_file() and f"{srv.url} isolation-check" in cache.read_text()
    _outside_the_real_folders(cache, user_dirs)
