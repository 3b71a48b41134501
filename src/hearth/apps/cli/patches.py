"""`hearth patches`: review the changes the agent proposed with create_patch, then apply or reject them."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer

from hearth.apps.cli.common import WorkspaceOpt, fail

patches_app = typer.Typer(
    help="Review, apply or reject patches the agent proposed.", invoke_without_command=True
)
IdArg = Annotated[int, typer.Argument(help="The patch's number (from `hearth patches list`)")]


def _patches(workspace: Path | None):  # type: ignore[no-untyped-def]
    from hearth.history.patches import Patches

    return Patches((workspace or Path.cwd()).resolve())


@patches_app.callback()
def patches(ctx: typer.Context) -> None:
    """Patches the agent proposed (nothing changes until you apply one)."""
    if ctx.invoked_subcommand is None:
        print(ctx.get_help())


@patches_app.command("list")
def list_patches(workspace: WorkspaceOpt = None) -> None:
    """Every proposal, oldest first, with its status."""
    found = _patches(workspace).list()
    if not found:
        print("No patches proposed.")
    for p in found:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(p.created))
        print(f"{p.id:>4}  {p.status:<9}  {when}  {', '.join(p.files)[:60]}  {p.note[:60]}")


@patches_app.command("show")
def show(number: IdArg, workspace: WorkspaceOpt = None) -> None:
    """The proposal's note and diff."""
    from hearth.core.errors import HearthError

    store = _patches(workspace)
    try:
        patch, diff = store.get(number), store.diff(number)
    except HearthError as exc:
        fail(exc)
    print(f"patch {patch.id}  {patch.status}  session {patch.session or '-'}")
    if patch.note:
        print(patch.note)
    print()
    print(diff, end="")


@patches_app.command("apply")
def apply(number: IdArg, workspace: WorkspaceOpt = None) -> None:
    """Apply it to the workspace with git apply (checked first: all or nothing)."""
    from hearth.core.errors import HearthError

    try:
        patch = _patches(workspace).apply(number)
    except HearthError as exc:
        fail(exc)
    print(f"Applied patch {number} ({', '.join(patch.files)}).")


@patches_app.command("reject")
def reject(number: IdArg, workspace: WorkspaceOpt = None) -> None:
    """Mark it rejected; nothing changes."""
    from hearth.core.errors import HearthError

    try:
        _patches(workspace).reject(number)
    except HearthError as exc:
        fail(exc)
    print(f"Rejected patch {number}.")
