"""A named set of tools. Built per session; there is no global registry.

Tools may join while a session runs (an MCP server that finished starting adds its own).
A source still starting registers a waiter, so a call to one of its tools made before it
is ready waits for it (`wait_for`) instead of failing as unknown.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Collection, Iterable, Iterator
from dataclasses import replace

from hearth.core.types import ToolSpec
from hearth.tools.base import Tool

Waiter = Callable[[str], Awaitable[None]]


class Toolset:
    def __init__(self, tools: Iterable[Tool] = (), *, base: Toolset | None = None) -> None:
        """`base`: a toolset whose tools this one has too, as they are now and as they join."""
        self._base = base
        self._tools: dict[str, Tool] = {}
        self._aliases: dict[str, str] = {}
        self._specs: list[ToolSpec] | None = None
        self._spec_of: dict[str, ToolSpec] = {}  # specs built one by one (shown_specs)
        self._waiters: list[Waiter] = []
        for tool in tools:
            self.add(tool)

    def extended(self, tools: Iterable[Tool]) -> Toolset:
        """This toolset's tools (also those that join it later) and `tools` (a session's own)."""
        return Toolset(tools, base=self)

    def add(self, tool: Tool) -> None:
        if tool.name in self._tools or (self._base is not None and tool.name in self._base.names()):
            raise ValueError(f"duplicate tool name {tool.name!r}")
        self._tools[tool.name] = tool
        self._specs = None
        self._spec_of.pop(tool.name, None)
        for alias in tool.aliases:
            self._aliases[alias] = tool.name

    def get(self, name: str) -> Tool | None:
        own = self._tools.get(name) or self._tools.get(self._aliases.get(name, ""))
        if own is None and self._base is not None:
            return self._base.get(name)
        return own

    def names(self) -> list[str]:
        return [*(self._base.names() if self._base else ()), *self._tools]

    def changed(self) -> None:
        """A tool's description changed (one built from live state): build the specs again."""
        self._specs = None
        self._spec_of.clear()

    def add_waiter(self, waiter: Waiter) -> None:
        """`waiter(name)` returns once a source that may add `name` has finished starting."""
        self._waiters.append(waiter)

    async def wait_for(self, name: str) -> Tool | None:
        """The tool, waiting first for the sources still starting that may add it."""
        tool = self.get(name)
        if tool is None:
            if self._base is not None:
                return await self._base.wait_for(name) or self.get(name)
            for waiter in list(self._waiters):
                await waiter(name)
            tool = self.get(name)
        return tool

    def specs(self) -> list[ToolSpec]:
        """The tools' specs, built once: generating JSON schemas cost ~20 ms on every step."""
        if self._specs is None:
            self._specs = [self.spec(name) for name in self._tools]
        return [*(self._base.specs() if self._base else ()), *self._specs]

    def spec(self, name: str) -> ToolSpec:
        """One tool's spec, built once (by the toolset it belongs to, which knows when it changed)."""
        if name not in self._tools and self._base is not None:
            return self._base.spec(name)
        found = self._spec_of.get(name)
        if found is None:
            found = self._spec_of[name] = self._tools[name].spec()
        return found

    def parameter_table(self) -> dict[str, tuple[str, ...]]:
        """Tool (and alias) names with their parameters in order, for text-call parsing."""
        table = dict(self._base.parameter_table()) if self._base else {}
        table.update({name: tool.parameter_names() for name, tool in self._tools.items()})
        for alias, target in self._aliases.items():
            table[alias] = self._tools[target].parameter_names()
        return table

    def filtered(self, keep: Iterable[str]) -> Toolset:
        """The tools named in `keep`; named, an unlisted one is listed (it was asked for)."""
        wanted = set(keep)
        return Toolset(t if t.listed else replace(t, listed=True) for t in self if t.name in wanted)

    def __iter__(self) -> Iterator[Tool]:
        if self._base is not None:
            yield from self._base
        yield from self._tools.values()

    def __len__(self) -> int:
        return len(self._tools) + (len(self._base) if self._base else 0)

    def shown_specs(self, shown: Collection[str], revealed: Collection[str]) -> list[ToolSpec]:
        """The specs the model is sent: listed tools (only those in `shown`, when given), then the
        unlisted ones `revealed` (after them, so the listed part of a request stays the same)."""
        listed, later = [], []
        for tool in self:  # only the specs sent are built: a schema costs ~1 ms to generate
            if tool.listed and (not shown or tool.name in shown):
                listed.append(self.spec(tool.name))
            elif tool.name in revealed:
                later.append(self.spec(tool.name))
        return [*listed, *later]

    def revealed(self, results: Iterable[tuple[str, bool, str]]) -> set[str]:
        """The unlisted tools that results (tool, ok, output) made known: named in what a
        `reveals` tool returned, or called successfully."""
        hidden = [t.name for t in self if not t.listed]
        if not hidden:
            return set()
        found: set[str] = set()
        texts = []
        for name, ok, output in results:
            tool = self.get(name)
            if not ok or tool is None:
                continue
            if not tool.listed:
                found.add(tool.name)
            elif tool.reveals:
                texts.append(output)
        if texts:
            text = "\n".join(texts)
            found.update(n for n in hidden if re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", text))
        return found
