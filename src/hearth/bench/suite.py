"""Running the suite: every task, some trials each, with the model server's own prefill counts."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import time
from collections.abc import Callable
from pathlib import Path

from platformdirs import user_data_dir

from hearth.bench.report import BenchReport, TrialResult
from hearth.bench.runners import AgentRunner
from hearth.bench.tasks import BenchTask, check, prepare

_PREFIX_HIT = re.compile(r"(\d+) prefix-match hit, remaining (\d+) prompt tokens to eval")


def server_prefill(log: Path, start: int) -> tuple[int, int]:
    """(evaluated, cached) prompt tokens in llama-cpp-python's log after byte `start`."""
    with log.open("rb") as fh:
        fh.seek(start)
        text = fh.read().decode(errors="replace")
    hits = [(int(a), int(b)) for a, b in _PREFIX_HIT.findall(text)]
    return sum(b for _, b in hits), sum(a for a, _ in hits)


def wait_until_idle(model_url: str, timeout: float = 600) -> None:
    """After a timed-out agent is killed the server may still be generating its reply; a one-token
    request queues behind it, so it returns once the server is free for the next task."""
    import httpx  # only the bench needs it here

    with contextlib.suppress(httpx.HTTPError):
        httpx.post(
            model_url.rstrip("/") + "/chat/completions",
            timeout=timeout,
            json={"messages": [{"role": "user", "content": "ok"}], "max_tokens": 1},
        )


def run_suite(
    tasks: list[BenchTask],
    agent: str,
    runner: AgentRunner,
    trials: int,
    on_result: Callable[[TrialResult], None] | None = None,
    server_log: Path | None = None,
    model_url: str = "",
    out: Path | None = None,
) -> BenchReport:
    """Every task, `trials` times. With `out`, the results so far are written after each trial,
    so an interrupted run keeps what it measured."""
    report = BenchReport(agent)
    for task in tasks:
        for trial in range(1, trials + 1):
            ws = prepare(task)
            offset = server_log.stat().st_size if server_log else 0
            started = time.monotonic()
            code, timed_out, usage = runner(task, ws)
            seconds = time.monotonic() - started
            if timed_out and model_url:
                wait_until_idle(model_url)
            passed, output = check(task, ws, code)
            result = TrialResult(
                task.name,
                trial,
                agent,
                passed,
                code,
                seconds,
                timed_out=timed_out,
                check_output=output,
                **usage,
            )
            if server_log:
                time.sleep(1)  # let the server finish writing its last request's lines
                result.server_prefill_tokens, result.server_cached_tokens = server_prefill(server_log, offset)
            report.results.append(result)
            if out is not None:
                report.write(out)
            if on_result:
                on_result(result)
            if out is not None:
                keep_session_record(ws, out / "sessions" / f"{task.name}-{trial}")
            shutil.rmtree(ws, ignore_errors=True)
            state = state_folder(ws)
            if state is not None:
                shutil.rmtree(state, ignore_errors=True)  # a trial's state goes with it
    return report


def state_folder(ws: Path) -> Path | None:
    """The trial's state folder in the user's data folder, found as any reader of Hearth's files
    would: by the `where.json` that names the workspace (the bench imports none of Hearth)."""
    real = os.path.realpath(ws)
    for where in Path(user_data_dir("hearth")).glob("workspaces/*/where.json"):
        try:
            if json.loads(where.read_text()).get("workspace") == real:
                return where.parent
        except (OSError, ValueError):
            continue
    return None


def keep_session_record(ws: Path, dest: Path) -> None:
    """The agent's own record of the trial (`sessions.db` in the workspace's state folder, in the
    user's data folder the runner's `hearth` shares with this process: every event), kept beside
    the results so a failure can be read after the workspace is gone."""
    record = state_folder(ws)
    files = sorted(record.glob("sessions.db*")) if record is not None else []
    if files:
        dest.mkdir(parents=True, exist_ok=True)
        for f in files:
            shutil.copy2(f, dest / f.name)
