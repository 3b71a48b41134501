"""Settings in layers; the only place environment variables and files are read.

Later layers win: defaults, the user's config file, the project's
(`<workspace>/.hearth/config.toml`), `.env` files (current folder, then the
workspace), the environment (`HEARTH_*`, then the seeds' names such as
`LLM_URL`), then command-line flags. Each value remembers where it came from.
"""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from platformdirs import user_config_dir, user_data_dir
from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError, field_validator

from hearth.agent.modes import PermissionMode
from hearth.core.errors import ConfigError
from hearth.llm.profiles import ToolMode

APP = "hearth"


class Settings(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    llm_url: str = Field(
        "", description="OpenAI-compatible server (base or chat-completions URL); blank = embedded model"
    )
    api_key: SecretStr = Field(SecretStr(""), description="API key for the server")
    model: str = Field("", description="Model name to request; blank = the server's default")
    workspace: Path = Field(Path("."), description="Folder the agent works in")
    permission_mode: PermissionMode = Field(
        PermissionMode.NORMAL, description="auto | normal | manual | plan"
    )
    max_iterations: int = Field(50, ge=1, description="Model calls per task before stopping (exit 2)")
    max_seconds: float = Field(3600.0, gt=0, description="Wall-clock limit per task in seconds (exit 2)")
    temperature: float | None = Field(0.2, description="Sampling temperature; blank = server default")
    tool_mode: ToolMode = Field(
        ToolMode.AUTO, description="auto (a probe asks the model) | native | text tool calling"
    )
    model_profile: Literal["auto", "small", "full"] = Field(
        "auto", description="small: fewer tools, a shorter prompt, one call per reply; auto: by model size"
    )
    context_window: int | None = Field(None, ge=512, description="Context window; blank = ask the server")
    connect_timeout: float = Field(10.0, gt=0)
    first_token_timeout: float = Field(600.0, gt=0, description="Seconds to wait for the first token")
    idle_timeout: float = Field(120.0, gt=0, description="Seconds a stream may stall between chunks")
    retries: int = Field(3, ge=0)
    model_parallel: int = Field(
        4,
        ge=1,
        description="Requests sent to the model server at once, across sessions (a local server runs few)",
    )
    output_limit: int = Field(16000, ge=1000, description="Characters of tool output the model sees")
    model_path: Path | None = Field(None, description="A GGUF file for the embedded server")
    embedded_context: int = Field(8192, ge=512, description="Context size of the embedded server")
    embedded_threads: int = Field(max(1, os.cpu_count() or 1), ge=1)
    sandbox: str = Field("auto", description="auto | bwrap | landlock | podman | docker | seatbelt | process")
    sandbox_image: str = Field("", description="Image for the podman/docker backends")
    network: bool = Field(False, description="Let sandboxed commands use the whole network")
    network_allow: list[str] = Field(
        default_factory=list, description="Or only these domains, through a checking proxy (bwrap)"
    )
    checkpoints: bool = Field(True, description="Record the workspace before each changing step (for undo)")
    allow: list[str] = Field(
        default_factory=list, description="Rules run without asking, e.g. shell(pytest*)"
    )
    ask: list[str] = Field(default_factory=list, description="Rules that always ask, e.g. write(src/**)")
    deny: list[str] = Field(default_factory=list, description="Rules never run, e.g. shell(rm *)")

    @field_validator("allow", "ask", "deny", "network_allow", mode="before")
    @classmethod
    def _rule_list(cls, value: Any) -> Any:
        """From the environment: a JSON list, or rules separated by commas outside parentheses."""
        if isinstance(value, str):
            text = value.strip()
            if text.startswith("["):
                return json.loads(text)
            return [r.strip() for r in _split_rules(text) if r.strip()]
        return value

    @field_validator("allow", "ask", "deny")
    @classmethod
    def _rules_parse(cls, value: list[str]) -> list[str]:
        from hearth.agent.rules import Rule

        for rule in value:
            Rule.parse(rule)
        return value


def _split_rules(text: str) -> list[str]:
    out, depth, current = [], 0, ""
    for ch in text:
        depth += (ch == "(") - (ch == ")")
        if ch == "," and depth == 0:
            out.append(current)
            current = ""
        else:
            current += ch
    return [*out, current]


# The seeds' variable names, read after HEARTH_* so their users can move over.
SEED_ALIASES = {
    "LLM_URL": "llm_url",
    "LLM_API_KEY": "api_key",
    "LLM_MODEL": "model",
    "WORKSPACE": "workspace",
    "PERMISSION_MODE": "permission_mode",
    "MAX_ITERATIONS": "max_iterations",
    "TEMPERATURE": "temperature",
    "LLM_TIMEOUT": "first_token_timeout",
}


@dataclass(frozen=True)
class LoadedSettings:
    settings: Settings
    sources: dict[str, str]  # field -> where its value came from

    def describe(self) -> list[tuple[str, str, str]]:
        """(name, display value with secrets masked, source) for every setting."""
        rows = []
        for name in Settings.model_fields:
            value = getattr(self.settings, name)
            if isinstance(value, SecretStr):
                shown = mask(value.get_secret_value())
            elif value is None or value == "" or value == []:
                shown = "(blank)"
            elif isinstance(value, list):
                shown = ", ".join(value)
            else:
                shown = str(value.value if hasattr(value, "value") else value)
            rows.append((name, shown, self.sources.get(name, "default")))
        return rows


def mask(secret: str) -> str:
    if not secret:
        return "(blank)"
    return "****" if len(secret) < 12 else f"{secret[:3]}…{secret[-2:]} (masked)"


def user_config_path() -> Path:
    return Path(user_config_dir(APP)) / "config.toml"


def user_data_path() -> Path:
    return Path(user_data_dir(APP))


def project_dir(workspace: Path) -> Path:
    return workspace / ".hearth"


def load_settings(
    flags: Mapping[str, Any] | None = None,
    *,
    environ: Mapping[str, str] | None = None,
    cwd: Path | None = None,
    user_file: Path | None = None,
) -> LoadedSettings:
    env = os.environ if environ is None else environ
    here = cwd or Path.cwd()
    layers: list[tuple[str, dict[str, Any]]] = []
    ufile = user_file if user_file is not None else user_config_path()
    layers.append((str(ufile), _read_toml(ufile)))
    cwd_env = _from_env(_read_dotenv(here / ".env"))
    environment = _from_env(env)
    given = {k: v for k, v in (flags or {}).items() if v is not None}
    # The workspace decides where the project layers live, so settle it first.
    workspace_raw = _first("workspace", given, environment, cwd_env, layers[0][1]) or "."
    workspace = (here / Path(str(workspace_raw)).expanduser()).resolve()
    pfile = project_dir(workspace) / "config.toml"
    layers.append((str(pfile), _read_toml(pfile)))
    layers.append((str(here / ".env"), cwd_env))
    if workspace != here.resolve():
        layers.append((str(workspace / ".env"), _from_env(_read_dotenv(workspace / ".env"))))
    layers.append(("environment", environment))
    layers.append(("command line", given))
    merged: dict[str, Any] = {}
    sources: dict[str, str] = {}
    for source, values in layers:
        for key, value in values.items():
            if key not in Settings.model_fields:
                raise ConfigError(
                    f"Unknown setting {key!r} in {source}.",
                    f"Known settings: {', '.join(Settings.model_fields)}.",
                )
            merged[key] = value
            sources[key] = source
    merged["workspace"] = workspace
    for key, value in list(merged.items()):
        if value == "" and Settings.model_fields[key].annotation not in (str, SecretStr):
            merged[key] = None  # a blank value in .env means "unset"
    try:
        settings = Settings.model_validate(merged)
    except ValidationError as exc:
        err = exc.errors()[0]
        key = str(err["loc"][0]) if err["loc"] else "?"
        raise ConfigError(
            f"Setting {key!r} from {sources.get(key, 'default')} is invalid: {err['msg']} (got {merged.get(key)!r}).",
            "Fix it there, or override it with a flag or HEARTH_" + key.upper() + ".",
        ) from None
    return LoadedSettings(settings, sources)


def _first(key: str, *layers: Mapping[str, Any]) -> Any:
    for layer in layers:
        if layer.get(key) not in (None, ""):
            return layer[key]
    return None


def _read_toml(path: Path) -> dict[str, Any]:
    if not path.is_file():
        return {}
    try:
        with path.open("rb") as fh:
            data = tomllib.load(fh)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(
            f"Cannot read the config file {path}: {exc}", "Fix the TOML syntax or remove the file."
        ) from exc
    return dict(data.get("hearth", data))


def _read_dotenv(path: Path) -> dict[str, str]:
    if not path.is_file():
        return {}
    from dotenv import dotenv_values

    return {k: v for k, v in dotenv_values(path).items() if v is not None}


def _from_env(env: Mapping[str, str]) -> dict[str, Any]:
    """Settings named in an environment mapping (HEARTH_* win over the seeds' names)."""
    out: dict[str, Any] = {}
    for alias, field in SEED_ALIASES.items():
        if alias in env:
            out[field] = env[alias]
    for field in Settings.model_fields:
        key = "HEARTH_" + field.upper()
        if key in env:
            out[field] = env[key]
    return out
