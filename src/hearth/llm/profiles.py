"""Capability flags per server and model, instead of name checks in the code."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from pydantic import BaseModel, ConfigDict


class ToolMode(StrEnum):
    AUTO = "auto"  # send `tools`; also read calls the model writes as text
    NATIVE = "native"  # send `tools`; only structured calls count
    TEXT = "text"  # describe tools in the prompt; read calls from the text
    GRAMMAR = "grammar"  # every reply is one JSON action the server's grammar forces (llm/actions.py)


REPLY_TOKENS = 4096  # per-reply cap for larger models: room for a sizeable file in one write
SMALL_REPLY_TOKENS = (
    2048  # a whole file of about 150 lines; a rambling reply is cut by the repetition check first
)
SMALL_MODEL_BILLIONS = 4.0  # at or under this many parameters a model gets the small profile


class ModelProfile(BaseModel):
    model_config = ConfigDict(frozen=True)

    tool_mode: ToolMode = ToolMode.AUTO
    context_window: int = 8192
    window_known: bool = True  # False: the server never said; only a real overflow makes Hearth compact
    small: bool = False  # fewer tools, a shorter prompt with one worked example, one call per reply
    max_reply_tokens: int = REPLY_TOKENS
    shown_tools: tuple[str, ...] = ()  # the tools the prompt shows (empty: all); all stay callable
    # Shown instead of all when the full list's schemas would take over half of a known window
    # (34 tools are ~2,600 tokens: most of a 4,096-token window); the others stay callable.
    tight_tools: tuple[str, ...] = ()
    # grammar mode: how this server spells "reply with JSON matching this schema" (llm/actions.py)
    action_format: str = ""
    # The loop's defences this model gets, by name, in order (agent/checks); empty: the standard
    # set for the profile (all of them, less those its tool mode or call rule never meets).
    checks: tuple[str, ...] = ()

    @property
    def one_call_per_reply(self) -> bool:
        return self.small


def parameters_in_billions(model_name: str) -> float | None:
    """The size a model's name states ("qwen2.5-coder-1.5b-instruct" -> 1.5), if it states one."""
    sizes = [
        float(m)
        for m in re.findall(r"(?<![\w.])(\d+(?:\.\d+)?)[bB](?![a-zA-Z])", model_name.replace("_", "-"))
    ]
    return max(sizes) if sizes else None


DEFAULT_CONTEXT_WINDOW = 4096  # shown while unknown; compaction waits for the server's overflow error


@dataclass(frozen=True)
class Window:
    """The model's context window, and where Hearth learned it."""

    size: int
    known: bool  # False: assumed until the server's overflow error says otherwise
    source: str
    served: str = ""  # the server's own name for its model, when Hearth asked it


def small_profile(setting: str, size_name: str, probed: ToolMode | None) -> bool:
    """The small-model profile: asked for, or the model's name says 4B parameters or fewer, or
    (its size unknown, as behind llama-cpp-python's `--model_alias`) it answered the tool probe
    with a call written as text instead of a structured one."""
    if setting != "auto":
        return setting == "small"
    size = parameters_in_billions(size_name)
    if size is not None:
        return size <= SMALL_MODEL_BILLIONS
    return probed is ToolMode.TEXT
