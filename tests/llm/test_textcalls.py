from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hearth.llm.textcalls import load_arguments, parse_text_calls

TOOLS = {
    "write": ("path", "content"),
    "read": ("path", "offset", "limit"),
    "ls": ("path",),
}


def test_fenced_json_as_qwen_small_models_write_it() -> None:
    text = (
        "I will create the file.\n```json\n"
        '{"name": "write", "arguments": {"path": "a.py", "content": "print(1)\\n"}}\n```'
    )
    [call] = parse_text_calls(text, TOOLS)
    assert call.name == "write"
    assert call.arguments == {"path": "a.py", "content": "print(1)\n"}
    assert call.error is None


def test_fenced_json_with_tool_and_args_keys_and_a_list() -> None:
    text = '```\n[{"tool": "ls", "args": {"path": "."}}, {"tool": "read", "args": {"path": "x"}}]\n```'
    calls = parse_text_calls(text, TOOLS)
    assert [(c.name, c.arguments) for c in calls] == [("ls", {"path": "."}), ("read", {"path": "x"})]


def test_tool_call_tags_hermes_style() -> None:
    text = 'Sure.<tool_call>\n{"name": "read", "arguments": {"path": "README.md"}}\n</tool_call>'
    [call] = parse_text_calls(text, TOOLS)
    assert (call.name, call.arguments) == ("read", {"path": "README.md"})


def test_unclosed_tool_call_tag_at_end_of_reply() -> None:
    [call] = parse_text_calls('<tool_call>{"name": "ls", "arguments": {"path": "src"}}', TOOLS)
    assert (call.name, call.arguments) == ("ls", {"path": "src"})


def test_function_parameter_xml_qwen3_coder_style() -> None:
    text = (
        "<tool_call>\n<function=write>\n<parameter=path>\nhello.py\n</parameter>\n"
        "<parameter=content>\nprint('hello')\n</parameter>\n</function>\n</tool_call>"
    )
    [call] = parse_text_calls(text, TOOLS)
    assert call.name == "write"
    assert call.arguments == {"path": "hello.py", "content": "print('hello')"}


def test_python_style_call_of_a_known_tool() -> None:
    text = "Let me look.\nread(path='src/app.py', limit=20)\n"
    [call] = parse_text_calls(text, TOOLS)
    assert (call.name, call.arguments) == ("read", {"path": "src/app.py", "limit": 20})


def test_python_style_positional_arguments_map_to_parameters_in_order() -> None:
    [call] = parse_text_calls('write("a.txt", "hi")', TOOLS)
    assert call.arguments == {"path": "a.txt", "content": "hi"}


def test_python_style_multiline_call() -> None:
    text = 'write(\n    path="a.txt",\n    content="x)y",\n)'
    [call] = parse_text_calls(text, TOOLS)
    assert call.arguments == {"path": "a.txt", "content": "x)y"}


@pytest.mark.parametrize(
    "between",
    ["\n", "\n\n", "\nThen I read it back:\n", " "],
)
@pytest.mark.parametrize("after", ["", "\nTASK_COMPLETE", "\nDone."])
def test_several_objects_in_one_fence_are_each_a_call(between: str, after: str) -> None:
    """The 0.5B model's reply to the README's first task: two calls in one fence, the first
    without its content. Repairing the fence as one value kept only the read, so the write (and
    its missing content) was never seen."""
    text = (
        '```json\n{"name": "write", "arguments": {"path": "hello.py"}}'
        + between
        + '{"name": "read", "arguments": {"path": "hello.py"}}'
        + after
        + "\n```"
    )
    calls = parse_text_calls(text, TOOLS)
    assert [(c.name, c.arguments) for c in calls] == [
        ("write", {"path": "hello.py"}),
        ("read", {"path": "hello.py"}),
    ]
    assert calls[0].raw == '{"name": "write", "arguments": {"path": "hello.py"}}'


def test_several_objects_in_one_fence_the_last_cut_off() -> None:
    text = '```json\n{"name": "read", "arguments": {"path": "a.py"}}\n{"name": "write", "arguments": {"path": "a.py", "content": "x = 1'
    calls = parse_text_calls(text, TOOLS)
    assert [c.name for c in calls] == ["read", "write"]
    assert calls[1].arguments["content"].startswith("x = 1") and calls[1].repaired and not calls[0].repaired


def test_truncated_json_is_repaired_and_marked() -> None:
    text = '```json\n{"name": "write", "arguments": {"path": "a.txt", "content": "hello'
    [call] = parse_text_calls(text, TOOLS)
    assert call.name == "write"
    assert call.arguments["path"] == "a.txt"
    assert call.arguments["content"].startswith("hello")
    assert call.repaired


def test_bare_json_object_without_fence() -> None:
    [call] = parse_text_calls('{"name": "ls", "arguments": {"path": "."}}', TOOLS)
    assert call.name == "ls"


