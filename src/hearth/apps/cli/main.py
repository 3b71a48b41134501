"""`hearth`: the command line."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from hearth.apps.cli.bench import bench_app
from hearth.apps.cli.bridge import bridge_app
from hearth.apps.cli.common import WorkspaceOpt, fail, load_cli_settings, open_session_store, usage
from hearth.apps.cli.mcp import mcp_app, mcp_server
from hearth.apps.cli.memory import memory_app
from hearth.apps.cli.ops import health, init, projects_app
from hearth.apps.cli.patches import patches_app
from hearth.apps.cli.pipeline import pilot, pipeline_app
from hearth.apps.cli.schedule import jobs_app, scheduler, submit, worker
from hearth.apps.cli.sessions import sessions_app
from hearth.apps.cli.startup import started
from hearth.apps.cli.typerfix import apply as apply_typer_fixes
from hearth.core.text import shown_url

if TYPE_CHECKING:
    from hearth.core.events import Finished
    from hearth.runtime.config import LoadedSettings
    from hearth.runtime.session import Runtime

apply_typer_fixes()
app = typer.Typer(
    name="hearth",
    help="Hearth: a local-first autonomous agent for OpenAI-compatible model servers.",
    invoke_without_command=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(sessions_app, name="sessions")
app.add_typer(bench_app, name="bench")
app.add_typer(mcp_app, name="mcp")
app.command("mcp-server")(mcp_server)
app.add_typer(memory_app, name="memory")
app.add_typer(pipeline_app, name="pipeline")
app.add_typer(projects_app, name="projects")
app.add_typer(jobs_app, name="jobs")
app.add_typer(bridge_app, name="bridge")
app.command()(scheduler)
app.command()(submit)
app.command()(worker)
app.add_typer(patches_app, name="patches")


@dataclass(frozen=True)
class RunOptions:
    task: str | None
    json_out: bool
    resume: str | None
    cont: bool
    plan: bool
    deep: bool
    budget: int | None
    permission: str | None  # given on the command line (a resumed session otherwise keeps its own)


LogLevelOpt = Annotated[
    str | None, typer.Option("--log-level", help="debug | info | warning | error | off (log file)")
]
LogFileOpt = Annotated[
    str | None,
    typer.Option("--log-file", help="JSON Lines log (default: logs/hearth.log in the state folder)"),
]


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
    budget: Annotated[
        int | None, typer.Option("--budget", help="Token budget (default for --deep: 200000)")
    ] = None,
    max_iterations: Annotated[
        int | None, typer.Option("--max-iterations", help="Model calls before stopping")
    ] = None,
    max_seconds: Annotated[float | None, typer.Option("--max-seconds", help="Wall-clock limit")] = None,
    model: Annotated[str | None, typer.Option("--model", "-m", help="Model name on the server")] = None,
    llm_url: Annotated[str | None, typer.Option("--llm-url", help="OpenAI-compatible server URL")] = None,
    tool_mode: Annotated[str | None, typer.Option("--tool-mode", help="auto | native | text")] = None,
    log_level: LogLevelOpt = None,
    log_file: LogFileOpt = None,
) -> None:
    """Do one task and exit: 0 done, 1 error, 2 limit, 3 blocked, 4 waiting, 130 interrupted."""
    import asyncio

    from hearth.core.errors import HearthError
    from hearth.history.continuation import StillWaiting

    if task is None and not (resume or cont):
        usage('Say what to do: hearth run "task" (or --resume ID to continue a session).')
    options = RunOptions(task, json_out, resume, cont, plan, deep, budget, permission)
    try:
        loaded = load_cli_settings(
            workspace=workspace,
            permission_mode=permission,
            max_iterations=max_iterations,
            max_seconds=max_seconds,
            model=model,
            llm_url=llm_url,
            tool_mode=tool_mode,
            log_level=log_level,
            log_file=log_file,
        )
        finished = asyncio.run(_run(loaded, options))
    except StillWaiting as exc:
        sys.stderr.write(f"{exc}\n")
        raise typer.Exit(4) from None
    except HearthError as exc:
        fail(exc)
    except KeyboardInterrupt:
        raise typer.Exit(130) from None
    raise typer.Exit(finished.exit_code)


def _warn_at_start(rt: Runtime) -> None:
    """What the sandbox cannot protect, and MCP servers that fail (they start in the background:
    each failure is said when it happens)."""
    if rt.sandbox.warning:
        sys.stderr.write(f"warning: {rt.sandbox.warning}\n")
    if rt.mcp:
        for line in rt.mcp.problems():
            sys.stderr.write(f"warning: MCP server {line}\n")

        def said(line: str) -> None:
            sys.stderr.write(f"warning: MCP server {line}\n")

        rt.mcp.on_problem = said


async def _run(loaded: LoadedSettings, opts: RunOptions) -> Finished:
    from hearth.sandbox.choice import test_ahead

    test_ahead(loaded.settings.sandbox.backend)  # while the rest imports
    from rich.console import Console

    from hearth.apps.cli.approve import ask_in_terminal, ask_plan_in_terminal
    from hearth.apps.cli.jsonl import dumps, event_lines
    from hearth.apps.cli.render import TerminalView
    from hearth.core.events import Event, ModelReply, ModelUsed, Notice, NoticeReason
    from hearth.runtime.conversation import open_conversation
    from hearth.runtime.reflection import wanted
    from hearth.runtime.session import check_workspace, open_runtime

    started()  # imported: the collector is on again (startup.py)
    settings = loaded.settings
    check_workspace(settings.workspace)
    resume = latest_session(settings.workspace) if opts.cont and not opts.resume else opts.resume
    interactive = not opts.json_out and sys.stdin.isatty()
    console = Console(highlight=False, soft_wrap=True)
    view = TerminalView(console)
    if not opts.json_out and settings.model.url == "":
        what = settings.model.embedded.path or settings.model.embedded.name
        console.print(f"[dim]No HEARTH_LLM_URL set: starting the embedded model ({what})…[/]")
    if not opts.json_out:
        for line in loaded.ignored_report():
            sys.stderr.write(f"warning: {line}\n")
    rt = await open_runtime(settings)
    _warn_at_start(rt)
    # The run's own `done` lines wait for the end of the run: what is recorded after a turn ends
    # (plan_ready, the mode going back after --plan) comes before them, and `done` is the last line.
    held: list[str] = []
    top: list[str] = []  # the run's session id, once it is open
    reflect_later = False
    try:

        def on_event(session_id: str, event: Event) -> None:
            if opts.json_out:
                for line in event_lines(session_id, event):
                    if line.get("type") == "done" and session_id in top:
                        held.append(dumps(line))
                    else:
                        print_line(dumps(line))
            else:
                view.on_session_event(session_id, event)

        def print_line(text: str) -> None:
            sys.stdout.write(text + "\n")
            sys.stdout.flush()

        session = open_conversation(
            rt,
            resume=resume,
            on_event=on_event,
            on_delta=None if opts.json_out else view.on_delta,
            approver=ask_in_terminal(console) if interactive else None,
            plan_approver=ask_plan_in_terminal(console) if interactive else None,
            permission_mode=settings.permissions.mode if opts.permission else None,
        )
        top.append(session.id)
        if resume and opts.json_out and session.started:
            on_event(session.id, session.started)
        if opts.json_out and loaded.ignored:
            # Shown, not recorded: the model never sees it.
            text = "\n".join(loaded.ignored_report())
            on_event(session.id, Notice(reason=NoticeReason.UNTRUSTED_SETTINGS, text=text))
        if not opts.json_out:
            console.print(
                f"[dim]session {session.id} · {rt.model.name} @ {shown_url(rt.server_url)} · "
                f"context {rt.profile.context_window} · {session.mode.value} mode · "
                f"sandbox {rt.sandbox.runner.name}[/]"
            )
        finished = await session.send(opts.task, plan=opts.plan, deep=opts.deep, budget=opts.budget)
        # What the session learned goes to memory, in a process of its own once this one has answered
        # (the embedded model server stops with this process: its sessions reflect when next opened).
        reflect_later = settings.model.url != "" and wanted(rt, session.agent.history)
        if not opts.json_out:
            u = rt.store.usage(session_id=session.id)
            estimated = any(
                isinstance(e, ModelReply | ModelUsed) and e.usage.estimated for e in session.events
            )
            view.usage_line(u.prompt_tokens, u.cached_tokens, u.completion_tokens, estimated)
        return finished
    finally:
        for text in held:
            print_line(text)
        await rt.aclose()
        if reflect_later:
            from hearth.runtime.reflect_later import start

            start(settings, top[0])


def latest_session(workspace: Path) -> str:
    """The id of the workspace's latest session, for --continue."""
    from hearth.core.errors import HearthError
    from hearth.runtime.session import open_store

    store = open_store(workspace)
    try:
        latest = store.latest()
    finally:
        store.close()
    if latest is None:
        raise HearthError(
            "There is no session to continue in this workspace.", "Start one with `hearth run`."
        )
    return latest


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
    from hearth.history.checkpoints import undo as undo_steps

    store, sid, root = open_session_store(workspace, session)
    try:
        step, changed = undo_steps(store, sid, root, steps)
    except HearthError as exc:
        fail(exc)
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
        loaded = load_cli_settings(workspace=workspace)
    except HearthError as exc:
        fail(exc)
    s = loaded.settings
    width = max(len(name) for name, _, _ in loaded.describe())
    for name, shown, source in loaded.describe():
        print(f"{name:<{width}} = {shown}    # {source}")
    if loaded.ignored:
        print()
        for line in loaded.ignored_report():
            print(line)
    print(f"\nuser config file: {user_config_path()}")
    if s.model.context_window:
        print(f"context window: {s.model.context_window} (configured)")
    elif s.model.url:
        try:
            base = normalize_base_url(s.model.url)
            info = asyncio.run(probe_server(base, s.model.api_key.get_secret_value(), s.model.name))
        except HearthError as exc:
            fail(exc)
        if info.context_window:
            print(f"context window: {info.context_window} (from {info.source})")
        else:
            print("context window: unknown (the server did not say; set HEARTH_CONTEXT_WINDOW)")
        if info.models:
            print(f"models on the server: {', '.join(info.models)}")
    else:
        print(f"context window: {s.model.embedded.context} (embedded model server)")


