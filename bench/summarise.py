"""Merge bench/measure.sh's per-task results into one report per agent and print the side-by-side
table with exit-code calibration and the server's own prompt-token counts. Any suite's OUT works:

    python bench/summarise.py OUT bench/results/heldout3-1.5b
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

from hearth.bench.report import BenchReport, TrialResult, load_report


def merged(out: Path, agent: str) -> BenchReport:
    report = BenchReport(agent)
    runner = agent.split(":")[0]  # hearth:text's runs are Hearth's (results-hearth.json)
    for path in sorted((out / agent).glob(f"*/results-{runner}.json")):
        report.results.extend(load_report(path).results)
    return report


def exit_text(r: TrialResult) -> str:
    return "timeout" if r.timed_out else str(r.exit_code)


def calibration(results: list[TrialResult]) -> str:
    zero = [r for r in results if r.exit_code == 0 and not r.timed_out]
    passed = [r for r in results if r.passed]
    both = [r for r in zero if r.passed]
    return (
        f"exit 0 on {len(zero)} runs, {len(both)} of them passing; "
        f"{len(both)} of {len(passed)} passes exited 0; "
        f"{len(zero) - len(both)} failures exited 0"
    )


def median(values: list[float | int | None]) -> str:
    known = [v for v in values if v is not None]
    return f"{statistics.median(known):.0f}" if known else "-"


def main() -> None:
    out, prefix = Path(sys.argv[1]), sys.argv[2]
    agents = sorted(p.name for p in out.iterdir() if p.is_dir())
    reports = {a: merged(out, a) for a in agents}
    tasks = sorted({r.task for rep in reports.values() for r in rep.results})
    print("| task | " + " | ".join(f"{a}: pass, exit, server prefill, s" for a in agents) + " |")
    print("| --- |" + " --- |" * len(agents))
    for task in tasks:
        cells = []
        for a in agents:
            mine = [r for r in reports[a].results if r.task == task]
            cells.append(
                " / ".join(
                    f"{'pass' if r.passed else 'fail'}, {exit_text(r)}, {r.server_prefill_tokens}, {r.seconds:.0f}"
                    for r in mine
                )
                or "not run"
            )
        print(f"| {task} | " + " | ".join(cells) + " |")
    for a in agents:
        rs = reports[a].results
        print(
            f"\n{a}: {sum(r.passed for r in rs)}/{len(rs)} passed; {calibration(rs)}; median server prefill "
            f"{median([r.server_prefill_tokens for r in rs])} tokens/task, median {median([r.seconds for r in rs])} s; "
            f"median model requests (Hearth's own count) {median([r.steps for r in rs])}"
        )
        if rs:
            name = a.replace(":", "-")  # hearth:text -> a file name every system can check out
            reports[a].write(Path(f"{prefix}-{name}.tmp"))
            Path(f"{prefix}-{name}.tmp/results-{a}.json").rename(f"{prefix}-{name}.json")
            Path(f"{prefix}-{name}.tmp/results-{a}.md").unlink()
            Path(f"{prefix}-{name}.tmp").rmdir()


if __name__ == "__main__":
    main()
