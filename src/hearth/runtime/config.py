"""Settings in layers; the only place settings are read from files and the environment.

`Settings` groups them by concern (model, permissions, agent, sandbox, web, memory, schedule,
bridges, telemetry); users name each by its key, flat as it always was (`HEARTH_LLM_URL`,
`llm_url = ...` in config.toml, `--llm-url`), and `KEYS` says where each lives
(`llm_url` is `settings.model.url`). A group's field has the key as its alias where the two
differ. The process environment is read through `hearth.core.environment`.

Later layers win: defaults, the user's config file, the project's
(`<workspace>/.hearth/config.toml`), `.env` files (current folder, then the
workspace), the environment (`HEARTH_*`, then the seeds' names such as
`LLM_URL`), then command-line flags. Each value remembers where it came from.

A folder's own files (its `.hearth/config.toml` and `.env`) are written by
whoever wrote the folder: a cloned repository, or the model. So they may set
only the settings in `PROJECT_SAFE` (and lower the limits in
`PROJECT_LOWER_ONLY`); everything else (modes, rules, sandbox, network, the
model's URL and key, the model file, checkpoints, and any setting added later)
comes from them only when the user trusted that folder (`runtime.trust`), and
`workspace` never does. What is ignored is returned with the reason, for the
interfaces to show. A `.env` in the current folder belongs to the workspace
when the current folder is inside it, and is its own folder's file otherwise.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, cast

from platformdirs import user_config_dir, user_data_dir
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    SecretStr,
    ValidationError,
    field_validator,
)
from pydantic.fields import FieldInfo

from hearth.agent.modes import PermissionMode
from hearth.core import environment as process_environment
from hearth.core.errors import ConfigError
from hearth.llm.profiles import ToolMode
from hearth.runtime.roles import RoleSettings
from hearth.runtime.shown import shown_value
from hearth.runtime.trust import INSIDE_WORKSPACE, TRUST_FILE, FolderSettings, Ignored, TrustGate, TrustStore

APP = "hearth"

# The embedded models Hearth can assemble and serve (llm/embedded.py has their packages and
# checksums; a test keeps the two lists equal). Named here so reading settings stays cheap.
EmbeddedModelName = Literal["qwen2.5-coder-0.5b", "qwen2.5-coder-1.5b"]


# Rule lists and allow-lists come from the environment as a JSON list or as items separated by
# commas outside parentheses; a config file gives a list.
def _list_from_text(value: Any) -> Any:
    if isinstance(value, str):
        text = value.strip()
        if text.startswith("["):
            return json.loads(text)
        return [r.strip() for r in _split_rules(text) if r.strip()]
    return value


def _parsed_rules(value: list[str]) -> list[str]:
    from hearth.agent.rules import Rule

    for rule in value:
        Rule.parse(rule)
    return value


def _local_origins(value: list[str]) -> list[str]:
    from hearth.sandbox.proxy import local_origin

    for entry in value:
        local_origin(entry)
    return value


Items = Annotated[list[str], BeforeValidator(_list_from_text)]
Rules = Annotated[list[str], BeforeValidator(_list_from_text), AfterValidator(_parsed_rules)]


class Group(BaseModel):
    """A concern's settings. A field's `alias` is its key, the name users set (`HEARTH_<KEY>`,
    `<key> =` in config.toml, flags), where that differs from the field's name in its group."""

    model_config = ConfigDict(extra="forbid", frozen=True, validate_by_name=True, validate_by_alias=True)


class EmbeddedSettings(Group):
    """The model Hearth serves itself when no server is set."""

    name: EmbeddedModelName = Field(
        "qwen2.5-coder-1.5b",
        alias="embedded_model",
        description="Embedded model when no server is set: qwen2.5-coder-0.5b | qwen2.5-coder-1.5b",
    )
    path: Path | None = Field(None, alias="model_path", description="A GGUF file for the embedded server")
    context: int = Field(
        8192, ge=512, alias="embedded_context", description="Context size of the embedded server"
    )
    threads: int = Field(max(1, os.cpu_count() or 1), ge=1, alias="embedded_threads")


