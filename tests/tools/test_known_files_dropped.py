"""Which lines a rewrite of a file drops outright (the change guard refuses such a write once)."""

from __future__ import annotations

from hearth.tools.known_files import dropped_lines


def test_a_stubs_placeholder_body_is_replaced_not_dropped() -> None:
    stub = 'def double(x):\n    """Twice x."""\n    raise NotImplementedError\n'
    assert dropped_lines(stub, 'def double(x):\n    """Twice x."""\n    return 2 * x\n') == []
    assert dropped_lines("def f():\n    pass\n", "def f():\n    return sorted(xs, key=len)\n") == []


def test_a_name_or_key_given_a_new_value_is_changed_in_place() -> None:
    old = "BASE_URL = 'http://localhost:8000/api'\nprint(BASE_URL)\n"
    new = "import json\n\nBASE_URL = json.load(open('config.json'))['BASE_URL']\nprint(BASE_URL)\n"
    assert dropped_lines(old, new) == []
    assert (
        dropped_lines('{\n  "port": 8000\n}\n', '{\n  "port": "from the environment, see below"\n}\n') == []
    )


def test_a_section_left_out_is_still_dropped() -> None:
    old = "[server]\nhost = 127.0.0.1\nport = 8000\n\n[database]\npath = data/app.db\n"
    new = "[server]\nhost = 127.0.0.1\nport = 9090\n"
    assert dropped_lines(old, new) == ["[database]", "path = data/app.db"]
