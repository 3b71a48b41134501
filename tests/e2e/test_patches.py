"""Patch proposals (after wyrmspire's create_patch): the agent proposes a diff through the real
CLI and scripted server; no file changes until a person runs `hearth patches apply` (real git)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from hearth.testing.script import ScriptedCall, ScriptedReply
from hearth.testing.server import ScriptedServer

DIFF = """--- a/app.py
+++ b/app.py
@@ -1,2 +1,2 @@
 def greet():
-    return "hello"
+    return "hello, world"
"""


def _call(name: str, **arguments: Any) -> ScriptedReply:
    return ScriptedReply(tool_calls=[ScriptedCall(name=name, arguments=arguments)])


def _done() -> ScriptedReply:
    return ScriptedReply(text="Proposed.\nTASK_COMPLETE")


def _propose(hearth: Any, server: ScriptedServer, ws: Path, *calls: ScriptedReply) -> list[dict[str, Any]]:
    server.add(*calls, _done())
    res = hearth(
        "run",
        "change the greeting",
        "-w",
        str(ws),
        "--json",
        "-p",
        "auto",
        env={"HEARTH_LLM_URL": server.url},
    )
    assert res.code == 0, res.stderr
    return [line for line in res.json_lines() if line["type"] == "tool_result"]


def test_a_patch_changes_no_file_until_applied(hearth: Any, server: ScriptedServer, workspace: Path) -> None:
    app = workspace / "app.py"
    app.write_text('def greet():\n    return "hello"\n')
    [result] = _propose(
        hearth, server, workspace, _call("create_patch", diff=DIFF, note="friendlier greeting")
    )
    assert result["success"] and result["output"].startswith("Patch 1 proposed (app.py)")
    assert app.read_text() == 'def greet():\n    return "hello"\n'  # nothing changed yet
    listed = hearth("patches", "list", "-w", str(workspace))
    assert (
        "proposed" in listed.stdout and "app.py" in listed.stdout and "friendlier greeting" in listed.stdout
    )
    shown = hearth("patches", "show", "1", "-w", str(workspace))
    assert '+    return "hello, world"' in shown.stdout
    applied = hearth("patches", "apply", "1", "-w", str(workspace))
    assert applied.code == 0, applied.stderr
    assert app.read_text() == 'def greet():\n    return "hello, world"\n'
    again = hearth("patches", "apply", "1", "-w", str(workspace))
    assert again.code == 1 and "already applied" in again.stderr


def test_a_stale_patch_applies_nothing_and_reject_changes_nothing(
    hearth: Any, server: ScriptedServer, workspace: Path
) -> None:
    subprocess.run(["git", "init", "-q"], cwd=workspace, check=True)
    app = workspace / "app.py"
    app.write_text('def greet():\n    return "hello"\n')
    other = workspace / "other.py"
    other.write_text("x = 1\n")
    two = DIFF + "--- a/other.py\n+++ b/other.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n"
    _propose(hearth, server, workspace, _call("create_patch", diff=two), _call("create_patch", diff=DIFF))
    app.write_text('def greet():\n    return "hi"\n')  # the file moved on: patch 1 no longer fits
    stale = hearth("patches", "apply", "1", "-w", str(workspace))
    assert stale.code == 1 and "does not apply" in stale.stderr and "Nothing was changed" in stale.stderr
    assert other.read_text() == "x = 1\n"  # all or nothing: the part that fit was not applied either
    assert hearth("patches", "reject", "2", "-w", str(workspace)).code == 0
    assert app.read_text() == 'def greet():\n    return "hi"\n'
    assert "rejected" in hearth("patches", "list", "-w", str(workspace)).stdout
    assert hearth("patches", "show", "9", "-w", str(workspace)).code == 1


def test_patches_to_secrets_protected_folders_or_outside_are_refused(
    hearth: Any, server: ScriptedServer, workspace: Path
) -> None:
    bad = [
        "--- a/.env\n+++ b/.env\n@@ -0,0 +1 @@\n+TOKEN=x\n",
        "--- a/.git/config\n+++ b/.git/config\n@@ -0,0 +1 @@\n+[core]\n",
        "--- a/.hearth/config.toml\n+++ b/.hearth/config.toml\n@@ -0,0 +1 @@\n+x = 1\n",
        "--- a/../outside.txt\n+++ b/../outside.txt\n@@ -0,0 +1 @@\n+x\n",
        "just some text, not a diff",
    ]
    results = _propose(hearth, server, workspace, *[_call("create_patch", diff=d) for d in bad])
    assert [r["success"] for r in results] == [False] * len(bad), json.dumps(results, indent=1)
    assert "secret" in results[0]["output"] and "not a unified diff" in results[-1]["output"]
    assert "No patches proposed" in hearth("patches", "list", "-w", str(workspace)).stdout
