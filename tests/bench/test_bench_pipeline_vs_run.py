"""bench/pipeline_vs_run.py end to end against the scripted server (--scripted): both ways run the
real CLI through the counting proxy, and the plan's checks judge the result. It measures nothing
about a model; it shows the benchmark counts and judges what it says it does."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

import pytest

from support import ROOT, clean_env

BENCH = ROOT / "bench"


@pytest.mark.parametrize("plan", ["text_tools", "small_steps"])
def test_the_checks_fail_without_the_work_and_pass_with_the_solutions(plan: str) -> None:
    assert (BENCH / "plans" / f"{plan}.md").is_file()
    tasks = tomllib.loads((BENCH / "plans" / f"{plan}.toml").read_text())["tasks"]
    assert len(tasks) == 3
    workspace = Path(tempfile.mkdtemp(prefix="hearth-test-plan-"))
    for t in tasks:
        assert subprocess.run(t["check"], shell=True, cwd=workspace, capture_output=True).returncode != 0
    for t in tasks:
        for name, content in t["solution"].items():
            (workspace / name).write_text(content)
    for t in tasks:
        ran = subprocess.run(t["check"], shell=True, cwd=workspace, capture_output=True, text=True)
        assert ran.returncode == 0, (t["key"], ran.stderr)


def test_the_benchmark_runs_both_ways_and_counts_every_model_request(home: Path, tmp_path: Path) -> None:
    out = tmp_path / "result.json"
    ran = subprocess.run(
        [sys.executable, str(BENCH / "pipeline_vs_run.py"), "--scripted", "--json", str(out)],
        env=clean_env(home),
        capture_output=True,
        text=True,
        timeout=1500,  # six CLI runs; slow only on a starved machine
    )
    assert ran.returncode == 0, ran.stderr
    result = json.loads(out.read_text())
    pipe, one = result["pipeline"], result["one_by_one"]
    assert pipe["exit"] == 0 and pipe["own_tasks"] == {"slug": "done", "words": "done", "report": "done"}
    assert pipe["passed"] == one["passed"] == {"slug": True, "words": True, "report": True}
    # the pipeline: one planner request; per task the coder's write and its finish, and one review
    assert pipe["requests"] == {"planning": 1, "task slug": 3, "task words": 3, "task report": 3}
    # one by one: per task the write and the finish; each session's reflection after its answer
    assert one["exits"] == {"slug": 0, "words": 0, "report": 0}
    assert one["requests"] == {"task slug": 2, "task words": 2, "task report": 2, "reflection": 3}
    assert one["reflections"] == 3 and pipe["reflections"] == 0
    assert "total                      3/3          10           3/3           9" in ran.stdout
