"""Voice input: speech to text through the model server, offered only where it has the route."""

from __future__ import annotations

from fastapi import APIRouter, Request
from pydantic import BaseModel

from hearth.apps.web.errors import Refused
from hearth.apps.web.state import State
from hearth.llm.transcribe import MAX_AUDIO, offers_transcription, transcribe

router = APIRouter(prefix="/voice", tags=["voice"])
EXTENSIONS = {
    "audio/webm": "webm",
    "audio/ogg": "ogg",
    "audio/wav": "wav",
    "audio/mpeg": "mp3",
    "audio/mp4": "m4a",
}


class VoiceOut(BaseModel):
    available: bool  # the model server answers /v1/audio/transcriptions


class TranscriptOut(BaseModel):
    text: str


async def _available(state: State) -> bool:
    if state.voice is None:
        key = state.rt.settings.model.api_key.get_secret_value()
        state.voice = await offers_transcription(state.rt.server_url, key)
    return state.voice


@router.get("")
async def voice(state: State) -> VoiceOut:
    """Whether the model server transcribes speech (asked once, when first wanted)."""
    return VoiceOut(available=await _available(state))


@router.post("/transcribe")
async def transcribe_audio(request: Request, state: State) -> TranscriptOut:
    """The request body (a recording: webm, ogg, wav, mp3 or m4a, 25 MB at most) as text."""
    if not await _available(state):
        raise Refused(
            404,
            "The model server offers no speech-to-text (/v1/audio/transcriptions).",
            "Use a server with a whisper model (whisper.cpp's server, LocalAI, vLLM), or type.",
        )
    mime = request.headers.get("content-type", "audio/webm").split(";")[0].strip().lower()
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_AUDIO:
            raise Refused(413, f"The recording is over {MAX_AUDIO >> 20} MB.", "Record a shorter message.")
    text = await transcribe(
        state.rt.server_url,
        state.rt.settings.model.api_key.get_secret_value(),
        bytes(body),
        filename=f"speech.{EXTENSIONS.get(mime, 'webm')}",
        mime=mime,
        model=state.rt.settings.web.transcription_model,
    )
    return TranscriptOut(text=text)
