"""`hearth bench`: the task suite against a model server, and tables of its results."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Annotated

import typer

from hearth.apps.cli.common import fail

bench_app = typer.Typer(help="Run the task suite against a model server.", no_args_is_help=True)


@bench_app.command("run")
def bench_run(
    model_url: Annotated[str, typer.Option("--model-url", help="OpenAI-compatible server for the agent")],
    tasks: Annotated[Path, typer.Option("--tasks", help="Folder of tasks")] = Path("bench/tasks"),
    trials: Annotated[int, typer.Option("--trials", help="Runs per task")] = 1,
    agent: Annotated[str, typer.Option("--agent", help="hearth | mini | aider | smolagents")] = "hearth",
    mini: Annotated[str, typer.Option("--mini", help="mini-swe-agent's `mini` executable")] = "mini",
    aider: Annotated[str, typer.Option("--aider", help="aider's executable")] = "aider",
    smolagents: Annotated[
        str, typer.Option("--smolagents-python", help="python of a venv with smolagents installed")
    ] = "python3",
    adapter: Annotated[
        Path, typer.Option("--smolagents-adapter", help="the adapter script for smolagents")
    ] = Path("bench/adapters/smolagents_agent.py"),
    model: Annotated[str, typer.Option("--model", help="Model name on the server")] = "",
    only: Annotated[str, typer.Option("--only", help="Only tasks whose name contains this")] = "",
    out: Annotated[Path, typer.Option("--out", help="Where results go")] = Path("bench/out"),
    timeout: Annotated[
        float | None, typer.Option("--timeout", help="Seconds per task (overrides task.toml)")
    ] = None,
    max_iterations: Annotated[
        int | None, typer.Option("--max-iterations", help="Hearth's step limit")
    ] = None,
    server_log: Annotated[
        Path | None, typer.Option("--server-log", help="llama-cpp-python's log, for its own prefill counts")
    ] = None,
) -> None:
    """Run each task in a fresh workspace through the agent's CLI, check it, write JSON and Markdown."""
    from hearth.bench.runners import (
        AgentRunner,
        aider_runner,
        hearth_runner,
        mini_runner,
        smolagents_runner,
    )
    from hearth.bench.suite import run_suite
    from hearth.bench.tasks import load_tasks
    from hearth.core.errors import HearthError

    try:
        task_list = load_tasks(tasks, only)
    except HearthError as exc:
        fail(exc)
    if timeout:
        task_list = [dataclasses.replace(t, timeout=timeout) for t in task_list]
    extra = {"HEARTH_MAX_ITERATIONS": str(max_iterations)} if max_iterations else {}
    steps = max_iterations or 15
    runners: dict[str, AgentRunner] = {
        "hearth": hearth_runner(model_url, model, extra),
        "mini": mini_runner(mini, model_url, steps),
        "aider": aider_runner(aider, model_url),
        "smolagents": smolagents_runner(smolagents, adapter, model_url, steps),
    }
    if agent not in runners:
        fail(HearthError(f"Unknown agent {agent!r}.", "Use hearth, mini, aider or smolagents."))
    runner = runners[agent]

    def show(r: object) -> None:
        from hearth.bench.report import TrialResult

        assert isinstance(r, TrialResult)
        print(
            f"{'PASS' if r.passed else 'fail'}  {r.task} #{r.trial}  exit {r.exit_code}  {r.seconds:.0f}s",
            flush=True,
        )

    report = run_suite(
        task_list, agent, runner, trials, on_result=show, server_log=server_log, model_url=model_url, out=out
    )
    json_path, md_path = report.write(out)
    s = report.summary()
    print(
        f"\n{agent}: pass rate {s['pass_rate']:.0%}, pass@{trials} {s['pass_at_k']:.0%}; wrote {json_path} and {md_path}"
    )


@bench_app.command("table")
def bench_table(
    results: Annotated[list[Path], typer.Argument(help="results-*.json files from bench run")],
) -> None:
    """Print several agents' results side by side as one Markdown table."""
    from hearth.bench.report import load_report, side_by_side

    print(side_by_side([load_report(p) for p in results]), end="")