class ModelSettings(Group):
    """The model: which server and model, how it is asked, how long Hearth waits, the roles."""

    url: str = Field(
        "",
        alias="llm_url",
        description="OpenAI-compatible server (base or chat-completions URL); blank = embedded model",
    )
    api_key: SecretStr = Field(SecretStr(""), description="API key for the server")
    name: str = Field("", alias="model", description="Model name to request; blank = the server's default")
    temperature: float | None = Field(0.2, description="Sampling temperature; blank = server default")
    tool_mode: ToolMode = Field(
        ToolMode.AUTO,
        description="auto (a probe asks the model) | native | text tool calling | grammar (one JSON "
        "action per reply, held by the server's response_format)",
    )
    profile: Literal["auto", "small", "full"] = Field(
        "auto",
        alias="model_profile",
        description="small: fewer tools, a shorter prompt, one call per reply; auto: by model size",
    )
    context_window: int | None = Field(None, ge=512, description="Context window; blank = ask the server")
    connect_timeout: float = Field(10.0, gt=0)
    first_token_timeout: float = Field(600.0, gt=0, description="Seconds to wait for the first token")
    idle_timeout: float = Field(120.0, gt=0, description="Seconds a stream may stall between chunks")
    retries: int = Field(3, ge=0)
    parallel: int = Field(
        6,
        ge=1,
        alias="model_parallel",
        description="Requests sent to the model server at once, across sessions (a local server runs few)",
    )
    roles: dict[str, RoleSettings] = Field(
        default_factory=dict,
        description="Named roles ([roles.<name>]: model, server, sampling, capability flags)",
    )
    embedded: EmbeddedSettings = Field(default_factory=EmbeddedSettings)

    @field_validator("roles", mode="before")
    @classmethod
    def _roles_json(cls, value: Any) -> Any:
        """From the environment: a JSON object of roles."""
        if isinstance(value, str):
            return json.loads(value) if value.strip() else {}
        return value


class AgentSettings(Group):
    """The loop: how long a task may run, what the model sees, checkpoints, sub-agents."""

    max_iterations: int = Field(50, ge=1, description="Model calls per task before stopping (exit 2)")
    max_seconds: float = Field(3600.0, gt=0, description="Wall-clock limit per task in seconds (exit 2)")
    output_limit: int = Field(16000, ge=1000, description="Characters of tool output the model sees")
    versions: int = Field(
        6,
        ge=0,
        le=8,
        description="A small model's file its checks still fail on: other versions Hearth asks for "
        "and keeps one the checks pass; when none does the turn ends not done (0 = never)",
    )
    tools_on_demand: bool = Field(
        True, description="Send the core tools in full and the others as a catalogue, loaded when asked for"
    )
    checkpoints: bool = Field(True, description="Record the workspace before each changing step (for undo)")
    subagent_depth: int = Field(2, ge=0, le=5, description="How deep sub-agents may delegate (0 = never)")
    subagent_concurrency: int = Field(4, ge=1, le=8, description="Sub-tasks of a decompose run at once")


class PermissionSettings(Group):
    """What runs without asking, what always asks, what never runs."""

    mode: PermissionMode = Field(
        PermissionMode.NORMAL, alias="permission_mode", description="auto | normal | manual | plan"
    )
    allow: Rules = Field(default_factory=list, description="Rules run without asking, e.g. shell(pytest*)")
    ask: Rules = Field(default_factory=list, description="Rules that always ask, e.g. write(src/**)")
    deny: Rules = Field(default_factory=list, description="Rules never run, e.g. shell(rm *)")


class SandboxSettings(Group):
    """Where commands run, what they may reach, and how much they may take."""

    backend: str = Field(
        "auto", alias="sandbox", description="auto | bwrap | landlock | podman | docker | seatbelt | process"
    )
    image: str = Field("", alias="sandbox_image", description="Image for the podman/docker backends")
    network: bool = Field(False, description="Let sandboxed commands use the whole network")
    network_allow: Items = Field(
        default_factory=list, description="Or only these domains, through a checking proxy (bwrap)"
    )
    max_session_write_bytes: int = Field(
        1 << 30,
        ge=0,
        description="How much the workspace may grow on disk in one session (bytes); 0 = no cap",
    )
    max_background_jobs: int = Field(8, ge=1, description="Background shell jobs running at once")


