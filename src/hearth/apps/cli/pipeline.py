"""`hearth pipeline`: run plans from plans/*.md, look at the queue, retry, resume, cancel, report."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from hearth.apps.cli.common import WorkspaceOpt, fail, load_cli_settings
from hearth.core.text import shown_url

if TYPE_CHECKING:
    from hearth.pipeline.store import PipelineStore

pipeline_app = typer.Typer(help="The plan pipeline: plans/*.md in, planned, coded, verified and reviewed.")
PlanArg = Annotated[str | None, typer.Argument(help="A plan: #id, its path or its name (default: all)")]


def project_workspace(workspace: Path | None) -> Path | None:
    """--workspace, else (with no HEARTH_WORKSPACE) the project chosen with `hearth projects use`."""
    from hearth.apps.cli.projects import Projects
    from hearth.core.errors import HearthError
    from hearth.runtime.config import workspace_from_environment

    if workspace is not None or workspace_from_environment():
        return workspace
    try:
        return Projects().current_path()
    except HearthError:  # a broken registry: the default workspace, as if none were chosen
        return None


def _store(workspace: Path | None) -> tuple[PipelineStore, Path]:
    from hearth.core.errors import HearthError
    from hearth.pipeline.runner import open_pipeline_store
    from hearth.runtime.session import check_workspace

    try:
        settings = load_cli_settings(workspace=project_workspace(workspace)).settings
        check_workspace(settings.workspace)
        return open_pipeline_store(settings.workspace), settings.workspace
    except HearthError as exc:
        fail(exc)


def _say(line: str) -> None:
    sys.stderr.write(line + "\n")
    sys.stderr.flush()


@pipeline_app.command("run")
def run(
    workspace: WorkspaceOpt = None,
    once: Annotated[
        bool, typer.Option("--once", help="Stop when no work is left (else keep watching)")
    ] = False,
    max_attempts: Annotated[int, typer.Option("--max-attempts", min=1, help="Attempts per task")] = 3,
    no_git: Annotated[bool, typer.Option("--no-git", help="No commit per finished phase")] = False,
    poll: Annotated[float, typer.Option("--poll", min=0.05, help="Seconds between looks for work")] = 2.0,
    test_timeout: Annotated[
        float, typer.Option("--test-timeout", min=1, help="Seconds for the test command")
    ] = 600.0,
    batch: Annotated[
        bool,
        typer.Option(
            "--batch", help="Phase batching: all ready coding, then all reviewing (fewer model swaps)"
        ),
    ] = False,
    server_wait: Annotated[
        float,
        typer.Option(
            "--server-wait",
            min=0,
            help="With --once: seconds to wait for a model server that went away mid-work",
        ),
    ] = 300.0,
    branch_per_plan: Annotated[
        bool,
        typer.Option(
            "--branch-per-plan",
            help="Commit each plan on a branch of its own (hearth/plan-NAME), then go back to yours",
        ),
    ] = False,
) -> None:
    """Watch plans/*.md and work them: plan, code, verify, review (several runners may share a project)."""
    import asyncio

    from hearth.core.errors import HearthError
    from hearth.pipeline.runner import PipelineOptions, Runner, open_pipeline_store
    from hearth.runtime.session import open_runtime

    options = PipelineOptions(
        max_attempts=max_attempts,
        git=not no_git,
        test_timeout=test_timeout,
        poll=poll,
        batch=batch,
        server_wait=server_wait,
        branch_per_plan=branch_per_plan,
    )

    async def main() -> None:
        settings = load_cli_settings(workspace=project_workspace(workspace)).settings
        rt = await open_runtime(settings)
        store = open_pipeline_store(settings.workspace)
        try:
            models = None
            if rt.context_source.startswith("LM Studio"):
                from hearth.llm.urls import server_root
                from hearth.pipeline.lmstudio import LMStudioModels

                root = server_root(rt.server_url)
                models = await LMStudioModels.detect(root, settings.model.api_key.get_secret_value())
            runner = Runner(rt, store, options, _say, models)
            _say(
                f"runner {runner.owner} · {rt.model.name} @ {shown_url(rt.server_url)} · sandbox {rt.sandbox.runner.name}"
            )
            await runner.run(once=once)
        finally:
            store.close()
            await rt.aclose()

    try:
        asyncio.run(main())
    except HearthError as exc:
        fail(exc)
    except KeyboardInterrupt:
        raise typer.Exit(130) from None


@pipeline_app.command("preflight")
def preflight_cmd(
    plan: Annotated[Path, typer.Argument(help="The plan file, e.g. plans/x.md")],
    workspace: WorkspaceOpt = None,
) -> None:
    """Plan the plan (if not yet) and say whether each task fits the coder's context window (exit 1 if not)."""
    import asyncio

    from hearth.core.errors import HearthError
    from hearth.pipeline.preflight import OPENING_SHARE, Preflight, preflight
    from hearth.pipeline.runner import open_pipeline_store
    from hearth.runtime.session import open_runtime

    async def main() -> Preflight:
        settings = load_cli_settings(workspace=project_workspace(workspace)).settings
        rt = await open_runtime(settings)
        store = open_pipeline_store(settings.workspace)
        try:
            path = (
                plan
                if plan.is_absolute()
                else (settings.workspace / plan if not plan.exists() else plan.resolve())
            )
            return await preflight(rt, store, path)
        finally:
            store.close()
            await rt.aclose()

    try:
        result = asyncio.run(main())
    except HearthError as exc:
        fail(exc)
    mark = {True: "✓", False: "✗"}
    print(f"plan #{result.plan.id} {result.plan.path}: {result.plan.status} {result.plan.reason}".rstrip())
    p = result.planner
    print(f"{mark[p.fits]} planner: the plan takes {p.tokens} of {p.window} tokens")
    for t in result.tasks:
        print(f"{mark[t.fits]} {t.key}: {t.title}: opens with {t.tokens} of {t.window} tokens")
    if not result.ok:
        print(f"Not every part fits (a task's opening may take at most {OPENING_SHARE:.0%} of the window).")
        raise typer.Exit(1)
    print("Every task fits the coder's window.")


@pipeline_app.command("status")
def status(workspace: WorkspaceOpt = None, json_out: Annotated[bool, typer.Option("--json")] = False) -> None:
    """Plans and their tasks, with what each is doing or why it failed."""
    from hearth.pipeline.control import status_data, status_text

    store, _ = _store(workspace)
    data = status_data(store)
    store.close()
    print(json.dumps(data, indent=2) if json_out else status_text(data))


@pipeline_app.command("retry-failed")
def retry_failed(plan: PlanArg = None, workspace: WorkspaceOpt = None) -> None:
    """Failed tasks (and plans that failed in planning) back to the queue, attempts counted afresh."""
    from hearth.pipeline.control import retry

    _control(workspace, plan, retry)


@pipeline_app.command("resume")
def resume(plan: PlanArg = None, workspace: WorkspaceOpt = None) -> None:
    """Open cancelled plans again and release the claims of runners that are gone."""
    from hearth.pipeline.control import resume as do_resume

    _control(workspace, plan, do_resume)


@pipeline_app.command("cancel")
def cancel(plan: PlanArg = None, workspace: WorkspaceOpt = None) -> None:
    """Stop starting tasks of a plan (or of all); a task being worked finishes its attempt."""
    from hearth.pipeline.control import cancel as do_cancel

    _control(workspace, plan, do_cancel)


@pipeline_app.command("approve")
def approve(
    plan: Annotated[str, typer.Argument(help="The plan file: plans/NAME.md or NAME")],
    workspace: WorkspaceOpt = None,
) -> None:
    """Let the pipeline work a plan a Hearth session wrote (read it first): its content as it is now."""
    from hearth.core.errors import HearthError
    from hearth.runtime.plan_writes import approve_plan

    store, ws = _store(workspace)
    store.close()
    try:
        print(approve_plan(ws, plan))
    except HearthError as exc:
        fail(exc)


def _control(workspace: Path | None, plan: str | None, action: object) -> None:
    from collections.abc import Callable

    from hearth.core.errors import HearthError

    store, _ = _store(workspace)
    try:
        assert callable(action)
        do: Callable[[PipelineStore, str | None], str] = action
        print(do(store, plan))
    except HearthError as exc:
        fail(exc)
    finally:
        store.close()


@pipeline_app.command("report")
def report(workspace: WorkspaceOpt = None, json_out: Annotated[bool, typer.Option("--json")] = False) -> None:
    """Across the plans that ended: pass rate, rework rate, tokens per task (also written to pipeline/ in the state folder)."""
    from hearth.pipeline.control import write_summary

    store, root = _store(workspace)
    data, md = write_summary(store, root)
    store.close()
    print(json.dumps(data, indent=2) if json_out else md, end="" if not json_out else "\n")


def pilot(
    workspace: WorkspaceOpt = None,
    message: Annotated[
        str | None, typer.Option("--message", "-m", help="Say this, print the answer and exit")
    ] = None,
    resume_id: Annotated[str | None, typer.Option("--resume", "-r", help="Continue a Pilot session")] = None,
) -> None:
    """Pilot: chat about the pipeline; its only tools are the pipeline's controls (no shell)."""
    import asyncio

    from hearth.core.errors import HearthError
    from hearth.pipeline.pilot import open_pilot
    from hearth.pipeline.runner import open_pipeline_store
    from hearth.runtime.session import open_runtime

    async def main() -> None:
        settings = load_cli_settings(workspace=project_workspace(workspace)).settings
        rt = await open_runtime(settings)
        store = open_pipeline_store(settings.workspace)
        try:
            conv = open_pilot(rt, store, resume_id)
            _say(f"pilot session {conv.id} · tools: {', '.join(conv.agent.dispatcher.toolset.names())}")
            lines = [message] if message is not None else None
            while True:
                if lines is not None:
                    if not lines:
                        return
                    text = lines.pop(0)
                else:
                    try:
                        text = await asyncio.to_thread(input, "pilot> ")
                    except EOFError:
                        return
                    if text.strip() in ("/exit", "/quit"):
                        return
                    if not text.strip():
                        continue
                finished = await conv.send(text)
                print(finished.final_text or f"({finished.status.value}: {finished.reason})", flush=True)
        finally:
            store.close()
            await rt.aclose()

    try:
        asyncio.run(main())
    except HearthError as exc:
        fail(exc)
    except KeyboardInterrupt:
        raise typer.Exit(130) from None
