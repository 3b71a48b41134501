"""Trial results, a run's report (JSON and Markdown), and several agents side by side."""

from __future__ import annotations

import json
import statistics
from dataclasses import asdict, dataclass, field
from pathlib import Path


@dataclass
class TrialResult:
    task: str
    trial: int
    agent: str
    passed: bool
    exit_code: int | None
    seconds: float
    steps: int | None = None
    prompt_tokens: int | None = None
    cached_tokens: int | None = None
    completion_tokens: int | None = None
    timed_out: bool = False
    check_output: str = ""
    server_prefill_tokens: int | None = None  # prompt tokens the server evaluated (its own log)
    server_cached_tokens: int | None = None  # prompt tokens it took from its prefix cache


@dataclass
class BenchReport:
    agent: str
    results: list[TrialResult] = field(default_factory=list)

    def summary(self) -> dict[str, object]:
        by_task: dict[str, list[TrialResult]] = {}
        for r in self.results:
            by_task.setdefault(r.task, []).append(r)
        passed = [r.passed for r in self.results]
        return {
            "agent": self.agent,
            "tasks": len(by_task),
            "trials": len(self.results),
            "pass_rate": sum(passed) / len(passed) if passed else 0.0,
            "pass_at_k": sum(any(r.passed for r in rs) for rs in by_task.values()) / len(by_task)
            if by_task
            else 0.0,
            "median_seconds": statistics.median(r.seconds for r in self.results) if self.results else 0.0,
            "server_prefill_per_task": _mean([r.server_prefill_tokens for r in self.results]),
        }

    def markdown(self) -> str:
        s = self.summary()
        lines = [
            f"### {self.agent}: pass rate {s['pass_rate']:.0%}, pass@k {s['pass_at_k']:.0%} "
            f"({s['tasks']} tasks, {s['trials']} trials)",
            "",
            "| task | trial | pass | exit | steps | tokens in | cached | out | server prefill | server cached | seconds |",
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
        ]
        for r in self.results:

            def show(v: int | None) -> str:
                return "-" if v is None else str(v)

            exit_text = "timeout" if r.timed_out else show(r.exit_code)
            lines.append(
                f"| {r.task} | {r.trial} | {'yes' if r.passed else 'no'} | {exit_text} | {show(r.steps)} | "
                f"{show(r.prompt_tokens)} | {show(r.cached_tokens)} | {show(r.completion_tokens)} | "
                f"{show(r.server_prefill_tokens)} | {show(r.server_cached_tokens)} | {r.seconds:.0f} |"
            )
        return "\n".join(lines) + "\n"

    def write(self, out: Path) -> tuple[Path, Path]:
        out.mkdir(parents=True, exist_ok=True)
        data = {"summary": self.summary(), "results": [asdict(r) for r in self.results]}
        json_path, md_path = out / f"results-{self.agent}.json", out / f"results-{self.agent}.md"
        json_path.write_text(json.dumps(data, indent=2))
        md_path.write_text(self.markdown())
        return json_path, md_path


def _mean(values: list[int | None]) -> float | None:
    known = [v for v in values if v is not None]
    return sum(known) / len(known) if known else None


def load_report(path: Path) -> BenchReport:
    data = json.loads(path.read_text())
    return BenchReport(data["summary"]["agent"], [TrialResult(**r) for r in data["results"]])


def side_by_side(reports: list[BenchReport]) -> str:
    """One table: each task's result for every agent, then the totals."""
    names = [r.agent for r in reports]
    tasks = sorted({t.task for r in reports for t in r.results})
    lines = ["| task | " + " | ".join(names) + " |", "| --- |" + " --- |" * len(names)]
    for task in tasks:
        cells = []
        for report in reports:
            mine = [t for t in report.results if t.task == task]
            passed = sum(t.passed for t in mine)
            prefill = _mean([t.server_prefill_tokens for t in mine])
            cell = f"{passed}/{len(mine)}" if mine else "-"
            cells.append(cell + (f" ({prefill:.0f} prefill)" if prefill is not None else ""))
        lines.append(f"| {task} | " + " | ".join(cells) + " |")
    totals = []
    for report in reports:
        s = report.summary()
        per_task = s["server_prefill_per_task"]
        totals.append(
            f"**{s['pass_rate']:.0%}** pass, pass@k {s['pass_at_k']:.0%}"
            + (f", {per_task:.0f} prefill tokens/task" if isinstance(per_task, float) else "")
        )
    lines.append("| all | " + " | ".join(totals) + " |")
    return "\n".join(lines) + "\n"
