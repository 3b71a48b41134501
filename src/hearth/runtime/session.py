"""Put the parts together for one workspace: store, model, tools, agent.

UIs call this and read the event stream; they never build agents themselves.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel

from hearth.agent.compaction import Compactor
from hearth.agent.dispatch import Dispatcher
from hearth.agent.instructions import NestedInstructions, load_instructions
from hearth.agent.loop import Agent, Limits
from hearth.agent.policy import Approver, PermissionMode, PermissionPolicy
from hearth.agent.state import SessionState
from hearth.agent.tracing import NO_TRACING, Tracer
from hearth.core.errors import HearthError
from hearth.core.events import BudgetSet, Event, ModeChanged, SessionStarted
from hearth.core.protocols import DeltaSink, Model, ModelRequest, ModelResponse
from hearth.core.types import Message
from hearth.history.carryover import carry_over
from hearth.history.checkpoints import Checkpoints
from hearth.history.export import to_markdown
from hearth.llm.client import OpenAICompatModel
from hearth.llm.embedded import EmbeddedServer
from hearth.llm.profiles import ModelProfile, ToolMode
from hearth.llm.server_info import probe_server
from hearth.llm.structured import StructuredAnswer, ask_json
from hearth.llm.urls import normalize_base_url
from hearth.runtime.agentdefs import load_definitions
from hearth.runtime.config import Settings, state_dir, user_config_path
from hearth.runtime.mcp_servers import LISTED_TOKENS, McpServers, start_servers
from hearth.runtime.model_server import main_client, main_server
from hearth.runtime.offer import (
    add_runtime_tools,
    choose_actions,
    decide_tool_mode,
    default_toolset,
    find_window,
    full_toolset,
    model_profile,
    offered_on_demand,
    probed_tool_mode,
    prompt_for,
    remember_window,
    session_toolset,
    usable_search,
    with_lookup,
)
from hearth.runtime.plan_writes import PlanRecorder
from hearth.runtime.roles import BUILTIN_ROLES, Role, resolve_role
from hearth.runtime.subagents import SubAgents, children_spent
from hearth.runtime.vision import vision_tool
from hearth.sandbox.budget import SessionCaps
from hearth.sandbox.bwrap import BwrapBackend
from hearth.sandbox.choice import SandboxChoice, choose_sandbox
from hearth.sandbox.paths import SafePaths
from hearth.sandbox.proxy import AllowlistProxy, ProxyPolicy
from hearth.store.sessions import SessionStore
from hearth.telemetry.logs import configure_logging
from hearth.telemetry.traces import configure_traces
from hearth.tools.base import RunContext
from hearth.tools.known_files import KnownFiles
from hearth.tools.toolset import Toolset

T = TypeVar("T", bound=BaseModel)


@dataclass
class Runtime:
    settings: Settings
    store: SessionStore
    model: Model
    server_url: str
    profile: ModelProfile
    context_source: str
    sandbox: SandboxChoice
    embedded: EmbeddedServer | None = None
    proxy: AllowlistProxy | None = None
    toolset: Toolset = field(default_factory=default_toolset)
    probe: bool = True  # ask a model how it calls tools (off in some tests)
    _clients: dict[tuple[str, str, str], Model] = field(default_factory=dict)
    mcp: McpServers | None = None  # the MCP servers started for this runtime (their tools are in toolset)
    tracer: Tracer = NO_TRACING  # OpenTelemetry spans when otel_endpoint is set (telemetry/traces.py)

    @property
    def workspace(self) -> Path:
        return self.settings.workspace

    def role(self, name: str, models: Mapping[str, str] | None = None) -> Role:
        """A role from the settings' table (KeyError naming the known ones if there is none);
        `models`: the models a session chose for its roles at run time (from its `ModelChosen` events)."""
        main_model = self.model.settings.model if isinstance(self.model, OpenAICompatModel) else ""
        return resolve_role(
            name,
            self.settings.model.roles,
            main_model=main_model,
            main_temperature=self.settings.model.temperature,
            main_tool_mode=self.profile.tool_mode,
            overrides=dict(models or {}),
        )

    async def working_role(self, name: str, models: Mapping[str, str] | None = None) -> Role:
        """The role as a session's work uses it: a role on another model or server, whose tool
        calling is not configured, calls tools the way a probe of that model found (cached per
        server and model, like the main one's), not the way the main model does."""
        role = self.role(name, models)
        client = self.model_for(role)
        if (
            role.native_tools is None
            and self.settings.model.tool_mode is ToolMode.AUTO
            and self.probe
            and client is not self.model
            and isinstance(client, OpenAICompatModel)
        ):
            found = await probed_tool_mode(self.settings, client.settings.base_url, client)
            role = dataclasses.replace(role, tool_mode=found)
        return role

    def model_for(self, role: Role) -> Model:
        """The model a role's requests go to: the main one unless the role names another model
        or server (one client per server and model, shared by every session)."""
        if not isinstance(self.model, OpenAICompatModel):
            return self.model  # a scripted double in tests: one model for every role
        main = self.model.settings
        base = normalize_base_url(role.server) if role.server else main.base_url
        key = role.api_key if role.server else main.api_key
        if base == main.base_url and role.model == main.model:
            return self.model
        wanted = (base, role.model, key)
        if wanted not in self._clients:
            self._clients[wanted] = OpenAICompatModel(
                dataclasses.replace(main, base_url=base, model=role.model, api_key=key)
            )
        return self._clients[wanted]

    def summarizer(self, models: Mapping[str, str] | None = None) -> tuple[Model | None, dict[str, Any]]:
        """Who writes compaction summaries (the `summarizer` role) and that role's request settings;
        (None, {}) when the role is the main model with no settings of its own."""
        if "summarizer" not in self.settings.model.roles and "summarizer" not in (models or {}):
            return None, {}
        role = self.role("summarizer", models)
        sampling = dict(role.sampling)
        if role.temperature is not None:
            sampling["temperature"] = role.temperature
        return self.model_for(role), sampling

    def roles_table(self, models: Mapping[str, str] | None = None) -> list[Role]:
        """Every known role (built-in and configured) as a session resolves it now."""
        names = dict.fromkeys([*BUILTIN_ROLES, *sorted(self.settings.model.roles)])
        return [self.role(n, models) for n in names]

    async def ask_json(
        self,
        role_name: str,
        messages: Sequence[Message],
        output: type[T],
        *,
        models: Mapping[str, str] | None = None,
        retries: int = 1,
    ) -> StructuredAnswer[T]:
        """Ask a role for an answer matching `output`'s schema (see llm/structured.ask_json): with
        `response_format` when the role says it supports JSON schemas, else with the schema in the
        prompt; a bad answer goes back once with the error."""
        role = self.role(role_name, models)
        return await ask_json(
            self.model_for(role),
            messages,
            output,
            json_schema=role.json_schema,
            temperature=role.temperature,
            sampling=role.sampling,
            retries=retries,
        )

    async def list_models(self) -> list[str]:
        info = await probe_server(self.server_url, self.settings.model.api_key.get_secret_value())
        return list(info.models)

    def select_model(self, name: str) -> None:
        """Switch the model the server is asked for, from the next request on."""
        if not isinstance(self.model, OpenAICompatModel):
            raise HearthError(
                "This model cannot be switched.", "Switching needs an OpenAI-compatible server."
            )
        if not name.strip():
            raise HearthError("Say which model to use.", "List the server's models first.")
        self.model.settings = dataclasses.replace(self.model.settings, model=name.strip())

    async def aclose(self) -> None:
        if self.mcp is not None:
            await self.mcp.stop()
        for client in [self.model, *self._clients.values()]:
            close_model = getattr(client, "aclose", None)
            if close_model is not None:
                await close_model()
        await self.sandbox.runner.close()
        if self.proxy:
            await self.proxy.close()
        if self.embedded:
            self.embedded.stop()
        self.store.close()
        if self.tracer is not NO_TRACING:
            await asyncio.to_thread(self.tracer.shutdown)  # the spans still waiting go out


def check_workspace(workspace: Path) -> None:
    if not workspace.exists():
        raise HearthError(
            f"The workspace {workspace} does not exist.",
            f"Create it (mkdir -p {workspace}) or pass --workspace with an existing folder.",
        )
    if not workspace.is_dir():
        raise HearthError(f"The workspace {workspace} is not a folder.", "Pass --workspace with a folder.")


def open_store(workspace: Path) -> SessionStore:
    """The workspace's session store, in its state folder; the first open carries over the
    sessions an older Hearth kept in the workspace, as history only (history.carryover)."""
    store = SessionStore(state_dir(workspace) / "sessions.db")
    try:
        carry_over(store.path, workspace)
    except BaseException:
        store.close()
        raise
    return store


async def open_runtime(
    settings: Settings, *, model: Model | None = None, probe: bool = True, mcp: bool = True
) -> Runtime:
    """Connect to the configured server, or start the embedded one; ask it its context window.
    `mcp` False: the MCP servers are not started (work that calls no tool, such as reflection)."""
    check_workspace(settings.workspace)
    configure_logging(settings)
    # The sandbox's self-test runs while the server is asked for its window (both wait on others).
    sandboxing = asyncio.create_task(
        choose_sandbox(settings.sandbox.backend, settings.workspace, image=settings.sandbox.image)
    )
    store = open_store(settings.workspace)
    embedded: EmbeddedServer | None = None
    proxy: AllowlistProxy | None = None
    try:
        base, model_name, embedded = await main_server(settings)
        window = await find_window(settings, base, model_name, embedded=embedded is not None)
        size_name = embedded.model.name if embedded is not None else (model_name or window.served)
        sandbox = await sandboxing
        sandbox.runner.set_caps(
            SessionCaps(settings.sandbox.max_session_write_bytes, settings.sandbox.max_background_jobs)
        )
        sandbox.runner.watchers.append(PlanRecorder(settings.workspace))  # plans it writes wait for a person
        if settings.sandbox.network_allow and not settings.sandbox.network:
            proxy = await _start_proxy(settings, sandbox)
        if model is None:
            model = main_client(settings, base, model_name)
    except BaseException:
        if embedded:
            embedded.stop()
        store.close()
        await _drop_sandbox(sandboxing)
        if proxy:
            await proxy.close()
        raise
    try:
        tool_mode, probed = await decide_tool_mode(
            settings, base, model, embedded=embedded is not None, probe=probe
        )
    except BaseException:
        await _close_all(embedded, store, sandbox, proxy, model)
        raise
    profile = model_profile(settings, tool_mode, window, size_name, probed)
    try:
        profile = await choose_actions(
            settings, base, model, profile, embedded=embedded is not None, probe=probe
        )
    except BaseException:
        await _close_all(embedded, store, sandbox, proxy, model)
        raise
    try:
        tools = full_toolset(settings, isolated=sandbox.runner.isolated, search=await usable_search(settings))
        tools = offered_on_demand(tools, settings, profile)
        tracer = configure_traces(settings)
    except BaseException:
        await _close_all(embedded, store, sandbox, proxy, model)
        raise
    rt = Runtime(
        settings, store, model, base, profile, window.source, sandbox, embedded, proxy, tools, probe=probe
    )
    rt.tracer = tracer
    add_runtime_tools(rt.toolset, rt.workspace, vision_tool(rt))
    if not mcp:
        return rt
    try:  # in the background: a slow server never delays the first prompt
        rt.mcp = start_servers(
            sandbox.runner,
            settings.workspace,
            rt.toolset,
            listed_tokens=0 if profile.small else LISTED_TOKENS,
        )
    except BaseException:
        await rt.aclose()
        raise
    if rt.mcp.connections:
        rt.profile = with_lookup(profile)
    return rt


async def _drop_sandbox(sandboxing: asyncio.Task[SandboxChoice]) -> None:
    """Stop a sandbox choice still being made, or close the one made."""
    if not sandboxing.done():
        sandboxing.cancel()
    with contextlib.suppress(BaseException):
        await (await sandboxing).runner.close()


async def _close_all(
    embedded: EmbeddedServer | None,
    store: SessionStore,
    sandbox: SandboxChoice,
    proxy: AllowlistProxy | None,
    model: Model,
) -> None:
    close_model = getattr(model, "aclose", None)
    if close_model is not None:
        await close_model()
    if embedded:
        embedded.stop()
    store.close()
    await sandbox.runner.close()
    if proxy:
        await proxy.close()


async def _start_proxy(settings: Settings, sandbox: SandboxChoice) -> AllowlistProxy | None:
    backend = sandbox.runner.backend
    if not isinstance(backend, BwrapBackend):
        # Only bwrap routes commands through the proxy. Elsewhere the allow-list still holds for
        # web_fetch (Hearth's own requests); commands keep the sandbox's no-network, and are told.
        commands = (
            "so commands run without network"
            if backend.isolation.network
            else "and it does not confine commands' network at all"
        )
        note = (
            f"network_allow applies to web_fetch only: the {backend.name} sandbox cannot route "
            f"commands through the allow-list, {commands} (bwrap can; or set network = true)."
        )
        sandbox.warning = f"{sandbox.warning}; {note}" if sandbox.warning else note
        return None
    folder = Path(tempfile.mkdtemp(prefix="hearth-proxy-"))
    proxy = await AllowlistProxy(ProxyPolicy(settings.sandbox.network_allow), folder / "proxy.sock").start()
    backend.proxy_socket = proxy.socket_path
    return proxy


def start_agent(
    rt: Runtime,
    *,
    resume: str | None = None,
    on_event: Callable[[str, Event], None] | None = None,
    on_delta: DeltaSink | None = None,
    approver: Approver | None = None,
    permission_mode: PermissionMode | None = None,
    new_id: str | None = None,
) -> Agent:
    """A new session (named `new_id`, or a fresh id), or the one `resume` names, ready to `run`,
    in the state its events leave it in (agent/state). `permission_mode`: the mode to work in;
    by default a new session takes the settings' and a resumed one keeps its own."""
    session_id, events = _open_session(rt, resume, new_id)
    state = SessionState.replay(events, permission_mode or rt.settings.permissions.mode)
    state.spent_elsewhere(_children_spent(rt, session_id, events))
    instructions = load_instructions(rt.workspace, user_config_path().parent)
    definitions, _problems = load_definitions(rt.workspace, user_config_path().parent, home=Path.home())
    # MCP tools joining rt.toolset later are seen
    toolset = session_toolset(
        rt.toolset, SubAgents(rt, 0, approver, definitions).tools(), rt.settings, rt.profile
    )
    started = next((e for e in events if isinstance(e, SessionStarted)), None)
    prompt = (
        started.system_prompt
        if started and started.system_prompt
        else prompt_for(toolset, rt.profile, instructions)
    )
    main = rt.role("main", state.models)
    agent = Agent(
        model=RoleModel(rt, "main", state),
        profile=rt.profile,
        dispatcher=_dispatcher(rt, session_id, toolset, approver, events),
        store=rt.store,
        session_id=session_id,
        system_prompt=prompt,
        limits=Limits(
            rt.settings.agent.max_iterations, rt.settings.agent.max_seconds, rt.settings.agent.versions
        ),
        temperature=main.temperature,
        on_event=on_event,
        on_delta=on_delta,
        state=state,
        compactor=_compactor(rt, state),
        nested=NestedInstructions(rt.workspace),
        archive=_archiver(rt, session_id),
        checkpoint=Checkpoints(rt.workspace).snapshot if rt.settings.agent.checkpoints else None,
        sampling=main.sampling,
        tracer=rt.tracer,
        on_window=partial(remember_window, rt.server_url, rt.model.name)
        if rt.model_for(main) is rt.model
        else None,
    )
    if not resume:
        agent.record(_started(rt, state.mode, prompt, instructions.sources()))
    elif permission_mode is not None and permission_mode is not state.mode:
        agent.record(ModeChanged(mode=permission_mode.value, reason="asked for on resume"))
    return agent


@dataclass(frozen=True)
class RoleModel:
    """The model a role uses in one session now: the one the session's events chose for it
    (ModelChosen), else the settings'. A switch is an event; this only reads the state."""

    rt: Runtime
    role: str
    state: SessionState

    @property
    def current(self) -> Model:
        return self.rt.model_for(self.rt.role(self.role, self.state.models))

    @property
    def name(self) -> str:
        return self.current.name

    async def complete(self, request: ModelRequest, on_delta: DeltaSink | None = None) -> ModelResponse:
        return await self.current.complete(request, on_delta)


def _open_session(rt: Runtime, resume: str | None, new_id: str | None) -> tuple[str, list[Event]]:
    if resume:
        session_id = rt.store.resolve(resume)
        return session_id, rt.store.events(session_id)
    return rt.store.create(str(rt.workspace), rt.model.name, new_id), []


def _dispatcher(
    rt: Runtime, session_id: str, toolset: Toolset, approver: Approver | None, events: list[Event]
) -> Dispatcher:
    """The session's one door for tool calls: the settings' policy (the session's mode and rules
    come from its state at each call), over the workspace's paths."""
    runner = rt.sandbox.runner
    policy = PermissionPolicy.from_settings(
        rt.settings.permissions.mode,
        rt.settings.permissions.allow,
        rt.settings.permissions.ask,
        rt.settings.permissions.deny,
        sandboxed=runner.isolated,
        hides_secrets=runner.hides_secrets,
        guarded_only=not runner.backend.controls_read_only,
    )
    # Secret exceptions come from the user's settings only, never from a rule allowed in a session.
    paths = SafePaths(rt.workspace, secret_exceptions=policy.secret_exceptions())
    context = RunContext(
        paths=paths,
        session_id=session_id,
        sandbox=runner,
        network=rt.settings.sandbox.network,
        known=KnownFiles.from_events(events, paths, _canonical(toolset), strict=rt.profile.small),
    )
    return Dispatcher(toolset, policy, context, approver, rt.settings.agent.output_limit)


def _started(rt: Runtime, mode: PermissionMode, prompt: str, sources: Sequence[str]) -> SessionStarted:
    return SessionStarted(
        workspace=str(rt.workspace),
        model=rt.model.name,
        server=rt.server_url,
        context_window=rt.profile.context_window,
        permission_mode=mode.value,
        tool_mode=rt.profile.tool_mode.value,
        system_prompt=prompt,
        instructions=tuple(sources),
    )


def _compactor(rt: Runtime, state: SessionState) -> Compactor:
    """The window the server or the settings state; else the one the session learned (events).
    Summaries are written by the summarizer role the session uses now."""
    window, known = rt.profile.context_window, rt.profile.window_known
    if not known and state.window:
        window, known = state.window, True
    return Compactor(window=window, known=known, choose=lambda: rt.summarizer(state.models))


def _canonical(toolset: Toolset) -> Callable[[str], str | None]:
    def name(called: str) -> str | None:
        tool = toolset.get(called)
        return tool.name if tool else None

    return name


def _children_spent(rt: Runtime, session_id: str, events: list[Event]) -> int:
    """What the session's sub-agents spent since its budget was set (their replies are in their
    own sessions); nothing without a budget."""
    since = next((e.ts for e in reversed(events) if isinstance(e, BudgetSet)), None)
    return 0 if since is None else children_spent(rt.store, session_id, since)


def _archiver(rt: Runtime, session_id: str) -> Callable[[list[Event]], str]:
    def archive(events: list[Event]) -> str:
        folder = state_dir(rt.workspace) / "archive"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{session_id}-{len(events)}.md"
        path.write_text(to_markdown(events, f"Hearth session {session_id}"), encoding="utf-8")
        return str(path)

    return archive