@app.command()
def doctor(workspace: WorkspaceOpt = None) -> None:
    """Check the setup: sandbox backend and what it isolates, model server, workspace, database, git."""
    import asyncio

    from hearth.apps.cli.doctor import run_checks
    from hearth.core.errors import HearthError

    try:
        loaded = load_cli_settings(workspace=workspace)
        checks = asyncio.run(run_checks(loaded.settings))
    except HearthError as exc:
        fail(exc)
    marks = {"ok": "✓", "warn": "!", "fail": "✗"}
    for check in checks:
        print(f"{marks[check.status]} {check.group:<10} {check.message}")
    for line in loaded.ignored_report():
        print(f"! {'trust':<10} {line}")
    if any(c.status == "fail" for c in checks):
        raise typer.Exit(1)


@app.command()
def trust(
    folder: Annotated[
        Path | None, typer.Argument(help="The folder to trust (default: the workspace)")
    ] = None,
    yes: Annotated[bool, typer.Option("--yes", help="Do not ask (for scripts)")] = False,
    remove: Annotated[bool, typer.Option("--untrust", help="Forget the trust given to the folder")] = False,
    show: Annotated[bool, typer.Option("--list", help="List the trusted folders")] = False,
    workspace: WorkspaceOpt = None,
) -> None:
    """Let a workspace's own .hearth/config.toml and .env choose modes, rules, sandbox and model server."""
    from hearth.apps.cli.trust import ask_at_terminal, list_trusted, trust_folder, untrust
    from hearth.core.errors import HearthError

    try:
        if show:
            list_trusted()
            return
        target = folder or workspace or load_cli_settings().settings.workspace
        if remove:
            print(untrust(target))
            return
        print(trust_folder(target, confirm=None if yes else ask_at_terminal))
    except HearthError as exc:
        fail(exc)


