"""The typed, frozen facts a session is made of.

A session is an append-only list of these. Everything else (the messages
sent to the model, the terminal view, `--json`, resume) is derived from them.
"""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from typing import Annotated, Literal

from pydantic import ConfigDict, Field, TypeAdapter, field_validator

from hearth.core.status import Status
from hearth.core.text import shown_url
from hearth.core.types import CallFormat, Frozen, Timings, ToolCall, Usage
from hearth.core.work import WorkState


def _now() -> datetime:
    return datetime.now(UTC)


class EventBase(Frozen):
    # Built when first made or read, not at import: a run makes a handful of the kinds below.
    model_config = ConfigDict(defer_build=True)

    ts: datetime = Field(default_factory=_now)


class SessionStarted(EventBase):
    kind: Literal["session_started"] = "session_started"
    workspace: str
    model: str
    server: str
    context_window: int
    permission_mode: str
    tool_mode: str = "auto"
    system_prompt: str = ""
    instructions: tuple[str, ...] = ()  # the instruction files loaded into the system prompt
    parent: str = ""  # a sub-agent's: the session that delegated it

    @field_validator("server")
    @classmethod
    def _no_credentials(cls, url: str) -> str:
        """A password or key in the server's URL never reaches the store, an export or a client
        (stored events of older versions are masked as they are read, too)."""
        return shown_url(url)


class UserMessage(EventBase):
    """The person's own words, exactly as they wrote them."""

    kind: Literal["user_message"] = "user_message"
    text: str


class HearthMessage(EventBase):
    """Words Hearth itself adds to the person's turn (the plan and deep-work preambles, the
    go-ahead after a plan, the nudge to continue after a resume). The model reads them in the
    user's turn; people see them as Hearth's, never as their own."""

    kind: Literal["hearth_message"] = "hearth_message"
    reason: str  # plan | plan_approved | deep | resume | conversation | memories | files (a small model's first look)
    text: str
    shown: tuple[str, ...] = ()  # workspace paths `text` shows whole: they count as read (a resume too)
    texts: tuple[str, ...] = ()  # each shown file's text as it was then, in `shown`'s order
    commands: tuple[str, ...] = ()  # the task's commands whose output must stay as it is ...
    outputs: tuple[str, ...] = ()  # ... and what each printed then, in the same order


class ModelReply(EventBase):
    """One completed model response.

    `text` is the reply as it goes back into the context (think blocks
    removed); `thinking` is shown to the user and never sent back.
    """

    kind: Literal["model_reply"] = "model_reply"
    text: str = ""
    thinking: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    call_format: CallFormat = CallFormat.NONE
    finish_reason: str | None = None
    model: str = ""
    usage: Usage = Usage()
    timings: Timings = Timings()


class ModelUsed(EventBase):
    """A request Hearth made to a model beside the conversation (a summary when compacting,
    versions of a file, a reflection after the task): what it cost. Counted in the session's
    usage and its token budget; never part of what the model is shown."""

    kind: Literal["model_used"] = "model_used"
    purpose: str  # summary | version | reflection
    model: str = ""
    usage: Usage = Usage()
    timings: Timings = Timings()


class ToolResult(EventBase):
    kind: Literal["tool_result"] = "tool_result"
    call_id: str
    name: str
    output: str
    ok: bool = True
    duration_ms: float = 0.0


class PermissionDecided(EventBase):
    """The audit trail: who allowed or refused each tool call, and why."""

    kind: Literal["permission"] = "permission"
    call_id: str
    tool: str
    subject: str = ""
    allowed: bool
    by: Literal["policy", "user", "headless"]
    reason: str


class WorkUpdated(EventBase):
    """A snapshot of todos, plan and task state after they changed."""

    kind: Literal["work"] = "work"
    state: WorkState


class Compacted(EventBase):
    """From here on, the context leaves out what this says: masked tool outputs, and events
    before `summary_upto` replaced by `summary`. The events themselves stay in the store."""

    kind: Literal["compacted"] = "compacted"
    masked: tuple[str, ...] = ()  # call ids whose outputs are shown as a one-line stub
    summary: str = ""
    summary_upto: int = 0  # number of events (from the start) the summary replaces
    reason: str = ""
    tokens_before: int = 0
    tokens_after: int = 0


class WindowLearned(EventBase):
    """The server's context window, learned after the session started (stated in an overflow
    error, or guessed under a prompt that did not fit when it stated none). A resumed session
    starts from it when the server still does not say."""

    kind: Literal["window_learned"] = "window_learned"
    window: int
    reason: str = ""


class PlanReady(EventBase):
    """Plan mode produced a plan, for the user to approve, edit or reject."""

    kind: Literal["plan_ready"] = "plan_ready"
    steps: tuple[str, ...]
    text: str = ""


class Checkpointed(EventBase):
    """The workspace was recorded before a step that may change files (see runtime/checkpoints)."""

    kind: Literal["checkpoint"] = "checkpoint"
    id: str
    step: int


