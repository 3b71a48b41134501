"""A sub-agent seen from the command line: its progress live in the parent's JSON Lines
and terminal output, `hearth sessions` as a tree, and exports linking parent and child. The real
`hearth` command in a subprocess, against the scripted server."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hearth.testing.server import ScriptedServer
from runtime.test_subagents import call, done


def script(server: ScriptedServer) -> None:
    server.add(
        call("delegate", objective="CLICHILD list the files", deliverable="names"),
        call("delegate", objective="CLISECOND say hi", deliverable="hi"),
        done("Parent done."),
    )
    server.route("CLICHILD", call("ls", path="."), done("Listed."))
    server.route("CLISECOND", done("hi"))


def run(hearth: Any, server: ScriptedServer, ws: Path, *flags: str) -> Any:
    env = {"HEARTH_LLM_URL": server.url, "HEARTH_SANDBOX": "process", "HEARTH_CHECKPOINTS": "false"}
    return hearth("run", "delegate two jobs", "-w", str(ws), "--permission", "auto", *flags, env=env)


def test_a_childs_progress_is_in_the_parents_json_lines_as_it_happens(
    hearth: Any, server: ScriptedServer, workspace: Path
) -> None:
    script(server)
    res = run(hearth, server, workspace, "--json")
    assert res.code == 0, res.stderr
    lines = [json.loads(ln) for ln in res.stdout.splitlines()]
    parent = lines[0]["session"]
    assert lines[0]["type"] == "session_started"
    (parent_done,) = [m for m in lines if m["type"] == "done" and m["session"] == parent]
    starts = [m for m in lines if m["type"] == "session_started" and m["session"] != parent]
    assert len(starts) == 2 and all(m["parent"] == parent for m in starts)
    first = starts[0]["session"]
    child = [m for m in lines if m["session"] == first]
    kinds = [m["type"] for m in child]
    assert "tool_call" in kinds and "tool_result" in kinds and kinds[-1] == "done"
    assert child[-1]["status"] == "done" and child[-1]["iterations"] == 2  # its own numbering
    # in order: the child's lines come between the parent's delegate call and its result
    order = [(m["type"], m["session"]) for m in lines]
    call_at = order.index(("tool_call", parent))
    result_at = order.index(("tool_result", parent))
    assert all(call_at < i < result_at for i, m in enumerate(lines) if m["session"] == first)
    assert parent_done["iterations"] == 3  # the children's replies are not counted as the parent's


def test_the_terminal_shows_a_childs_progress_in_one_line_each(
    hearth: Any, server: ScriptedServer, workspace: Path
) -> None:
    script(server)
    res = run(hearth, server, workspace)
    assert res.code == 0, res.stderr
    sub = [ln for ln in res.stdout.splitlines() if "┊ sub-agent" in ln]
    assert len([ln for ln in sub if "started" in ln]) == 2
    assert any("→ ls(" in ln for ln in sub) and any("✓ ls" in ln for ln in sub)
    assert len([ln for ln in sub if ln.endswith("finished")]) == 2
    shown = [ln.strip() for ln in res.stdout.splitlines()]
    assert "Listed." not in shown  # the child's reply stays in its session (the parent reads its result)
    assert "Parent done." in res.stdout


def test_sessions_lists_a_tree_and_exports_link_parent_and_children(
    hearth: Any, server: ScriptedServer, workspace: Path
) -> None:
    script(server)
    assert run(hearth, server, workspace).code == 0
    server.add(done("Unrelated."))
    assert run(hearth, server, workspace).code == 0  # a newer session, no sub-agents
    listed = hearth("sessions", "--workspace", str(workspace))
    assert listed.code == 0, listed.stderr
    rows = listed.stdout.splitlines()[1:]
    assert len(rows) == 4
    ids = [r.split()[0] for r in rows]
    titles = [r.split("  ")[-1] for r in rows]
    # the two children right under their parent, oldest first (the top level is ordered by last
    # update, and the first run's detached reflection may update it after the second run)
    top = [i for i, row in enumerate(rows) if "└─ [sub-agent of" not in row]
    assert len(top) == 2 and top[0] == 0
    at = 0 if top[1] == 3 else 1
    parent = ids[at]
    assert rows[at + 1].endswith(f"└─ [sub-agent of {parent}] CLICHILD list the files")
    assert rows[at + 2].endswith(f"└─ [sub-agent of {parent}] CLISECOND say hi"), titles
    children = ids[at + 1 : at + 3]

    md = hearth("sessions", "export", parent, "--workspace", str(workspace))
    assert "## Sub-agents" in md.stdout
    assert f"`{children[0]}` (done): CLICHILD list the files" in md.stdout
    assert f"`{children[1]}`" in md.stdout
    child_md = hearth("sessions", "export", children[0], "--workspace", str(workspace))
    assert f"A sub-agent of session `{parent}`" in child_md.stdout and "Listed." in child_md.stdout
    data = json.loads(
        hearth("sessions", "export", parent, "-f", "json", "--workspace", str(workspace)).stdout
    )
    assert data["parent"] is None and [c["id"] for c in data["children"]] == children
    child = json.loads(
        hearth("sessions", "export", children[1], "-f", "json", "--workspace", str(workspace)).stdout
    )
    assert child["parent"] == parent and child["children"] == []
