"""The file tools, on real files, through their executors."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hearth.core.errors import ToolError
from hearth.sandbox.paths import SafePaths, resolve_in_workspace
from hearth.tools.base import RunContext, Tool
from hearth.tools.builtin.files import file_tools
from hearth.tools.toolset import Toolset

TOOLS = Toolset(file_tools())


def call(ws: Path, name: str, **args: object) -> str:
    tool = TOOLS.get(name)
    assert isinstance(tool, Tool)
    return asyncio.run(tool.run(tool.input_model.model_validate(args), RunContext(paths=SafePaths(ws))))


def test_write_then_read_back(workspace: Path) -> None:
    out = call(workspace, "write", path="pkg/hello.py", content="print('hello')\n")
    assert out == "Created pkg/hello.py (1 lines, 15 bytes)."
    assert (workspace / "pkg/hello.py").read_text() == "print('hello')\n"
    assert call(workspace, "read", path="pkg/hello.py") == "1\tprint('hello')"
    assert call(workspace, "write", path="pkg/hello.py", content="x").startswith("Overwrote")


def test_read_pages_long_files_and_says_how_to_go_on(workspace: Path) -> None:
    (workspace / "long.txt").write_text("".join(f"line {i}\n" for i in range(1, 1001)))
    out = call(workspace, "read", path="long.txt", offset=10, limit=3)
    assert out.splitlines()[:3] == ["10\tline 10", "11\tline 11", "12\tline 12"]
    assert "[lines 10-12 of 1000; use offset=13 to read on]" in out


def test_read_refuses_binary_and_missing_files_clearly(workspace: Path) -> None:
    (workspace / "img.bin").write_bytes(b"\x89PNG\x00\x00\x01")
    assert "binary file" in call(workspace, "read", path="img.bin")
    with pytest.raises(ToolError, match="does not exist"):
        call(workspace, "read", path="nope.txt")


def test_huge_file_is_read_one_page_at_a_time(workspace: Path) -> None:
    with (workspace / "big.log").open("w") as fh:
        for i in range(300_000):
            fh.write(f"entry {i} " + "x" * 40 + "\n")
    out = call(workspace, "read", path="big.log")
    assert len(out) < 30_000
    assert "of 300000" in out


def test_edit_exact_and_unique(workspace: Path) -> None:
    (workspace / "a.py").write_text("def f():\n    return 1\n\ndef g():\n    return 2\n")
    out = call(workspace, "edit", path="a.py", old="    return 2", new="    return 3")
    assert "replaced 1 occurrence at line 5" in out
    assert (workspace / "a.py").read_text().endswith("return 3\n")


def test_edit_ambiguous_asks_for_more_context(workspace: Path) -> None:
    (workspace / "a.txt").write_text("teh cat\nteh dog\nteh end\n")
    with pytest.raises(ToolError, match="occurs 3 times"):
        call(workspace, "edit", path="a.txt", old="teh", new="the")
    call(workspace, "edit", path="a.txt", old="teh", new="the", replace_all=True)
    assert (workspace / "a.txt").read_text() == "the cat\nthe dog\nthe end\n"


def test_edit_tolerates_wrong_indentation_and_reindents(workspace: Path) -> None:
    (workspace / "m.py").write_text("class A:\n    def f(self):\n        return 1\n")
    out = call(
        workspace, "edit", path="m.py", old="def f(self):\n    return 1", new="def f(self):\n    return 42"
    )
    assert "ignoring indentation" in out
    assert (workspace / "m.py").read_text() == "class A:\n    def f(self):\n        return 42\n"


def test_edit_tolerates_trailing_whitespace(workspace: Path) -> None:
    (workspace / "t.txt").write_text("alpha   \nbeta\n")
    call(workspace, "edit", path="t.txt", old="alpha\nbeta", new="ALPHA\nBETA")
    assert (workspace / "t.txt").read_text() == "ALPHA\nBETA\n"


def test_edit_tolerates_smart_quotes(workspace: Path) -> None:
    (workspace / "q.py").write_text('msg = "it\'s fine"\n')
    out = call(workspace, "edit", path="q.py", old="msg = \u201cit\u2019s fine\u201d", new='msg = "ok"')
    assert "Unicode punctuation" in out
    assert (workspace / "q.py").read_text() == 'msg = "ok"\n'


def test_edit_strips_line_numbers_copied_from_read(workspace: Path) -> None:
    (workspace / "n.py").write_text("a = 1\nb = 2\n")
    call(workspace, "edit", path="n.py", old="2\tb = 2", new="b = 3")
    assert (workspace / "n.py").read_text() == "a = 1\nb = 3\n"


def test_edit_not_found_gives_a_did_you_mean_hint_and_changes_nothing(workspace: Path) -> None:
    original = "def compute_total(items):\n    return sum(items)\n"
    (workspace / "c.py").write_text(original)
    with pytest.raises(ToolError, match="Did you mean lines 1-2") as info:
        call(workspace, "edit", path="c.py", old="def compute_totals(items):\n    return sum(item)", new="x")
    assert "compute_total(items)" in str(info.value)
    assert (workspace / "c.py").read_text() == original


def test_edit_one_function_in_a_large_file_leaves_the_rest_byte_identical(workspace: Path) -> None:
    funcs = [f"def f{i}(x):\n    return x + {i}\n" for i in range(2000)]
    (workspace / "big.py").write_text("\n".join(funcs))
    before = (workspace / "big.py").read_text()
    call(
        workspace,
        "edit",
        path="big.py",
        old="def f1234(x):\n    return x + 1234",
        new="def f1234(x):\n    return -x",
    )
    after = (workspace / "big.py").read_text()
    assert after == before.replace("def f1234(x):\n    return x + 1234", "def f1234(x):\n    return -x")


def test_edit_keeps_crlf_line_endings(workspace: Path) -> None:
    (workspace / "w.txt").write_bytes(b"one\r\ntwo\r\n")
    call(workspace, "edit", path="w.txt", old="two", new="TWO")
    assert (workspace / "w.txt").read_bytes() == b"one\r\nTWO\r\n"


def test_glob_grep_ls_mkdir(workspace: Path) -> None:
    call(workspace, "mkdir", path="src/pkg")
    (workspace / "src/pkg/a.py").write_text("import os\nTODO = 1\n")
    (workspace / "src/b.py").write_text("x = 'todo'\n")
    (workspace / "notes.md").write_text("TODO: write docs\n")
    (workspace / ".git").mkdir()
    (workspace / ".git/config").write_text("TODO in git\n")
    assert call(workspace, "glob", pattern="*.py").splitlines() == ["src/b.py", "src/pkg/a.py"]
    assert call(workspace, "glob", pattern="src/**/*.py").splitlines() == ["src/b.py", "src/pkg/a.py"]
    assert call(workspace, "glob", pattern="src/*.py").splitlines() == ["src/b.py"]
    hits = call(workspace, "grep", pattern="TODO").splitlines()
    assert hits == [
        "[2 matching lines in 2 files]",  # first: a small model reads the count before the lines
        "notes.md:1: TODO: write docs",
        "src/pkg/a.py:2: TODO = 1",
    ]
    hits = call(workspace, "grep", pattern="todo", ignore_case=True, glob="*.py").splitlines()
    assert len(hits) == 3 and hits[0] == "[2 matching lines in 2 files]"
    assert call(workspace, "ls").splitlines()[:2] == [".git/", "src/"]
    assert "already exists" in call(workspace, "mkdir", path="src")


def test_grep_counts_and_reads_a_pattern_that_is_not_a_working_regex_as_plain_text(workspace: Path) -> None:
    """The real 1.5B searched `def greet(name):` (task 27): as a regex the parentheses are a group,
    nothing matched, and it searched again and again. And it wrote a guessed count (task 24)."""
    (workspace / "greet.py").write_text("def greet(name):\n    return f'Hi {name}'\n")
    (workspace / "app.log").write_text("".join(f"{i} {'ERROR' if i % 3 else 'INFO'} x\n" for i in range(30)))
    out = call(workspace, "grep", pattern="def greet(name):", path="greet.py")
    assert (
        out.endswith("[1 matching line in 1 file]\ngreet.py:1: def greet(name):") and "as plain text" in out
    )
    out = call(workspace, "grep", pattern="(unclosed")
    assert "not a valid regular expression" in out and "No matches for '(unclosed'." in out
    assert call(workspace, "grep", pattern="ERROR", path="app.log").startswith(
        "[20 matching lines in 1 file]\n"
    )
    assert call(workspace, "grep", pattern=r"def \w+\(", path="greet.py").startswith(
        "[1 matching line in 1 file]"
    )
    assert call(workspace, "grep", pattern="nowhere") == "No matches for 'nowhere'."


@pytest.mark.parametrize("path", ["../outside.txt", "/etc/passwd", "sub/../../x", "~/.bashrc"])
def test_paths_outside_the_workspace_are_refused(workspace: Path, path: str) -> None:
    with pytest.raises(ToolError, match=r"outside the workspace|home"):
        call(workspace, "write", path=path, content="x")
    assert not (workspace.parent / "outside.txt").exists()


def test_same_prefix_sibling_is_outside(tmp_path: Path) -> None:
    ws = tmp_path / "proj"
    ws.mkdir()
    (tmp_path / "proj_evil").mkdir()
    with pytest.raises(ToolError, match="outside"):
        resolve_in_workspace(ws, str(tmp_path / "proj_evil" / "x"), write=True)


def test_symlink_pointing_out_is_refused(workspace: Path, tmp_path: Path) -> None:
    canary = tmp_path / "canary"
    canary.mkdir()
    (canary / "secret.txt").write_text("do not read")
    os.symlink(canary, workspace / "esc")
    with pytest.raises(ToolError, match="outside"):
        call(workspace, "read", path="esc/secret.txt")
    with pytest.raises(ToolError, match="outside"):
        call(workspace, "write", path="esc/new.txt", content="x")
    assert sorted(p.name for p in canary.iterdir()) == ["secret.txt"]
    assert call(workspace, "glob", pattern="*.txt").startswith("No files")


def test_secrets_are_denied_but_templates_are_not(workspace: Path) -> None:
    (workspace / ".env").write_text("API_KEY=sk-123\n")
    (workspace / ".env.example").write_text("API_KEY=\n")
    for path in (".env", "config/.env.local", ".ssh/id_rsa", "keys/server.pem"):
        with pytest.raises(ToolError, match="secret"):
            call(workspace, "read", path=path)
    assert "API_KEY=" in call(workspace, "read", path=".env.example")
    assert "sk-123" not in call(workspace, "grep", pattern="API_KEY")


def test_an_allow_rule_lets_a_named_secret_through(workspace: Path) -> None:
    from hearth.agent.policy import PermissionMode, PermissionPolicy

    (workspace / ".env").write_text("DEBUG=1\n")
    (workspace / "id_rsa").write_text("key\n")
    policy = PermissionPolicy.from_settings(PermissionMode.NORMAL, allow=["read(.env)"])
    ctx = RunContext(paths=SafePaths(workspace, secret_exceptions=policy.secret_exceptions()))
    tool = TOOLS.get("read")
    assert tool is not None
    assert asyncio.run(tool.run(tool.input_model.model_validate({"path": ".env"}), ctx)) == "1\tDEBUG=1"
    with pytest.raises(ToolError, match="secret"):
        asyncio.run(tool.run(tool.input_model.model_validate({"path": "id_rsa"}), ctx))


def test_hearth_state_and_git_internals_are_not_writable(workspace: Path) -> None:
    for path in (".hearth/config.toml", ".git/hooks/pre-commit"):
        with pytest.raises(ToolError, match="may not change"):
            call(workspace, "write", path=path, content="x")


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(["..", ".", "a", "b", "/", "//", "~", "x/..", "\\", "%2e"]), max_size=8))
def test_resolution_never_leaves_the_workspace(
    tmp_path_factory: pytest.TempPathFactory, parts: list[str]
) -> None:
    ws = tmp_path_factory.mktemp("ws")
    path = "/".join(parts)
    try:
        resolved = resolve_in_workspace(ws, path, write=True)
    except ToolError:
        return
    real_ws = os.path.realpath(ws)
    assert os.path.commonpath([real_ws, str(resolved)]) == real_ws


def test_a_whole_file_read_ends_with_its_line_count(workspace: Path) -> None:
    """The real 1.5B read data.txt (37 numbered lines) and wrote 24 as its line count (task 14)."""
    (workspace / "data.txt").write_text("".join(f"row {i}\n" for i in range(37)))
    (workspace / "short.txt").write_text("a\nb\n")
    out = call(workspace, "read", path="data.txt")
    assert out.splitlines()[-2:] == ["37\trow 36", "[end of data.txt: 37 lines]"]
    assert call(workspace, "read", path="short.txt") == "1\ta\n2\tb"  # short files stay as they are
    assert call(workspace, "read", path="data.txt", offset=30).endswith(
        "[lines 30-37 of 37: the end of the file]"
    )


def test_a_write_wrapped_in_a_markdown_fence_writes_the_code_inside(workspace: Path) -> None:
    """A small model copies the chat's ```python fence into the file it writes."""
    out = call(workspace, "write", path="gcd.py", content="```python\ndef gcd(a, b):\n    return a\n```")
    assert (workspace / "gcd.py").read_text() == "def gcd(a, b):\n    return a\n"
    assert "fence around the content was left out" in out
    call(workspace, "write", path="notes.md", content="```python\nx = 1\n```\n")
    assert (workspace / "notes.md").read_text() == "```python\nx = 1\n```\n"  # Markdown's own fence
    two = "```python\nx = 1\n```\ntext\n```python\ny = 2\n```"
    call(workspace, "write", path="two.py", content=two)
    assert (workspace / "two.py").read_text() == two  # not one fenced block: written as sent


