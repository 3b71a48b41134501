"""What the held-out suites' tests share: a task's workspace solved by its reference solution, git
with a fixed identity, the workspace's own tests run, a task found by part of its name. The checks
every suite gets are in test_bench_suites.py; what is particular to a task stays in its suite's
test file."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from hearth.bench.tasks import BenchTask, check, load_tasks, prepare
from support import ROOT

BENCH = ROOT / "bench"
GIT_ID = {
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@localhost",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@localhost",
}


def solve(task: BenchTask, ws: Path) -> None:
    """Run the task's reference solution in the workspace."""
    subprocess.run(
        ["/bin/sh", str(task.folder / "solution.sh")],
        cwd=ws,
        check=True,
        capture_output=True,
        env={"PATH": "/usr/bin:/bin", "HOME": str(ws), **GIT_ID},
    )


def git(ws: Path, *args: str) -> None:
    subprocess.run(
        ["git", *args], cwd=ws, check=True, capture_output=True, env={"PATH": "/usr/bin:/bin", **GIT_ID}
    )


def workspace_tests_pass(ws: Path, test_file: str) -> bool:
    """Whether the workspace's own tests pass, as an agent running pytest there would see them."""
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", test_file],
        cwd=ws,
        capture_output=True,
        env={**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"},  # as the checks run it (bench/tasks)
    )
    return done.returncode == 0


def find_task(tasks: list[BenchTask], part: str) -> BenchTask:
    (task,) = [t for t in tasks if part in t.name]
    return task


# Each suite from heldout3 on, in the order they were written, with its multi-step tasks' prefixes.
SUITES = {
    "heldout3": ["k11", "k12", "k13", "k14", "k15", "k16"],
    "heldout4": ["k21", "k22", "k23", "k24", "k25", "k26", "k27"],
    "heldout5": ["k31", "k32", "k33", "k34", "k35", "k36", "k37"],
    "heldout6": ["k41", "k42", "k43", "k44", "k45", "k46", "k47"],
    "heldout7": ["k51", "k52", "k53", "k54", "k55", "k56", "k57"],
    "heldout8": ["k61", "k62", "k63", "k64", "k65", "k66", "k67"],
    "heldout9": ["k71", "k72", "k73", "k74", "k75", "k76", "k77"],
    "heldout10": ["k81", "k82", "k83", "k84", "k85", "k86", "k87"],
    "heldout11": ["k91", "k92", "k93", "k94", "k95", "k96", "k97"],
    "heldout12": ["k101", "k102", "k103", "k104", "k105", "k106", "k107"],
    "heldout13": ["k108", "k109", "k110", "k111", "k112", "k113", "k114"],
    "heldout14": ["k115", "k116", "k117", "k118", "k119", "k120", "k121"],
    "heldout15": ["k122", "k123", "k124", "k125", "k126", "k127", "k128"],
    "heldout16": ["k129", "k130", "k131", "k132", "k133", "k134", "k135"],
    "heldout17": ["k136", "k137", "k138", "k139", "k140", "k141", "k142"],
    "heldout18": ["k143", "k144", "k145", "k146", "k147", "k148", "k149"],
    "heldout19": ["k150", "k151", "k152", "k153", "k154", "k155", "k156"],
    "heldout20": [
        "k157",
        "k158",
        "k159",
        "k160",
        "k161",
        "k162",
        "k163",
        "k164",
        "k165",
        "k166",
        "k167",
        "k168",
    ],
    "heldout21": ["k169", "k170", "k171", "k172", "k173", "k174", "k175", "k176", "k177", "k178"],
    "heldout22": ["k179", "k180", "k181", "k182", "k183", "k184", "k185", "k186", "k187", "k188"],
    "heldout23": ["k189", "k190", "k191", "k192", "k193", "k194", "k195", "k196", "k197", "k198"],
    "heldout24": ["k199", "k200", "k201", "k202", "k203", "k204", "k205", "k206", "k207", "k208"],
}


def suite_tasks(*suites: str, exercises_only: bool = False) -> list[tuple[str, BenchTask]]:
    """(suite, task) for each task of `suites` (their exercises too, where a suite has them), as
    pytest parameters."""
    found: list[tuple[str, BenchTask]] = []
    for name in suites:
        tasks = [] if exercises_only else load_tasks(BENCH / name)
        found += [(name, t) for t in tasks + suite_exercises(name)]
    return found


def suite_exercises(suite: str) -> list[BenchTask]:
    """The suite's exercises, where it has any (from heldout21 on, HumanEval had none left)."""
    folder = BENCH / suite / "exercises"
    return load_tasks(folder) if folder.is_dir() else []


def untouched_and_solved(task: BenchTask) -> tuple[bool, bool, str]:
    """Whether the task's check passes on the untouched workspace, whether it passes after the
    reference solution, and the check's output then."""
    ws = prepare(task)
    untouched, _ = check(task, ws, exit_code=0)
    solve(task, ws)
    solved, output = check(task, ws, exit_code=0)
    return untouched, solved, output


def passes_with_tests_rewritten(task: BenchTask) -> bool:
    """Whether an exercise's check passes once its test file is replaced by one testing nothing."""
    ws = prepare(task)
    solve(task, ws)
    (ws / "test_solution.py").write_text("def test_nothing():\n    pass\n")
    return check(task, ws, exit_code=0)[0]


def edit(path: Path, old: str, new: str) -> None:
    """Replace `old` by `new` in the file at `path` (a near-miss or another honest solution)."""
    text = path.read_text()
    assert old in text, f"{old!r} is not in {path.name}"
    path.write_text(text.replace(old, new))


def passes(task: BenchTask, ws: Path) -> None:
    passed, output = check(task, ws, exit_code=0)
    assert passed, output


def fails(task: BenchTask, ws: Path) -> None:
    assert not check(task, ws, exit_code=0)[0]
