"""Toolsets that grow while a session runs: late tools, unlisted tools and what reveals them."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from hearth.core.types import ToolSpec
from hearth.tools.base import RunContext, Tool, ToolInput
from hearth.tools.toolset import Toolset


class Nothing(ToolInput):
    """Does nothing."""


def tool(name: str, *, listed: bool = True, reveals: bool = False) -> Tool:
    def run(args: Nothing, ctx: RunContext) -> str:
        return name

    return Tool(name=name, input_model=Nothing, execute=run, listed=listed, reveals=reveals)


def names(specs: list[ToolSpec]) -> list[str]:
    return [s.name for s in specs]


def test_an_extended_toolset_sees_tools_that_join_its_base_later() -> None:
    base = Toolset([tool("read")])
    session = base.extended([tool("delegate")])
    base.add(tool("mcp__fs__read_text_file"))
    assert session.get("mcp__fs__read_text_file") is not None
    assert names(session.specs()) == ["read", "mcp__fs__read_text_file", "delegate"]
    assert [t.name for t in session] == ["read", "mcp__fs__read_text_file", "delegate"]
    assert "mcp__fs__read_text_file" in session.parameter_table() and len(session) == 3
    with pytest.raises(ValueError, match="duplicate"):
        session.add(tool("read"))


def test_a_call_waits_for_the_source_that_may_add_it() -> None:
    async def scenario() -> tuple[Tool | None, Tool | None]:
        base = Toolset([tool("read")])
        ready = asyncio.Event()

        async def waiter(name: str) -> None:
            if name.startswith("mcp__slow__"):
                await ready.wait()

        base.add_waiter(waiter)
        session = base.extended([])

        async def server_starts() -> None:
            await asyncio.sleep(0.05)
            base.add(tool("mcp__slow__go"))
            ready.set()

        starting = asyncio.create_task(server_starts())
        found = await session.wait_for("mcp__slow__go")
        await starting
        return found, await session.wait_for("mcp__other__x")

    found, missing = asyncio.run(scenario())
    assert found is not None and found.name == "mcp__slow__go"
    assert missing is None


def test_unlisted_tools_are_sent_once_revealed() -> None:
    hidden = [tool("mcp__fs__read", listed=False), tool("mcp__fs__read_2", listed=False)]
    ts = Toolset([tool("read"), tool("mcp_tools", reveals=True), *hidden])
    assert names(ts.shown_specs((), set())) == ["read", "mcp_tools"]
    # named in a lookup's successful result: exactly that name, not one it is a prefix of
    revealed = ts.revealed([("mcp_tools", True, "mcp__fs__read(path: string): reads")])
    assert revealed == {"mcp__fs__read"}
    assert names(ts.shown_specs((), revealed)) == ["read", "mcp_tools", "mcp__fs__read"]
    # a failed lookup, or a tool that does not reveal, reveals nothing
    assert ts.revealed([("mcp_tools", False, "mcp__fs__read"), ("read", True, "mcp__fs__read")]) == set()
    # a successful call of an unlisted tool keeps it listed from then on
    assert ts.revealed([("mcp__fs__read_2", True, "ok")]) == {"mcp__fs__read_2"}
    # a profile's shown list applies to listed tools; revealed ones come on top
    assert names(ts.shown_specs(("read", "mcp_tools"), {"mcp__fs__read"})) == [
        "read",
        "mcp_tools",
        "mcp__fs__read",
    ]


def test_a_tool_named_explicitly_is_listed() -> None:
    ts = Toolset([tool("read"), replace(tool("mcp__fs__read"), listed=False)])
    kept = ts.filtered(["mcp__fs__read"])
    assert [t.listed for t in kept] == [True]
