"""The pipeline's controls, shared by the CLI, Pilot's tools and the web API: status, retry,
resume, cancel, create a plan, reports. Each returns what a person (or Pilot's model) reads."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from hearth.core.errors import HearthError
from hearth.pipeline.plans import PLANS_DIR
from hearth.pipeline.report import plan_report, report_dir, summary, summary_markdown
from hearth.pipeline.runner import register_plans
from hearth.pipeline.store import PipelineStore
from hearth.runtime.api import approve_plan, state_dir

_NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,59}$")
MAX_PLAN_CHARS = 100_000


def status_data(store: PipelineStore) -> dict[str, Any]:
    plans = []
    for p in store.plans():
        tasks = store.tasks(p.id)
        plans.append(
            {
                "id": p.id,
                "plan": p.name,
                "path": p.path,
                "version": p.version,
                "status": p.status,
                "reason": p.reason,
                "tasks": [
                    {
                        "id": t.key,
                        "title": t.title,
                        "status": t.status,
                        "stage": t.stage,
                        "attempts": t.attempts,
                        "depends_on": list(t.depends),
                        "reason": t.reason,
                    }
                    for t in tasks
                ],
            }
        )
    return {"plans": plans, "counts": store.counts()}


def status_text(data: dict[str, Any]) -> str:
    if not data["plans"]:
        return f"No plans yet. Put a Markdown plan in {PLANS_DIR}/ and run `hearth pipeline run`."
    lines = []
    for p in data["plans"]:
        lines.append(
            f"#{p['id']} {p['path']} v{p['version']}: {p['status']}"
            + (f" ({p['reason']})" if p["reason"] else "")
        )
        for t in p["tasks"]:
            what = t["status"] + (f"/{t['stage']}" if t["stage"] and t["status"] != "done" else "")
            extra = f" - {t['reason']}" if t["reason"] else ""
            lines.append(f"  {t['id']:<8} {what:<18} attempts {t['attempts']}  {t['title']}{extra}")
    counts = ", ".join(f"{n} {s}" for s, n in sorted(data["counts"].items()))
    lines.append(f"tasks: {counts or 'none'}")
    return "\n".join(lines)


def _plan_id(store: PipelineStore, plan: str | None) -> int | None:
    return store.find_plan(plan).id if plan else None


def retry(store: PipelineStore, plan: str | None = None) -> str:
    n = store.retry_failed(_plan_id(store, plan))
    return f"{n} failed task(s) or plan(s) back in the queue." if n else "Nothing had failed."


def resume(store: PipelineStore, plan: str | None = None) -> str:
    notes = store.recover()
    n = store.resume(_plan_id(store, plan))
    parts = [f"{n} cancelled plan(s) open again." if n else "No cancelled plan to open again.", *notes]
    return "\n".join(parts) + "\nA running `hearth pipeline run` picks the work up."


def cancel(store: PipelineStore, plan: str | None = None) -> str:
    n = store.cancel(_plan_id(store, plan))
    return (
        f"{n} plan(s) cancelled; a task being worked finishes its attempt."
        if n
        else "No open plan to cancel."
    )


def create_plan(store: PipelineStore, workspace: Path, name: str, text: str) -> str:
    """Write plans/<name>.md (a new file only) and register it."""
    if not _NAME.match(name) or name == "readme":
        raise HearthError(
            f"{name!r} is not a plan name.", "Use 1-60 lower-case letters, digits and '-', e.g. add-login."
        )
    if not text.strip():
        raise HearthError("The plan is empty.", "Write what should be built, in Markdown.")
    if len(text) > MAX_PLAN_CHARS:
        raise HearthError(f"The plan is {len(text)} characters long.", f"Keep it under {MAX_PLAN_CHARS}.")
    folder = workspace / PLANS_DIR
    if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
        raise HearthError(f"{PLANS_DIR} in the workspace is not a plain folder.", "Make it a folder.")
    folder.mkdir(exist_ok=True)
    path = folder / f"{name}.md"
    try:
        with open(path, "x", encoding="utf-8") as fh:  # never over an existing file or symlink
            fh.write(text if text.endswith("\n") else text + "\n")
    except FileExistsError:
        raise HearthError(f"{PLANS_DIR}/{name}.md exists already.", "Choose another name.") from None
    approve_plan(workspace, name)  # written by a pipeline command a person gave, not by a session
    new = [p for p in register_plans(store, workspace) if p.path == f"{PLANS_DIR}/{name}.md"]
    if not new:
        return f"Wrote {PLANS_DIR}/{name}.md; the same content was registered before, so nothing new runs."
    plan = new[0]
    return f"Wrote {plan.path} and registered it as plan #{plan.id} ({plan.status})." + (
        f" It cannot run: {plan.reason}" if plan.status == "failed" else ""
    )


def plan_report_text(store: PipelineStore, workspace: Path, plan: str) -> str:
    row = store.find_plan(plan)
    path = report_dir(workspace, row) / "quality_report.md"
    if path.is_file():
        return path.read_text(encoding="utf-8")
    return json.dumps(plan_report(store, row), indent=1)


def write_summary(store: PipelineStore, workspace: Path) -> tuple[dict[str, Any], str]:
    data = summary(store)
    md = summary_markdown(data)
    folder = state_dir(workspace) / "pipeline"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "report.json").write_text(json.dumps(data, indent=2), encoding="utf-8")
    (folder / "report.md").write_text(md, encoding="utf-8")
    return data, md
