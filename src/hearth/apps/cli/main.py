"""`hearth`: the command line."""

from __future__ import annotations

import dataclasses
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from hearth.core.events import Finished
    from hearth.runtime.config import LoadedSettings

app = typer.Typer(
    name="hearth",
    help="Hearth: a local-first autonomous agent for OpenAI-compatible model servers.",
    invoke_without_command=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
sessions_app = typer.Typer(help="List and inspect past sessions.", invoke_without_command=True)
app.add_typer(sessions_app, name="sessions")
bench_app = typer.Typer(help="Run the task suite against a model server.", no_args_is_help=True)
app.add_typer(bench_app, name="bench")

WorkspaceOpt = Annotated[Path | None, typer.Option("--workspace", "-w", help="Folder the agent works in")]


def _fail(exc: Exception) -> None:
    sys.stderr.write(f"error: {exc}\n")
    raise typer.Exit(1)


def _settings(**flags: Any) -> LoadedSettings:
    from hearth.runtime.config import load_settings

    return load_settings(flags)


@dataclass(frozen=True)
class RunOptions:
    task: str | None
    json_out: bool
    resume: str | None
    cont: bool
    plan: bool
    deep: bool
    budget: int


@app.command()
def run(
    task: Annotated[str | None, typer.Argument(help="What to do, in plain language")] = None,
    workspace: WorkspaceOpt = None,
    permission: Annotated[
        str | None, typer.Option("--permission", "-p", help="auto | normal | manual | plan")
    ] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print JSON Lines events only")] = False,
    resume: Annotated[
        str | None, typer.Option("--resume", "-r", help="Continue the session with this id")
    ] = None,
    cont: Annotated[bool, typer.Option("--continue", "-c", help="Continue the latest session")] = False,
    plan: Annotated[bool, typer.Option("--plan", help="Plan first (read-only), then ask to execute")] = False,
    deep: Annotated[bool, typer.Option("--deep", help="Deep-work mode: task tree and token budget")] = False,
    budget: Annotated[int, typer.Option("--budget", help="Token budget for --deep")] = 200_000,
    max_iterations: Annotated[
        int | None, typer.Option("--max-iterations", help="Model calls before stopping")
    ] = None,
    max_seconds: Annotated[float | None, typer.Option("--max-seconds", help="Wall-clock limit")] = None,
    model: Annotated[str | None, typer.Option("--model", "-m", help="Model name on the server")] = None,
    llm_url: Annotated[str | None, typer.Option("--llm-url", help="OpenAI-compatible server URL")] = None,
    tool_mode: Annotated[str | None, typer.Option("--tool-mode", help="auto | native | text")] = None,
) -> None:
    """Do one task and exit: 0 done, 1 error, 2 limit, 3 blocked, 4 waiting, 130 interrupted."""
    import asyncio

    from hearth.core.errors import HearthError
    from hearth.runtime.continuation import StillWaiting

    if task is None and not (resume or cont):
        _fail(ValueError('Say what to do: hearth run "task" (or --resume ID to continue a session).'))
    options = RunOptions(task, json_out, resume, cont, plan, deep, budget)
    try:
        loaded = _settings(
            workspace=workspace,
            permission_mode=permission,
            max_iterations=max_iterations,
            max_seconds=max_seconds,
            model=model,
            llm_url=llm_url,
            tool_mode=tool_mode,
        )
        finished = asyncio.run(_run(loaded, options))
    except StillWaiting as exc:
        sys.stderr.write(f"{exc}\n")
        raise typer.Exit(4) from None
    except HearthError as exc:
        _fail(exc)
    except KeyboardInterrupt:
        raise typer.Exit(130) from None
    raise typer.Exit(finished.exit_code)


async def _run(loaded: LoadedSettings, opts: RunOptions) -> Finished:
    from rich.console import Console

    from hearth.apps.cli.approve import ask_in_terminal, ask_plan_in_terminal
    from hearth.apps.cli.jsonl import dumps, event_lines
    from hearth.apps.cli.render import TerminalView
    from hearth.core.errors import HearthError
    from hearth.core.events import Event, ModelReply
    from hearth.prompts import render
    from hearth.runtime.continuation import continuation
    from hearth.runtime.plan_mode import run_plan
    from hearth.runtime.session import check_workspace, open_runtime, open_store, start_agent

    settings = loaded.settings
    check_workspace(settings.workspace)
    resume = opts.resume
    if opts.cont and not resume:
        store = open_store(settings.workspace)
        resume = store.latest()
        store.close()
        if resume is None:
            raise HearthError(
                "There is no session to continue in this workspace.", "Start one with `hearth run`."
            )
    interactive = not opts.json_out and sys.stdin.isatty()
    console = Console(highlight=False, soft_wrap=True)
    view = TerminalView(console)
    if not opts.json_out and settings.llm_url == "":
        console.print("[dim]No HEARTH_LLM_URL set: starting the embedded model (Qwen2.5-Coder 0.5B)…[/]")
    rt = await open_runtime(settings)
    if rt.sandbox.warning:
        sys.stderr.write(f"warning: {rt.sandbox.warning}\n")
    try:

        def on_event(session_id: str, event: Event) -> None:
            if opts.json_out:
                for line in event_lines(session_id, event):
                    sys.stdout.write(dumps(line) + "\n")
                sys.stdout.flush()
            else:
                view.on_event(event)

        agent = start_agent(
            rt,
            resume=resume,
            on_event=on_event,
            on_delta=None if opts.json_out else view.on_delta,
            approver=ask_in_terminal(console) if interactive else None,
            budget=opts.budget if opts.deep else None,
        )
        if resume and opts.json_out:
            on_event(agent.session_id, next(e for e in agent.history if e.kind == "session_started"))
        if not opts.json_out:
            console.print(
                f"[dim]session {agent.session_id} · {rt.model.name} @ {rt.server_url} · "
                f"context {rt.profile.context_window} · {settings.permission_mode.value} mode · "
                f"sandbox {rt.sandbox.runner.name}[/]"
            )
        message = opts.task if opts.task is not None else continuation(agent.history)
        if opts.deep:
            message = render("deep_work", budget=opts.budget, task=message)
        if opts.plan:
            approve = ask_plan_in_terminal(console) if interactive else None
            finished = await run_plan(agent, message, approve, settings.permission_mode)
        else:
            finished = await agent.run(message)
        if not opts.json_out:
            u = rt.store.usage(session_id=agent.session_id)
            estimated = any(isinstance(e, ModelReply) and e.usage.estimated for e in agent.history)
            view.usage_line(u.prompt_tokens, u.cached_tokens, u.completion_tokens, estimated)
        return finished
    finally:
        await rt.aclose()


@sessions_app.callback()
def sessions(
    ctx: typer.Context,
    workspace: WorkspaceOpt = None,
) -> None:
    """List the sessions of the workspace (newest first)."""
    if ctx.invoked_subcommand is not None:
        return
    from hearth.core.errors import HearthError
    from hearth.runtime.session import check_workspace, open_store

    try:
        settings = _settings(workspace=workspace).settings
        check_workspace(settings.workspace)
        store = open_store(settings.workspace)
    except HearthError as exc:
        _fail(exc)
    infos = store.list_sessions()
    store.close()
    if not infos:
        print('No sessions yet in this workspace. Start one with `hearth run "task"`.')
        return
    print(f"{'id':<22}  {'status':<10}  {'updated':<16}  {'tokens in/cached/out':>22}  title")
    for s in infos:
        status = s.status + (f" until {s.wake_at[:16]}" if s.wake_at else "")
        tokens = f"{s.prompt_tokens}/{s.cached_tokens}/{s.completion_tokens}"
        updated = s.updated[:16].replace("T", " ")
        print(f"{s.id:<22}  {status:<10}  {updated:<16}  {tokens:>22}  {s.title}")


@sessions_app.command("show")
def sessions_show(
    session_id: Annotated[str, typer.Argument(help="Session id (a unique prefix is enough)")],
    workspace: WorkspaceOpt = None,
) -> None:
    """Print a session's events as JSON Lines."""
    from hearth.apps.cli.jsonl import dumps, event_lines
    from hearth.core.errors import HearthError
    from hearth.runtime.session import check_workspace, open_store

    try:
        settings = _settings(workspace=workspace).settings
        check_workspace(settings.workspace)
        store = open_store(settings.workspace)
        sid = store.resolve(session_id)
    except HearthError as exc:
        _fail(exc)
    for event in store.events(sid):
        for line in event_lines(sid, event):
            sys.stdout.write(dumps(line) + "\n")
    store.close()


@sessions_app.command("export")
def sessions_export(
    session_id: Annotated[str, typer.Argument(help="Session id (a unique prefix is enough)")],
    fmt: Annotated[str, typer.Option("--format", "-f", help="md | json")] = "md",
    workspace: WorkspaceOpt = None,
) -> None:
    """Print a session as Markdown (readable) or JSON (every event, for tools)."""
    from hearth.core.errors import HearthError
    from hearth.runtime.export import to_markdown
    from hearth.runtime.session import check_workspace, open_store

    if fmt not in ("md", "json"):
        _fail(ValueError(f"Unknown format {fmt!r}: use md or json."))
    try:
        settings = _settings(workspace=workspace).settings
        check_workspace(settings.workspace)
        store = open_store(settings.workspace)
        sid = store.resolve(session_id)
    except HearthError as exc:
        _fail(exc)
    events = store.events(sid)
    title = store.get(sid).title
    store.close()
    if fmt == "md":
        sys.stdout.write(to_markdown(events, f"{title} ({sid})"))
    else:
        sys.stdout.write(
            json.dumps(
                {"id": sid, "title": title, "events": [e.model_dump(mode="json") for e in events]},
                indent=2,
                ensure_ascii=False,
            )
            + "\n"
        )


@sessions_app.command("rm")
def sessions_rm(
    session_id: Annotated[str, typer.Argument(help="Session id (a unique prefix is enough)")],
    workspace: WorkspaceOpt = None,
) -> None:
    """Delete a session and all its events."""
    from hearth.core.errors import HearthError
    from hearth.runtime.session import check_workspace, open_store

    try:
        settings = _settings(workspace=workspace).settings
        check_workspace(settings.workspace)
        store = open_store(settings.workspace)
        sid = store.resolve(session_id)
    except HearthError as exc:
        _fail(exc)
    store.delete(sid)
    store.close()
    print(f"Deleted session {sid}.")


@app.command()
def undo(
    steps: Annotated[int, typer.Argument(help="How many changing steps to go back")] = 1,
    session: Annotated[
        str | None, typer.Option("--session", "-s", help="Session id (default: the latest)")
    ] = None,
    workspace: WorkspaceOpt = None,
) -> None:
    """Put the workspace back as it was before the agent's last step(s) that changed files."""
    from hearth.core.errors import HearthError
    from hearth.runtime.checkpoints import undo as undo_steps
    from hearth.runtime.session import check_workspace, open_store

    try:
        settings = _settings(workspace=workspace).settings
        check_workspace(settings.workspace)
        store = open_store(settings.workspace)
        sid = store.resolve(session) if session else store.latest()
        if sid is None:
            raise HearthError("There are no sessions in this workspace.", "Nothing to undo.")
        step, changed = undo_steps(store, sid, settings.workspace, steps)
    except HearthError as exc:
        _fail(exc)
    store.close()
    print(
        f"Restored the workspace to before step {step} of {sid}: {', '.join(changed) or 'no file had changed'}."
    )


@app.command()
def config(workspace: WorkspaceOpt = None) -> None:
    """Print the effective settings (secrets masked), where each came from, and the context window."""
    import asyncio

    from hearth.core.errors import HearthError
    from hearth.llm.server_info import probe_server
    from hearth.llm.urls import normalize_base_url
    from hearth.runtime.config import user_config_path

    try:
        loaded = _settings(workspace=workspace)
    except HearthError as exc:
        _fail(exc)
    s = loaded.settings
    width = max(len(name) for name, _, _ in loaded.describe())
    for name, shown, source in loaded.describe():
        print(f"{name:<{width}} = {shown}    # {source}")
    print(f"\nuser config file: {user_config_path()}")
    if s.context_window:
        print(f"context window: {s.context_window} (configured)")
    elif s.llm_url:
        try:
            base = normalize_base_url(s.llm_url)
            info = asyncio.run(probe_server(base, s.api_key.get_secret_value(), s.model))
        except HearthError as exc:
            _fail(exc)
        if info.context_window:
            print(f"context window: {info.context_window} (from {info.source})")
        else:
            print("context window: unknown (the server did not say; set HEARTH_CONTEXT_WINDOW)")
        if info.models:
            print(f"models on the server: {', '.join(info.models)}")
    else:
        print(f"context window: {s.embedded_context} (embedded model server)")


@app.command()
def doctor(workspace: WorkspaceOpt = None) -> None:
    """Check the setup: sandbox backend and what it isolates, model server, workspace, database, git."""
    import asyncio

    from hearth.core.errors import HearthError
    from hearth.runtime.doctor import run_checks

    try:
        checks = asyncio.run(run_checks(_settings(workspace=workspace).settings))
    except HearthError as exc:
        _fail(exc)
    marks = {"ok": "✓", "warn": "!", "fail": "✗"}
    for check in checks:
        print(f"{marks[check.status]} {check.group:<10} {check.message}")
    if any(c.status == "fail" for c in checks):
        raise typer.Exit(1)


@bench_app.command("run")
def bench_run(
    model_url: Annotated[str, typer.Option("--model-url", help="OpenAI-compatible server for the agent")],
    tasks: Annotated[Path, typer.Option("--tasks", help="Folder of tasks")] = Path("bench/tasks"),
    trials: Annotated[int, typer.Option("--trials", help="Runs per task")] = 1,
    agent: Annotated[str, typer.Option("--agent", help="hearth | mini")] = "hearth",
    mini: Annotated[str, typer.Option("--mini", help="mini-swe-agent's `mini` executable")] = "mini",
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
    from hearth.core.errors import HearthError
    from hearth.runtime.bench import hearth_runner, load_tasks, mini_runner, run_suite

    try:
        task_list = load_tasks(tasks, only)
    except HearthError as exc:
        _fail(exc)
    if timeout:
        task_list = [dataclasses.replace(t, timeout=timeout) for t in task_list]
    extra = {"HEARTH_MAX_ITERATIONS": str(max_iterations)} if max_iterations else {}
    steps = max_iterations or 15
    runner = (
        hearth_runner(model_url, model, extra) if agent == "hearth" else mini_runner(mini, model_url, steps)
    )

    def show(r: object) -> None:
        from hearth.runtime.bench import TrialResult

        assert isinstance(r, TrialResult)
        print(
            f"{'PASS' if r.passed else 'fail'}  {r.task} #{r.trial}  exit {r.exit_code}  {r.seconds:.0f}s",
            flush=True,
        )

    report = run_suite(
        task_list, agent, runner, trials, on_result=show, server_log=server_log, model_url=model_url
    )
    json_path, md_path = report.write(out)
    s = report.summary()
    print(
        f"\n{agent}: pass rate {s['pass_rate']:.0%}, pass@{trials} {s['pass_at_k']:.0%}; wrote {json_path} and {md_path}"
    )


@app.callback()
def interactive(ctx: typer.Context, workspace: WorkspaceOpt = None) -> None:
    """With no command: an interactive session in the workspace (/help inside)."""
    import asyncio

    if ctx.invoked_subcommand is not None:
        return
    from hearth.apps.cli.repl import repl
    from hearth.core.errors import HearthError

    try:
        asyncio.run(repl(_settings(workspace=workspace)))
    except HearthError as exc:
        _fail(exc)


@bench_app.command("table")
def bench_table(
    results: Annotated[list[Path], typer.Argument(help="results-*.json files from bench run")],
) -> None:
    """Print several agents' results side by side as one Markdown table."""
    from hearth.runtime.bench import load_report, side_by_side

    print(side_by_side([load_report(p) for p in results]), end="")


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--list-sessions":  # the seeds' flag
        sys.argv[1:2] = ["sessions"]
    app()


if __name__ == "__main__":
    main()
