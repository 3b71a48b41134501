"""Every name a user sets today keeps working: each setting's HEARTH_ variable, its key in a
config.toml, in a trusted workspace's .env, as a command-line flag's value, and the seeds' older
names; `hearth config` shows each value where it arrived, secrets masked.

The list below is the names as users write them; how `Settings` holds them inside may change, but
a name here may not disappear or change its meaning (a new setting is added here too)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from hearth.runtime.config import folder_settings, load_settings, trust_store
from support import clean_env

# name -> (as written in the environment or a .env, as a TOML value, as `hearth config` shows it);
# none of them the default. `workspace` is set apart: it is a folder, and never from a folder's files.
NAMES: dict[str, tuple[str, str, str]] = {
    "llm_url": ("http://127.0.0.1:9/v1", '"http://127.0.0.1:9/v1"', "http://127.0.0.1:9/v1"),
    "api_key": ("sk-test-abcdefghijklmnop", '"sk-test-abcdefghijklmnop"', "sk-…op (masked)"),
    "model": ("named-model", '"named-model"', "named-model"),
    "permission_mode": ("auto", '"auto"', "auto"),
    "max_iterations": ("7", "7", "7"),
    "max_seconds": ("99.5", "99.5", "99.5"),
    "temperature": ("0.7", "0.7", "0.7"),
    "tool_mode": ("grammar", '"grammar"', "grammar"),
    "model_profile": ("small", '"small"', "small"),
    "tools_on_demand": ("false", "false", "False"),
    "context_window": ("4096", "4096", "4096"),
    "connect_timeout": ("3.5", "3.5", "3.5"),
    "first_token_timeout": ("45.0", "45.0", "45.0"),
    "idle_timeout": ("12.0", "12.0", "12.0"),
    "retries": ("1", "1", "1"),
    "model_parallel": ("2", "2", "2"),
    "output_limit": ("2000", "2000", "2000"),
    "versions": ("1", "1", "1"),
    "model_path": ("/opt/models/m.gguf", '"/opt/models/m.gguf"', "/opt/models/m.gguf"),
    "embedded_model": ("qwen2.5-coder-1.5b", '"qwen2.5-coder-1.5b"', "qwen2.5-coder-1.5b"),
    "embedded_context": ("1024", "1024", "1024"),
    "embedded_threads": ("3", "3", "3"),
    "sandbox": ("process", '"process"', "process"),
    "sandbox_image": (
        "docker.io/library/python:3.12",
        '"docker.io/library/python:3.12"',
        "docker.io/library/python:3.12",
    ),
    "network": ("true", "true", "True"),
    "network_allow": (
        "pypi.org,files.pythonhosted.org",
        '["pypi.org", "files.pythonhosted.org"]',
        "pypi.org, files.pythonhosted.org",
    ),
    "web_allow_local": ("http://127.0.0.1:8000", '["http://127.0.0.1:8000"]', "http://127.0.0.1:8000"),
    "search_provider": ("searxng", '"searxng"', "searxng"),
    "search_url": ("http://127.0.0.1:8888", '"http://127.0.0.1:8888"', "http://127.0.0.1:8888"),
    "search_api_key": ("brave-key-abcdefghijkl", '"brave-key-abcdefghijkl"', "bra…kl (masked)"),
    "log_level": ("debug", '"debug"', "debug"),
    "log_file": ("/var/tmp/hearth-test.log", '"/var/tmp/hearth-test.log"', "/var/tmp/hearth-test.log"),
    "otel_endpoint": ("http://127.0.0.1:4318", '"http://127.0.0.1:4318"', "http://127.0.0.1:4318"),
    "transcription_model": ("whisper-large", '"whisper-large"', "whisper-large"),
    "web_render": ("true", "true", "True"),
    "browser_path": ("/opt/chromium/chrome", '"/opt/chromium/chrome"', "/opt/chromium/chrome"),
    "max_session_write_bytes": ("1048576", "1048576", "1048576"),
    "max_background_jobs": ("3", "3", "3"),
    "checkpoints": ("false", "false", "False"),
    "memory_offer_tokens": ("100", "100", "100"),
    "reflect": ("false", "false", "False"),
    "allow": (
        "shell(pytest*),read(docs/**)",
        '["shell(pytest*)", "read(docs/**)"]',
        "shell(pytest*), read(docs/**)",
    ),
    "ask": ("write(src/**)", '["write(src/**)"]', "write(src/**)"),
    "deny": ("shell(rm *)", '["shell(rm *)"]', "shell(rm *)"),
    "roles": (
        '{"summarizer": {"model": "small-model"}}',
        '{ summarizer = { model = "small-model" } }',
        "summarizer: model=small-model, api_key=(blank)",
    ),
    "subagent_depth": ("1", "1", "1"),
    "subagent_concurrency": ("2", "2", "2"),
    "timezone": ("Europe/Berlin", '"Europe/Berlin"', "Europe/Berlin"),
    "scheduler_poll": ("5.0", "5.0", "5.0"),
    "scheduler_parallel": ("3", "3", "3"),
    "web_scheduler": ("false", "false", "False"),
    "queue_url": (
        "postgresql://127.0.0.1:5432/hearth",
        '"postgresql://127.0.0.1:5432/hearth"',
        "postgresql://127.0.0.1:5432/hearth",
    ),
    "telegram_token": ("123456:telegram-token-abcdef", '"123456:telegram-token-abcdef"', "123…ef (masked)"),
    "telegram_api": ("http://127.0.0.1:8081", '"http://127.0.0.1:8081"', "http://127.0.0.1:8081"),
    "telegram_allow": ("11111,22222", '["11111", "22222"]', "11111, 22222"),
    "twilio_auth_token": ("twilio-auth-abcdefghij", '"twilio-auth-abcdefghij"', "twi…ij (masked)"),
    "twilio_account_sid": ("AC0123456789", '"AC0123456789"', "AC0123456789"),
    "twilio_api": ("http://127.0.0.1:8082", '"http://127.0.0.1:8082"', "http://127.0.0.1:8082"),
    "twilio_public_url": (
        "https://example.org/hooks/sms",
        '"https://example.org/hooks/sms"',
        "https://example.org/hooks/sms",
    ),
    "sms_allow": ("+15550001111", '["+15550001111"]', "+15550001111"),
    "whatsapp_instance": ("1101000001", '"1101000001"', "1101000001"),
    "whatsapp_token": ("green-api-token-abcdef", '"green-api-token-abcdef"', "gre…ef (masked)"),
    "whatsapp_api": ("http://127.0.0.1:8083", '"http://127.0.0.1:8083"', "http://127.0.0.1:8083"),
    "whatsapp_allow": ("15550002222", '["15550002222"]', "15550002222"),
    "discord_token": ("discord-bot-token-abcdef", '"discord-bot-token-abcdef"', "dis…ef (masked)"),
    "discord_application_id": ("998877665544", '"998877665544"', "998877665544"),
    "discord_public_key": (
        "abababababababababababababababababababababababababababababababab",
        '"abababababababababababababababababababababababababababababababab"',
        "abababababababababababababababababababababababababababababababab",
    ),
    "discord_api": (
        "http://127.0.0.1:8084/api/v10",
        '"http://127.0.0.1:8084/api/v10"',
        "http://127.0.0.1:8084/api/v10",
    ),
    "discord_allow": ("33333,44444", '["33333", "44444"]', "33333, 44444"),
    "telegram_ask_approvals": ("true", "true", "True"),
    "sms_ask_approvals": ("true", "true", "True"),
    "whatsapp_ask_approvals": ("true", "true", "True"),
    "discord_ask_approvals": ("true", "true", "True"),
    "bridge_approval_timeout": ("60.0", "60.0", "60.0"),
    "worker_dir": ("/var/tmp/hearth-workers", '"/var/tmp/hearth-workers"', "/var/tmp/hearth-workers"),
}

# The seeds' variable names, read after HEARTH_* ones.
SEED_NAMES = {
    "LLM_URL": "llm_url",
    "LLM_API_KEY": "api_key",
    "LLM_MODEL": "model",
    "WORKSPACE": "workspace",
    "PERMISSION_MODE": "permission_mode",
    "MAX_ITERATIONS": "max_iterations",
    "TEMPERATURE": "temperature",
    "LLM_TIMEOUT": "first_token_timeout",
}
SECRETS = (
    "api_key",
    "search_api_key",
    "telegram_token",
    "twilio_auth_token",
    "whatsapp_token",
    "discord_token",
)


def _user_file(tmp_path: Path) -> Path:
    return tmp_path / "user" / "config.toml"


def _shown(tmp_path: Path, **how: object) -> dict[str, tuple[str, str]]:
    """name -> (shown value, source) as `hearth config` lists them."""
    loaded = load_settings(cwd=tmp_path / "ws", user_file=_user_file(tmp_path), **how)  # type: ignore[arg-type]
    return {name: (shown, source) for name, shown, source in loaded.describe()}


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    (tmp_path / "ws").mkdir()
    (tmp_path / "user").mkdir()
    return tmp_path / "ws"


def test_the_list_is_every_setting(ws: Path, tmp_path: Path) -> None:
    assert set(_shown(tmp_path, environ={})) == {*NAMES, "workspace"}


def test_each_name_arrives_from_the_environment(ws: Path, tmp_path: Path) -> None:
    env = {f"HEARTH_{name.upper()}": text for name, (text, _, _) in NAMES.items()}
    other = tmp_path / "other"
    other.mkdir()
    rows = _shown(tmp_path, environ={**env, "HEARTH_WORKSPACE": str(other)})
    assert {n: rows[n] for n in NAMES} == {n: (shown, "environment") for n, (_, _, shown) in NAMES.items()}
    assert rows["workspace"] == (str(other.resolve()), "environment")


def test_each_name_arrives_from_the_user_config_file(ws: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    other.mkdir()
    lines = [f"{name} = {toml}" for name, (_, toml, _) in NAMES.items()]
    _user_file(tmp_path).write_text("\n".join([f"workspace = {str(other)!r}", *lines]) + "\n")
    rows = _shown(tmp_path, environ={})
    source = str(_user_file(tmp_path))
    assert {n: rows[n] for n in NAMES} == {n: (shown, source) for n, (_, _, shown) in NAMES.items()}
    assert rows["workspace"] == (str(other.resolve()), source)


def test_each_name_arrives_from_the_users_config_under_a_hearth_table(ws: Path, tmp_path: Path) -> None:
    lines = [f"{name} = {toml}" for name, (_, toml, _) in NAMES.items()]
    _user_file(tmp_path).write_text("[hearth]\n" + "\n".join(lines) + "\n")
    rows = _shown(tmp_path, environ={})
    assert {n: rows[n][0] for n in NAMES} == {n: shown for n, (_, _, shown) in NAMES.items()}


def test_each_name_arrives_from_a_trusted_workspaces_files(ws: Path, tmp_path: Path) -> None:
    """The project's config.toml and .env (once the user trusted the folder; workspace never)."""
    names = list(NAMES)
    half = len(names) // 2
    (ws / ".hearth").mkdir()
    (ws / ".hearth" / "config.toml").write_text("".join(f"{n} = {NAMES[n][1]}\n" for n in names[:half]))
    (ws / ".env").write_text("".join(f"HEARTH_{n.upper()}='{NAMES[n][0]}'\n" for n in names[half:]))
    folder = folder_settings(ws)
    trust_store(_user_file(tmp_path)).record(
        ws, folder.fingerprint, [n for _, n, _ in folder.needing_trust()]
    )
    loaded = load_settings(cwd=ws, environ={}, user_file=_user_file(tmp_path))
    assert loaded.ignored == ()
    rows = {name: (shown, source) for name, shown, source in loaded.describe()}
    toml, dotenv = str(ws.resolve() / ".hearth" / "config.toml"), str(ws.resolve() / ".env")
    assert {n: rows[n] for n in names[:half]} == {n: (NAMES[n][2], toml) for n in names[:half]}
    assert {n: rows[n] for n in names[half:]} == {n: (NAMES[n][2], dotenv) for n in names[half:]}


