"""Operations commands: `hearth health`, `hearth init`, `hearth projects`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from hearth.apps.cli.common import WorkspaceOpt, fail, load_cli_settings


def health(
    workspace: WorkspaceOpt = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print the checks as JSON")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print nothing; the exit code says")] = False,
) -> None:
    """A short check for scripts and monitors: exit 0 when healthy, 1 when a check fails."""
    import asyncio
    import dataclasses

    from hearth.apps.cli.health import health as run_health
    from hearth.core.errors import HearthError

    try:
        checks = asyncio.run(run_health(load_cli_settings(workspace=workspace).settings))
    except HearthError as exc:
        fail(exc)
    if json_out:
        print(json.dumps([dataclasses.asdict(c) for c in checks]))
    elif not quiet:
        for c in checks:
            print(f"{c.status:<4} {c.group:<9} {c.message}")
    if any(c.status == "fail" for c in checks):
        raise typer.Exit(1)


def init(workspace: WorkspaceOpt = None) -> None:
    """Write a commented .hearth/config.toml and an example plan (never over existing files); add the project."""
    from hearth.apps.cli.projects import Projects
    from hearth.apps.cli.scaffold import init_project
    from hearth.core.errors import HearthError
    from hearth.runtime.session import check_workspace

    try:
        root = load_cli_settings(workspace=workspace).settings.workspace
        check_workspace(root)
        for rel, written in init_project(root):
            print(f"{'wrote' if written else 'kept '} {rel}")
        project = Projects().add(root)
    except HearthError as exc:
        fail(exc)
    print(f"Project {project.name!r} registered. Next: edit plans/example.md, then `hearth pipeline run`.")


projects_app = typer.Typer(help="A registry of projects; `use` picks the default for pipeline and pilot.")


@projects_app.callback(invoke_without_command=True)
def projects(ctx: typer.Context) -> None:
    """List the registered projects (* marks the one in use)."""
    if ctx.invoked_subcommand is not None:
        return
    from hearth.apps.cli.projects import Projects
    from hearth.core.errors import HearthError

    try:
        found, current = Projects().list()
    except HearthError as exc:
        fail(exc)
    if not found:
        print("No projects yet. Add one with `hearth projects add PATH` (or `hearth init` in it).")
    for p in found:
        mark = "*" if p.name == current else " "
        missing = "" if Path(p.path).is_dir() else "  (missing)"
        print(f"{mark} {p.name:<20} {p.path}{missing}")


@projects_app.command("add")
def projects_add(
    path: Annotated[Path, typer.Argument(help="The project's folder")],
    name: Annotated[str | None, typer.Option("--name", help="Default: the folder's name")] = None,
) -> None:
    """Register a project folder."""
    from hearth.apps.cli.projects import Projects
    from hearth.core.errors import HearthError

    try:
        project = Projects().add(path, name)
    except HearthError as exc:
        fail(exc)
    print(f"Added {project.name}: {project.path}")


@projects_app.command("use")
def projects_use(ref: Annotated[str, typer.Argument(help="A project's name or folder")]) -> None:
    """Make a project the default workspace of `hearth pipeline` and `hearth pilot`."""
    from hearth.apps.cli.projects import Projects
    from hearth.core.errors import HearthError

    try:
        project = Projects().use(ref)
    except HearthError as exc:
        fail(exc)
    print(f"Using {project.name}: {project.path}")
