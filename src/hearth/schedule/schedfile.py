"""`.hearth/schedules.toml`: jobs written down in the workspace, exported from and read into the store.

    [[job]]
    id = "daily-check"
    schedule = "daily 09:00"
    prompt = "Check the build and summarise what failed."
    tz = "Europe/Berlin"      # optional: the scheduler's zone
    missed = "once"           # optional: skip (default) or once
    enabled = true            # optional

The file is a control file: whoever wrote the workspace (a cloned repository, the agent) may have
written it. So a job read from it is recorded unapproved and does not run until a person approves
it; a job whose content changed in the file loses its approval. Jobs are never removed by reading
the file (`hearth jobs rm` does that).
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hearth.core.errors import HearthError, NotFound
from hearth.schedule.jobs import JobBook
from hearth.schedule.store import Job

FILE_NAME = "schedules.toml"


def schedules_path(workspace: Path) -> Path:
    return workspace / ".hearth" / FILE_NAME


@dataclass(frozen=True)
class Loaded:
    added: list[Job]
    changed: list[Job]
    same: list[Job]
    errors: list[str]  # one line per entry that could not be read; the others still load


def read_entries(path: Path) -> list[dict[str, Any]]:
    try:
        with path.open("rb") as fh:
            data = tomllib.load(fh)
    except FileNotFoundError:
        raise NotFound(
            f"There is no {path}.", "Write jobs there, or export them: hearth jobs export."
        ) from None
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise HearthError(f"Cannot read {path}: {exc}", "Fix the TOML syntax (see the README).") from None
    entries = data.get("job", [])
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise HearthError(
            f"{path}: `job` must be a list of [[job]] tables.", "See the README for the format."
        )
    return entries


def load_file(book: JobBook, path: Path) -> Loaded:
    """Bring the file's jobs into the store, unapproved where new or changed."""
    added: list[Job] = []
    changed: list[Job] = []
    same: list[Job] = []
    errors: list[str] = []
    known = {job.id: job for job in book.store.jobs()}
    for n, entry in enumerate(read_entries(path), 1):
        try:
            job_id = str(entry.get("id", "")).strip()
            schedule = str(entry.get("schedule", ""))
            prompt = str(entry.get("prompt", ""))
            tz = str(entry.get("tz") or book.default_tz)
            missed = str(entry.get("missed", "skip"))
            unknown = set(entry) - {"id", "schedule", "prompt", "tz", "missed", "enabled"}
            if unknown:
                raise HearthError(f"unknown keys {sorted(unknown)}", "")
            old = known.get(job_id)
            if old is None:
                job = book.add(job_id, schedule, prompt, tz=tz, missed=missed, origin="file")
                if entry.get("enabled") is False:
                    job = book.pause(job.id)
                added.append(job)
            elif (old.schedule, old.prompt, old.tz, old.missed) == (
                " ".join(schedule.split()),
                prompt.strip(),
                tz,
                missed,
            ):
                same.append(old)
            else:
                changed.append(book.replace(old, schedule, prompt, tz, missed))
        except HearthError as exc:
            errors.append(f"job {n} ({entry.get('id', '?')}): {exc.message}")
    return Loaded(added, changed, same, errors)


def export_file(jobs: list[Job], path: Path) -> None:
    lines = ["# Hearth's scheduled jobs (hearth jobs export). Jobs read from here need approval.", ""]
    for job in jobs:
        lines += [
            "[[job]]",
            f"id = {_string(job.id)}",
            f"schedule = {_string(job.schedule)}",
            f"prompt = {_string(job.prompt)}",
            f"tz = {_string(job.tz)}",
            f"missed = {_string(job.missed)}",
            f"enabled = {'true' if job.enabled else 'false'}",
            "",
        ]
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text("\n".join(lines), encoding="utf-8")
    tmp.replace(path)


def _string(text: str) -> str:
    """A TOML basic string (JSON's escapes, all ASCII, are TOML's too)."""
    return json.dumps(text, ensure_ascii=True).replace("\x7f", "\\u007f")
