"""Every task of the held-out suites heldout8 to heldout19: its check fails on the untouched
workspace and passes after its reference solution, and an exercise's check refuses rewritten tests.
(heldout20 and later suites have files of their own, tests/bench/test_bench_heldout20.py and on,
that check the same and more: they are not run twice.)"""

from __future__ import annotations

import pytest

from bench.suite_checks import passes_with_tests_rewritten, suite_tasks, untouched_and_solved
from hearth.bench.tasks import BenchTask

LATE = (
    "heldout8",
    "heldout9",
    "heldout10",
    "heldout11",
    "heldout12",
    "heldout13",
    "heldout14",
    "heldout15",
    "heldout16",
    "heldout17",
    "heldout18",
    "heldout19",
)
ALL = suite_tasks(*LATE)
EXERCISES = suite_tasks(*LATE, exercises_only=True)


@pytest.mark.parametrize(("suite", "task"), ALL, ids=[f"{s}-{t.name}" for s, t in ALL])
def test_check_fails_untouched_and_passes_solved(suite: str, task: BenchTask) -> None:
    untouched, solved, output = untouched_and_solved(task)
    assert not untouched, "the check passes without any work: it cannot fail"
    assert solved, output


@pytest.mark.parametrize(("suite", "task"), EXERCISES, ids=[f"{s}-{t.name}" for s, t in EXERCISES])
def test_an_exercise_with_its_tests_rewritten_fails(suite: str, task: BenchTask) -> None:
    assert not passes_with_tests_rewritten(task), "a rewritten test file must not pass the check"
