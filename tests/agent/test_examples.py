"""The examples a task states for a function, read and called (agent/examples)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from hearth.agent.examples import Example, defining_file, example_command, examples_failing, stated_examples


def test_an_example_given_for_the_new_function_is_read_with_its_literals() -> None:
    task = (
        'Move that into a function problems(password) that returns the list (for example problems("hello") '
        '== ["shorter than 8 characters", "no digit"]), and make main() use it.'
    )
    assert stated_examples(task) == [
        Example("problems", 'problems("hello")', '["shorter than 8 characters", "no digit"]')
    ]


def test_two_examples_in_one_sentence_and_a_full_stop_after_a_number() -> None:
    task = 'Add clock(seconds), so that clock(65) == "1:05" and clock(3725) == "1:02:05". Make sure price(2, True) == 795.'
    assert [(e.call, e.expected) for e in stated_examples(task)] == [
        ("clock(65)", '"1:05"'),
        ("clock(3725)", '"1:02:05"'),
        ("price(2, True)", "795"),
    ]


def test_the_code_as_it_is_now_is_no_goal() -> None:
    assert stated_examples("Currently add(2, 3) == 6, which is wrong. Fix add in calc.py.") == []
    assert stated_examples("The tests show total([1]) == 2 but that is not right.") == []
    assert stated_examples("add(2, 3) == 5") == []  # no word says it is to hold


def test_an_example_said_in_words_is_read_and_should_makes_it_a_goal() -> None:
    task = (
        "Write slug(text) in slugs.py so that slug('Hello World') returns 'hello-world'. "
        "slug('') should return '', and parse('1,2') should give [1, 2], not (1, 2). For example total([1, 2]) -> 3."
    )
    assert [(e.call, e.expected) for e in stated_examples(task)] == [
        ("slug('Hello World')", "'hello-world'"),
        ("slug('')", "''"),
        ("parse('1,2')", "[1, 2]"),
        ("total([1, 2])", "3"),
    ]
    # what the code does now, said in words, is no goal
    assert stated_examples("Fix double in m.py: double(2) returns 5.") == []
    assert stated_examples("Currently double(2) returns 5; it should double.") == []
    assert stated_examples("so that slug(text) returns 'x'") == []  # a name: nothing to call it with


def test_only_literal_calls_of_plain_functions_are_examples() -> None:
    assert stated_examples("so that add(x, 3) == 5") == []  # a name: nothing to call it with
    assert stated_examples("so that cart.total() == 5") == []  # a method
    assert stated_examples("so that add(2, 3) != 5") == []
    assert stated_examples("so that add(2, 3) == five") == []


def test_the_function_is_found_in_the_named_file_first(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("def f(x):\n    return x\n")
    (tmp_path / "b.py").write_text("def f(x):\n    return -x\n")
    assert defining_file(tmp_path, "f", ["b.py"]) == "b.py"
    assert defining_file(tmp_path, "f", []) is None  # two define it, and the task names neither
    assert defining_file(tmp_path, "g", []) is None
    (tmp_path / "b.py").unlink()
    (tmp_path / "b.py").symlink_to(tmp_path / "a.py")  # a link is not read
    assert defining_file(tmp_path, "f", ["b.py"]) == "a.py"


def run(command: str, cwd: Path) -> str:
    return subprocess.run(["bash", "-c", command], cwd=cwd, capture_output=True, text=True, timeout=30).stdout


def test_the_command_says_which_examples_do_not_hold(tmp_path: Path) -> None:
    (tmp_path / "calc.py").write_text(
        "def add(a, b):\n    print('adding')\n    return a - b\n\n\ndef half(n):\n    return n // 0\n\n\n"
        "def double(n):\n    return n * 2\n"
    )
    task = "Fix calc.py so that add(2, 3) == 5, half(4) == 2 and double(4) == 8."
    command = example_command(task, tmp_path, ["calc.py"])
    assert command is not None
    assert examples_failing(run(command, tmp_path)) == [
        "add(2, 3) returns -1; the task says 5",
        "half(4) raises ZeroDivisionError: integer division or modulo by zero; the task says 2",
    ]


def test_a_script_that_cannot_be_imported_checks_nothing(tmp_path: Path) -> None:
    # runs its main() on import, which needs an argument: the example is not the judge of that
    (tmp_path / "tool.py").write_text(
        "import sys\n\n\ndef add(a, b):\n    return 0\n\n\nprint(sys.argv[1])\n"
    )
    command = example_command("so that add(2, 3) == 5", tmp_path, ["tool.py"])
    assert command is not None
    assert examples_failing(run(command, tmp_path)) == []


def test_no_command_when_no_file_defines_the_function(tmp_path: Path) -> None:
    (tmp_path / "calc.py").write_text("def add(a, b):\n    return a + b\n")
    assert example_command("Add mul(a, b) to calc.py, so that mul(2, 3) == 6.", tmp_path, ["calc.py"]) is None
    assert example_command("Fix calc.py.", tmp_path, ["calc.py"]) is None


def test_bare_examples_under_examples_are_for_the_one_function_the_task_names() -> None:
    task = (
        "Please add a slugify function to textutils.py that turns a post title into a URL slug. The slug is "
        "all lowercase, and characters that aren't letters become hyphens. Examples:\n\n"
        '"Hello, World!" gives "hello-world"\n'
        '"  Top 10 " gives "top-10"'
    )
    assert [(e.call, e.expected) for e in stated_examples(task)] == [
        ('slugify("Hello, World!")', '"hello-world"'),
        ('slugify("  Top 10 ")', '"top-10"'),
    ]
    several = (
        'Add a function called digits. For example "(555) 123-4567" -> "5551234567", "5.5" gives "55", '
        "and -3 should return [3]."
    )
    assert [(e.call, e.expected) for e in stated_examples(several)] == [
        ('digits("(555) 123-4567")', '"5551234567"'),
        ('digits("5.5")', '"55"'),
        ("digits(-3)", "[3]"),
    ]
    assert [
        (e.call, e.expected) for e in stated_examples("Add the `pair(n)` function: e.g. 3 gives (3, 3).")
    ] == [("pair(3)", "(3, 3)")]


def test_bare_examples_are_not_read_where_their_function_or_goal_is_unclear() -> None:
    # two functions named: whose example is it?
    assert stated_examples('Add a function foo and a function bar. For example "a" gives "b".') == []
    # no word says the examples are to hold
    assert stated_examples('Add a slugify function to t.py. "A b" gives "a-b".') == []
    # the code as it is now
    assert stated_examples('Fix the slug function: for example "A b" gives "A-b" now, which is wrong.') == []
    # two arguments, or a tuple: one argument or two?
    assert stated_examples('Add a repeat function, for example "a", 2 gives "aa".') == []
    assert stated_examples("Add a repeat function, for example ('a', 2) gives 'aa'.") == []
    # a word before the literal: not the argument
    assert stated_examples("Add a count function, for example x2 gives 2.") == []


def test_a_bare_example_is_called_and_a_wrong_result_said(tmp_path: Path) -> None:
    (tmp_path / "textutils.py").write_text(
        'def slugify(title):\n    return "-".join(title.lower().split())\n\n\ndef shout(text):\n    return text.upper()\n'
    )
    task = 'Add a slugify function to textutils.py. Examples:\n"Hello, World!" gives "hello-world"\n"a  b" gives "a-b"'
    command = example_command(task, tmp_path, ["textutils.py"])
    assert command is not None
    assert examples_failing(run(command, tmp_path)) == [
        'slugify("Hello, World!") returns \'hello,-world!\'; the task says "hello-world"'
    ]
