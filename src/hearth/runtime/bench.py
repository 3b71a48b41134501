"""The task suite runner: each task in a fresh workspace, through an agent's own CLI, then its check.

A task is a folder with `task.toml` (prompt, check, timeout, optional setup and expected exit code)
and a `template/` copied into a temporary workspace. The check is a shell command run in that
workspace afterwards; exit 0 means pass. It sees the agent's exit code as $HEARTH_EXIT.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from hearth.core.errors import HearthError


@dataclass(frozen=True)
class BenchTask:
    name: str
    folder: Path
    prompt: str
    check: str
    timeout: float = 300
    setup: str = ""
    expect_exit: int | None = None


@dataclass
class TrialResult:
    task: str
    trial: int
    agent: str
    passed: bool
    exit_code: int | None
    seconds: float
    steps: int | None = None
    prompt_tokens: int | None = None
    cached_tokens: int | None = None
    completion_tokens: int | None = None
    timed_out: bool = False
    check_output: str = ""
    server_prefill_tokens: int | None = None  # prompt tokens the server evaluated (its own log)
    server_cached_tokens: int | None = None  # prompt tokens it took from its prefix cache


def load_tasks(folder: Path, only: str = "") -> list[BenchTask]:
    tasks = []
    for path in sorted(folder.glob("*/task.toml")):
        if only and only not in path.parent.name:
            continue
        data = tomllib.loads(path.read_text())
        tasks.append(
            BenchTask(
                name=path.parent.name,
                folder=path.parent,
                prompt=data["prompt"],
                check=data["check"],
                timeout=float(data.get("timeout", 300)),
                setup=data.get("setup", ""),
                expect_exit=data.get("expect_exit"),
            )
        )
    if not tasks:
        raise HearthError(f"No tasks (folders with task.toml) in {folder}.", "Point --tasks at bench/tasks.")
    return tasks


def _tool_env() -> dict[str, str]:
    """Checks and setups run with this Python as `python3` (it has pytest) and a git identity."""
    shim = Path(tempfile.gettempdir()) / "hearth-bench-bin"
    shim.mkdir(exist_ok=True)
    link = shim / "python3"
    if not link.exists():
        link.symlink_to(sys.executable)
    return {
        **os.environ,
        "PATH": f"{shim}:{os.environ.get('PATH', '')}",
        "GIT_AUTHOR_NAME": "bench",
        "GIT_AUTHOR_EMAIL": "bench@localhost",
        "GIT_COMMITTER_NAME": "bench",
        "GIT_COMMITTER_EMAIL": "bench@localhost",
    }


def prepare(task: BenchTask) -> Path:
    ws = Path(tempfile.mkdtemp(prefix=f"hearth-task-{task.name}-"))
    shutil.copytree(task.folder / "template", ws, dirs_exist_ok=True, ignore=shutil.ignore_patterns(".keep"))
    if task.setup:
        subprocess.run(
            ["/bin/sh", "-c", task.setup], cwd=ws, env=_tool_env(), check=True, capture_output=True
        )
    return ws


def check(task: BenchTask, ws: Path, exit_code: int | None) -> tuple[bool, str]:
    env = {**_tool_env(), "HEARTH_EXIT": "" if exit_code is None else str(exit_code)}
    proc = subprocess.run(
        ["/bin/sh", "-c", task.check], cwd=ws, env=env, capture_output=True, text=True, timeout=120
    )
    passed = proc.returncode == 0 and (task.expect_exit is None or exit_code == task.expect_exit)
    return passed, (proc.stdout + proc.stderr)[-500:]


AgentRunner = Callable[[BenchTask, Path], tuple[int | None, bool, dict[str, int | None]]]
"""Runs one agent on a task in a workspace: (exit code, timed out, usage counters)."""


def hearth_runner(model_url: str, model: str = "", extra_env: dict[str, str] | None = None) -> AgentRunner:
    def run(task: BenchTask, ws: Path) -> tuple[int | None, bool, dict[str, int | None]]:
        env = {**os.environ, "HEARTH_LLM_URL": model_url, "HEARTH_MODEL": model, **(extra_env or {})}
        cmd = [
            sys.executable,
            "-m",
            "hearth.apps.cli.main",
            "run",
            task.prompt,
            "-w",
            str(ws),
            "--json",
            "--permission",
            "auto",
            "--max-seconds",
            str(task.timeout),
        ]
        try:
            proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=task.timeout + 30)
        except subprocess.TimeoutExpired:
            return None, True, {}
        usage = [json.loads(line) for line in proc.stdout.splitlines() if '"type": "usage"' in line]
        return (
            proc.returncode,
            False,
            {
                "steps": len(usage),
                "prompt_tokens": sum(u["prompt_tokens"] for u in usage),
                "cached_tokens": sum(u["cached_tokens"] for u in usage),
                "completion_tokens": sum(u["completion_tokens"] for u in usage),
            },
        )

    return run


def mini_command(mini: str, model_url: str, step_limit: int, task: str) -> tuple[list[str], dict[str, str]]:
    """mini-swe-agent's text-based config pointed at `model_url` (its command line and environment)."""
    venv = Path(mini).resolve().parent.parent
    config = next(venv.glob("lib/python*/site-packages/minisweagent/config/mini_textbased.yaml"))
    env = {
        **os.environ,
        "MSWEA_CONFIGURED": "true",
        "MSWEA_COST_TRACKING": "ignore_errors",
        "LITELLM_LOCAL_MODEL_COST_MAP": "True",
    }
    cmd = [
        mini,
        "-y",
        "--exit-immediately",
        "-m",
        "openai/local",
        "--model-class",
        "litellm_textbased",
        "-c",
        str(config),
        "-c",
        f"agent.step_limit={step_limit}",
        "-c",
        f"model.model_kwargs.api_base={model_url}",
        "-c",
        "model.model_kwargs.api_key=x",
        "-t",
        task,
    ]
    return cmd, env


