"""LM Studio model swaps by role, against a fake LM Studio HTTP server on 127.0.0.1 that records
every call in order (and keeps an unloaded model listed for a while, as memory settles)."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from hearth.core.errors import ModelError
from hearth.pipeline.lmstudio import LMStudioModels


class FakeLMStudio:
    def __init__(self, loaded: list[str], settle_polls: int = 2) -> None:
        self.loaded = list(loaded)
        self.calls: list[str] = []
        self.settling: dict[str, int] = {}
        self.settle_polls = settle_polls
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def _send(self, code: int, payload: Any) -> None:
                data = json.dumps(payload).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:
                owner.calls.append(f"GET {self.path}")
                listed = [*owner.loaded, *owner.settling]
                for name in list(owner.settling):
                    owner.settling[name] -= 1
                    if owner.settling[name] <= 0:
                        del owner.settling[name]
                models = ["planner-m", "coder-m", "reviewer-m"]
                self._send(
                    200,
                    {"data": [{"id": m, "state": "loaded" if m in listed else "not-loaded"} for m in models]},
                )

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                owner.calls.append(f"POST {self.path} {json.dumps(body, sort_keys=True)}")
                if self.path == "/api/v1/models/unload":
                    owner.loaded.remove(body["instance_id"])
                    owner.settling[body["instance_id"]] = owner.settle_polls
                elif self.path == "/api/v1/models/load":
                    owner.loaded.append(body["model"])
                self._send(200, {"ok": True})

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def root(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"


@pytest.fixture
def lmstudio() -> Iterator[FakeLMStudio]:
    fake = FakeLMStudio(["planner-m"])
    fake.thread.start()
    yield fake
    fake.httpd.shutdown()
    fake.httpd.server_close()


def test_roles_swap_models_unload_first_wait_for_memory_then_load(lmstudio: FakeLMStudio) -> None:
    async def go() -> LMStudioModels:
        models = await LMStudioModels.detect(lmstudio.root)
        assert models is not None
        models.poll = 0.01
        await models.ensure("planner-m")  # already the one loaded: only a look
        await models.ensure("planner-m")  # known: nothing at all
        await models.ensure("coder-m")
        await models.ensure("reviewer-m")
        return models

    models = asyncio.run(go())
    g = "GET /api/v0/models"
    assert lmstudio.calls == [
        g,  # detect
        g,  # planner-m: loaded alone already
        g,
        'POST /api/v1/models/unload {"instance_id": "planner-m"}',
        g,
        g,
        g,  # settled: planner-m no longer listed
        'POST /api/v1/models/load {"model": "coder-m"}',
        g,
        'POST /api/v1/models/unload {"instance_id": "coder-m"}',
        g,
        g,
        g,
        'POST /api/v1/models/load {"model": "reviewer-m"}',
    ]
    assert lmstudio.loaded == ["reviewer-m"] and models.swaps == 2


def test_a_model_that_never_unloads_is_a_clear_error(lmstudio: FakeLMStudio) -> None:
    lmstudio.settle_polls = 10**6

    async def go() -> None:
        models = LMStudioModels(lmstudio.root, settle_timeout=0.2, poll=0.02)
        await models.ensure("coder-m")

    with pytest.raises(ModelError, match="still lists planner-m as loaded"):
        asyncio.run(go())
    assert not any("load {" in c and "coder-m" in c for c in lmstudio.calls)


def test_another_server_is_not_taken_for_lm_studio() -> None:
    assert asyncio.run(LMStudioModels.detect("http://127.0.0.1:9")) is None


@pytest.mark.parametrize(
    ("batch", "loads"),
    [
        (True, ["planner-m", "coder-m", "reviewer-m"]),
        (False, ["planner-m", "coder-m", "reviewer-m", "coder-m", "reviewer-m", "coder-m", "reviewer-m"]),
    ],
)
def test_phase_batching_loads_each_roles_model_once_per_wave(
    lmstudio: FakeLMStudio,
    workspace: Any,
    home: Any,
    server: Any,
    monkeypatch: pytest.MonkeyPatch,
    batch: bool,
    loads: list[str],
) -> None:
    from hearth.pipeline.runner import PipelineOptions, Runner, open_pipeline_store
    from hearth.runtime.config import load_settings
    from hearth.runtime.session import open_runtime
    from pipelinesupport import (
        coder_marker,
        done,
        make_plan,
        planned,
        planner_marker,
        reviewer_marker,
        task,
        verdict,
        write,
    )

    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local/share"))
    lmstudio.loaded.clear()
    roles = {r: {"model": f"{r}-m"} for r in ("planner", "coder", "reviewer")}
    flags = {"workspace": workspace, "llm_url": server.url, "tool_mode": "native", "roles": roles}
    settings = load_settings(flags, environ={}, cwd=workspace, user_file=home / "none.toml").settings
    make_plan(workspace, "three", "Three files.\n")
    keys = ["t1", "t2", "t3"]
    server.route(planner_marker("three"), planned(*[task(k, f"File {k}", [f"{k}.txt"]) for k in keys]))
    for k in keys:
        server.route(coder_marker(k), write(f"{k}.txt", f"{k}\n"), done())
        server.route(reviewer_marker(k), verdict("pass"))

    async def go() -> None:
        rt = await open_runtime(settings)
        store = open_pipeline_store(workspace)
        try:
            models = LMStudioModels(lmstudio.root, poll=0.01)
            runner = Runner(rt, store, PipelineOptions(batch=batch, poll=0.05, git=False), models=models)
            await runner.run(once=True)
        finally:
            store.close()
            await rt.aclose()

    asyncio.run(go())
    assert server.violations == [] and server.remaining == 0
    loaded = [
        json.loads(c.split(" ", 2)[2])["model"]
        for c in lmstudio.calls
        if c.startswith("POST /api/v1/models/load")
    ]
    assert loaded == loads
    unloads = [c for c in lmstudio.calls if "unload" in c]
    assert len(unloads) == len(loads) - 1  # every swap unloaded the model before
    by_role = {b["model"] for b in server.requests if coder_marker("t1") in b["messages"][1]["content"]}
    assert by_role == {"coder-m"}  # the role's model was asked for
    assert {b["model"] for b in server.requests if reviewer_marker("t2") in b["messages"][1]["content"]} == {
        "reviewer-m"
    }
