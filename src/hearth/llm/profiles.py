"""Capability flags per server and model, instead of name checks in the code."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict


class ToolMode(StrEnum):
    AUTO = "auto"  # send `tools`; also read calls the model writes as text
    NATIVE = "native"  # send `tools`; only structured calls count
    TEXT = "text"  # describe tools in the prompt; read calls from the text


class ModelProfile(BaseModel):
    model_config = ConfigDict(frozen=True)

    tool_mode: ToolMode = ToolMode.AUTO
    context_window: int = 8192
