"""Two Hearth processes on one workspace (two pipeline runners, a session beside the web UI)
record checkpoints in the same repository: they take turns instead of failing on git's lock."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from hearth.history.checkpoints import Checkpoints

WRITER = """
import sys
from pathlib import Path
from hearth.history.checkpoints import Checkpoints

ws, tag = Path(sys.argv[1]), sys.argv[2]
points = Checkpoints(ws)
for i in range(25):
    (ws / f"{tag}-{i}.txt").write_text(f"{i}\\n")
    points.snapshot(f"{tag} step {i}")
print("ok")
"""


def test_two_processes_snapshot_one_workspace_without_failing(tmp_path: Path) -> None:
    if subprocess.run(["git", "--version"], capture_output=True).returncode != 0:
        pytest.skip("git is not installed")
    ws = tmp_path / "ws"
    ws.mkdir()
    Checkpoints(ws).snapshot("first")  # one repository, made before both start
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(ws), tag],
            env=dict(os.environ),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for tag in ("a", "b")
    ]
    outs = [p.communicate(timeout=240) for p in procs]
    for proc, (out, err) in zip(procs, outs, strict=True):
        assert proc.returncode == 0 and out.strip() == "ok", err[-2000:]
    labels = [label for _, label in Checkpoints(ws).history()]
    assert sum(label.startswith("a step") for label in labels) == 25
    assert sum(label.startswith("b step") for label in labels) == 25