def mini_runner(mini: str, model_url: str, step_limit: int = 15) -> AgentRunner:
    """mini-swe-agent from its own venv (note: it runs commands unsandboxed)."""

    def run(task: BenchTask, ws: Path) -> tuple[int | None, bool, dict[str, int | None]]:
        cmd, env = mini_command(mini, model_url, step_limit, task.prompt)
        try:
            proc = subprocess.run(cmd, cwd=ws, env=env, capture_output=True, text=True, timeout=task.timeout)
        except subprocess.TimeoutExpired:
            return None, True, {}
        return proc.returncode, False, {}

    return run


def aider_command(aider: str, model_url: str, task: str, ws: Path) -> tuple[list[str], dict[str, str]]:
    """aider in its own way: the prompt as `--message`, the workspace's files added to the chat,
    `--yes-always`, whole-file edits (weak models do far better with them than with diffs); no git
    (tasks check git history themselves) and no network (update check, analytics, cost map)."""
    files = [
        str(p.relative_to(ws))
        for p in sorted(ws.rglob("*"))
        if p.is_file()
        and not any(part.startswith(".") for part in p.relative_to(ws).parts)
        and p.stat().st_size < 100_000
    ]
    env = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True", "OPENAI_API_KEY": "x"}
    cmd = [
        aider,
        "--model",
        "openai/local",
        "--openai-api-base",
        model_url,
        "--message",
        task,
        "--yes-always",
        "--edit-format",
        "whole",
        "--no-git",
        "--no-auto-commits",
        "--no-check-update",
        "--analytics-disable",
        "--no-show-model-warnings",
        "--no-pretty",
        "--no-fancy-input",
        "--no-gitignore",
        *files,
    ]
    return cmd, env


def aider_runner(aider: str, model_url: str) -> AgentRunner:
    """aider from its own venv (it applies edits itself; shell commands it suggests are not run)."""

    def run(task: BenchTask, ws: Path) -> tuple[int | None, bool, dict[str, int | None]]:
        cmd, env = aider_command(aider, model_url, task.prompt, ws)
        try:
            proc = subprocess.run(
                cmd,
                cwd=ws,
                env=env,
                capture_output=True,
                text=True,
                timeout=task.timeout,
                stdin=subprocess.DEVNULL,
            )
        except subprocess.TimeoutExpired:
            return None, True, {}
        return proc.returncode, False, {}

    return run


def smolagents_runner(python: str, script: Path, model_url: str, step_limit: int = 15) -> AgentRunner:
    """smolagents' ToolCallingAgent through `script` (bench/adapters/smolagents_agent.py), run by the
    python of a venv that has smolagents; its tools run unsandboxed in the task's workspace."""

    def run(task: BenchTask, ws: Path) -> tuple[int | None, bool, dict[str, int | None]]:
        cmd = [python, str(script.resolve()), "--url", model_url, "--max-steps", str(step_limit), task.prompt]
        try:
            proc = subprocess.run(
                cmd, cwd=ws, capture_output=True, text=True, timeout=task.timeout, stdin=subprocess.DEVNULL
            )
        except subprocess.TimeoutExpired:
            return None, True, {}
        return proc.returncode, False, {}

    return run