def test_each_name_arrives_as_a_flag(ws: Path, tmp_path: Path) -> None:
    """What the command line passes (`--llm-url`, `--permission`, ... end up as these names)."""
    flags = {name: text for name, (text, _, _) in NAMES.items()}
    rows = _shown(tmp_path, flags=flags, environ={"HEARTH_MODEL": "loses-to-the-flag"})
    assert {n: rows[n] for n in NAMES} == {n: (shown, "command line") for n, (_, _, shown) in NAMES.items()}


def test_the_seeds_names_still_arrive(ws: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    other.mkdir()
    env = {seed: NAMES[name][0] for seed, name in SEED_NAMES.items() if name in NAMES}
    rows = _shown(tmp_path, environ={**env, "WORKSPACE": str(other)})
    for seed, name in SEED_NAMES.items():
        expected = str(other.resolve()) if name == "workspace" else NAMES[name][2]
        assert rows[name] == (expected, "environment"), seed


def test_hearth_config_shows_every_name_from_the_environment_with_secrets_masked(tmp_path: Path) -> None:
    home, ws = tmp_path / "home", tmp_path / "ws"
    ws.mkdir()
    env = {f"HEARTH_{name.upper()}": text for name, (text, _, _) in NAMES.items()}
    done = subprocess.run(
        [sys.executable, "-m", "hearth", "config"],
        capture_output=True,
        text=True,
        timeout=60,
        env=clean_env(home, **env),
        cwd=ws,
    )
    assert done.returncode == 0, done.stderr
    lines = {}
    for line in done.stdout.splitlines():
        name, sep, rest = line.partition(" = ")
        if sep and "    # " in rest:
            lines[name.strip()] = tuple(rest.rsplit("    # ", 1))
    assert {n: lines[n] for n in NAMES} == {n: (shown, "environment") for n, (_, _, shown) in NAMES.items()}
    for name in SECRETS:
        assert NAMES[name][0] not in done.stdout + done.stderr


def test_each_key_is_one_setting_in_one_group() -> None:
    """Keys stay flat and unique while the code reads the settings by group."""
    from hearth.runtime.config import KEYS, Settings

    assert set(KEYS) == {*NAMES, "workspace"}
    assert len(set(KEYS.values())) == len(KEYS)
    built = Settings.from_keys({name: text for name, (text, _, _) in NAMES.items()})
    assert built.get("llm_url") == built.model.url == NAMES["llm_url"][0]
    assert built.get("twilio_auth_token") is built.bridges.sms.auth_token
    assert built.sandbox.backend == "process" and built.model.name == "named-model"
    changed = built.replace(model="other", subagent_depth=0, telegram_allow=["5"])
    assert (changed.model.name, changed.agent.subagent_depth, changed.bridges.telegram.allow) == (
        "other",
        0,
        ["5"],
    )
    assert (changed.model.url, changed.bridges.telegram.api) == (built.model.url, built.bridges.telegram.api)
    assert built.model.name == "named-model"  # the original is unchanged