@app.command()
def web(
    workspace: WorkspaceOpt = None,
    port: Annotated[int, typer.Option("--port", help="Port to listen on")] = 8765,
    host: Annotated[
        str, typer.Option("--host", help="Address to listen on; 0.0.0.0 opens it to your network")
    ] = "127.0.0.1",
    log_level: LogLevelOpt = None,
    log_file: LogFileOpt = None,
    no_scheduler: Annotated[
        bool, typer.Option("--no-scheduler", help="Do not run the scheduler (jobs, WAIT wake-ups, inbox)")
    ] = False,
) -> None:
    """Serve the web UI, the HTTP/WebSocket API and an OpenAI-compatible endpoint (login required);
    the workspace's scheduler runs beside it unless --no-scheduler (or web_scheduler = false)."""
    from hearth.apps.web.serve import serve
    from hearth.core.errors import HearthError

    try:
        loaded = load_cli_settings(
            workspace=workspace,
            log_level=log_level,
            log_file=log_file,
            web_scheduler=False if no_scheduler else None,
        )
        for line in loaded.ignored_report():
            sys.stderr.write(f"warning: {line}\n")
        serve(loaded.settings, host, port)
    except HearthError as exc:
        fail(exc)


def _print_version(asked: bool) -> None:
    if asked:
        from importlib.metadata import version

        print(f"hearth {version('hearth')}")
        raise typer.Exit(0)