@dataclass
class BenchReport:
    agent: str
    results: list[TrialResult] = field(default_factory=list)

    def summary(self) -> dict[str, object]:
        by_task: dict[str, list[TrialResult]] = {}
        for r in self.results:
            by_task.setdefault(r.task, []).append(r)
        passed = [r.passed for r in self.results]
        return {
            "agent": self.agent,
            "tasks": len(by_task),
            "trials": len(self.results),
            "pass_rate": sum(passed) / len(passed) if passed else 0.0,
            "pass_at_k": sum(any(r.passed for r in rs) for rs in by_task.values()) / len(by_task)
            if by_task
            else 0.0,
            "median_seconds": statistics.median(r.seconds for r in self.results) if self.results else 0.0,
            "server_prefill_per_task": _mean([r.server_prefill_tokens for r in self.results]),
        }

    def markdown(self) -> str:
        s = self.summary()
        lines = [
            f"### {self.agent}: pass rate {s['pass_rate']:.0%}, pass@k {s['pass_at_k']:.0%} "
            f"({s['tasks']} tasks, {s['trials']} trials)",
            "",
            "| task | trial | pass | exit | steps | tokens in | cached | out | server prefill | server cached | seconds |",
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
        ]
        for r in self.results:

            def show(v: int | None) -> str:
                return "-" if v is None else str(v)

            exit_text = "timeout" if r.timed_out else show(r.exit_code)
            lines.append(
                f"| {r.task} | {r.trial} | {'yes' if r.passed else 'no'} | {exit_text} | {show(r.steps)} | "
                f"{show(r.prompt_tokens)} | {show(r.cached_tokens)} | {show(r.completion_tokens)} | "
                f"{show(r.server_prefill_tokens)} | {show(r.server_cached_tokens)} | {r.seconds:.0f} |"
            )
        return "\n".join(lines) + "\n"

    def write(self, out: Path) -> tuple[Path, Path]:
        out.mkdir(parents=True, exist_ok=True)
        data = {"summary": self.summary(), "results": [asdict(r) for r in self.results]}
        json_path, md_path = out / f"results-{self.agent}.json", out / f"results-{self.agent}.md"
        json_path.write_text(json.dumps(data, indent=2))
        md_path.write_text(self.markdown())
        return json_path, md_path


_PREFIX_HIT = re.compile(r"(\d+) prefix-match hit, remaining (\d+) prompt tokens to eval")


def server_prefill(log: Path, start: int) -> tuple[int, int]:
    """(evaluated, cached) prompt tokens in llama-cpp-python's log after byte `start`."""
    with log.open("rb") as fh:
        fh.seek(start)
        text = fh.read().decode(errors="replace")
    hits = [(int(a), int(b)) for a, b in _PREFIX_HIT.findall(text)]
    return sum(b for _, b in hits), sum(a for a, _ in hits)


def _mean(values: list[int | None]) -> float | None:
    known = [v for v in values if v is not None]
    return sum(known) / len(known) if known else None


def load_report(path: Path) -> BenchReport:
    data = json.loads(path.read_text())
    return BenchReport(data["summary"]["agent"], [TrialResult(**r) for r in data["results"]])


def side_by_side(reports: list[BenchReport]) -> str:
    """One table: each task's result for every agent, then the totals."""
    names = [r.agent for r in reports]
    tasks = sorted({t.task for r in reports for t in r.results})
    lines = ["| task | " + " | ".join(names) + " |", "| --- |" + " --- |" * len(names)]
    for task in tasks:
        cells = []
        for report in reports:
            mine = [t for t in report.results if t.task == task]
            passed = sum(t.passed for t in mine)
            prefill = _mean([t.server_prefill_tokens for t in mine])
            cell = f"{passed}/{len(mine)}" if mine else "-"
            cells.append(cell + (f" ({prefill:.0f} prefill)" if prefill is not None else ""))
        lines.append(f"| {task} | " + " | ".join(cells) + " |")
    totals = []
    for report in reports:
        s = report.summary()
        per_task = s["server_prefill_per_task"]
        totals.append(
            f"**{s['pass_rate']:.0%}** pass, pass@k {s['pass_at_k']:.0%}"
            + (f", {per_task:.0f} prefill tokens/task" if isinstance(per_task, float) else "")
        )
    lines.append("| all | " + " | ".join(totals) + " |")
    return "\n".join(lines) + "\n"


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
            shutil.rmtree(ws, ignore_errors=True)
    return report
