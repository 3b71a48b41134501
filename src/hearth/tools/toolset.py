"""A named set of tools. Built per session; there is no global registry."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from hearth.core.types import ToolSpec
from hearth.tools.base import Tool


class Toolset:
    def __init__(self, tools: Iterable[Tool] = ()) -> None:
        self._tools: dict[str, Tool] = {}
        self._aliases: dict[str, str] = {}
        self._specs: list[ToolSpec] | None = None
        for tool in tools:
            self.add(tool)

    def add(self, tool: Tool) -> None:
        if tool.name in self._tools:
            raise ValueError(f"duplicate tool name {tool.name!r}")
        self._tools[tool.name] = tool
        self._specs = None
        for alias in tool.aliases:
            self._aliases[alias] = tool.name

    def get(self, name: str) -> Tool | None:
        return self._tools.get(name) or self._tools.get(self._aliases.get(name, ""))

    def names(self) -> list[str]:
        return list(self._tools)

    def specs(self) -> list[ToolSpec]:
        """The tools' specs, built once: generating JSON schemas cost ~20 ms on every step."""
        if self._specs is None:
            self._specs = [t.spec() for t in self._tools.values()]
        return list(self._specs)

    def parameter_table(self) -> dict[str, tuple[str, ...]]:
        """Tool (and alias) names with their parameters in order, for text-call parsing."""
        table = {name: tool.parameter_names() for name, tool in self._tools.items()}
        for alias, target in self._aliases.items():
            table[alias] = self._tools[target].parameter_names()
        return table

    def filtered(self, keep: Iterable[str]) -> Toolset:
        wanted = set(keep)
        return Toolset(t for t in self._tools.values() if t.name in wanted)

    def __iter__(self) -> Iterator[Tool]:
        return iter(self._tools.values())

    def __len__(self) -> int:
        return len(self._tools)
