"""A sub-agent's session is visible, linked to its parent, in the web API and `hearth sessions`
(issue 14): a real web server on 127.0.0.1 and the real command line."""

from __future__ import annotations

import json
from typing import Any

from test_subagents import call, done
from websupport import Web


def test_the_child_session_is_linked_to_its_parent_in_the_web_api_and_the_cli(web: Web, hearth: Any) -> None:
    web.model.add(
        call("delegate", objective="WEBCHILD look around", deliverable="a list"), done("Parent done.")
    )
    web.model.route("WEBCHILD", call("ls", path="."), done("Saw the files."))
    with web.client() as api:
        out = api.post("/api/chat/webparent", json={"message": "delegate a look"}, timeout=60).json()
        assert out["status"] == "done", out
        sessions = {s["id"]: s for s in api.get("/api/sessions").json()}
        (child,) = [s for s in sessions.values() if s["parent"] == "webparent"]
        assert sessions["webparent"]["parent"] is None
        assert child["title"].startswith("WEBCHILD")
        history = api.get(f"/api/sessions/{child['id']}/history").json()
    assert "WEBCHILD look around" in json.dumps(history)  # the brief, auditable from the browser
    listed = hearth("sessions", "--workspace", str(web.workspace))
    assert listed.code == 0, listed.stderr
    line = next(ln for ln in listed.stdout.splitlines() if ln.startswith(child["id"]))
    assert "[sub-agent of webparent]" in line
    exported = hearth("sessions", "export", child["id"], "--workspace", str(web.workspace))
    assert "WEBCHILD look around" in exported.stdout and "Saw the files." in exported.stdout