@app.callback()
def interactive(
    ctx: typer.Context,
    workspace: WorkspaceOpt = None,
    permission: Annotated[
        str | None, typer.Option("--permission", "-p", help="auto | normal | manual | plan")
    ] = None,
    resume: Annotated[
        str | None, typer.Option("--resume", "-r", help="Continue the session with this id")
    ] = None,
    cont: Annotated[bool, typer.Option("--continue", "-c", help="Continue the latest session")] = False,
    plan: Annotated[
        bool, typer.Option("--plan", help="Plan each message first (read-only), then ask to execute")
    ] = False,
    deep: Annotated[bool, typer.Option("--deep", help="Deep-work mode: task tree and token budget")] = False,
    budget: Annotated[
        int | None, typer.Option("--budget", help="Token budget (default for --deep: 200000)")
    ] = None,
    model: Annotated[str | None, typer.Option("--model", "-m", help="Model name on the server")] = None,
    llm_url: Annotated[str | None, typer.Option("--llm-url", help="OpenAI-compatible server URL")] = None,
    tool_mode: Annotated[str | None, typer.Option("--tool-mode", help="auto | native | text")] = None,
    log_level: LogLevelOpt = None,
    log_file: LogFileOpt = None,
    _version: Annotated[
        bool,
        typer.Option(
            "--version", help="Print Hearth's version and exit", callback=_print_version, is_eager=True
        ),
    ] = False,
) -> None:
    """With no command: an interactive session in the workspace (/help inside). It takes the
    flags of `hearth run` that make sense there: hearth -p auto, hearth --resume ID, hearth -c."""
    import asyncio

    if ctx.invoked_subcommand is not None:
        given = permission or resume or cont or plan or deep or budget or model or llm_url or tool_mode
        given = given or log_level or log_file
        if given:
            usage(f"Put the options after the command: hearth {ctx.invoked_subcommand} [OPTIONS].")
        return
    from hearth.apps.cli.repl import ReplOptions, repl
    from hearth.core.errors import HearthError

    try:

        def load() -> LoadedSettings:
            return load_cli_settings(
                workspace=workspace,
                permission_mode=permission,
                model=model,
                llm_url=llm_url,
                tool_mode=tool_mode,
                log_level=log_level,
                log_file=log_file,
            )

        loaded = load()
        session = _repl_session(loaded.settings.workspace, resume, cont)
        options = ReplOptions(
            resume=session,
            permission=loaded.settings.permissions.mode if permission else None,
            plan=plan,
            deep=deep,
            budget=budget,
        )
        asyncio.run(repl(loaded, options, load))
    except HearthError as exc:
        fail(exc)


def _repl_session(workspace: Path, resume: str | None, cont: bool) -> str | None:
    """The full id of the session to open (checked now, before the prompt), or None for a new one."""
    from hearth.runtime.session import check_workspace, open_store

    if not resume and not cont:
        return None
    check_workspace(workspace)
    if not resume:
        return latest_session(workspace)
    store = open_store(workspace)
    try:
        return store.resolve(resume)
    finally:
        store.close()


app.command("pilot")(pilot)
app.command("health")(health)
app.command("init")(init)


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--list-sessions":  # the seeds' flag
        sys.argv[1:2] = ["sessions"]
    if sys.argv[1:2] == ["run"]:  # what scripts start most: Typer builds only run's options, not all 125
        from typer._click.utils import _detect_program_name

        solo = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
        solo.command()(run)
        solo(args=sys.argv[2:], prog_name=f"{_detect_program_name()} run")
        return
    app()


if __name__ == "__main__":
    main()
