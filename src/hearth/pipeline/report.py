"""Quality reports: one per plan (`quality_report.json` and Markdown) and a summary across plans."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hearth.pipeline.store import PipelineStore, PlanRow
from hearth.runtime.api import state_dir


def report_dir(workspace: Path, plan: PlanRow) -> Path:
    return state_dir(workspace) / "pipeline" / "reports" / f"{plan.name}-v{plan.version}"


def plan_report(store: PipelineStore, plan: PlanRow) -> dict[str, Any]:
    tasks = []
    for t in store.tasks(plan.id):
        attempts = store.attempts(t.id)
        tasks.append(
            {
                "id": t.key,
                "title": t.title,
                "phase": t.phase,
                "status": t.status,
                "reason": t.reason,
                "files": list(t.files),
                "depends_on": list(t.depends),
                "session": t.session,
                "attempts": [
                    {
                        "n": a.n,
                        "outcome": a.outcome,
                        "verifier": a.verifier,
                        "verdict": a.verdict,
                        "tokens": a.tokens,
                        "seconds": round((a.ended or a.started) - a.started, 2),
                        "runner": a.runner,
                    }
                    for a in attempts
                ],
                "tokens": sum(a.tokens for a in attempts),
                "seconds": round(sum((a.ended or a.started) - a.started for a in attempts), 2),
            }
        )
    return {
        "plan": plan.name,
        "path": plan.path,
        "version": plan.version,
        "status": plan.status,
        "reason": plan.reason,
        "test_command": plan.test_command,
        "planner_tokens": plan.planner_tokens,
        "seconds": round((plan.ended or plan.started or 0) - (plan.started or 0), 2),
        "phases": [{"phase": p, "commit": c, "note": n} for p, c, n in store.phases(plan.id)],
        "tasks": tasks,
        "totals": _totals(tasks, plan.planner_tokens),
    }


def _totals(tasks: list[dict[str, Any]], planner_tokens: int = 0) -> dict[str, Any]:
    n = len(tasks)
    done = sum(1 for t in tasks if t["status"] == "done")
    reworked = sum(1 for t in tasks if len(t["attempts"]) > 1)
    worked = sum(1 for t in tasks if t["attempts"])
    tokens = sum(t["tokens"] for t in tasks)
    return {
        "tasks": n,
        "done": done,
        "failed": sum(1 for t in tasks if t["status"] == "failed"),
        "reworked": reworked,
        "pass_rate": round(done / n, 3) if n else 0.0,
        "rework_rate": round(reworked / worked, 3) if worked else 0.0,
        "attempts": sum(len(t["attempts"]) for t in tasks),
        "tokens": tokens + planner_tokens,
        "tokens_per_task": round((tokens + planner_tokens) / n) if n else 0,
    }


def write_plan_report(store: PipelineStore, workspace: Path, plan: PlanRow) -> Path:
    report = plan_report(store, plan)
    folder = report_dir(workspace, plan)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "quality_report.json").write_text(
        json.dumps(report, indent=2, ensure_ascii=False), encoding="utf-8"
    )
    (folder / "quality_report.md").write_text(plan_markdown(report), encoding="utf-8")
    return folder / "quality_report.json"


def plan_markdown(report: dict[str, Any]) -> str:
    t = report["totals"]
    lines = [
        f"# Quality report: {report['plan']} (version {report['version']})",
        "",
        f"Status: **{report['status']}**" + (f" ({report['reason']})" if report["reason"] else ""),
        f"Tasks: {t['done']} of {t['tasks']} done, {t['failed']} failed, {t['reworked']} reworked;"
        f" pass rate {t['pass_rate']:.0%}, rework rate {t['rework_rate']:.0%}.",
        f"Tokens: {t['tokens']} ({t['tokens_per_task']} per task, planner {report['planner_tokens']});"
        f" time {report['seconds']} s.",
        "",
        "| task | phase | status | attempts | tokens | seconds |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for task in report["tasks"]:
        lines.append(
            f"| {task['id']}: {task['title']} | {task['phase']} | {task['status']} | {len(task['attempts'])}"
            f" | {task['tokens']} | {task['seconds']} |"
        )
    for task in report["tasks"]:
        notes = []
        if task["reason"]:
            notes.append(f"- reason: {task['reason']}")
        for a in task["attempts"]:
            notes.append(f"- attempt {a['n']}: {a['outcome']}")
            notes += [f"  - verifier: {f.splitlines()[0]}" for f in a["verifier"]]
            notes += [f"  - reviewer: {r}" for r in a["verdict"].get("reasons", [])]
        if notes:
            lines += ["", f"## {task['id']}: {task['title']}", *notes]
    if report["phases"]:
        lines += [
            "",
            "## Phases",
            *[f"- phase {p['phase']}: {p['commit'] or '-'} ({p['note']})" for p in report["phases"]],
        ]
    return "\n".join(lines) + "\n"


def summary(store: PipelineStore) -> dict[str, Any]:
    """Across every plan that has ended: pass rate, rework rate, tokens per task, per plan and in all."""
    plans = [plan_report(store, p) for p in store.plans(("done", "failed"))]
    every = [t for p in plans for t in p["tasks"]]
    totals = _totals(every, sum(p["planner_tokens"] for p in plans))
    return {
        "plans": [
            {"plan": p["plan"], "version": p["version"], "status": p["status"], **p["totals"]} for p in plans
        ],
        "totals": {"plans": len(plans), **totals},
    }


def summary_markdown(data: dict[str, Any]) -> str:
    t = data["totals"]
    lines = [
        "# Pipeline report",
        "",
        f"{t['plans']} plans ended; {t['tasks']} tasks: pass rate {t['pass_rate']:.0%},"
        f" rework rate {t['rework_rate']:.0%}, {t['tokens_per_task']} tokens per task.",
        "",
        "| plan | status | tasks | pass rate | rework rate | tokens per task |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for p in data["plans"]:
        lines.append(
            f"| {p['plan']} v{p['version']} | {p['status']} | {p['tasks']} | {p['pass_rate']:.0%}"
            f" | {p['rework_rate']:.0%} | {p['tokens_per_task']} |"
        )
    return "\n".join(lines) + "\n"
