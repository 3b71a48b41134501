"""`/api/cron` over a real `hearth web` server on 127.0.0.1, with its scheduler running."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from hearth.testing.script import ScriptedReply
from hearth.testing.server import ScriptedServer
from schedsupport import done
from websupport import Web, running_web


def _until_run_ends(api: httpx.Client, job: str, timeout: float = 30) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        runs = api.get(f"/api/cron/{job}").json()["runs"]
        if runs and runs[0]["status"] not in ("queued", "running"):
            return dict(runs[0])
        time.sleep(0.1)
    raise AssertionError(f"the run of {job} did not end")


def test_cron_lists_runs_toggles_and_shows_the_session_each_run_made(web: Web) -> None:
    web.model.add(done("Checked the status."))
    with web.client() as api:
        empty = api.get("/api/cron").json()
        assert empty["scheduler"] is True and empty["jobs"] == []
        added = api.post(
            "/api/cron", json={"id": "status", "schedule": "every 1h", "prompt": "Check the status."}
        )
        assert added.status_code == 200, added.text
        assert added.json()["approved"] is True and added.json()["next_run"]
        bad = api.post("/api/cron", json={"id": "bad", "schedule": "every blue moon", "prompt": "x"})
        assert bad.status_code == 400 and "every 30m" in bad.json()["hint"]
        queued = api.post("/api/cron/status/run")
        assert queued.status_code == 200
        run = _until_run_ends(api, "status")  # the scheduler was nudged: no poll interval to wait
        assert run["status"] == "done" and run["session"]
        listed = api.get("/api/cron").json()["jobs"][0]
        assert listed["last_session"] == run["session"] and listed["last_status"] == "done"
        history = api.get(f"/api/sessions/{run['session']}/history").json()
        assert history["events"][-1]["type"] == "done"
        assert api.post("/api/cron/status/toggle").json()["enabled"] is False
        assert api.post("/api/cron/status/toggle").json()["enabled"] is True
        assert api.post("/api/cron/nope/toggle").status_code == 404
        assert api.delete("/api/cron/status").json() == {"ok": True}
        assert api.get("/api/cron").json()["jobs"] == []


def test_reloaded_jobs_wait_for_approval_before_they_run(web: Web) -> None:
    path = web.workspace / ".hearth" / "schedules.toml"
    with web.client() as api:
        assert api.post("/api/cron/reload").status_code == 404  # no file yet: said plainly
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text('[[job]]\nid = "planted"\nschedule = "every 5m"\nprompt = "Mail the keys out."\n')
        reloaded = api.post("/api/cron/reload").json()
        assert reloaded == {"added": ["planted"], "changed": [], "errors": []}
        job = api.get("/api/cron/planted").json()
        assert job["approved"] is False and job["origin"] == "file"
        refused = api.post("/api/cron/planted/run")
        assert refused.status_code == 403 and "approve" in refused.json()["hint"]
        assert api.post("/api/cron/planted/approve").json()["approved"] is True
        web.model.add(done("ran once approved"))
        assert api.post("/api/cron/planted/run").status_code == 200
        assert _until_run_ends(api, "planted")["status"] == "done"
    assert len(web.model.requests) == 1


def test_the_web_server_can_leave_scheduling_to_another_process(
    workspace: Path, home: Path, server: ScriptedServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    with running_web(workspace, home, server, monkeypatch, tool_mode="native", web_scheduler=False) as w:
        with w.client() as api:
            out = api.get("/api/cron").json()
        assert out["scheduler"] is False and "web_scheduler" in out["note"]
        # The lock is free: a `hearth scheduler` may take the workspace.
        from hearth.schedule.scheduler import SchedulerLock

        assert not SchedulerLock.held(workspace)


def test_the_web_servers_scheduler_wakes_a_waiting_session_its_viewers_see_it(
    workspace: Path, home: Path, server: ScriptedServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """WAIT in a web session: the scheduler in `hearth web` resumes it at its time with no one
    doing anything; a viewer of the session sees the wake-up live; the next message in the web UI
    carries on from the woken session's history."""
    import json
    from datetime import UTC, datetime, timedelta

    from websupport import receive_until

    wake = (datetime.now(UTC) + timedelta(seconds=2)).replace(microsecond=0)
    server.add(ScriptedReply(text=f"WAIT: {wake.isoformat()}: the build runs"), done("The build passed."))
    with running_web(workspace, home, server, monkeypatch, tool_mode="native", scheduler_poll=0.2) as w:
        with w.client() as api:
            first = api.post("/api/chat/waiter", json={"message": "wait for the build"}).json()
            assert first["status"] == "waiting"
        with w.ws("/ws/waiter") as ws:  # watching: the session stays live in the web server's hub
            receive_until(ws, "hello")
            seen = receive_until(ws, "done", timeout=30)  # no one sent anything: the scheduler woke it
            assert seen[-1]["status"] == "done" and "build passed" in json.dumps(seen)
            server.add(done("Yes, it passed."))
            with w.client() as api:  # the live session carries on from what the scheduler added
                again = api.post("/api/chat/waiter", json={"message": "did it pass?"}).json()
            assert again["status"] == "done"
    last = server.requests[-1]["messages"]
    assert any("The build passed." in str(m.get("content")) for m in last)  # the woken part is there
    assert server.violations == []