class WebSettings(Group):
    """The web: web_fetch and web_search, and the web UI's own."""

    allow_local: Annotated[Items, AfterValidator(_local_origins)] = Field(
        default_factory=list,
        alias="web_allow_local",
        description='Local origins web_fetch may reach, e.g. ["http://127.0.0.1:8000"] (a dev server)',
    )
    search_provider: str = Field(
        "", description="web_search through: searxng | brave | tavily | duckduckgo; blank = no web_search"
    )
    search_url: str = Field("", description="The SearXNG instance's URL (search_provider = searxng)")
    search_api_key: SecretStr = Field(SecretStr(""), description="Brave or Tavily API key")
    render: bool = Field(
        False,
        alias="web_render",
        description="Offer web_fetch's render option (Chromium through Playwright: hearth[render])",
    )
    browser_path: str = Field("", description="Chromium for web_fetch render; blank = found on PATH")
    transcription_model: str = Field(
        "whisper-1", description="Model for the web UI's voice input (/v1/audio/transcriptions)"
    )
    scheduler: bool = Field(True, alias="web_scheduler", description="`hearth web` runs the scheduler too")

    @field_validator("search_provider")
    @classmethod
    def _search_provider(cls, value: str) -> str:
        value = value.strip().lower()
        if value not in ("", "searxng", "brave", "tavily", "duckduckgo"):
            raise ValueError("search_provider is one of searxng, brave, tavily, duckduckgo (or blank)")
        return value


class MemorySettings(Group):
    """What is offered from memory, and what a session leaves in it."""

    offer_tokens: int = Field(
        400,
        ge=0,
        alias="memory_offer_tokens",
        description="Tokens of relevant memories offered at the start of a task; 0 = none",
    )
    reflect: bool | None = Field(
        None,
        description="After a session that did work, store what it learned (knowledge, mistakes, skills); "
        "unset: on, except for a small model with no summarizer role of its own (it would cost a slow reply)",
    )


class ScheduleSettings(Group):
    """The scheduler, and the queue `hearth worker`s take submitted work from."""

    timezone: str = Field("", description="Time zone of scheduled jobs (IANA name); blank = this machine's")
    poll: float = Field(
        30.0,
        gt=0,
        alias="scheduler_poll",
        description="Seconds between the scheduler's looks at jobs, waits and the inbox",
    )
    parallel: int = Field(2, ge=1, alias="scheduler_parallel", description="Scheduled runs worked at once")
    queue_url: str = Field(
        "",
        description="postgresql://... : queue submitted work for `hearth worker`s; blank = embedded SQLite",
    )
    worker_dir: Path | None = Field(
        None,
        description="Where `hearth worker` clones the git remotes jobs name (blank: the user's data folder)",
    )


class TelegramSettings(Group):
    token: SecretStr = Field(
        SecretStr(""), alias="telegram_token", description="Telegram bot token (from @BotFather)"
    )
    api: str = Field(
        "https://api.telegram.org", alias="telegram_api", description="Telegram Bot API base URL"
    )
    allow: Items = Field(
        default_factory=list,
        alias="telegram_allow",
        description="Telegram user ids (digits; never @usernames) the bridge answers",
    )
    ask_approvals: bool = Field(
        False, alias="telegram_ask_approvals", description="Ask approvals in the Telegram chat (off: refused)"
    )


class SmsSettings(Group):
    """SMS through Twilio."""

    auth_token: SecretStr = Field(
        SecretStr(""), alias="twilio_auth_token", description="Twilio auth token (checks webhook signatures)"
    )
    account_sid: str = Field(
        "", alias="twilio_account_sid", description="Twilio account SID (for sending SMS replies)"
    )
    api: str = Field("https://api.twilio.com", alias="twilio_api", description="Twilio REST API base URL")
    public_url: str = Field(
        "", alias="twilio_public_url", description="The webhook URL as Twilio calls it (signatures cover it)"
    )
    allow: Items = Field(
        default_factory=list, alias="sms_allow", description="Phone numbers the SMS bridge answers"
    )
    ask_approvals: bool = Field(
        False, alias="sms_ask_approvals", description="Ask approvals by SMS (off: refused)"
    )


class WhatsAppSettings(Group):
    """WhatsApp through Green API."""

    instance: str = Field(
        "", alias="whatsapp_instance", description="Green API instance id (WhatsApp bridge)"
    )
    token: SecretStr = Field(SecretStr(""), alias="whatsapp_token", description="Green API instance token")
    api: str = Field("https://api.green-api.com", alias="whatsapp_api", description="Green API base URL")
    allow: Items = Field(
        default_factory=list,
        alias="whatsapp_allow",
        description="Phone numbers (the sender id) the WhatsApp bridge answers",
    )
    ask_approvals: bool = Field(
        False, alias="whatsapp_ask_approvals", description="Ask approvals in the WhatsApp chat (off: refused)"
    )


