"""Hearth: a local-first autonomous agent for OpenAI-compatible model servers."""

import os
import sys

__version__ = "0.1.0"

# What every start would pay for parts Hearth never uses (together about a fifth of `hearth run`'s
# start): httpx imports its own command-line client when it can (rich's progress bars and tables,
# pygments, click: about a hundred modules), and falls back to a stub when that import fails;
# pydantic looks for plugins in the entry points of every installed distribution (importlib.metadata,
# another seventy modules) before it builds its first model. PYDANTIC_DISABLE_PLUGINS set to
# anything else (an empty value too) keeps pydantic's own behaviour.
sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]
os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
