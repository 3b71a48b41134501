"""Reflection after `hearth run`, in a process of its own.

Reflecting is one more model request (many seconds with a local model): the command's answer must
never wait for it. `hearth run` prints its result, starts this module detached (its own session,
no terminal) and exits; this process opens the workspace again, reflects on the session's work
since its last reflection and records the `Reflected` event in the session's log, as the REPL and
the web server do in-process. The workspace is the working directory and the command-line settings
come in the environment, so no path or setting shows in the process list.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hearth.core import environment

if TYPE_CHECKING:
    from hearth.runtime.config import Settings

FLAGS_ENV = environment.REFLECT_FLAGS


def start(settings: Settings, session_id: str) -> subprocess.Popen[bytes]:
    """Start the reflection on `session_id` detached, with the server and model `settings` use
    (they may have come from the command line, which this process does not see)."""
    chosen: dict[str, Any] = {"llm_url": settings.model.url, "model": settings.model.name or None}
    env = {**os.environ, FLAGS_ENV: json.dumps({k: v for k, v in chosen.items() if v})}
    workspace = settings.workspace
    return subprocess.Popen(
        [sys.executable, "-m", "hearth.runtime.reflect_later", session_id],
        cwd=workspace,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # not in the terminal's process group: Ctrl+C there does not reach it
    )


async def _reflect(session_id: str) -> None:
    from hearth.runtime.config import load_settings
    from hearth.runtime.conversation import open_conversation
    from hearth.runtime.plan_writes import record_none
    from hearth.runtime.reflection import reflect
    from hearth.runtime.session import open_runtime

    flags = {**json.loads(environment.reflect_flags() or "{}"), "workspace": Path.cwd()}
    rt = await open_runtime(load_settings(flags).settings, probe=False, mcp=False)
    record_none(rt.sandbox.runner.watchers)  # runs no tool: a plan written meanwhile is a person's
    try:
        conversation = open_conversation(rt, resume=session_id)
        seen = len(conversation.agent.history)

        def current() -> bool:  # no new turn began in the session while the model answered
            return len(rt.store.events(conversation.id)) == seen

        await reflect(rt, conversation, current)
    finally:
        await rt.aclose()


if __name__ == "__main__":
    asyncio.run(_reflect(sys.argv[1]))