class DiscordSettings(Group):
    token: SecretStr = Field(
        SecretStr(""), alias="discord_token", description="Discord bot token (sends the replies)"
    )
    application_id: str = Field(
        "", alias="discord_application_id", description="Discord application id (its slash commands)"
    )
    public_key: str = Field(
        "",
        alias="discord_public_key",
        description="Discord application's public key (hex; checks each interaction's signature)",
    )
    api: str = Field(
        "https://discord.com/api/v10", alias="discord_api", description="Discord HTTP API base URL"
    )
    allow: Items = Field(
        default_factory=list,
        alias="discord_allow",
        description="Discord user ids (digits; never names) the bridge answers",
    )
    ask_approvals: bool = Field(
        False,
        alias="discord_ask_approvals",
        description="Ask approvals in the Discord channel (off: refused)",
    )


class BridgeSettings(Group):
    """The chat bridges: each platform's credentials, who it answers, whether it asks approvals."""

    telegram: TelegramSettings = Field(default_factory=TelegramSettings)
    sms: SmsSettings = Field(default_factory=SmsSettings)
    whatsapp: WhatsAppSettings = Field(default_factory=WhatsAppSettings)
    discord: DiscordSettings = Field(default_factory=DiscordSettings)
    approval_timeout: float = Field(
        300.0,
        gt=0,
        alias="bridge_approval_timeout",
        description="Seconds a bridge waits for a yes or no in the chat before refusing",
    )


class TelemetrySettings(Group):
    """Logs and traces."""

    log_level: Literal["debug", "info", "warning", "error", "off"] = Field(
        "info", description="How much goes to the log file (JSON Lines, secrets masked)"
    )
    log_file: str = Field(
        "", description="The log file; blank = logs/hearth.log in the workspace's state folder"
    )
    otel_endpoint: str = Field(
        "",
        description=(
            "OTLP/HTTP endpoint for OpenTelemetry traces, e.g. http://127.0.0.1:4318 "
            "(needs pip install 'hearth[otel]'); blank = none"
        ),
    )


