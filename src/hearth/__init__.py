"""Hearth: a local-first autonomous agent for OpenAI-compatible model servers."""

__version__ = "0.1.0"
