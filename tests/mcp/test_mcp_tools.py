"""A server's tool list turned into Hearth tools: names that never shadow, schemas checked and
compacted, annotations feeding permissions, results of every kind as text."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from mcp import types

from hearth.core.errors import ConfigError
from hearth.mcp.client import Connection
from hearth.mcp.config import ServerConfig, read_servers, workspace_fingerprint
from hearth.mcp.tools import McpArguments, mcp_tools, result_text
from hearth.mcp.transport import Prepared
from hearth.sandbox.paths import SafePaths
from hearth.tools.base import RunContext


def connection(*tools: types.Tool, **config: object) -> Connection:
    def launcher(_: ServerConfig) -> Prepared:
        raise AssertionError("not started in these tests")

    conn = Connection(ServerConfig("srv", "test", command="x", **config), launcher)  # type: ignore[arg-type]
    conn.tools = list(tools)
    return conn


def tool(name: str, schema: Any = None, **kw: Any) -> types.Tool:
    """An MCP tool built without validation: some tests hand Hearth what a broken server sends."""
    return types.Tool.model_construct(
        name=name, input_schema={"type": "object", "properties": {}} if schema is None else schema, **kw
    )


def test_a_clashing_name_is_renamed_never_shadowing() -> None:
    taken = {"mcp__srv__read"}
    conn = connection(tool("read"), tool("a/b"), tool("a.b"))
    tools, problems = mcp_tools(conn, lambda n: n in taken)
    assert [t.name for t in tools] == ["mcp__srv__read_2", "mcp__srv__a_b", "mcp__srv__a_b_2"]
    assert [t.remote_name for t in tools] == ["read", "a/b", "a.b"] and problems == []


def test_invalid_schemas_are_left_out_and_reported() -> None:
    bad = [
        tool("a", {"type": "object", "properties": {"x": {"type": "nonsense"}}}),
        tool("b", "not a schema"),
    ]
    tools, problems = mcp_tools(connection(*bad, tool("c", {"type": "string"}), tool("ok")), lambda _: False)
    assert [t.name for t in tools] == ["mcp__srv__ok"]
    assert len(problems) == 3 and all("schema is invalid" in p for p in problems)


def test_enabled_and_disabled_lists_and_annotations() -> None:
    hints = types.ToolAnnotations(read_only_hint=True)
    safe = types.ToolAnnotations(destructive_hint=False)
    conn = connection(
        tool("look", annotations=hints),
        tool("make", annotations=safe),
        tool("wipe"),
        tool("hidden"),
        enabled_tools=("look", "make", "wipe"),
        disabled_tools=("make",),
    )
    tools = {t.remote_name: t for t in mcp_tools(conn, lambda _: False)[0]}
    assert set(tools) == {"look", "wipe"}
    assert tools["look"].read_only and not tools["look"].destructive
    assert tools["wipe"].destructive and not tools["wipe"].read_only  # the MCP default


def test_schemas_and_descriptions_are_compacted() -> None:
    long = "Reads a thing from the place. " + "It also does a great many other things. " * 20
    schema = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "title": "Args",
        "additionalProperties": False,
        "properties": {"path": {"type": "string", "title": "Path", "description": long}},
        "required": ["path"],
    }
    (only,), _ = mcp_tools(connection(tool("get", schema, description=long)), lambda _: False)
    spec = only.spec()
    assert spec.description == "Reads a thing from the place."
    assert spec.parameters == {
        "type": "object",
        "properties": {"path": {"type": "string", "description": "Reads a thing from the place."}},
        "required": ["path"],
    }


def test_arguments_are_checked_against_the_schema_before_any_call(tmp_path: Path) -> None:
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
    (only,), _ = mcp_tools(connection(tool("count", schema)), lambda _: False)
    ctx = RunContext(paths=SafePaths(tmp_path))
    with pytest.raises(Exception, match=r"invalid arguments for count: n: 'x' is not of type 'integer'"):
        asyncio.run(only.run(McpArguments.model_validate({"n": "x"}), ctx))
    with pytest.raises(Exception, match="not running"):  # valid: then the (not started) server is asked
        asyncio.run(only.run(McpArguments.model_validate({"n": 1}), ctx))


def test_results_of_every_kind_become_text() -> None:
    content = [
        types.TextContent(type="text", text="hello"),
        types.ImageContent(type="image", data="aGVsbG8=", mime_type="image/png"),
        types.EmbeddedResource(
            type="resource", resource=types.TextResourceContents(uri="file:///a.txt", text="inside")
        ),
    ]
    text = result_text(content)
    assert (
        "hello" in text and "[image image/png, 5 bytes" in text and "[resource file:///a.txt]\ninside" in text
    )
    assert result_text([], {"temperature": 3}) == '{"temperature": 3}'


@pytest.mark.parametrize(
    ("entry", "says"),
    [
        ({"args": ["x"]}, "needs either `command` or `url`"),
        ({"command": "x", "url": "http://h"}, "needs either"),
        ({"command": "x", "tool_timeout": -1}, "timeout"),
        ({"command": "x", "args": "not a list"}, "expected a list"),
        ({"command": "x", "bogus": 1}, "unknown setting bogus"),
    ],
)
def test_bad_entries_say_the_file_and_server(tmp_path: Path, entry: dict[str, object], says: str) -> None:
    import json

    path = tmp_path / "mcp.json"
    path.write_text(json.dumps({"mcpServers": {"s1": entry}}))
    with pytest.raises(ConfigError, match=says) as err:
        read_servers(path)
    assert str(path) in err.value.message and "'s1'" in err.value.message


def test_the_fingerprint_covers_both_workspace_files(tmp_path: Path) -> None:
    empty = workspace_fingerprint(tmp_path)
    (tmp_path / ".mcp.json").write_text("{}")
    one = workspace_fingerprint(tmp_path)
    (tmp_path / ".hearth").mkdir()
    (tmp_path / ".hearth" / "mcp.json").write_text("{}")
    assert len({empty, one, workspace_fingerprint(tmp_path)}) == 3


def test_startup_timeout_counts_from_the_loaded_sdk_not_from_hearths_import(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a busy machine Hearth's own import of the MCP SDK can take longer than a server's
    startup_timeout: the server must still be started and judged on its own time."""
    import time

    import hearth.mcp.client as client

    real = client.load_sdk

    def slow_import() -> None:
        time.sleep(1.5)  # what importing the SDK costs at a load of ten on two cores
        real()

    monkeypatch.setattr(client, "load_sdk", slow_import)
    marker = tmp_path / "started"

    def launcher(_: ServerConfig) -> Prepared:
        return Prepared(argv=["/bin/sh", "-c", f"touch {marker}; echo not json-rpc; exit 3"], env={})

    async def main() -> Connection:
        conn = Connection(ServerConfig("srv", "test", command="sh", startup_timeout=0.5), launcher)
        conn.start()
        await conn.ready()
        await conn._cancel()
        return conn

    conn = asyncio.run(main())
    assert marker.exists()  # the server was started, not given up on while Hearth imported
    assert conn.state == "failed" and "startup_timeout" not in conn.problem
