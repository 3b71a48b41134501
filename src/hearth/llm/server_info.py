"""Ask the server what it actually loaded: model names and context window.

Each server family says it differently: llama.cpp's `/props`, Ollama's
`/api/show`, LM Studio's `/api/v0/models`, vLLM's `max_model_len` in
`/v1/models`. Whatever answers first wins; nothing answering is fine.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import httpx

from hearth.llm.tls import context_for
from hearth.llm.urls import server_root


@dataclass(frozen=True)
class ServerInfo:
    models: tuple[str, ...]
    context_window: int | None
    source: str  # which endpoint said so


async def probe_server(base_url: str, api_key: str = "", model: str = "", timeout: float = 3.0) -> ServerInfo:
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    root = server_root(base_url)
    async with httpx.AsyncClient(headers=headers, timeout=timeout, verify=context_for(base_url)) as client:
        models_payload = await _get_json(client, base_url + "/models")
        models = _model_ids(models_payload)
        chosen = model or (models[0] if models else "")
        probes: list[tuple[str, int | None]] = [
            ("/v1/models max_model_len", _vllm_window(models_payload, chosen)),
        ]
        for source, value in probes:
            if value:
                return ServerInfo(models, value, source)
        props = await _get_json(client, root + "/props")
        window = _llamacpp_window(props)
        if window:
            return ServerInfo(models, window, "llama.cpp /props")
        lms = await _get_json(client, root + "/api/v0/models")
        window = _lmstudio_window(lms, chosen)
        if window:
            return ServerInfo(models, window, "LM Studio /api/v0/models")
        if chosen:
            show = await _post_json(client, root + "/api/show", {"model": chosen})
            window = _ollama_window(show)
            if window:
                return ServerInfo(models, window, "Ollama /api/show")
    return ServerInfo(models, None, "")


async def _get_json(client: httpx.AsyncClient, url: str) -> Any:
    try:
        resp = await client.get(url)
        return resp.json() if resp.status_code == 200 else None
    except (httpx.HTTPError, ValueError):
        return None


async def _post_json(client: httpx.AsyncClient, url: str, body: dict[str, Any]) -> Any:
    try:
        resp = await client.post(url, json=body)
        return resp.json() if resp.status_code == 200 else None
    except (httpx.HTTPError, ValueError):
        return None


def _model_ids(payload: Any) -> tuple[str, ...]:
    if isinstance(payload, dict) and isinstance(payload.get("data"), list):
        return tuple(str(m.get("id")) for m in payload["data"] if isinstance(m, dict) and m.get("id"))
    return ()


def _vllm_window(payload: Any, model: str) -> int | None:
    if not isinstance(payload, dict):
        return None
    for m in payload.get("data") or []:
        if isinstance(m, dict) and (not model or m.get("id") == model) and m.get("max_model_len"):
            return int(m["max_model_len"])
    return None


def _llamacpp_window(props: Any) -> int | None:
    if not isinstance(props, dict):
        return None
    settings = props.get("default_generation_settings") or {}
    value = settings.get("n_ctx") or props.get("n_ctx")
    return int(value) if value else None


def _lmstudio_window(payload: Any, model: str) -> int | None:
    if not isinstance(payload, dict):
        return None
    for m in payload.get("data") or []:
        if not isinstance(m, dict) or m.get("state") not in (None, "loaded"):
            continue
        if model and m.get("id") != model:
            continue
        value = m.get("loaded_context_length") or m.get("max_context_length")
        if value:
            return int(value)
    return None


def _ollama_window(show: Any) -> int | None:
    if not isinstance(show, dict):
        return None
    params = show.get("parameters") or ""
    for line in str(params).splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == "num_ctx" and parts[1].isdigit():
            return int(parts[1])
    info = show.get("model_info") or {}
    for key, value in info.items():
        if key.endswith(".context_length") and isinstance(value, int):
            return value
    return None
