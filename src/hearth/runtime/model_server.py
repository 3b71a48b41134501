"""Which server and model a runtime's main role talks to, and the client that talks to it.

The configured server (with the main role's model, if it names one), or else the embedded
server, started here on the model file Hearth assembles (llm/embedded.py).
"""

from __future__ import annotations

import asyncio

from hearth.llm.client import ClientSettings, OpenAICompatModel
from hearth.llm.embedded import ALIAS, EmbeddedServer, ensure_model
from hearth.llm.urls import normalize_base_url
from hearth.runtime.config import Settings, state_dir, user_data_path


async def main_server(settings: Settings) -> tuple[str, str, EmbeddedServer | None]:
    """(base URL, model name, the embedded server when Hearth started one)."""
    if settings.model.url:
        main_role = settings.model.roles.get("main")
        model_name = main_role.model if main_role and main_role.model else settings.model.name
        return normalize_base_url(settings.model.url), model_name, None
    gguf = ensure_model(user_data_path(), settings.model.embedded.path, settings.model.embedded.name)
    embedded = EmbeddedServer(
        gguf,
        settings.model.embedded.context,
        settings.model.embedded.threads,
        state_dir(settings.workspace) / "logs" / "embedded-server.log",
    )
    try:
        base = await asyncio.to_thread(embedded.start)
    except BaseException:
        embedded.stop()
        raise
    return base, ALIAS, embedded


def main_client(settings: Settings, base: str, model_name: str) -> OpenAICompatModel:
    """The client for the main model, with the settings' timeouts, retries and parallelism."""
    return OpenAICompatModel(
        ClientSettings(
            base_url=base,
            api_key=settings.model.api_key.get_secret_value(),
            model=model_name,
            connect_timeout=settings.model.connect_timeout,
            first_token_timeout=settings.model.first_token_timeout,
            idle_timeout=settings.model.idle_timeout,
            retries=settings.model.retries,
            parallel=settings.model.parallel,
        )
    )
