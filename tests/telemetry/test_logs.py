"""Structured logs: JSON Lines in a file through the real CLI, with every secret masked."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from hearth.runtime.config import Settings
from hearth.telemetry.logs import configure_logging, mask
from hearth.testing import ScriptedCall, ScriptedReply, ScriptedServer
from support import state_of

KEY = "sk-live-4f9a8b7c6d5e4f3a2b1c"
SEARCH_KEY = "tvly-Q9w8E7r6T5y4U3i2"
ROLE_KEY = "role-key-Zx81Yw72Vu63"


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def run(hearth, server: ScriptedServer, ws: Path, *flags: str, **env: str):  # type: ignore[no-untyped-def]
    return hearth(
        "run",
        f"say hi (my key is {KEY})",
        "-w",
        str(ws),
        "--json",
        "--permission",
        "auto",
        *flags,
        env={
            "HEARTH_LLM_URL": server.url,
            "HEARTH_RETRIES": "0",
            "HEARTH_API_KEY": KEY,
            "HEARTH_SEARCH_API_KEY": SEARCH_KEY,
            "HEARTH_ROLES": json.dumps({"reviewer": {"api_key": ROLE_KEY, "server": server.url}}),
            **env,
        },
    )


def test_a_session_is_logged_as_json_lines_with_tokens_and_durations(hearth, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    (workspace / "a.txt").write_text(f"the key again: {KEY}\n")
    script = [
        ScriptedReply(tool_calls=[ScriptedCall(name="read", arguments={"path": "a.txt"})]),
        ScriptedReply(text=f"It says {KEY}. TASK_COMPLETE"),
    ]
    with ScriptedServer(script) as server:
        res = run(hearth, server, workspace, "--log-level", "debug")
        assert res.code == 0, res.stderr[-1500:]
    log = state_of(workspace) / "logs" / "hearth.log"
    text = log.read_text()
    assert KEY not in text and SEARCH_KEY not in text and ROLE_KEY not in text
    records = lines(log)
    events = [r for r in records if r["logger"] == "hearth.events"]
    kinds = [r["event"] for r in events]
    assert kinds[0] == "session_started" and "finished" in kinds  # (memory's reflection may follow)
    reply = next(r for r in events if r["event"] == "model_reply")
    assert reply["prompt_tokens"] > 0 and reply["completion_tokens"] > 0 and reply["duration_ms"] >= 0
    assert reply["tool_calls"] == ["read"]
    result = next(r for r in events if r["event"] == "tool_result")
    assert result["tool"] == "read" and result["success"] is True and "duration_ms" in result
    assert all(r["session"] == events[0]["session"] for r in events)
    assert next(r for r in events if r["event"] == "finished")["status"] == "done"
    assert all({"ts", "level", "logger", "message"} <= set(r) for r in records)


def test_an_error_carrying_the_key_is_logged_masked(hearth, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    refusal = ScriptedReply(
        status=401, error=f"Incorrect API key provided: {KEY}. Authorization: Bearer {KEY}"
    )
    with ScriptedServer([refusal]) as server:
        run(hearth, server, workspace)
    text = (state_of(workspace) / "logs" / "hearth.log").read_text()
    errors = [r for r in lines(state_of(workspace) / "logs" / "hearth.log") if r.get("event") == "error"]
    assert (
        errors and errors[0]["level"] == "warning" and "Incorrect API key provided: ***" in errors[0]["error"]
    )
    assert KEY not in text and KEY[3:] not in text


def test_log_file_and_level_flags(hearth, workspace: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    chosen = tmp_path / "logs" / "mine.jsonl"
    with ScriptedServer([ScriptedReply(text="Hi. TASK_COMPLETE")] * 2) as server:
        assert run(hearth, server, workspace, "--log-file", str(chosen)).code == 0
        assert lines(chosen) and not (state_of(workspace) / "logs" / "hearth.log").exists()
        assert run(hearth, server, workspace, "--log-level", "off").code == 0
        assert not (state_of(workspace) / "logs" / "hearth.log").exists()


def test_records_from_any_logger_are_masked_in_message_arguments_extras_and_tracebacks(
    tmp_path: Path,
) -> None:
    path = tmp_path / "h.log"
    settings = Settings.from_keys(
        workspace=tmp_path, api_key=SecretStr(KEY), search_api_key=SecretStr(SEARCH_KEY), log_file=str(path)
    )
    assert configure_logging(settings) == path
    log = logging.getLogger("some.library")
    log.info("calling with %s", KEY, extra={"headers": {"Authorization": f"Bearer {SEARCH_KEY}"}})
    log.warning('a body quoted in a message: {"api_key": "unlisted-9f8e7d6c", "n": 1}')
    try:
        raise RuntimeError(f"server said no to {SEARCH_KEY}")
    except RuntimeError:
        log.exception("failed")
    for handler in logging.getLogger().handlers:
        handler.flush()
    text = path.read_text()
    assert KEY not in text and SEARCH_KEY not in text
    first, quoted, second = lines(path)[-3:]
    assert "unlisted-9f8e7d6c" not in text and '"api_key": "***"' in quoted["message"]
    assert first["message"] == "calling with ***" and first["headers"]["Authorization"] == "Bearer ***"
    assert "RuntimeError: server said no to ***" in second["error"]
    configure_logging(Settings.from_keys(workspace=tmp_path, log_level="off"))  # uninstall for other tests


@pytest.mark.parametrize(
    ("text", "leak"),
    [
        ("Authorization: Bearer abcdef123456", "abcdef123456"),
        ('{"api_key": "k-9a8b7c6d"}', "k-9a8b7c6d"),
        ("https://api.example/v1?api_key=zz99yy88xx77", "zz99yy88xx77"),
        ("GET https://bob:hunter2pass@host.example/x", "hunter2pass"),
        ("x-api-key=QWERTY123456", "QWERTY123456"),
        ("token: ghp_abcdefghijklmnop", "ghp_abcdefghijklmnop"),
        ("password=Tr0ub4dor&3", "Tr0ub4dor"),
        ("an OpenAI key sk-proj-AbC123dEf456 in prose", "sk-proj-AbC123dEf456"),
    ],
)
def test_key_shaped_values_are_masked_even_when_not_configured(text: str, leak: str) -> None:
    masked = mask(text)
    assert leak not in masked and "***" in masked


def test_where_logs_and_traces_go_is_not_a_workspaces_choice() -> None:
    from hearth.runtime.trust import PROJECT_SAFE

    # a cloned repository must not point the log at a file to overwrite, or traces at its server
    assert not {"log_file", "log_level", "otel_endpoint", "transcription_model"} & PROJECT_SAFE
