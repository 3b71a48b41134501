"""Settings in layers; the only place environment variables and files are read.

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
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from platformdirs import user_config_dir, user_data_dir
from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError, field_validator

from hearth.agent.modes import PermissionMode
from hearth.core.errors import ConfigError
from hearth.llm.profiles import ToolMode
from hearth.runtime.roles import RoleSettings
from hearth.runtime.shown import shown_value
from hearth.runtime.trust import INSIDE_WORKSPACE, TRUST_FILE, FolderSettings, Ignored, TrustGate, TrustStore

APP = "hearth"

# The embedded models Hearth can assemble and serve (llm/embedded.py has their packages and
# checksums; a test keeps the two lists equal). Named here so reading settings stays cheap.
EmbeddedModelName = Literal["qwen2.5-coder-0.5b", "qwen2.5-coder-1.5b"]


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
        ToolMode.AUTO,
        description="auto (a probe asks the model) | native | text tool calling | grammar (one JSON "
        "action per reply, held by the server's response_format)",
    )
    model_profile: Literal["auto", "small", "full"] = Field(
        "auto", description="small: fewer tools, a shorter prompt, one call per reply; auto: by model size"
    )
    tools_on_demand: bool = Field(
        True, description="Send the core tools in full and the others as a catalogue, loaded when asked for"
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
    embedded_model: EmbeddedModelName = Field(
        "qwen2.5-coder-0.5b",
        description="Embedded model when no server is set: qwen2.5-coder-0.5b | qwen2.5-coder-1.5b",
    )
    embedded_context: int = Field(8192, ge=512, description="Context size of the embedded server")
    embedded_threads: int = Field(max(1, os.cpu_count() or 1), ge=1)
    sandbox: str = Field("auto", description="auto | bwrap | landlock | podman | docker | seatbelt | process")
    sandbox_image: str = Field("", description="Image for the podman/docker backends")
    network: bool = Field(False, description="Let sandboxed commands use the whole network")
    network_allow: list[str] = Field(
        default_factory=list, description="Or only these domains, through a checking proxy (bwrap)"
    )
    web_allow_local: list[str] = Field(
        default_factory=list,
        description='Local origins web_fetch may reach, e.g. ["http://127.0.0.1:8000"] (a dev server)',
    )
    search_provider: str = Field(
        "", description="web_search through: searxng | brave | tavily | duckduckgo; blank = no web_search"
    )
    search_url: str = Field("", description="The SearXNG instance's URL (search_provider = searxng)")
    search_api_key: SecretStr = Field(SecretStr(""), description="Brave or Tavily API key")
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
    transcription_model: str = Field(
        "whisper-1", description="Model for the web UI's voice input (/v1/audio/transcriptions)"
    )
    web_render: bool = Field(
        False, description="Offer web_fetch's render option (Chromium through Playwright: hearth[render])"
    )
    browser_path: str = Field("", description="Chromium for web_fetch render; blank = found on PATH")
    max_session_write_bytes: int = Field(
        1 << 30,
        ge=0,
        description="How much the workspace may grow on disk in one session (bytes); 0 = no cap",
    )
    max_background_jobs: int = Field(8, ge=1, description="Background shell jobs running at once")
    checkpoints: bool = Field(True, description="Record the workspace before each changing step (for undo)")
    memory_offer_tokens: int = Field(
        400, ge=0, description="Tokens of relevant memories offered at the start of a task; 0 = none"
    )
    reflect: bool | None = Field(
        None,
        description="After a session that did work, store what it learned (knowledge, mistakes, skills); "
        "unset: on, except for a small model with no summarizer role of its own (it would cost a slow reply)",
    )
    allow: list[str] = Field(
        default_factory=list, description="Rules run without asking, e.g. shell(pytest*)"
    )
    ask: list[str] = Field(default_factory=list, description="Rules that always ask, e.g. write(src/**)")
    deny: list[str] = Field(default_factory=list, description="Rules never run, e.g. shell(rm *)")
    roles: dict[str, RoleSettings] = Field(
        default_factory=dict,
        description="Named roles ([roles.<name>]: model, server, sampling, capability flags)",
    )
    subagent_depth: int = Field(2, ge=0, le=5, description="How deep sub-agents may delegate (0 = never)")
    subagent_concurrency: int = Field(4, ge=1, le=8, description="Sub-tasks of a decompose run at once")

    @field_validator("roles", mode="before")
    @classmethod
    def _roles_json(cls, value: Any) -> Any:
        """From the environment: a JSON object of roles."""
        if isinstance(value, str):
            return json.loads(value) if value.strip() else {}
        return value

    timezone: str = Field("", description="Time zone of scheduled jobs (IANA name); blank = this machine's")
    scheduler_poll: float = Field(
        30.0, gt=0, description="Seconds between the scheduler's looks at jobs, waits and the inbox"
    )
    scheduler_parallel: int = Field(2, ge=1, description="Scheduled runs worked at once")
    web_scheduler: bool = Field(True, description="`hearth web` runs the scheduler too")
    queue_url: str = Field(
        "",
        description="postgresql://... : queue submitted work for `hearth worker`s; blank = embedded SQLite",
    )
    telegram_token: SecretStr = Field(SecretStr(""), description="Telegram bot token (from @BotFather)")
    telegram_api: str = Field("https://api.telegram.org", description="Telegram Bot API base URL")
    telegram_allow: list[str] = Field(
        default_factory=list, description="Telegram user ids (digits; never @usernames) the bridge answers"
    )
    twilio_auth_token: SecretStr = Field(
        SecretStr(""), description="Twilio auth token (checks webhook signatures)"
    )
    twilio_account_sid: str = Field("", description="Twilio account SID (for sending SMS replies)")
    twilio_api: str = Field("https://api.twilio.com", description="Twilio REST API base URL")
    twilio_public_url: str = Field("", description="The webhook URL as Twilio calls it (signatures cover it)")
    sms_allow: list[str] = Field(default_factory=list, description="Phone numbers the SMS bridge answers")
    whatsapp_instance: str = Field("", description="Green API instance id (WhatsApp bridge)")
    whatsapp_token: SecretStr = Field(SecretStr(""), description="Green API instance token")
    whatsapp_api: str = Field("https://api.green-api.com", description="Green API base URL")
    whatsapp_allow: list[str] = Field(
        default_factory=list, description="Phone numbers (the sender id) the WhatsApp bridge answers"
    )
    discord_token: SecretStr = Field(SecretStr(""), description="Discord bot token (sends the replies)")
    discord_application_id: str = Field("", description="Discord application id (its slash commands)")
    discord_public_key: str = Field(
        "", description="Discord application's public key (hex; checks each interaction's signature)"
    )
    discord_api: str = Field("https://discord.com/api/v10", description="Discord HTTP API base URL")
    discord_allow: list[str] = Field(
        default_factory=list, description="Discord user ids (digits; never names) the bridge answers"
    )
    telegram_ask_approvals: bool = Field(
        False, description="Ask approvals in the Telegram chat (off: refused)"
    )
    sms_ask_approvals: bool = Field(False, description="Ask approvals by SMS (off: refused)")
    whatsapp_ask_approvals: bool = Field(
        False, description="Ask approvals in the WhatsApp chat (off: refused)"
    )
    discord_ask_approvals: bool = Field(
        False, description="Ask approvals in the Discord channel (off: refused)"
    )
    bridge_approval_timeout: float = Field(
        300.0, gt=0, description="Seconds a bridge waits for a yes or no in the chat before refusing"
    )
    worker_dir: Path | None = Field(
        None,
        description="Where `hearth worker` clones the git remotes jobs name (blank: the user's data folder)",
    )

    @field_validator(
        "allow",
        "ask",
        "deny",
        "network_allow",
        "web_allow_local",
        "telegram_allow",
        "sms_allow",
        "whatsapp_allow",
        "discord_allow",
        mode="before",
    )
    @classmethod
    def _rule_list(cls, value: Any) -> Any:
        """From the environment: a JSON list, or rules separated by commas outside parentheses."""
        if isinstance(value, str):
            text = value.strip()
            if text.startswith("["):
                return json.loads(text)
            return [r.strip() for r in _split_rules(text) if r.strip()]
        return value

    @field_validator("web_allow_local")
    @classmethod
    def _local_origins(cls, value: list[str]) -> list[str]:
        from hearth.sandbox.proxy import local_origin

        for entry in value:
            local_origin(entry)
        return value

    @field_validator("search_provider")
    @classmethod
    def _search_provider(cls, value: str) -> str:
        value = value.strip().lower()
        if value not in ("", "searxng", "brave", "tavily", "duckduckgo"):
            raise ValueError("search_provider is one of searxng, brave, tavily, duckduckgo (or blank)")
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
        for name in Settings.model_fields:
            value = getattr(self.settings, name)
            rows.append((name, shown_value(name, value), self.sources.get(name, "default")))
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
    env = os.environ if environ is None else environ
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
    gate = TrustGate(trust_store(ufile), user, Settings.model_fields)
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
    return LoadedSettings(settings, sources, tuple(gate.ignored), tuple(gate.untrusted))


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
    for field in Settings.model_fields:
        key = "HEARTH_" + field.upper()
        if key in env:
            out[field] = env[key]
    return out
