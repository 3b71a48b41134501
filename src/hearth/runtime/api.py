"""The session API: what a product built on Hearth (the pipeline, the scheduler) or a front-end
needs of the runtime, in one place.

Open a runtime for a workspace (`open_runtime`: settings, model, sandbox, tools), open a session on
it (`open_conversation`, new or resumed), send it messages (`Conversation.send`), read its events
(`Conversation.events`, or a `Hub`'s subscriptions when many sessions run in one process) and its
state (`Conversation.work`, `.mode`), and change its settings (`set_mode`, `set_model`). The
products import from `hearth.runtime` only this module (tests/test_layers.py checks), so the
runtime's inside can change without them.
"""

from __future__ import annotations

from hearth.agent.compaction import estimate_tokens
from hearth.agent.instructions import load_instructions
from hearth.agent.modes import PermissionMode
from hearth.agent.prompt import system_prompt
from hearth.core.protocols import Model
from hearth.llm.client import OpenAICompatModel
from hearth.llm.profiles import ToolMode
from hearth.runtime.config import Settings, load_settings, state_dir, user_data_path
from hearth.runtime.conversation import Conversation, Decision, open_conversation
from hearth.runtime.hub import ApprovalRequest, Busy, Hub, LiveSession, PlanRequest
from hearth.runtime.plan_writes import (
    MAX_PLAN_BYTES,
    PLANS_DIR,
    PlanApprovals,
    PlanRecorder,
    Snapshot,
    approve_plan,
    record_none,
    snapshot,
    waiting_message,
)
from hearth.runtime.session import Runtime, check_workspace, open_runtime, open_store
from hearth.sandbox.paths import SafePaths
from hearth.tools.base import RunContext, Tool, ToolInput
from hearth.tools.builtin.git import (
    GitAddInput,
    GitBranchInput,
    GitCommitInput,
    GitLogInput,
    GitStatusInput,
    git_add,
    git_branch,
    git_commit,
    git_log,
    git_status,
    validate_ref,
)
from hearth.tools.toolset import Toolset

__all__ = [
    "MAX_PLAN_BYTES",
    "PLANS_DIR",
    "ApprovalRequest",
    "Busy",
    "Conversation",
    "Decision",
    "GitAddInput",
    "GitBranchInput",
    "GitCommitInput",
    "GitLogInput",
    "GitStatusInput",
    "Hub",
    "LiveSession",
    "Model",
    "OpenAICompatModel",
    "PermissionMode",
    "PlanApprovals",
    "PlanRecorder",
    "PlanRequest",
    "RunContext",
    "Runtime",
    "SafePaths",
    "Settings",
    "Snapshot",
    "Tool",
    "ToolInput",
    "ToolMode",
    "Toolset",
    "approve_plan",
    "check_workspace",
    "estimate_tokens",
    "git_add",
    "git_branch",
    "git_commit",
    "git_log",
    "git_status",
    "load_settings",
    "open_conversation",
    "open_runtime",
    "open_store",
    "record_none",
    "session_prompt",
    "snapshot",
    "state_dir",
    "tool_context",
    "user_data_path",
    "validate_ref",
    "waiting_message",
    "workspace_paths",
]


def workspace_paths(rt: Runtime) -> SafePaths:
    """The runtime's workspace, for reads and writes that refuse symlinks and paths outside it."""
    return SafePaths(rt.workspace)


def tool_context(rt: Runtime) -> RunContext:
    """What a tool needs to run in this runtime's workspace and sandbox, for a product that calls
    a tool itself (the pipeline's git steps) rather than through a model."""
    return RunContext(paths=workspace_paths(rt), sandbox=rt.sandbox.runner)


def session_prompt(rt: Runtime, tool_mode: ToolMode) -> str:
    """The system prompt a new session on `rt` starts with, for a model calling tools in
    `tool_mode` (the pipeline sizes its tasks against it)."""
    return system_prompt(rt.toolset, tool_mode, load_instructions(rt.workspace))
