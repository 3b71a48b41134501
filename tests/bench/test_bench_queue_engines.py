"""bench/queue_engines.py, small, on the real servers (PostgreSQL and Redis from Debian): every
job runs once, and the handoff it reports is real: procrastinate (Hearth's engine) hands a killed
worker's long job to the other worker within seconds; huey loses it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from requirements import need_module
from support import ROOT

BENCH = ROOT / "bench"

need_module("postgres")
need_module("redis")


def bench(tmp_path: Path, *args: str) -> dict:
    out = tmp_path / "engines.json"
    ran = subprocess.run(
        [sys.executable, str(BENCH / "queue_engines.py"), "--jobs", "6", "--seconds", "0.05",
         "--startup", "2", "--json", str(out), *args],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert ran.returncode == 0, ran.stdout[-2000:] + ran.stderr[-3000:]
    return json.loads(out.read_text())


def test_the_engines_run_every_job_once_and_the_handoff_is_measured(tmp_path: Path) -> None:
    results = bench(tmp_path, "--engines", "procrastinate,huey", "--long", "20", "--wait", "18")
    for name in ("procrastinate", "huey"):
        row = results[name]
        assert row["run_twice"] == 0
        assert all(rate > 0 for rate in row["jobs_per_second"].values())
        assert 0 <= row["submit_to_start"] < 5
    moved = results["procrastinate"]["handoff_seconds"]
    assert moved is not None and moved < 18  # heartbeats stop; the job goes back to the queue
    assert results["huey"]["handoff_seconds"] is None  # the message was taken off the list: lost


def test_rq_runs_through_the_same_measurements(tmp_path: Path) -> None:
    row = bench(tmp_path, "--engines", "rq", "--no-handoff")["rq"]
    assert row["run_twice"] == 0 and row["handoff_measured"] is False
    assert all(rate > 0 for rate in row["jobs_per_second"].values())
