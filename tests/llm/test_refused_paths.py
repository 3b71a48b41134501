"""The pattern a grammar holds a file writer's path to: any path but the files the task keeps."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hearth.core.types import ToolSpec
from hearth.llm.actions import action_schema, not_any_of

PATH_CHARS = st.characters(exclude_characters='"\\\n', exclude_categories=["Cs"])
NAMES = st.lists(st.text(PATH_CHARS, min_size=1, max_size=12), min_size=1, max_size=5)


@given(NAMES, st.text(PATH_CHARS, max_size=14))
def test_the_pattern_matches_every_path_but_the_kept_ones(names: list[str], path: str) -> None:
    pattern = re.compile(not_any_of(names))
    assert bool(pattern.fullmatch(path)) is (path != "" and path not in names)


@given(NAMES)
def test_a_kept_name_with_one_character_more_or_less_is_another_file(names: list[str]) -> None:
    pattern = re.compile(not_any_of(names))
    for name in names:
        assert not pattern.fullmatch(name)
        for other in (name + "x", name[:-1], "./" + name):
            assert bool(pattern.fullmatch(other)) is (other != "" and other not in names)


def test_the_pattern_escapes_only_as_both_regular_expressions_and_grammars_read() -> None:
    """llama.cpp's grammars know \\x escapes, and no "\\." or "\\-": a pattern with one made the
    server's grammar fail to parse. Outside a class, llama-cpp-python's converter cuts an escape
    apart before a group, so a special character stands in a class of its own."""
    pattern = not_any_of(["a-b.py", "dir/x[1].txt", "é.md", "x y+z"])
    escapes = re.findall(r"\\(.)", pattern)
    assert escapes and set(escapes) == {"x"}
    outside = re.sub(r"\[[^\]]*\]", "", pattern)  # what is left once every class is taken out
    assert "\\" not in outside and not re.search(r"[.\-/+ é]", outside)


def test_the_schema_refuses_the_path_of_the_named_tools_only() -> None:
    specs = [
        ToolSpec(
            name=name,
            description=name,
            parameters={"type": "object", "properties": {"path": {"type": "string"}}},
        )
        for name in ("read", "write")
    ]
    schema = action_schema(specs, {"write": ["test_x.py"]})
    by_tool = {c["properties"]["tool"]["const"]: c for c in schema["anyOf"]}
    assert "pattern" in by_tool["write"]["properties"]["args"]["properties"]["path"]
    assert "pattern" not in by_tool["read"]["properties"]["args"]["properties"]["path"]
    too_many = action_schema(specs, {"write": [f"test_{i}.py" for i in range(40)]})
    assert "pattern" not in json.dumps(too_many)  # a grammar that large is not worth its cost


def test_llama_cpp_python_converts_the_pattern_into_escapes_its_grammars_know() -> None:
    pytest.importorskip("llama_cpp", reason="llama-cpp-python is not installed here")
    from llama_cpp import llama_grammar  # type: ignore[import-not-found]

    schema = {
        "type": "object",
        "properties": {"path": {"type": "string", "pattern": not_any_of(["a-b.py", "é.md"])}},
    }
    gbnf = llama_grammar.json_schema_to_gbnf(json.dumps(schema))
    # llama.cpp parses a grammar only when a request uses it, and then fails on these
    assert not re.search(r"\\[^xnr\"\\\[\]tuU]", gbnf), gbnf
    assert not re.search(r'"\\x[0-9a-f]?"', gbnf), gbnf  # an escape cut apart