class NoticeReason(StrEnum):
    """Why Hearth said something to the model. The values are stored in sessions and read by the
    web UI and exports: never change one; add a member for a new kind of notice."""

    # the loop's defences (agent/checks): each is one check's nudge
    REPLY_CUT = "reply_cut"  # the reply hit the token cap or started repeating itself
    UNPARSED_CALL = "unparsed_call"  # a tool call that could not be read
    EMPTY_REPLY = "empty_reply"
    BAD_WAIT = "bad_wait"  # a WAIT: line whose time cannot be read
    LOOP = "loop"  # calls going in circles (agent/guard)
    CLAIM_WITH_CALLS = "claim_with_calls"  # "done" written next to calls whose results it has not seen
    BLOCKED_EARLY = "blocked_early"  # BLOCKED before trying anything
    BLOCKED_AFTER_ERROR = "blocked_after_error"  # BLOCKED on an error that names its remedy
    CALLS_NOT_RUN = "calls_not_run"  # a finish right after calls that never ran
    FINISH_AFTER_FAILURE = "finish_after_failure"  # a finish right after a failed check
    FINISH_REFUSED = "finish_refused"  # a finish with tracked work still open
    FINISH_UNSUPPORTED = "finish_unsupported"  # a small model's finish the evidence contradicts (agent/done)
    FINISH_CHECKLIST = (
        "finish_checklist"  # a small model's first finish of a task asking several changes (agent/parts)
    )
    KEPT_DEFINITIONS = (
        "kept_definitions"  # a small model's whole-file write left out definitions; kept (agent/body)
    )
    RENAMES_ONLY = "renames_only"  # a renames-only task's write: the file with the renames made (agent/body)
    MOVED = "moved"  # a moves-only task's write: the file with the move made (agent/moves)
    CODE_KEPT = "code_kept"  # a docstrings-only task's write changed the code: its docstrings on the code (agent/body)
    VERSIONS = "versions"  # other versions of a file tried against the failing checks (agent/versions)
    # the loop, outside the checks
    VERDICT = "verdict"  # how a turn stopped on a loop or the step limit ends (agent/verdict)
    BUDGET = "budget"  # the token budget is running out
    INSTRUCTIONS = "instructions"  # a nested instruction file, found on the way to a path
    # the runtime and the front-ends
    UNDO = "undo"  # the workspace went back to a checkpoint
    IMPORTED = "imported"  # closes a session carried over from an older store
    UNTRUSTED_SETTINGS = "untrusted_settings"  # shown with --json, never recorded
    # retired: no longer said, kept so that sessions stored by earlier versions still read
    FINISH_MISSING_FILES = "finish_missing_files"
    REPEATED_FAILURE = "repeated_failure"


class Notice(EventBase):
    """A message from Hearth itself to the model: a nudge, a correction, a warning."""

    kind: Literal["notice"] = "notice"
    reason: NoticeReason
    text: str
    folder: str = ""  # for reason "instructions": the folder whose instruction file this is
    checkpoint: str = ""  # for reason "undo": the checkpoint the workspace went back to


class ModeChanged(EventBase):
    """The permission mode from here on. `reason` "plan" marks the switch to plan mode for the
    duration of a plan; the mode before it comes back when the plan ends, however it ends."""

    kind: Literal["mode_changed"] = "mode_changed"
    mode: str
    reason: str = ""


class ModelChosen(EventBase):
    """From here on the session's `role` uses `model` (`/model`, the web UI's model picker)."""

    kind: Literal["model_chosen"] = "model_chosen"
    role: str
    model: str


class RuleRemembered(EventBase):
    """'Allow for this session': calls matching this rule run without asking from here on."""

    kind: Literal["rule_remembered"] = "rule_remembered"
    tool: str
    pattern: str | None = None


class BudgetSet(EventBase):
    """A token budget (deep work) from here on; the tokens the model uses after it count against it."""

    kind: Literal["budget_set"] = "budget_set"
    tokens: int


class ErrorRaised(EventBase):
    """A failure the user must see (server unreachable, ...); the session survives it."""

    kind: Literal["error"] = "error"
    message: str
    hint: str = ""


class Reflected(EventBase):
    """After a session that did work: what reflection stored in memory (item refs, each linked to
    this session), covering the events before `upto`. `error`: why nothing could be stored."""

    kind: Literal["reflected"] = "reflected"
    stored: tuple[str, ...] = ()
    refused: tuple[str, ...] = ()  # why some items were not stored (a secret, ...)
    upto: int = 0
    model: str = ""
    error: str = ""


class Finished(EventBase):
    kind: Literal["finished"] = "finished"
    status: Status
    reason: str = ""
    final_text: str = ""
    wake_at: datetime | None = None

    @property
    def exit_code(self) -> int:
        return self.status.exit_code


Event = Annotated[
    SessionStarted
    | UserMessage
    | HearthMessage
    | ModelReply
    | ModelUsed
    | ToolResult
    | PermissionDecided
    | WorkUpdated
    | Compacted
    | WindowLearned
    | PlanReady
    | Checkpointed
    | Notice
    | ModeChanged
    | ModelChosen
    | RuleRemembered
    | BudgetSet
    | ErrorRaised
    | Reflected
    | Finished,
    Field(discriminator="kind"),
]

EVENT_ADAPTER: TypeAdapter[Event] = TypeAdapter(Event, config=ConfigDict(defer_build=True))


def parse_event(data: str | bytes) -> Event:
    return EVENT_ADAPTER.validate_json(data)


def latest_work(events: list[Event]) -> WorkState:
    """The todos, plan and task state as the last snapshot in `events` left them (a copy)."""
    for event in reversed(events):
        if isinstance(event, WorkUpdated):
            return event.state.model_copy(deep=True)
    return WorkState()