def test_double_encoded_arguments_string() -> None:
    text = '```json\n{"name": "ls", "arguments": "{\\"path\\": \\"docs\\"}"}\n```'
    [call] = parse_text_calls(text, TOOLS)
    assert call.arguments == {"path": "docs"}


def test_prose_and_unrelated_json_are_not_calls() -> None:
    assert parse_text_calls("The answer is 42. Use print(x) to see it.", TOOLS) == []
    assert parse_text_calls('```json\n{"name": "Alice", "age": 3}\n```', TOOLS) == []
    assert parse_text_calls("Call ls later, maybe.", TOOLS) == []


def test_unknown_tool_with_call_shape_is_still_reported_as_a_call() -> None:
    [call] = parse_text_calls('```json\n{"name": "delete_all", "arguments": {}}\n```', TOOLS)
    assert call.name == "delete_all"  # the dispatcher tells the model it does not exist


def test_arguments_that_are_not_an_object_become_an_error() -> None:
    [call] = parse_text_calls('```json\n{"name": "ls", "arguments": [1, 2]}\n```', TOOLS)
    assert call.error and "JSON object" in call.error


def test_load_arguments_repairs_and_rejects() -> None:
    assert load_arguments('{"a": 1') == ({"a": 1}, True)
    assert load_arguments("") == ({}, False)
    try:
        load_arguments("[1, 2]")
    except ValueError as exc:
        assert "JSON object" in str(exc)
    else:
        raise AssertionError("a list must not pass as arguments")


@given(st.text(max_size=400))
def test_parser_never_raises_on_any_text(text: str) -> None:
    for call in parse_text_calls(text, TOOLS):
        assert isinstance(call.arguments, dict)


@given(st.text(alphabet='{}[]":,<>=/ \nabcnmeargstolwrite_', max_size=200))
def test_parser_never_raises_on_json_like_noise(text: str) -> None:
    parse_text_calls(text, TOOLS)


def test_python_triple_quoted_strings_in_a_json_call_are_read() -> None:
    """The real 1.5B's edit of calc/ops.py: the strings in triple quotes, across lines."""
    text = (
        '```json\n{"name": "edit", "arguments": {"path": "calc/ops.py", "old": """def sub(a, b):""",\n'
        '                              "new": """def add(a, b):\n    return a + b"""}}\n```'
    )
    [call] = parse_text_calls(text, TOOLS)
    assert call.name == "edit" and call.repaired and call.error is None
    assert call.arguments == {
        "path": "calc/ops.py",
        "old": "def sub(a, b):",
        "new": "def add(a, b):\n    return a + b",
    }


def test_a_files_text_with_bare_quotes_is_taken_whole() -> None:
    """The real 1.5B's write of calc/ops.py: docstrings' quotes left unescaped inside
    the JSON string, read as extra arguments ("Return a minus b.": unknown argument)."""
    text = (
        '```json\n{"name": "write", "arguments": {"path": "calc/ops.py", "content": "def add(a, b):\\n'
        '    return a + b\\n\\ndef sub(a, b):\\n    """Return a minus b."""\\n    return a - b\\n"}}\n```'
    )
    [call] = parse_text_calls(text, TOOLS)
    assert call.name == "write" and call.error is None and set(call.arguments) == {"path", "content"}
    assert call.arguments["content"] == (
        'def add(a, b):\n    return a + b\n\ndef sub(a, b):\n    """Return a minus b."""\n    return a - b\n'
    )


@pytest.mark.parametrize(
    "heading", ["solution.py", "**solution.py**", "`solution.py`", "File: solution.py", "# solution.py"]
)
def test_a_whole_file_as_its_path_and_a_fenced_block_is_a_write(heading: str) -> None:
    """The form small models write code in best: no JSON string to escape it into."""
    text = f'{heading}\n```python\ndef greet(name):\n    return f"Hi, {{name}}!"\n```\n'
    [call] = parse_text_calls(text, TOOLS)
    assert (call.name, call.error) == ("write", None)
    assert call.arguments == {
        "path": "solution.py",
        "content": 'def greet(name):\n    return f"Hi, {name}!"\n',
    }


def test_a_file_block_cut_at_the_end_of_the_reply_is_still_the_file_so_far() -> None:
    [call] = parse_text_calls("app/main.py\n\n```\nprint('a')\nprint('b')", TOOLS)
    assert call.arguments == {"path": "app/main.py", "content": "print('a')\nprint('b')\n"}


def test_code_with_no_path_above_it_or_a_json_call_under_a_heading_is_not_a_file() -> None:
    assert parse_text_calls("Here is the fix:\n```python\nx = 1\n```", TOOLS) == []
    text = 'notes.txt\n```json\n{"name": "read", "arguments": {"path": "notes.txt"}}\n```'
    [call] = parse_text_calls(text, TOOLS)
    assert (call.name, call.arguments) == ("read", {"path": "notes.txt"})
    assert parse_text_calls("a.py\n```\nx = 1\n```", {"read": ("path",)}) == []  # no write offered
