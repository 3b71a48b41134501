"""How each agent is run on a task: Hearth, mini-swe-agent, aider and smolagents, each through its
own command line in the task's workspace."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hearth.bench.tasks import BenchTask

AgentRunner = Callable[[BenchTask, Path], tuple[int | None, bool, dict[str, int | None]]]
"""Runs one agent on a task in a workspace: (exit code, timed out, usage counters)."""


def run_group(cmd: list[str], timeout: float, **kwargs: Any) -> subprocess.CompletedProcess[str]:
    """`subprocess.run` of an agent in a process group of its own, and the whole group killed when
    it ends or its time is up: a test run an agent started (an exercise's endless loop) outlived
    aider's run and took a core from the next tasks for half an hour. Raises TimeoutExpired."""
    with subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True, **kwargs
    ) as proc:
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            _kill_group(proc.pid)
            proc.communicate()
            raise
        finally:
            _kill_group(proc.pid)
        return subprocess.CompletedProcess(cmd, proc.returncode, out, err)


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


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
            proc = run_group(cmd, task.timeout + 30, env=env)
        except subprocess.TimeoutExpired:
            return None, True, {}
        usage = [m for m in _json_lines(proc.stdout) if m.get("type") == "usage"]
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
        # a reply's length, as Hearth and aider cap theirs: the 1.5B, asked by mini with no cap,
        # repeated itself until the server's window was full (9 minutes), and the server, which
        # finishes a request its client left, kept the next agent waiting all that time
        "-c",
        f"model.model_kwargs.max_tokens={MINI_MAX_TOKENS}",
        "-t",
        task,
    ]
    return cmd, env


MINI_MAX_TOKENS = 2048


def mini_runner(mini: str, model_url: str, step_limit: int = 15) -> AgentRunner:
    """mini-swe-agent from its own venv (note: it runs commands unsandboxed)."""

    def run(task: BenchTask, ws: Path) -> tuple[int | None, bool, dict[str, int | None]]:
        cmd, env = mini_command(mini, model_url, step_limit, task.prompt)
        try:
            proc = run_group(cmd, task.timeout, cwd=ws, env=env)
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
            proc = run_group(cmd, task.timeout, cwd=ws, env=env, stdin=subprocess.DEVNULL)
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
            proc = run_group(cmd, task.timeout, cwd=ws, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            return None, True, {}
        return proc.returncode, False, {}

    return run


def _json_lines(text: str) -> list[dict[str, Any]]:
    """The JSON objects of `hearth run --json`'s output (one a line; anything else is skipped)."""
    out = []
    for line in text.splitlines():
        with contextlib.suppress(ValueError):
            message = json.loads(line)
            if isinstance(message, dict):
                out.append(message)
    return out
