"""The lines a script that only defines its functions lacks (agent/entrypoint)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from hearth.agent.entrypoint import missing_call

HOURS = '''"""Hours per person."""

import csv

TITLE = "hours"


def total(rows):
    return sum(float(r["hours"]) for r in rows)


def hours(path):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    if not rows:
        return "no entries"
    return f"total: {total(rows):.1f} h"
'''


def test_the_call_is_named_for_the_scripts_own_function_and_runs_it(tmp_path: Path) -> None:
    """`hours` (not its helper `total`) takes the script's argument, and its result is printed
    because it returns it rather than printing: the lines added, the script prints."""
    found = missing_call(HOURS)
    assert found is not None
    function, lines = found
    assert function == "hours"
    assert lines == 'if __name__ == "__main__":\n    import sys\n    print(hours(sys.argv[1]))'
    (tmp_path / "t.csv").write_text("name,date,hours\nana,1,2.5\nben,1,3\n")
    (tmp_path / "hours.py").write_text(HOURS + "\n\n" + lines + "\n")
    ran = subprocess.run(
        [sys.executable, "hours.py", "t.csv"], cwd=tmp_path, capture_output=True, text=True, check=True
    )
    assert ran.stdout == "total: 5.5 h\n"


def test_main_is_called_as_it_is_and_a_script_that_runs_something_needs_nothing() -> None:
    assert missing_call("def helper(a, b):\n    pass\n\n\ndef main():\n    print(1)\n") == (
        "main",
        'if __name__ == "__main__":\n    main()',
    )
    assert missing_call("def f(a, b):\n    print(a, b)\n") == (
        "f",
        'if __name__ == "__main__":\n    import sys\n    f(*sys.argv[1:3])',
    )
    assert missing_call(HOURS + "\nprint(hours('t.csv'))\n") is None  # it runs already
    assert missing_call(HOURS + '\nif __name__ == "__main__":\n    hours("x")\n') is None
    assert missing_call("X = 1\n") is None  # no function to call
    assert missing_call("def f(:\n") is None  # does not parse: another review says so
