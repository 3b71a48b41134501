"""Speech to text through the model server's `/v1/audio/transcriptions` (OpenAI's whisper API),
where the server offers it (whisper.cpp's server, LocalAI, vLLM with a whisper model, ...)."""

from __future__ import annotations

import httpx

from hearth.core.errors import HearthError

MAX_AUDIO = 25 << 20


def _headers(api_key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {api_key}"} if api_key else {}


async def offers_transcription(base_url: str, api_key: str = "", timeout: float = 5.0) -> bool:
    """Does the server have the route? A GET is answered 405 (or 400/422) by servers that have it
    and 404 by those that do not; nothing is transcribed to find out."""
    try:
        async with httpx.AsyncClient(timeout=timeout, trust_env=False) as client:
            res = await client.get(f"{base_url.rstrip('/')}/audio/transcriptions", headers=_headers(api_key))
    except httpx.HTTPError:
        return False
    return res.status_code in (400, 405, 422)


async def transcribe(
    base_url: str, api_key: str, audio: bytes, *, filename: str, mime: str, model: str, timeout: float = 120.0
) -> str:
    """The text of `audio`, or HearthError saying what the server answered."""
    if not audio:
        raise HearthError("The recording is empty.", "Hold the button a little longer.")
    if len(audio) > MAX_AUDIO:
        raise HearthError(f"The recording is over {MAX_AUDIO >> 20} MB.", "Record a shorter message.")
    try:
        async with httpx.AsyncClient(timeout=timeout, trust_env=False) as client:
            res = await client.post(
                f"{base_url.rstrip('/')}/audio/transcriptions",
                headers=_headers(api_key),
                data={"model": model, "response_format": "json"},
                files={"file": (filename, audio, mime)},
            )
    except httpx.HTTPError as exc:
        raise HearthError(f"The transcription server could not be reached: {exc}.") from None
    if res.status_code >= 400:
        raise HearthError(f"The server answered HTTP {res.status_code} to the recording.", res.text[:300])
    try:
        text = res.json().get("text", "")
    except ValueError:
        text = res.text
    return str(text).strip()
