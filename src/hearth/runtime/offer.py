"""What a model is offered: its profile (small or full), how it calls tools, and which tools.

The session (runtime/session.py) asks this module once per runtime; nothing here starts
servers or sessions. What a profile is, and when a model counts as small, is llm/profiles.py's;
this module decides them from the settings and remembers what servers said in the user's data
folder.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

from hearth.agent.instructions import Instructions
from hearth.agent.offered import loader_tool, unlisted
from hearth.agent.prompt import system_prompt
from hearth.core.errors import ModelError
from hearth.core.protocols import Model
from hearth.history.patches import patch_tools
from hearth.llm.actions import JSON_OBJECT
from hearth.llm.client import OpenAICompatModel
from hearth.llm.probe import probe_action_format, probe_tool_mode
from hearth.llm.profiles import (
    DEFAULT_CONTEXT_WINDOW,
    REPLY_TOKENS,
    SMALL_REPLY_TOKENS,
    ModelProfile,
    ToolMode,
    Window,
    small_profile,
)
from hearth.llm.server_info import probe_server
from hearth.mcp.lookup import NAME as LOOKUP_NAME
from hearth.mcp.tools import McpTool
from hearth.runtime.config import Settings, user_data_path
from hearth.runtime.memory_scopes import session_memory_tools
from hearth.runtime.skills import promotion_tools, skill_tools
from hearth.sandbox.proxy import ProxyPolicy, loopback_proxy
from hearth.tools.base import Tool
from hearth.tools.builtin.clock import clock_tools
from hearth.tools.builtin.data import data_tools
from hearth.tools.builtin.files import file_tools
from hearth.tools.builtin.git import git_tools
from hearth.tools.builtin.python import python_tools
from hearth.tools.builtin.render import Renderer
from hearth.tools.builtin.search import SearchProvider, search_tools
from hearth.tools.builtin.shell import shell_tools
from hearth.tools.builtin.web import web_tools
from hearth.tools.builtin.work import work_tools
from hearth.tools.toolset import Toolset

log = logging.getLogger(__name__)


# What a small model is shown: what most tasks need, in a short prompt. Git goes through shell:
# shown git tools made the 1.5B model init and commit in folders where nobody asked for it. The
# other tools stay callable (a task that names todo_add still works); they are just not listed.
SMALL_TOOLS = ("read", "write", "edit", "ls", "grep", "shell")
# What a default session sends in full in every request; the other tools are named one line each
# in `tool_load` and sent in full once asked for (34 schemas took ~2,800 tokens of each request).
CORE_TOOLS = ("read", "write", "edit", "glob", "grep", "ls", "shell")


def default_toolset(settings: Settings | None = None) -> Toolset:
    """The tools every session has (`settings`: which model embeds memory; see runtime.memory_scopes)."""
    return Toolset(
        [
            *file_tools(),
            *shell_tools(),
            *git_tools(),
            *work_tools(),
            *session_memory_tools(settings),
            *patch_tools(),
        ]
    )


def full_toolset(settings: Settings, *, isolated: bool, search: SearchProvider | None = None) -> Toolset:
    """The default tools plus those that fit this setup: `web_fetch` only when the settings let
    commands reach the network (through the same policy as the sandbox's allow-list); `python`
    only when the sandbox isolates (`isolated`: its interpreter lives on between calls); `web_search` only with
    a provider that is configured and answered (see `search_provider`)."""
    tools = default_toolset(settings)
    for tool in [*clock_tools(), *data_tools()]:
        tools.add(tool)
    if isolated:
        for tool in python_tools():
            tools.add(tool)
    if settings.sandbox.network or settings.sandbox.network_allow or settings.web.allow_local:
        policy = ProxyPolicy(
            settings.sandbox.network_allow,
            any_domain=settings.sandbox.network,
            local=settings.web.allow_local,
        )
        renderer = None
        if settings.web.render:
            renderer = Renderer(lambda: loopback_proxy(policy), settings.web.browser_path)
        for tool in web_tools(policy.check, renderer):
            tools.add(tool)
    if search is not None:
        for tool in search_tools(search):
            tools.add(tool)
    return tools


def on_demand(settings: Settings, profile: ModelProfile) -> bool:
    """Whether tools beyond CORE_TOOLS are offered on demand: the setting, for the full profile
    (the small one is shown its own short list, SMALL_TOOLS)."""
    return settings.agent.tools_on_demand and not profile.small


def offered_on_demand(tools: Toolset, settings: Settings, profile: ModelProfile) -> Toolset:
    """The runtime's tools, those outside CORE_TOOLS unlisted when offered on demand."""
    return Toolset(unlisted(tools, CORE_TOOLS)) if on_demand(settings, profile) else tools


def session_toolset(base: Toolset, own: Toolset, settings: Settings, profile: ModelProfile) -> Toolset:
    """A session's tools: the runtime's (`base`, also those joining it later), its own (the
    sub-agent tools) and, when tools are offered on demand, `tool_load` over the unlisted ones
    (MCP tools excepted: `mcp_tools` looks those up)."""
    if not on_demand(settings, profile):
        return base.extended(own)
    toolset = base.extended(unlisted(own, CORE_TOOLS))
    names = [t.name for t in toolset if not t.listed and not isinstance(t, McpTool)]
    if names:
        toolset.add(loader_tool(toolset, names))
    return toolset


def small_toolset() -> Toolset:
    return default_toolset().filtered(SMALL_TOOLS)


async def usable_search(settings: Settings) -> SearchProvider | None:
    """The configured search provider if it is complete and its host answers; else None (and
    `web_search` is left out of the tool list)."""
    if not settings.web.search_provider:
        return None
    provider = SearchProvider(
        settings.web.search_provider, settings.web.search_url, settings.web.search_api_key.get_secret_value()
    )
    if provider.problem() is not None or not await provider.reachable():
        return None
    return provider


def add_runtime_tools(toolset: Toolset, workspace: Path, seeing: Tool | None) -> None:
    """The tools that depend on the opened runtime: `vision` when a role can see (`seeing`, from
    runtime.vision); `skill` when skills are found and `promote_skill` when memory holds a
    candidate skill (none: no prompt cost)."""
    if seeing is not None:
        toolset.add(seeing)
    for tool in [*skill_tools(workspace), *promotion_tools(workspace)]:
        toolset.add(tool)


async def find_window(settings: Settings, base: str, model_name: str, *, embedded: bool) -> Window:
    """The configured window; else the embedded server's; else the one the server reports; else
    DEFAULT_CONTEXT_WINDOW (compaction then waits for the server's overflow error)."""
    if settings.model.context_window is not None:
        return Window(settings.model.context_window, True, "configured")
    if embedded:
        return Window(settings.model.embedded.context, True, "embedded server --n_ctx")
    info = await probe_server(base, settings.model.api_key.get_secret_value(), model_name)
    served = info.models[0] if info.models and not model_name else ""
    if info.context_window is None:
        learned = remembered(WINDOWS, f"{base} {model_name or '(server default)'}")
        if isinstance(learned, int) and learned > 0:
            return Window(
                learned, True, "stated by this server's overflow error in an earlier session", served
            )
        return Window(
            DEFAULT_CONTEXT_WINDOW, False, "assumed (the server did not say; learned on overflow)", served
        )
    return Window(info.context_window, True, info.source, served)


def model_profile(
    settings: Settings, tool_mode: ToolMode, window: Window, size_name: str, probed: ToolMode | None
) -> ModelProfile:
    """The profile a runtime's sessions work with: small (fewer tools shown, shorter replies) or
    full, with the tool mode and context window found when the runtime opened."""
    # grammar mode asked for by name skips the tool probe; with no size in the model's name (as
    # behind `--model_alias`) it counts as that probe's text answer: the mode is for small models
    asked = ToolMode.TEXT if settings.model.tool_mode is ToolMode.GRAMMAR and probed is None else probed
    small = small_profile(settings.model.profile, size_name, asked)
    return ModelProfile(
        tool_mode=tool_mode,
        context_window=window.size,
        window_known=window.known,
        small=small,
        max_reply_tokens=SMALL_REPLY_TOKENS if small else REPLY_TOKENS,
        shown_tools=SMALL_TOOLS if small else (),
        tight_tools=SMALL_TOOLS,
    )


def with_lookup(profile: ModelProfile) -> ModelProfile:
    """With MCP servers connected, a small model is shown the lookup tool too (not their tools)."""
    if not profile.shown_tools:
        return profile
    return profile.model_copy(update={"shown_tools": (*profile.shown_tools, LOOKUP_NAME)})


async def decide_tool_mode(
    settings: Settings, base: str, model: Model, *, embedded: bool, probe: bool
) -> tuple[ToolMode, ToolMode | None]:
    """How the main model calls tools, and what the probe found (None: not probed). The
    configured mode wins; `auto` means text for the embedded models (measured: they call tools
    reliably only as text; `choose_actions` then holds them to a grammar), else the probe's answer
    when probing is on. Grammar mode is settled
    afterwards (`choose_actions`), once the profile says whether the model is small."""
    if settings.model.tool_mode is ToolMode.GRAMMAR:
        return ToolMode.TEXT, None  # until the server is found to hold replies to a schema
    if settings.model.tool_mode is not ToolMode.AUTO:
        return settings.model.tool_mode, None
    if embedded:
        return ToolMode.TEXT, None
    if probe and isinstance(model, OpenAICompatModel):
        found = await probed_tool_mode(settings, base, model)
        return found, found
    return ToolMode.AUTO, None


async def probed_tool_mode(settings: Settings, base: str, model: OpenAICompatModel) -> ToolMode:
    """How this server and model call tools: asked once, then remembered in the user's data folder
    (not the workspace: each new folder would pay the probe again, 30 s and more on a CPU, and a
    workspace's files are not to be trusted to say how a server behaves)."""
    key = f"{base} {model.settings.model}"
    known = remembered("tool_modes.json", key)
    if isinstance(known, str) and known in ToolMode.__members__.values():
        return ToolMode(known)
    try:
        found = await probe_tool_mode(model) or ToolMode.AUTO  # unsure: keep sending tools, read text too
    except ModelError:
        return ToolMode.AUTO  # the server did not answer: nothing learned, nothing remembered
    remember("tool_modes.json", key, found.value)
    return found


async def probed_action_format(base: str, model: OpenAICompatModel) -> str:
    """The `response_format` spelling this server holds replies to a schema with ("" for none):
    probed once, remembered per server and model like the tool mode."""
    key = f"{base} {model.settings.model}"
    known = remembered("action_formats.json", key)
    if isinstance(known, str):
        return known
    try:
        found = await probe_action_format(model) or ""
    except ModelError:
        return ""  # the server did not answer: nothing learned, nothing remembered
    remember("action_formats.json", key, found)
    return found


async def choose_actions(
    settings: Settings, base: str, model: Model, profile: ModelProfile, *, embedded: bool, probe: bool
) -> ModelProfile:
    """Grammar mode (constrained actions) when asked for, or, in auto mode, for a small model on a
    server found to hold replies to a schema. Asked for on a server that holds none, text mode.
    The embedded server is llama-cpp-python's, which holds `json_object` schemas: no probe."""
    wanted = settings.model.tool_mode is ToolMode.GRAMMAR
    auto = settings.model.tool_mode is ToolMode.AUTO and profile.small and (probe or embedded)
    if not (wanted or auto):
        return profile
    if embedded:
        found = JSON_OBJECT
    elif isinstance(model, OpenAICompatModel):
        found = await probed_action_format(base, model)
    else:
        found = ""
    if found:
        return profile.model_copy(update={"tool_mode": ToolMode.GRAMMAR, "action_format": found})
    if wanted:
        log.warning("the server holds no reply to a JSON schema; tools are described as text instead")
        return profile.model_copy(update={"tool_mode": ToolMode.TEXT})
    return profile


WINDOWS = "windows.json"  # per server and model: the window an overflow error stated


def remember_window(base: str, model_name: str, window: int) -> None:
    """Keep a window the server stated (in an overflow error), so the next session starts with it."""
    remember(WINDOWS, f"{base} {model_name}", window)


def remembered(name: str, key: str) -> object:
    """What the user's data file `name` (a JSON object) holds under `key`, or None."""
    try:
        known = json.loads((user_data_path() / name).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return known.get(key) if isinstance(known, dict) else None


def remember(name: str, key: str, value: object) -> None:
    """Keep `value` under `key` in the user's data file `name` (best effort: a read-only home
    only means the next session asks again)."""
    cache = user_data_path() / name
    try:
        known = json.loads(cache.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        known = {}
    if not isinstance(known, dict):
        known = {}
    known[key] = value
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        cache.write_text(json.dumps(known, indent=1), encoding="utf-8")
    except OSError:
        pass


def prompt_for(toolset: Toolset, profile: ModelProfile, instructions: Instructions) -> str:
    """The system prompt: the listed tools the profile shows (all of them when it names none)."""
    wanted = profile.shown_tools
    shown = Toolset(t for t in toolset if t.listed and (not wanted or t.name in wanted))
    return system_prompt(shown, profile.tool_mode, instructions, small=profile.small)
