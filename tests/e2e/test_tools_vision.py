"""`vision(path, question)` through the real CLI and the scripted server: the image goes to the role
flagged `vision` as an image_url content part; the tool is absent unless a role can see."""

from __future__ import annotations

import base64
import json
import struct
import zlib
from pathlib import Path
from typing import Any

from hearth.core.events import ToolResult
from hearth.store.sessions import SessionStore
from hearth.testing import ScriptedCall, ScriptedReply, ScriptedServer
from support import state_of

SEEING = json.dumps({"vision": {"model": "llava-test", "vision": True, "temperature": 0.1}})


def png(width: int = 2, height: int = 2) -> bytes:
    """A real PNG (red pixels), as an image viewer or a vision server reads it."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    rows = b"".join(b"\x00" + b"\xff\x00\x00" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


def run(hearth, server: ScriptedServer, ws: Path, **env: str):  # type: ignore[no-untyped-def]
    res = hearth(
        "run",
        "what is in the picture?",
        "-w",
        str(ws),
        "--json",
        "--permission",
        "auto",
        env={"HEARTH_LLM_URL": server.url, "HEARTH_RETRIES": "0", "HEARTH_TOOL_MODE": "native", **env},
    )
    assert "Traceback" not in res.stdout + res.stderr, res.stderr[-2000:]
    assert res.code == 0, res.stdout[-1500:] + res.stderr[-1500:]
    assert server.violations == []  # image parts are well-formed chat-completions content
    return res


def results(ws: Path) -> list[ToolResult]:
    store = SessionStore(state_of(ws) / "sessions.db")
    [info] = store.list_sessions()[:1]
    return [e for e in store.events(info.id) if isinstance(e, ToolResult)]


def look(path: str, **extra: str) -> ScriptedReply:
    return ScriptedReply(
        tool_calls=[
            ScriptedCall(name="vision", arguments={"path": path, "question": "What colour?", **extra})
        ]
    )


def tool_names(body: dict[str, Any]) -> set[str]:
    return {t["function"]["name"] for t in body.get("tools") or []}


def test_the_image_goes_to_the_seeing_role_as_an_image_part(hearth, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    image = png()
    (workspace / "shots").mkdir()
    (workspace / "shots" / "red.png").write_bytes(image)
    script = [
        look("shots/red.png"),
        ScriptedReply(text="A red square."),
        ScriptedReply(text="Red. TASK_COMPLETE"),
    ]
    with ScriptedServer(script) as server:
        run(hearth, server, workspace, HEARTH_ROLES=SEEING)
        main, seen, _ = server.requests
    assert "vision" in tool_names(main)
    assert seen["model"] == "llava-test" and seen["temperature"] == 0.1
    assert "tools" not in seen  # a question about an image, not an agent turn
    user = seen["messages"][-1]
    assert user["role"] == "user"
    text, picture = user["content"]
    assert text == {"type": "text", "text": "What colour?"}
    assert picture["type"] == "image_url"
    assert picture["image_url"]["url"] == "data:image/png;base64," + base64.b64encode(image).decode()
    (result,) = results(workspace)
    assert result.ok and result.output == "A red square."


def test_vision_is_absent_unless_a_role_can_see(hearth, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    blind = json.dumps({"coder": {"model": "c"}, "vision": {"model": "v"}})  # named, not flagged
    for env in ({}, {"HEARTH_ROLES": blind}):
        with ScriptedServer([ScriptedReply(text="Cannot see. TASK_COMPLETE")]) as server:
            run(hearth, server, workspace, **env)
            assert "vision" not in tool_names(server.requests[0])
            assert "vision" not in server.requests[0]["messages"][0]["content"]


def test_any_flagged_role_sees_when_there_is_no_vision_role(hearth, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    (workspace / "red.png").write_bytes(png())
    roles = json.dumps({"reviewer": {"model": "eyes", "vision": True}})
    script = [
        look("red.png", question="", prompt="Colour?"),
        ScriptedReply(text="red"),
        ScriptedReply(text="TASK_COMPLETE"),
    ]
    arguments = script[0].tool_calls[0].arguments
    assert isinstance(arguments, dict)
    arguments.pop("question")
    with ScriptedServer(script) as server:
        run(hearth, server, workspace, HEARTH_ROLES=roles)
        assert server.requests[1]["model"] == "eyes"
        assert server.requests[1]["messages"][-1]["content"][0]["text"] == "Colour?"  # the `prompt` as given


def test_bad_images_are_errors_the_model_sees_and_nothing_is_sent(hearth, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    (workspace / "notes.png").write_text("just text pretending to be an image\n")
    (workspace / "big.png").write_bytes(png()[:16] + b"\x00" * (11 << 20))
    (workspace / ".env").write_text("API_KEY=sk-live-123\n")
    (workspace / "folder").mkdir()
    calls = ["notes.png", "big.png", ".env", "../outside.png", "/etc/passwd", "folder", "missing.png"]
    script = [*(look(p) for p in calls), ScriptedReply(text="None were images. TASK_COMPLETE")]
    with ScriptedServer(script) as server:
        run(hearth, server, workspace, HEARTH_ROLES=SEEING)
        assert all(b.get("model") != "llava-test" for b in server.requests)  # nothing reached the eyes
    outs = [r.output for r in results(workspace)]
    assert len(outs) == len(calls) and not any(r.ok for r in results(workspace))
    assert "not a PNG, JPEG, GIF or WebP" in outs[0]
    assert "over 10 MB" in outs[1]
    assert "secret" in outs[2]
    assert "outside the workspace" in outs[3] and "outside the workspace" in outs[4]
    assert "folder" in outs[5] and "does not exist" in outs[6]
    assert all("sk-live-123" not in o for o in outs)
