"""`hearth trust`: let a folder's own files choose Hearth's safety settings, after a person said so.

The person sees exactly the settings that need trust (secrets masked) and
answers at a terminal; a script must say `--yes`. What is recorded is the
folder and a fingerprint of those settings, in the user's config folder; if
they change while the question is on the screen, nothing is recorded.

The model could type `hearth trust --yes` too. In an isolating sandbox that
writes nothing real: the user's config folder is hidden (bwrap) or not writable
(Landlock). Under the process runner, which isolates nothing, every shell
command asks the person first (agent/policy.py), so that command is theirs to
refuse. There is no "inside the sandbox" marker to check: the model could
unset it, or write the trust file without this command.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from hearth.core.errors import HearthError
from hearth.runtime.config import LoadedSettings, folder_settings, trust_store
from hearth.runtime.skills import workspace_skills
from hearth.runtime.trust import FolderSettings


def describe(fs: FolderSettings) -> list[str]:
    return [f"  {name} = {value}    # {source}" for source, name, value in fs.needing_trust()]


def list_trusted(write: Callable[[str], object] = print) -> None:
    store = trust_store()
    records = store.records()
    if not records:
        write(f"No trusted workspaces (the list lives in {store.path}).")
        return
    for folder, rec in records.items():
        path = Path(folder)
        state = "missing"
        if path.is_dir():
            state = "as trusted" if folder_settings(path).fingerprint == rec.fingerprint else "CHANGED since"
        write(f"{folder}  ({state}; trusted {rec.trusted_at}: {', '.join(rec.settings) or 'nothing'})")


def untrust(folder: Path) -> str:
    removed = trust_store().remove(folder.resolve())
    return f"{folder.resolve()} is no longer trusted." if removed else f"{folder.resolve()} was not trusted."


def trust_folder(folder: Path, *, confirm: Callable[[str], bool] | None) -> str:
    """Show the folder's settings needing trust, ask (unless `confirm` is None: --yes), record."""
    folder = folder.resolve()
    if not folder.is_dir():
        raise HearthError(f"{folder} is not a folder.", "Name the workspace to trust: hearth trust DIR.")
    shown = folder_settings(folder)
    rows = describe(shown)
    skills = workspace_skills(folder)
    if not rows and not skills:
        return f"Nothing to trust: {folder}'s own files set no safety settings and hold no skills."
    if rows:
        print(f"{folder}'s own files set these settings, which Hearth ignores until you trust it:")
        print("\n".join(rows))
        print(
            "Trusting lets them choose the permissions, the sandbox, the network and the model server "
            "(and where your API key goes). A later change to them needs your approval again."
        )
    if skills:
        print(f"{folder} holds these skills (instructions the model follows), read once you trust it:")
        print("\n".join(f"  {s.name}: {s.description}    # {s.path.relative_to(folder)}" for s in skills))
    if confirm is not None and not confirm(f"Trust {folder} with these settings?"):
        return "Not trusted; nothing was recorded."
    if folder_settings(folder).fingerprint != shown.fingerprint:
        raise HearthError(
            "The settings changed while you were reading them; nothing was recorded.",
            "Run hearth trust again and review them.",
        )
    names = sorted({name for _, name, _ in shown.needing_trust()}) + (["skills"] if skills else [])
    trust_store().record(folder, shown.fingerprint, names)
    return f"Trusted {folder}; its {' and '.join(w for w, on in (('settings', rows), ('skills', skills)) if on)} apply from the next start."


def ask_at_terminal(question: str) -> bool:
    if not sys.stdin.isatty():
        raise HearthError(
            "Trusting a workspace needs you at a terminal.",
            "Run hearth trust in a terminal, or add --yes if you mean it from a script.",
        )
    try:
        return input(f"{question} [y/N] ").strip().lower() in ("y", "yes")
    except EOFError:
        return False


def report_ignored(loaded: LoadedSettings, write: Callable[[str], object]) -> None:
    """Say which settings from folders' own files were ignored, why, and how to use them."""
    for line in loaded.ignored_report():
        write(line)
