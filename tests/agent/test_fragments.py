"""New or changed Python code, written alone, put into its file (agent/fragments)."""

from __future__ import annotations

from hearth.agent.fragments import merged

SCRIPT = (
    '"""Count words."""\n\nimport argparse\n\n\n@staticmethod\ndef count(text):\n    return len(text.split())\n\n\n'
    "def main(argv=None):\n    args = argparse.ArgumentParser().parse_args(argv)\n    print(args)\n\n\n"
    'if __name__ == "__main__":\n    main()\n'
)


def test_a_changed_function_replaces_its_own_lines_and_the_rest_stays() -> None:
    fragment = (
        "def main(argv=None):\n    parser = argparse.ArgumentParser()\n    parser.add_argument('--top')\n"
    )
    out = merged(SCRIPT, fragment)
    assert out is not None
    assert out == SCRIPT.replace(
        "def main(argv=None):\n    args = argparse.ArgumentParser().parse_args(argv)\n    print(args)\n",
        fragment,
    )


def test_a_decorated_function_is_replaced_with_its_decorator_and_a_new_one_goes_before_the_main_block() -> (
    None
):
    fragment = "@staticmethod\ndef count(text):\n    return len(text)\n\n\ndef top(counts, n):\n    return counts[:n]\n"
    out = merged(SCRIPT, fragment)
    assert out is not None
    assert out.count("@staticmethod") == 1 and "    return len(text)\n" in out
    assert out.index("def top(") > out.index("def main(") and out.index("def top(") < out.index("if __name__")
    assert "return len(text.split())" not in out


def test_imports_the_file_has_are_not_repeated_and_new_ones_go_after_its_imports() -> None:
    fragment = (
        '"""Another docstring."""\nimport argparse\nimport collections\n\n\ndef count(text):\n    return 0\n'
    )
    out = merged(SCRIPT, fragment)
    assert out is not None
    assert out.startswith('"""Count words."""\n\nimport argparse\nimport collections\n\n\n')
    assert out.count("import argparse") == 1 and "Another docstring" not in out


def test_a_standard_module_the_new_code_uses_and_never_imports_is_imported() -> None:
    out = merged(
        '"""Text."""\n\n\ndef f(s):\n    return s\n', "def g(s):\n    return re.sub('a', 'b', s) + thing.x\n"
    )
    assert out is not None
    assert out.startswith('"""Text."""\n\nimport re\n\n\ndef f(s):')
    assert "import thing" not in out  # not a standard module: left for the checks to say


def test_the_main_block_is_replaced_and_a_whole_file_merges_to_itself() -> None:
    out = merged(SCRIPT, 'if __name__ == "__main__":\n    main(["x"])\n')
    assert out is not None and out.endswith('if __name__ == "__main__":\n    main(["x"])\n')
    assert out.count("__main__") == 1
    assert merged(SCRIPT, SCRIPT) == SCRIPT


def test_what_has_no_place_or_does_not_parse_is_not_merged() -> None:
    assert merged(SCRIPT, "print('hello')\n") is None  # a bare call: where would it go?
    assert merged(SCRIPT, "def broken(:\n") is None
    assert merged("def broken(:\n", "def f():\n    return 1\n") is None
