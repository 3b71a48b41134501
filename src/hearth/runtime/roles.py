"""Named roles: which model does which job, with its own sampling and capability flags.

A role (`main`, `planner`, `coder`, `reviewer`, `summarizer`, `embedder`, or any the user names)
names a model, optionally on another server, with its sampling (temperature, top_p, seed,
max_tokens, stop) and what the model can do (native tool calls, JSON-schema output, vision,
thinking). Compaction summaries use `summarizer`; sub-agents use the role their brief or their
definition names. A role left out, or a field left blank, is the main model's.

The table is part of the settings, so a workspace's own config file sets it only when the user
trusted that folder (a role's server and key say where requests, and the work, are sent).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, SecretStr

from hearth.llm.profiles import ToolMode

BUILTIN_ROLES = ("main", "planner", "coder", "reviewer", "summarizer", "embedder")


class RoleSettings(BaseModel):
    """One row of the `roles` table (`[roles.<name>]` in config.toml)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    model: str = Field("", description="Model name to request; blank = the main model")
    server: str = Field("", description="OpenAI-compatible server; blank = the main server")
    api_key: SecretStr = Field(SecretStr(""), description="Key for `server`; blank = the main key")
    temperature: float | None = Field(None, ge=0)
    top_p: float | None = Field(None, gt=0, le=1)
    seed: int | None = None
    max_tokens: int | None = Field(None, ge=1)
    stop: list[str] = Field(default_factory=list)
    native_tools: bool | None = Field(None, description="true: structured calls; false: text calls")
    json_schema: bool = Field(False, description="The model can answer to a JSON schema")
    vision: bool = Field(False, description="The model reads images")
    thinking: bool | None = Field(
        None,
        description="true/false: ask the server to switch the model's thinking on/off "
        "(chat_template_kwargs.enable_thinking, read by llama.cpp, vLLM and SGLang); unset: leave it",
    )


@dataclass(frozen=True)
class Role:
    """A role resolved against the main settings: what a request made for it carries."""

    name: str
    model: str  # "" = whatever the server serves
    server: str  # "" = the main server
    api_key: str
    temperature: float | None
    sampling: dict[str, Any]  # top_p, seed, max_tokens, stop, chat_template_kwargs: added to the body
    tool_mode: ToolMode
    json_schema: bool = False  # asked for structured output, it gets `response_format` (llm/structured)
    vision: bool = False  # the `vision` tool sends images to a role with this (runtime/vision)
    thinking: bool | None = None
    native_tools: bool | None = None  # as configured; None: the tool mode is the main one or probed

    @property
    def own_server(self) -> bool:
        return bool(self.server)


def resolve_role(
    name: str,
    roles: dict[str, RoleSettings],
    *,
    main_model: str,
    main_temperature: float | None,
    main_tool_mode: ToolMode,
    overrides: dict[str, str] | None = None,
) -> Role:
    """The role `name` as requests are made for it. An unknown name is a KeyError whose message
    lists the known ones (shown to the model as is)."""
    known = sorted({*BUILTIN_ROLES, *roles})
    if name not in known:
        raise KeyError(f"unknown role {name!r}; known roles: {', '.join(known)}")
    row = roles.get(name) or roles.get("main") or RoleSettings()  # unconfigured: the main model's
    sampling: dict[str, Any] = {}
    if row.top_p is not None:
        sampling["top_p"] = row.top_p
    if row.seed is not None:
        sampling["seed"] = row.seed
    if row.max_tokens is not None:
        sampling["max_tokens"] = row.max_tokens
    if row.stop:
        sampling["stop"] = list(row.stop)
    if row.thinking is not None:  # hybrid models (Qwen3, DeepSeek) switch thinking in their template
        sampling["chat_template_kwargs"] = {"enable_thinking": row.thinking}
    # a role's own sessions are not given the main profile's action format: they write calls as text
    tool_mode = ToolMode.TEXT if main_tool_mode is ToolMode.GRAMMAR else main_tool_mode
    if row.native_tools is not None:
        tool_mode = ToolMode.NATIVE if row.native_tools else ToolMode.TEXT
    model = (overrides or {}).get(name) or row.model or main_model
    return Role(
        name=name,
        model=model,
        server=row.server,
        api_key=row.api_key.get_secret_value(),
        temperature=row.temperature if row.temperature is not None else main_temperature,
        sampling=sampling,
        tool_mode=tool_mode,
        json_schema=row.json_schema,
        vision=row.vision,
        thinking=row.thinking,
        native_tools=row.native_tools,
    )
