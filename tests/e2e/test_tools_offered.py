"""Which tools a session is offered, seen in the first request the real CLI sends.

The optional tools (web_fetch, web_search, python, get_time, data_view) are for the full profile;
the small-model profile's first request stays byte for byte what it is without them.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from hearth.testing import ScriptedReply, ScriptedServer
from hearth.testing.script import estimate_tokens, prompt_text

SMALL = "qwen2.5-coder-1.5b-instruct"
LARGE = "qwen2.5-coder-32b-instruct"


def first_request(hearth, workspace: Path, model: str, **env: str) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    with ScriptedServer([ScriptedReply(text="Hi. TASK_COMPLETE")], model=model) as server:
        env = {k: v.replace("{server}", server.url) for k, v in env.items()}
        res = hearth(
            "run",
            "say hi",
            "-w",
            str(workspace),
            "--json",
            "--permission",
            "auto",
            env={"HEARTH_LLM_URL": server.url, "HEARTH_RETRIES": "0", "HEARTH_MODEL": model, **env},
        )
        assert res.code == 0, res.stdout[-1500:] + res.stderr[-1500:]
        return server.requests[0]


EVERY_TOOL = {
    "HEARTH_NETWORK": "true",  # web_fetch
    "HEARTH_SEARCH_PROVIDER": "searxng",  # web_search: the scripted server's host answers
    "HEARTH_SEARCH_URL": "{server}/search",
}


def names(body: dict[str, Any]) -> set[str]:
    return {t["function"]["name"] for t in body.get("tools") or []}


def offered(body: dict[str, Any]) -> set[str]:
    """The tools sent in full and those named in `tool_load`'s catalogue (loaded on demand)."""
    found = names(body)
    for tool in body.get("tools") or []:
        if tool["function"]["name"] == "tool_load":
            found |= set(re.findall(r"^- (\w+):", tool["function"]["description"], re.M))
    return found


def test_the_small_profile_first_request_does_not_grow_with_the_new_tools(hearth, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    bare = first_request(hearth, workspace, SMALL)
    every = first_request(hearth, workspace, SMALL, **EVERY_TOOL)
    assert names(every) == {"read", "write", "edit", "ls", "grep", "shell"}
    assert every["messages"][0] == bare["messages"][0] and every.get("tools") == bare.get("tools")
    # bench/prompt_overhead.py: 621 Qwen tokens in auto mode (615 by this estimate)
    assert estimate_tokens(prompt_text(every)) < 700
    for hidden in ("web_fetch", "web_search", "python", "data_view", "get_time"):
        assert hidden not in every["messages"][0]["content"]


def test_the_full_profile_offers_every_configured_tool(hearth, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    bare = offered(first_request(hearth, workspace, LARGE))
    every = offered(first_request(hearth, workspace, LARGE, **EVERY_TOOL))
    assert {"get_time", "data_view", "python"} <= bare  # bwrap isolates on this machine
    assert not {"web_fetch", "web_search"} & bare  # no network, no search provider
    assert every - bare == {"web_fetch", "web_search"}


def test_web_search_is_left_out_when_the_provider_does_not_answer(hearth, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    down = {**EVERY_TOOL, "HEARTH_SEARCH_URL": "http://127.0.0.1:1/search"}
    shown = offered(first_request(hearth, workspace, LARGE, **down))
    assert "web_fetch" in shown and "web_search" not in shown
    incomplete = {"HEARTH_SEARCH_PROVIDER": "brave"}  # no API key
    assert "web_search" not in offered(first_request(hearth, workspace, LARGE, **incomplete))
