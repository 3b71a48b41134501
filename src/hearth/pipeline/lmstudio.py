"""LM Studio model swaps by role: one large model in memory at a time.

Before a role's requests, the model it names is made the only one loaded: the others are unloaded
through LM Studio's REST API, Hearth waits until the server lists none of them as loaded (memory
settled), then loads the one wanted. A model already loaded alone costs one look. With any other
server nothing is done: the model name is simply sent with each request.

Endpoints (LM Studio's server): GET /api/v0/models (each with `state`), POST /api/v1/models/unload
{"instance_id"}, POST /api/v1/models/load {"model"}.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx

from hearth.core.errors import ModelError


class LMStudioModels:
    def __init__(
        self, root: str, api_key: str = "", *, settle_timeout: float = 120.0, poll: float = 0.5
    ) -> None:
        self.root = root.rstrip("/")
        self.headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self.settle_timeout = settle_timeout
        self.poll = poll
        self.current: str | None = None
        self.swaps = 0

    @staticmethod
    async def detect(root: str, api_key: str = "") -> LMStudioModels | None:
        """An LM Studio server at `root` (its /api/v0/models answers), else None."""
        manager = LMStudioModels(root, api_key)
        try:
            await manager.loaded()
        except (httpx.HTTPError, ModelError, ValueError):
            return None
        return manager

    async def loaded(self) -> list[str]:
        async with httpx.AsyncClient(timeout=30, headers=self.headers) as client:
            resp = await client.get(self.root + "/api/v0/models")
            if resp.status_code != 200:
                raise ModelError(f"LM Studio answered HTTP {resp.status_code} listing models.")
            data: Any = resp.json()
        return [
            str(m.get("id"))
            for m in data.get("data", [])
            if isinstance(m, dict) and m.get("state") == "loaded"
        ]

    async def ensure(self, model: str) -> None:
        """Make `model` the one loaded model ("" = whatever the server serves: nothing to do)."""
        if not model or model == self.current:
            return
        listed = await self.loaded()
        others = [m for m in listed if m != model]
        already = model in listed
        async with httpx.AsyncClient(timeout=600, headers=self.headers) as client:
            for other in others:
                await self._post(client, "/api/v1/models/unload", {"instance_id": other})
            if others:
                await self._settle(set(others))
            if not already:
                await self._post(client, "/api/v1/models/load", {"model": model})
                self.swaps += 1
        self.current = model

    async def _settle(self, gone: set[str]) -> None:
        deadline = time.monotonic() + self.settle_timeout
        while gone & set(await self.loaded()):
            if time.monotonic() > deadline:
                raise ModelError(
                    f"LM Studio still lists {', '.join(sorted(gone))} as loaded after {self.settle_timeout:.0f} s.",
                    "Unload it in LM Studio, or give the roles the same model.",
                )
            await asyncio.sleep(self.poll)

    async def _post(self, client: httpx.AsyncClient, path: str, body: dict[str, Any]) -> None:
        resp = await client.post(self.root + path, json=body)
        if resp.status_code >= 400:
            raise ModelError(
                f"LM Studio refused {path} for {body}: HTTP {resp.status_code} {resp.text[:200]}"
            )