class Settings(BaseModel):
    """Every setting, grouped by concern. Users name each by its key (`KEYS`); `from_keys` builds
    the groups from those names, `get` reads one, `replace` changes some."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    workspace: Path = Field(Path("."), description="Folder the agent works in")
    model: ModelSettings = Field(default_factory=ModelSettings)
    permissions: PermissionSettings = Field(default_factory=PermissionSettings)
    agent: AgentSettings = Field(default_factory=AgentSettings)
    sandbox: SandboxSettings = Field(default_factory=SandboxSettings)
    web: WebSettings = Field(default_factory=WebSettings)
    memory: MemorySettings = Field(default_factory=MemorySettings)
    schedule: ScheduleSettings = Field(default_factory=ScheduleSettings)
    bridges: BridgeSettings = Field(default_factory=BridgeSettings)
    telemetry: TelemetrySettings = Field(default_factory=TelemetrySettings)

    @classmethod
    def from_keys(cls, values: Mapping[str, Any] | None = None, /, **keys: Any) -> Settings:
        """Settings from values named by their keys (`llm_url`, `sandbox`, ...), validated."""
        nested: dict[str, Any] = {}
        for key, value in {**(values or {}), **keys}.items():
            if key not in KEYS:
                raise ConfigError(f"Unknown setting {key!r}.", f"Known settings: {', '.join(KEYS)}.")
            *groups, _ = KEYS[key]
            into = nested
            for group in groups:
                into = into.setdefault(group, {})
            into[key] = value  # by its key: the groups validate by alias, and errors name the key
        return cls.model_validate(nested)

    def get(self, key: str) -> Any:
        """The value of the setting users call `key`."""
        value: Any = self
        for name in KEYS[key]:
            value = getattr(value, name)
        return value

    def replace(self, **keys: Any) -> Settings:
        """A copy with the settings named by their keys changed (not validated again, like
        `model_copy`)."""
        return cast(Settings, _replaced(self, [(KEYS[key], value) for key, value in keys.items()]))


def _replaced(model: BaseModel, changes: list[tuple[tuple[str, ...], Any]]) -> BaseModel:
    update: dict[str, Any] = {path[0]: value for path, value in changes if len(path) == 1}
    deeper: dict[str, list[tuple[tuple[str, ...], Any]]] = {}
    for path, value in changes:
        if len(path) > 1:
            deeper.setdefault(path[0], []).append((path[1:], value))
    for name, inner in deeper.items():
        update[name] = _replaced(getattr(model, name), inner)
    return model.model_copy(update=update)


def _leaves(
    model: type[BaseModel], path: tuple[str, ...] = ()
) -> Iterator[tuple[str, tuple[str, ...], FieldInfo]]:
    for name, field in model.model_fields.items():
        inner = field.annotation
        if isinstance(inner, type) and issubclass(inner, BaseModel):
            yield from _leaves(inner, (*path, name))
        else:
            yield field.alias or name, (*path, name), field


# Every setting by its key (the name users set): where it lives in `Settings`, and its field.
KEYS: dict[str, tuple[str, ...]] = {key: path for key, path, _ in _leaves(Settings)}
FIELDS: dict[str, FieldInfo] = {key: field for key, _, field in _leaves(Settings)}


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


PROJECT_FILES = (".hearth/config.toml", ".env")


def folder_settings(folder: Path) -> FolderSettings:
    folder = folder.resolve()
    toml = folder / PROJECT_FILES[0]
    dotenv = folder / PROJECT_FILES[1]
    return FolderSettings(
        folder, ((str(toml), _read_toml(toml)), (str(dotenv), _from_env(_read_dotenv(dotenv))))
    )


def trust_store(user_file: Path | None = None) -> TrustStore:
    return TrustStore((user_file or user_config_path()).parent / TRUST_FILE)


@dataclass(frozen=True)
class LoadedSettings:
    settings: Settings
    sources: dict[str, str]  # field -> where its value came from
    ignored: tuple[Ignored, ...] = ()  # settings from folders' own files that were not used
    untrusted: tuple[Path, ...] = ()  # folders whose settings `hearth trust` would let through

    def ignored_report(self) -> list[str]:
        """Lines that say what was ignored, why, and how to use it."""
        lines = [f"ignored {item}" for item in self.ignored]
        lines += [
            f"to use {folder}'s settings, review them and run: hearth trust {folder}"
            for folder in self.untrusted
        ]
        return lines

    def describe(self) -> list[tuple[str, str, str]]:
        """(name, display value with secrets masked, source) for every setting."""
        rows = []
        for key in KEYS:
            value = self.settings.get(key)
            rows.append((key, shown_value(key, value), self.sources.get(key, "default")))
        return rows


def user_config_path() -> Path:
    return Path(user_config_dir(APP)) / "config.toml"


def user_data_path() -> Path:
    return Path(user_data_dir(APP))


def state_dir(workspace: Path) -> Path:
    """The folder holding Hearth's own state for `workspace` (sessions, logs, checkpoints, the
    scheduler's inbox and lock, archives, patches, reports, project memory), created 0700 on first
    use. It is in the user's data folder, keyed by the workspace's canonical path, never inside the
    workspace: whatever a sandboxed command or a cloned repository writes there is not Hearth's.
    A `where.json` in it names the workspace, so a person can find which folder is whose."""
    folder = state_location(workspace)
    if not folder.is_dir() or folder.is_symlink():
        _make_private(folder)
    where = folder / "where.json"
    if not where.exists():
        real = os.path.realpath(workspace)
        where.write_text(json.dumps({"workspace": real}, indent=2) + "\n", encoding="utf-8")
    return folder


def state_location(workspace: Path) -> Path:
    """Where `state_dir` is, without creating it (for tools that only look)."""
    return user_data_path() / "workspaces" / state_key(workspace)


def state_key(workspace: Path) -> str:
    """The name of a workspace's state folder: its folder's name (readable) and a hash of its
    canonical path (unique)."""
    real = os.path.realpath(workspace)
    digest = hashlib.sha256(os.fsencode(real)).hexdigest()[:16]
    name = re.sub(r"[^A-Za-z0-9._-]+", "_", os.path.basename(real)).strip("._")[:40] or "root"
    return f"{name}-{digest}"


def _make_private(folder: Path) -> None:
    """Create `folder` (and missing parents) readable only by the user; refuse a symlink, since
    the data folder can lie inside a workspace (one opened at the home folder)."""
    for path in (*reversed(folder.parents[:2]), folder):
        try:
            os.mkdir(path, 0o700)
        except FileExistsError:
            if path.is_symlink() or not path.is_dir():
                raise ConfigError(
                    f"Hearth's state folder {path} is not a plain folder (a symlink?).",
                    "Move it away; Hearth then creates a new one.",
                ) from None
        except FileNotFoundError:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            os.mkdir(path, 0o700)


def load_settings(
    flags: Mapping[str, Any] | None = None,
    *,
    environ: Mapping[str, str] | None = None,
    cwd: Path | None = None,
    user_file: Path | None = None,
) -> LoadedSettings:
    env = process_environment.variables() if environ is None else environ
    here = (cwd or Path.cwd()).resolve()
    layers: list[tuple[str, dict[str, Any]]] = []
    ufile = user_file if user_file is not None else user_config_path()
    user = _read_toml(ufile)
    layers.append((str(ufile), user))
    environment = _from_env(env)
    given = {k: v for k, v in (flags or {}).items() if v is not None}
    # The workspace decides where the project layers live, so settle it first: from the user's
    # own layers only (a file in a folder could otherwise move the next run anywhere).
    workspace_raw = _first("workspace", given, environment, user) or "."
    workspace = (here / Path(str(workspace_raw)).expanduser()).resolve()
    gate = TrustGate(trust_store(ufile), user, FIELDS)
    if Path(os.path.realpath(ufile)).is_relative_to(workspace):  # e.g. working in $HOME
        layers[0] = gate.admit(layers[0], INSIDE_WORKSPACE)
        gate.user = layers[0][1]
    project = folder_settings(workspace)
    trusted = gate.check(project)
    layers.append(gate.admit(project.layers[0], trusted, project))
    if here != workspace and here.is_relative_to(workspace):
        below = (str(here / ".env"), _from_env(_read_dotenv(here / ".env")))
        layers.append(gate.admit(below, "a .env below the workspace's top folder never sets these"))
    elif here != workspace:
        own = folder_settings(here)  # the current folder's .env: trusted as its own folder
        layers.append(gate.admit(own.layers[1], gate.check(own), own))
    layers.append(gate.admit(project.layers[1], trusted, project))
    layers.append(("environment", environment))
    layers.append(("command line", given))
    merged: dict[str, Any] = {}
    sources: dict[str, str] = {}
    for source, values in layers:
        for key, value in values.items():
            if key not in KEYS:
                raise ConfigError(
                    f"Unknown setting {key!r} in {source}.", f"Known settings: {', '.join(KEYS)}."
                )
            merged[key] = value
            sources[key] = source
    merged["workspace"] = workspace
    for key, value in list(merged.items()):
        if value == "" and FIELDS[key].annotation not in (str, SecretStr):
            merged[key] = None  # a blank value in .env means "unset"
    try:
        settings = Settings.from_keys(merged)
    except ValidationError as exc:
        err = exc.errors()[0]
        key = _key_at(err["loc"])
        raise ConfigError(
            f"Setting {key!r} from {sources.get(key, 'default')} is invalid: {err['msg']} (got {merged.get(key)!r}).",
            "Fix it there, or override it with a flag or HEARTH_" + key.upper() + ".",
        ) from None
    return LoadedSettings(settings, sources, tuple(gate.ignored), tuple(gate.untrusted))


def _key_at(loc: tuple[int | str, ...]) -> str:
    """The key of the setting a validation error's location points into (groups are named by
    their field names, settings by their keys)."""
    model: type[BaseModel] = Settings
    for part in loc:
        for name, field in model.model_fields.items():
            if part in (name, field.alias):
                inner = field.annotation
                if not (isinstance(inner, type) and issubclass(inner, BaseModel)):
                    return field.alias or name
                model = inner
                break
        else:
            break
    return "?"


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

    # Never interpolated: `${HEARTH_API_KEY}` in a folder's .env would copy a secret from the
    # process environment into a setting the folder may set (and from there into requests).
    return {k: v for k, v in dotenv_values(path, interpolate=False).items() if v is not None}


def _from_env(env: Mapping[str, str]) -> dict[str, Any]:
    """Settings named in an environment mapping (HEARTH_* win over the seeds' names)."""
    out: dict[str, Any] = {}
    for alias, field in SEED_ALIASES.items():
        if alias in env:
            out[field] = env[alias]
    for key in KEYS:
        name = "HEARTH_" + key.upper()
        if name in env:
            out[key] = env[name]
    return out


def workspace_from_environment(environ: Mapping[str, str] | None = None) -> bool:
    """True when the environment names the workspace (HEARTH_WORKSPACE, or the seeds' WORKSPACE)."""
    env = process_environment.variables() if environ is None else environ
    names = ["HEARTH_WORKSPACE", *(alias for alias, key in SEED_ALIASES.items() if key == "workspace")]
    return any(env.get(name) for name in names)
