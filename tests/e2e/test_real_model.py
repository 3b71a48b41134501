"""Opt-in: the embedded default model, for real. Skipped unless `hearth[local]` is installed."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from hearth.llm.embedded import DEFAULT_MODEL, embedded_model, missing_packages

pytestmark = pytest.mark.real_model

# The tests run `hearth` with a clean environment, so with the default embedded model.
if importlib.util.find_spec("llama_cpp") is None or missing_packages(embedded_model(DEFAULT_MODEL)):
    pytest.skip(
        "the embedded model is not installed (./scripts/quickstart installs it)", allow_module_level=True
    )


def test_the_embedded_model_drives_the_real_loop(hearth, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    res = hearth(
        "run",
        "Create hello.py that prints hello",
        "-w",
        str(workspace),
        "--json",
        "--max-iterations",
        "4",
        timeout=900,
    )
    lines = res.json_lines()
    assert lines[0]["type"] == "session_started" and lines[0]["tool_mode"] == "grammar"
    assert lines[-1]["type"] == "done" and res.code in (0, 2, 3)
    calls = [line for line in lines if line["type"] == "tool_call"]
    assert calls, "the model made no tool call Hearth could read"
    assert any(line["type"] == "tool_result" and line["success"] for line in lines)
