"""Tell a model server that went away from a model that failed.

A coder's session turns every model error into an ended run (`Finished`, status error), so the
runner cannot see why it ended. The coder's requests therefore go through a client of its own
that notes a `ServerGone` (the server refused the connection, reset it, or closed the stream
before the reply was complete): such a run is not the coder's failure, and its attempt is redone
once the server answers again.
"""

from __future__ import annotations

from hearth.core.errors import ServerGone
from hearth.core.protocols import DeltaSink, Model, ModelRequest, ModelResponse
from hearth.runtime.api import OpenAICompatModel


class WatchedModel(OpenAICompatModel):
    """An OpenAI-compatible client that remembers the last request the server cut (`gone`)."""

    gone: ServerGone | None = None

    async def complete(self, request: ModelRequest, on_delta: DeltaSink | None = None) -> ModelResponse:
        try:
            return await super().complete(request, on_delta)
        except ServerGone as exc:
            self.gone = exc
            raise


def watched(model: Model) -> WatchedModel | None:
    """A watched client for the same server and model (None for a model that is not a client)."""
    if not isinstance(model, OpenAICompatModel):
        return None
    return WatchedModel(model.settings)
