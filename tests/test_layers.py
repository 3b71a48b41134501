"""The layers' direction (AGENTS.md, docs/architecture.md), checked on every import in src/hearth."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "hearth"
UI_FRAMEWORKS = {"rich", "typer", "prompt_toolkit", "fastapi", "uvicorn", "starlette", "textual"}
ADAPTERS = {"llm", "tools", "sandbox", "store", "memory", "mcp", "prompts"}
# What each layer may import from hearth (besides itself): a package, or one module of it
# ("runtime.config": the settings and where state lives, which sit below the rest of runtime).
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
    # A session's record (state from events, checkpoints, export, the wire encoding) and telemetry
    # sit between the loop and the session's assembly.
    "history": {"core", "agent", *ADAPTERS, "runtime.config"},
    "telemetry": {"core", "agent", *ADAPTERS, "runtime.config"},
    "runtime": {"core", "agent", "history", "telemetry", *ADAPTERS},
    # The products are built on the session API (runtime/api.py) alone, with the store's connection
    # helper and the structured-answer error for their own tables and models.
    "pipeline": {"core", "prompts", "runtime.api", "store.db", "llm.structured"},
    "schedule": {"core", "prompts", "runtime.api", "store.db"},
    "bench": {"core"},
    "apps": {"core", "agent", "history", "telemetry", "runtime", "pipeline", "schedule", "bench", *ADAPTERS},
    "testing": {"core", "llm"},
}
PRODUCTS = ("pipeline", "schedule", "apps/bridges")


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


def _allowed(layer: str, name: str) -> bool:
    parts = name.split(".")[1:]
    return parts[0] == layer or any(".".join(parts[:n]) in ALLOWED[layer] for n in range(1, len(parts) + 1))


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
            if top == "hearth" and "." in name and not _allowed(layer, name):
                problems.append(f"{rel} ({layer}) imports {name}")
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


def test_the_products_use_only_the_session_api() -> None:
    """The pipeline, the scheduler and the chat bridges reach the runtime through runtime/api.py
    alone, so the runtime's inside can change without them."""
    problems = []
    for product in PRODUCTS:
        for path in sorted((SRC / product).rglob("*.py")):
            for name in _imports(path):
                if name.startswith("hearth.runtime") and name != "hearth.runtime.api":
                    problems.append(f"{path.relative_to(SRC)} imports {name}")
    assert problems == []


def _module(path: Path) -> str:
    parts = path.relative_to(SRC.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    """Every module of src/hearth and the modules it imports: at module level, inside functions
    and under TYPE_CHECKING alike (`from a import b` counts as importing `a.b` when that is a module)."""
    modules = {_module(p): p for p in SRC.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        edges: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                targets = [f"{node.module}.{a.name}" for a in node.names] + [node.module]
            for target in targets:
                while target not in modules and "." in target:
                    target = target.rsplit(".", 1)[0]
                if target in modules and target != name and target != "hearth":
                    edges.add(target)
        graph[name] = edges
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_module_imports_itself_back() -> None:
    """No import cycle between modules, lazy imports and TYPE_CHECKING ones included: a module
    that needs something of one above it takes a protocol or a callable instead."""
    graph = import_graph()
    assert len(graph) > 100
    assert cycles(graph) == []


def test_the_cycle_check_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}
    assert cycles(graph) == [["a", "b", "c"]]
    assert import_graph()["hearth.runtime.api"] >= {"hearth.runtime.session", "hearth.runtime.conversation"}


TESTS = Path(__file__).resolve().parent
# Besides the folders of src/hearth's packages: tests that run `hearth` as a subprocess or in a
# browser, and the adversarial suite.
TEST_FOLDERS = {"e2e", "security"}
# The tests/ root holds the shared helpers, their tests and these checks of the whole project.
ROOT_TESTS = {
    "test_layers.py",
    "test_docs.py",
    "test_test_isolation.py",
    "test_environment_reads.py",
    "test_forkserver.py",
}


def _misplaced_tests(tests: Path, src: Path) -> list[str]:
    packages = {p.relative_to(src).as_posix() for p in src.rglob("*") if (p / "__init__.py").is_file()}
    problems = []
    seen: dict[str, Path] = {}
    for path in sorted(tests.rglob("test_*.py")):
        rel = path.relative_to(tests)
        folder = rel.parent.as_posix()
        if path.name in seen:  # pytest imports a test file by its bare name (no __init__.py)
            problems.append(f"{rel} has the name of {seen[path.name].relative_to(tests)}")
        seen[path.name] = path
        if folder == ".":
            if path.name not in ROOT_TESTS:
                problems.append(f"{rel} belongs in the folder of the package it tests, or e2e/")
        elif rel.parts[0] not in TEST_FOLDERS and folder not in packages:
            problems.append(f"{rel} is in {folder}/, which is no package of src/hearth")
    return problems


def test_tests_mirror_the_packages() -> None:
    """tests/agent/ tests hearth.agent, tests/apps/web/ the web app (AGENTS.md says where a test goes)."""
    assert _misplaced_tests(TESTS, SRC) == []


def test_the_layout_check_catches_a_misplaced_test(tmp_path: Path) -> None:
    src, tests = tmp_path / "src", tmp_path / "tests"
    (src / "agent").mkdir(parents=True)
    (src / "agent" / "__init__.py").write_text("")
    for rel in (
        "test_layers.py",
        "test_loop.py",
        "agent/test_plan.py",
        "agents/test_x.py",
        "e2e/test_loop.py",
    ):
        (tests / rel).parent.mkdir(parents=True, exist_ok=True)
        (tests / rel).write_text("")
    assert _misplaced_tests(tests, src) == [
        "agents/test_x.py is in agents/, which is no package of src/hearth",
        "test_loop.py has the name of e2e/test_loop.py",
        "test_loop.py belongs in the folder of the package it tests, or e2e/",
    ]
