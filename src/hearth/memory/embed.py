"""Embedders: the model server's `/v1/embeddings` (role `embedder`). Any failure or a wrong
dimension makes search keyword-only with a notice; it never raises into the caller."""

from __future__ import annotations

from typing import Protocol

import httpx


class Embedder(Protocol):
    name: str

    def embed(self, texts: list[str]) -> list[list[float]]: ...


class EmbedError(Exception):
    pass


class ServerEmbedder:
    """An OpenAI-compatible `/v1/embeddings` endpoint."""

    def __init__(self, base_url: str, model: str, api_key: str = "", timeout: float = 20.0) -> None:
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.name = f"server:{model}"
        self._headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._timeout = timeout

    def embed(self, texts: list[str]) -> list[list[float]]:
        url = f"{self.base_url}/embeddings"
        try:
            r = httpx.post(
                url, json={"model": self.model, "input": texts}, headers=self._headers, timeout=self._timeout
            )
            r.raise_for_status()
            data = r.json()["data"]
            vecs = [row["embedding"] for row in sorted(data, key=lambda d: d.get("index", 0))]
        except (httpx.HTTPError, ValueError, KeyError, TypeError) as e:
            raise EmbedError(f"{url}: {e}") from e
        if len(vecs) != len(texts) or not all(isinstance(v, list) and v for v in vecs):
            raise EmbedError(f"{url} returned {len(vecs)} embeddings for {len(texts)} texts")
        return vecs