def test_a_write_carrying_reads_line_numbers_on_every_line_writes_the_lines(workspace: Path) -> None:
    out = call(workspace, "write", path="count.py", content="1\timport sys\n2\t\n3\tprint(len(sys.argv))\n")
    assert (workspace / "count.py").read_text() == "import sys\n\nprint(len(sys.argv))\n"
    assert "line numbers read shows were left out" in out
    rows = "1\talice\n2\tbob\n"
    call(workspace, "write", path="people.tsv", content=rows)
    assert (workspace / "people.tsv").read_text() == rows  # a table's first column is data
    gaps = "1\ta = 1\n3\tb = 2\n"
    call(workspace, "write", path="gaps.py", content=gaps)
    assert (workspace / "gaps.py").read_text() == gaps  # not numbered one after another


def test_reads_numbers_on_every_line_but_the_first_are_left_out_too(workspace: Path) -> None:
    """The 1.5B copied a read of README.md without the first `1<tab>` and wrote `2<tab>`,
    `3<tab>` into the file (then committed it)."""
    (workspace / "README.md").write_text("# Corner shop\n\nA tiny till.\n")
    call(workspace, "read", path="README.md")
    with pytest.raises(ToolError, match="already has exactly this content"):
        call(workspace, "write", path="README.md", content="# Corner shop\n2\t\n3\tA tiny till.\n")
    assert (workspace / "README.md").read_text() == "# Corner shop\n\nA tiny till.\n"
    call(workspace, "write", path="notes.py", content="x = 1\n5\ty = 2\n6\tz = 3\n")
    assert (workspace / "notes.py").read_text() == "x = 1\n5\ty = 2\n6\tz = 3\n"  # not counting from 2


def test_a_text_files_own_lines_written_back_with_reads_numbers_change_nothing(workspace: Path) -> None:
    (workspace / "names.txt").write_text("pear\napple\nfig\n")
    call(workspace, "read", path="names.txt")
    with pytest.raises(ToolError, match="already has exactly this content"):
        call(workspace, "write", path="names.txt", content="1\tpear\n2\tapple\n3\tfig\n")
    assert (workspace / "names.txt").read_text() == "pear\napple\nfig\n"  # not numbered now
