"""bench/python_tool.py skips its sandbox part, and still measures web_fetch, where bubblewrap is missing."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from support import ROOT

BENCH = ROOT / "bench" / "python_tool.py"


def test_without_bubblewrap_the_bench_skips_the_python_part_instead_of_throwing() -> None:
    bwrap = shutil.which("bwrap")
    if bwrap:  # hide it for this process only: a private mount namespace, as on a host without it
        if not shutil.which("unshare"):
            pytest.skip("bubblewrap is installed and unshare is missing to hide it")
        probe = subprocess.run(["unshare", "-m", "true"], capture_output=True)
        if probe.returncode != 0:
            pytest.skip("cannot make a mount namespace here to hide bubblewrap")
        cmd = ["unshare", "-m", "sh", "-c", 'mount --bind /dev/null "$0" && exec "$@"', bwrap]
    else:
        cmd = []
    # one fetch of each size: each turns a 1.7 MB page into Markdown, seconds of processor (six
    # took past 120 s with two test runs on two processors)
    res = subprocess.run(
        [*cmd, sys.executable, str(BENCH), "--calls", "3", "--fetches", "1"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert res.returncode == 0, res.stderr[-2000:]
    assert "Traceback" not in res.stderr
    assert "python tool: skipped" in res.stdout and "bwrap" in res.stdout
    assert "web_fetch" in res.stdout  # the rest of the bench still ran
