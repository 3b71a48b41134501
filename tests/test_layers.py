"""The layers' direction (AGENTS.md, docs/architecture.md), checked on every import in src/hearth."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "hearth"
UI_FRAMEWORKS = {"rich", "typer", "prompt_toolkit", "fastapi", "uvicorn", "starlette", "textual"}
ADAPTERS = {"llm", "tools", "sandbox", "store", "memory", "mcp", "prompts"}
# What each layer may import from hearth (besides itself).
ALLOWED = {
    "core": set(),
    **{a: {"core", "prompts"} for a in ADAPTERS},
    # The file and git tools use the sandbox's descriptor-safe file helpers and the one secret
    # predicate (the sandbox imports no tool).
    "tools": {"core", "prompts", "sandbox"},
    # MCP tools are Hearth tools (tools.base); the sandbox reaches mcp only as a launcher the runtime injects.
    "mcp": {"core", "prompts", "tools"},
    "prompts": set(),
    "agent": {"core", *ADAPTERS},
    "runtime": {"core", "agent", *ADAPTERS},
    # The products are built on the session API (hearth.runtime); the front-ends may use them all.
    "pipeline": {"core", "agent", "runtime", *ADAPTERS},
    "schedule": {"core", "runtime", "store"},
    "bench": {"core"},
    "apps": {"core", "agent", "runtime", "pipeline", "schedule", "bench", *ADAPTERS},
    "testing": {"core", "llm"},
}


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


def test_layers_import_only_downwards() -> None:
    problems = []
    files = sorted(SRC.rglob("*.py"))
    assert len(files) > 20
    for path in files:
        rel = path.relative_to(SRC)
        if len(rel.parts) == 1:
            continue
        layer = rel.parts[0]
        for name in _imports(path):
            top = name.split(".")[0]
            if top in UI_FRAMEWORKS and layer != "apps":
                problems.append(f"{rel} imports the UI framework {name}")
            if top == "hearth" and "." in name:
                target = name.split(".")[1]
                if target != layer and target not in ALLOWED[layer]:
                    problems.append(f"{rel} ({layer}) imports {name} ({target})")
    assert problems == []


def test_the_bench_harness_drives_agents_only_as_processes() -> None:
    """`hearth bench` runs every agent, Hearth too, through its command line: it needs none of
    Hearth's runtime, agent or adapters (so it cannot measure Hearth from the inside by mistake)."""
    files = sorted((SRC / "bench").rglob("*.py"))
    assert files
    for path in files:
        for name in _imports(path):
            parts = name.split(".")
            if parts[0] == "hearth" and len(parts) > 1:
                assert parts[1] == "core" or name.startswith("hearth.bench"), f"{path.name} imports {name}"


def test_the_check_itself_catches_a_violation(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from hearth.runtime.config import Settings\nimport rich.console\n")
    assert _imports(bad) == ["hearth.runtime.config", "rich.console"]
