"""The agent loop: query, parse, permit and execute, record. Stopping is an exception.

The agent holds configuration only (it is frozen); the session's state is a `SessionState`
derived from its events. `record` stores an event and applies it to that state, the same
`apply` a resume replays the stored events through, so recording is the only way state changes.

Each step reads top to bottom in `Agent.step`; the defences against a model's mistakes are the
checks of agent/checks, run at the stages of the step (the profile chooses which).
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field, replace
from typing import Any

from hearth.agent import verdict
from hearth.agent.body import (
    current_task,
    current_text,
    made_body,
    mechanical_write,
    refused_texts,
    settled,
    with_body,
    without_body,
    written_text,
)
from hearth.agent.budget import BudgetAction, TokenBudget
from hearth.agent.checks import Checks, Stage, StepView, claimed_stop, for_profile, is_cut, raised_cap
from hearth.agent.checks.finish import FinishedOverFailure
from hearth.agent.compaction import Compactor, estimate_tokens
from hearth.agent.context import build_messages
from hearth.agent.deadline import DeadlinePassed, has_time, until
from hearth.agent.dispatch import Dispatcher
from hearth.agent.done import FinishReview, person_needed, stuck_rewrite, task_of
from hearth.agent.early_stop import first_new_call
from hearth.agent.eventlog import log_event
from hearth.agent.finish import answer_stop
from hearth.agent.handsoff import refusal
from hearth.agent.instructions import NestedInstructions
from hearth.agent.misplaced import misplaced
from hearth.agent.offered import offered_tools
from hearth.agent.overview import shown_texts
from hearth.agent.progress import earlier_look, named_specs, steered_specs, writable_paths
from hearth.agent.reply import action_stop, reply_event
from hearth.agent.state import SessionState
from hearth.agent.tests_added import changed_tests
from hearth.agent.tracing import NO_TRACING, Tracer
from hearth.agent.turn import seen_unchanged
from hearth.agent.versions import COUNT as VERSIONS
from hearth.agent.versions import Versions
from hearth.core.errors import (
    Blocked,
    ContextOverflow,
    LimitReached,
    ModelError,
    StopRun,
    StreamBroken,
    Stuck,
    TaskDone,
    Waiting,
)
from hearth.core.events import (
    Checkpointed,
    ErrorRaised,
    Event,
    Finished,
    HearthMessage,
    ModelReply,
    Notice,
    NoticeReason,
    Status,
    ToolResult,
    UserMessage,
    WindowLearned,
    WorkUpdated,
)
from hearth.core.protocols import Delta, DeltaSink, EventStore, Model, ModelRequest, ModelResponse
from hearth.core.types import Message, ToolCall, ToolSpec
from hearth.core.work import WorkState
from hearth.llm.actions import action_schema, needs_body, response_format
from hearth.llm.profiles import ModelProfile, ToolMode
from hearth.llm.thinking import ThinkSplitter
from hearth.prompts import render

log = logging.getLogger(__name__)

MIN_REPLY_TOKENS = 256  # a reply cap never goes below this, however full the window
# The start of a line of Hearth's own "Result of <tool>:" block, taken from its template.
RESULT_STOP = "\n" + render("tool_result_text", name="\x00", output="").split("\x00", 1)[0]


def _done_by_a_version() -> TaskDone:
    """The end of a turn a version of Hearth's finished (agent/versions): its checks pass."""
    text = render("versions_done")
    return TaskDone(text, final_text=text)


@dataclass(frozen=True)
class Limits:
    max_iterations: int = 50
    max_seconds: float = 3600.0
    versions: int = VERSIONS  # a small model's file the checks fail on: versions tried (agent/versions)


@dataclass
class _Running:
    """What the running process keeps beside the session state (not part of the session): the
    current turn's deadline, the reply cap as raised this process, this step's action schema."""

    deadline: float | None = None  # time.monotonic() when the running turn must end
    reply_cap: int = 0  # max_tokens sent with each reply, raised when a reply is cut mid-call
    schema: dict[str, Any] | None = None  # grammar mode: this step's action


@dataclass(frozen=True)
class Agent:
    """How a session is run (configuration, never changed) and its state (changed by `record` alone)."""

    model: Model
    profile: ModelProfile
    dispatcher: Dispatcher
    store: EventStore
    session_id: str
    system_prompt: str
    limits: Limits = Limits()
    temperature: float | None = None
    on_event: Callable[[str, Event], None] | None = None
    on_delta: DeltaSink | None = None
    # The session's state; by default a new one in the dispatcher's permission mode.
    state: SessionState = field(default=None, repr=False)  # type: ignore[assignment]
    compactor: Compactor | None = None
    nested: NestedInstructions | None = None
    archive: Callable[[list[Event]], str] | None = None  # writes the transcript somewhere; says where
    checkpoint: Callable[[str], str] | None = None  # records the workspace before a changing step
    sampling: dict[str, Any] = field(default_factory=dict)  # a role's top_p, seed, max_tokens, stop
    parent_deadline: float | None = None  # a sub-agent's turn ends when its parent's does
    tracer: Tracer = NO_TRACING  # spans for each turn, model request and tool call (telemetry/traces.py)
    on_window: Callable[[int], None] | None = None  # told a window the server stated (to remember it)
    _running: _Running = field(default_factory=_Running, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.state is None:  # frozen: the one derived default is set here, once
            object.__setattr__(self, "state", SessionState.new(self.dispatcher.policy.mode))
        self._running.reply_cap = int(self.sampling.get("max_tokens") or self.profile.max_reply_tokens)

    def record(self, event: Event) -> None:
        """Store the event, then apply it: the one way the session's state changes."""
        self.store.append(self.session_id, event)
        self.state.apply(event)
        if isinstance(event, WindowLearned) and self.compactor is not None:
            self.compactor.learn(event.window)  # the compactor works within the window the state knows
        log_event(self.session_id, event)
        if self.on_event:
            self.on_event(self.session_id, event)

    # -- read from the state --------------------------------------------------------------

    @property
    def history(self) -> list[Event]:
        return self.state.events

    @property
    def work(self) -> WorkState:
        return self.state.work

    @property
    def budget(self) -> TokenBudget | None:
        return self.state.budget

    @property
    def carried(self) -> frozenset[str]:
        return self.state.carried

    @property
    def deadline(self) -> float | None:
        return self._running.deadline

    @property
    def _reply_cap(self) -> int:
        return self._running.reply_cap

    @property
    def _schema(self) -> dict[str, Any] | None:
        return self._running.schema

    async def run(self, *opening: str | UserMessage | HearthMessage) -> Finished:
        """Work on one turn (the person's words, and Hearth's own lines with them) until the model
        finishes, stops, or a limit hits. A plain string is the person's message."""
        with self.tracer.turn(self.session_id, self.model.name) as span:
            finished = await self._run(opening)
            span.outcome(finished)
        return finished

    async def _run(self, opening: tuple[str | UserMessage | HearthMessage, ...]) -> Finished:
        start = len(self.history)  # this turn's events: what the checks count in
        for message in opening:
            self.record(UserMessage(text=message) if isinstance(message, str) else message)
        deadline = time.monotonic() + self.limits.max_seconds
        if self.parent_deadline is not None:
            deadline = min(deadline, self.parent_deadline)
        self._running.deadline = deadline
        try:
            try:
                for _ in range(self.limits.max_iterations):
                    if time.monotonic() > deadline:
                        raise LimitReached(f"the time limit of {self.limits.max_seconds:.0f}s was reached")
                    await self._reviewed_step(start)
                raise Stuck(f"the limit of {self.limits.max_iterations} iterations was reached")
            except Stuck as stuck:
                raise await self._stuck(stuck) from None
        except StopRun as stop:
            finished = Finished(
                status=stop.status,
                reason=stop.reason,
                final_text=stop.final_text,
                wake_at=stop.wake_at if isinstance(stop, Waiting) else None,
            )
        except ModelError as exc:
            self.record(ErrorRaised(message=exc.message, hint=exc.hint))
            finished = Finished(status=Status.ERROR, reason=exc.message)
        except (asyncio.CancelledError, KeyboardInterrupt):
            self.record(Finished(status=Status.INTERRUPTED, reason="interrupted by the user"))
            raise
        except Exception as exc:  # a bug in Hearth: keep the session, say so, stop cleanly
            log.exception("agent loop failed")
            self.record(
                ErrorRaised(
                    message=f"Internal error: {type(exc).__name__}: {exc}",
                    hint="The session is saved; resume it with --resume. Please report this.",
                )
            )
            finished = Finished(status=Status.ERROR, reason=f"internal error: {exc}")
        self.record(finished)
        return finished

    async def compact(self, *, force: bool = False, reason: str = "") -> bool:
        """Compact now if the context nears the window (or always, when forced)."""
        if self.compactor is None:
            return False
        return await self.compactor.compact(
            self.model,
            self.system_prompt,
            self.history,
            self._tools(),
            self.record,
            force=force,
            reason=reason,
            tracer=self.tracer,
        )

    def _cap(self, messages: list[Message], tools: list[ToolSpec]) -> int | None:
        """This reply's max_tokens: the profile's cap, but never more than the known window leaves
        (strict servers such as vLLM refuse a prompt plus cap larger than the window)."""
        if not self._reply_cap:
            return None
        if self.compactor is None or not self.compactor.known:
            return self._reply_cap
        room = self.compactor.window - estimate_tokens(messages, tools) - 64  # the template adds a little
        return max(MIN_REPLY_TOKENS, min(self._reply_cap, room))

    def _extra(self) -> dict[str, Any]:
        """The role's request settings, plus (when calls may come as text) a stop where the model
        starts writing the result itself (as a model that has seen "Result of read:" blocks tends to)."""
        extra = {key: value for key, value in self.sampling.items() if key != "max_tokens"}
        if self._schema is not None:
            extra["response_format"] = response_format(self._schema, self.profile.action_format)
            return extra
        if self.profile.tool_mode is not ToolMode.NATIVE:
            stops = extra.get("stop") or []
            extra["stop"] = [*([stops] if isinstance(stops, str) else stops), RESULT_STOP]
        return extra

    def _learn_window(self, exc: ContextOverflow, request: ModelRequest) -> bool:
        """Take the window the overflow error states; when it states none and the window was
        never known, take a guess under the prompt that did not fit. True when it is new."""
        if self.compactor is None:
            return False
        if exc.window:
            window, reason = exc.window, "stated by the server's overflow error"
        elif not self.compactor.known:
            window = int(estimate_tokens(request.messages, request.tools) * 0.75)
            reason = "guessed under a prompt that overflowed"
        else:
            return False
        if window == self.compactor.window and self.compactor.known:
            return False
        self.record(WindowLearned(window=window, reason=reason))
        if exc.window and self.on_window is not None:
            self.on_window(window)
        return True

    def _tools(self) -> list[ToolSpec]:
        if self.profile.tool_mode in (ToolMode.TEXT, ToolMode.GRAMMAR):
            return []
        return offered_tools(self.dispatcher.toolset, self.profile, self.history, self.compactor)

    def _action_schema(self) -> dict[str, Any] | None:
        """Grammar mode: the schema of this step's one action (the offered tools, finish, blocked).
        After a run of read-only steps with nothing changed, only the changing tools are offered
        (see agent/progress): the model has read what it needs. Once it chose a file the task says
        not to change, a file writer's path is one of the other files the task names."""
        if self.profile.tool_mode is not ToolMode.GRAMMAR or not self.profile.action_format:
            return None
        toolset = self.dispatcher.toolset
        specs = offered_tools(toolset, self.profile, self.history, None)
        specs += named_specs(toolset, self.history, {s.name for s in specs})
        root = self.dispatcher.context.workspace
        specs = steered_specs(specs, toolset, self.history, root)
        return action_schema(specs, writable_paths(specs, toolset, self.history, root))

    async def _query(self) -> ModelResponse:
        await self.compact()
        self._running.schema = self._action_schema()
        for attempt in range(2):
            messages, tools = build_messages(self.system_prompt, self.history), self._tools()
            request = ModelRequest(
                messages=messages,
                tools=tools,
                temperature=self.temperature,
                max_tokens=self._cap(messages, tools),
                extra=self._extra(),
                stop_after_call=first_new_call(self.history, self.dispatcher.toolset)
                if self.profile.one_call_per_reply and self._schema is None
                else None,
            )
            try:
                sink = _thinking_aware(self.on_delta)
                with self.tracer.model_request(self.model.name, request) as span:
                    response = await self.model.complete(request, sink)
                    span.outcome(response)
                args = needs_body(response.content, self._schema) if self._schema is not None else None
                if args is not None:  # a write names its file; the next reply gives the text
                    response = await self._with_body(request, response, args, sink)
                return response
            except ContextOverflow as exc:
                learned = self._learn_window(exc, request)  # a smaller reply cap may be all it takes
                compacted = await self.compact(force=True, reason="the server said the context overflowed")
                if attempt or not (compacted or learned):
                    raise
            except StreamBroken as exc:
                if not self._overflowed(request) or attempt:
                    raise
                # llama-cpp-python answers a prompt past its window with 200, then breaks the stream
                self._learn_window(ContextOverflow(exc.message), request)
                if not await self.compact(
                    force=True, reason="the stream broke on a long prompt (an overflow)"
                ):
                    raise
        raise AssertionError("unreachable")

    async def _with_body(
        self, request: ModelRequest, action: ModelResponse, args: dict[str, Any], sink: DeltaSink | None
    ) -> ModelResponse:
        """A grammar-mode write's action with its text asked for (agent/body). A write of a file
        the task says not to change is refused whatever its text: none is asked for."""
        path = str(args.get("path"))
        if self._refusal("write", path):
            return without_body(action)
        now = current_text(self.dispatcher.context.paths, path)
        paths = self.dispatcher.context.paths
        made = mechanical_write(
            current_task(self.history), path, now, shown_texts(self.history), lambda p: current_text(paths, p)
        )
        if made is not None:  # a move or rename Hearth makes itself: no text is asked
            text, reason, said = made
            self.record(Notice(reason=reason, text=said))
            return made_body(action, text)
        refused = refused_texts(self.history, path)
        if now is not None and not settled(self.history, path):
            # written back unchanged: asked again. Not once its change worked with nothing wrong
            # since: the same text again is then the model's word that the file is done (the
            # 1.5B's docstrings, right, then the whole file twice more, asked again each time,
            # until the time ran out); it goes to the write, which says so and offers the finish.
            refused[now] = render("body_unchanged")
        notes: list[tuple[NoticeReason, str]] = []
        response = await with_body(
            self.model, request, action, args, sink, self.tracer, refused,
            current_task(self.history), now, notes,
        )  # fmt: skip
        for reason, text in notes:
            self.record(Notice(reason=reason, text=text))
        return response

    async def _in_time(self, work: Coroutine[Any, Any, ModelResponse]) -> ModelResponse:
        """The model's reply, or the turn's time limit: a reply still coming at the deadline is
        cancelled (a slow server must not keep a run past its --max-seconds)."""
        try:
            return await until(self.deadline, work)
        except DeadlinePassed:
            raise LimitReached(f"the time limit of {self.limits.max_seconds:.0f}s was reached") from None

    def _overflowed(self, request: ModelRequest) -> bool:
        """Whether a stream that broke (after the server answered) is most likely an overflow:
        the prompt is past half the window as far as Hearth knows it (a server that crashes on
        short prompts is not overflowing)."""
        if self.compactor is None:
            return False
        return estimate_tokens(request.messages, request.tools) > self.compactor.window // 2

    async def _reviewed_step(self, start: int) -> None:
        """A step whose finish, for a small model, stands only on evidence (agent/done runs the
        checks it finds; a finish they contradict goes back to the model and the turn goes on)."""
        try:
            await self.step(start)
        except TaskDone as done:
            if self.profile.small and not await self._review().accepts(self.history, done):
                return
            raise
        except Blocked:
            # a small model said BLOCKED over work the checks can judge ("app.log already has
            # this content"): a version of its file that the checks pass ends the turn done
            if self.profile.small and await self._review().rescued(self.history):
                raise _done_by_a_version() from None
            raise
        except FinishedOverFailure:
            # finished again over the same failing check: a version the checks pass still ends
            # the turn done, when a round of versions is left
            if self.profile.small and has_time(self.deadline) and await self._review().rescued(self.history):
                raise _done_by_a_version() from None
            raise
        # the same text written back over failing checks (the 1.5B's circle after a crash): other
        # versions of it now, and done when one passes and nothing else is wrong
        rewritten = stuck_rewrite(self.history) if self.profile.small else ""
        if rewritten:
            review = self._review()
            if await review.rescued(self.history):
                raise _done_by_a_version()
            review.end_if_versions_failed()
            # no version to try: writing what the file already holds is the model saying its work
            # is done (the 1.5B wrote a passing scores.py back until the loop guard stopped it, the
            # test the task asked never added), so it is judged as a finish: what the evidence
            # says is missing goes back, and nothing missing ends the turn done
            unchanged = TaskDone(render("rewrite_done"), final_text=render("rewrite_done"))
            if await review.accepts(self.history, unchanged, rewritten=rewritten):
                raise unchanged

    def _review(self) -> FinishReview:
        """The judge of a small model's finish, able to try versions of a file (agent/versions)."""
        versions = Versions(
            self.model,
            self.dispatcher,
            self.record,
            self.state,
            self.tracer,
            temperature=self.temperature,
            max_tokens=self._reply_cap,
            extra={key: value for key, value in self.sampling.items() if key != "max_tokens"},
            deadline=self.deadline,
            count=self.limits.versions,
        )
        return FinishReview(self.dispatcher, self.record, self.state, versions)

    async def _stuck(self, stuck: Stuck) -> StopRun:
        """How a turn stopped on a loop or the step limit ends: as its evidence says (agent/verdict).
        For a small model the verdict's "done" stands only when the finish review finds nothing
        wrong either (it runs the checks the verdict does not: a text-mode run whose changes all
        worked ended 0 over failing tests); not done, the turn ends done when a version of its
        file makes the checks pass."""
        blocked = person_needed(self.history, self.dispatcher)
        if blocked is not None:  # circling over what only a person can allow
            return blocked
        stop = self._verdict(stuck)
        if not self.profile.small:
            return stop
        review = self._review()
        if stop.status is Status.DONE:
            problem = await review.problem(self.history, "")
            if not problem:
                return stop
            text = render("verdict_contradicted", problem=problem)
            self.record(Notice(reason=NoticeReason.VERDICT, text=text))
            stop = LimitReached(text)
        if await review.rescued(self.history):
            return _done_by_a_version()
        return stop

    async def step(self, start: int) -> None:
        """One reply and what comes of it, the checks looking on at each stage (agent/checks).
        `start`: where this turn's events begin. Ends the turn by raising its stop."""
        response = await self._in_time(self._query())
        toolset, schema = self.dispatcher.toolset, self._schema
        reply, unparsed = reply_event(response, self.history, self.profile.tool_mode, toolset, schema)
        self.record(reply)
        if self.budget:
            await self._spend(self.budget, reply)
        cap = raised_cap(reply, unparsed, self._reply_cap, self.profile)
        if cap is not None:  # a reply cut in the middle of a call: the next ones get more room
            self._running.reply_cap = cap
        checks = for_profile(self.profile)
        view = StepView(
            events=self.history,
            start=start,
            reply=reply,
            toolset=toolset,
            profile=self.profile,
            workspace=self.dispatcher.context.workspace,
            work=self.work,
            carried=self.carried,
            unparsed=unparsed,
            grammar=schema is not None,
            cap_raised=cap,
        )
        if checks.run(Stage.REPLY, view, self.record) or unparsed:
            return  # a call that could not be read: nothing of the reply is acted on
        chosen = action_stop(reply, schema)
        if chosen is not None:  # grammar mode: the model chose finish or blocked
            self._stop(checks, view, chosen)
            return
        if not reply.tool_calls:
            if is_cut(reply) or checks.run(Stage.ANSWER, view, self.record):
                return  # a reply cut short is not an answer
            answer = answer_stop(reply.text)
            if answer is not None:  # None: a WAIT: whose time cannot be read
                self._stop(checks, view, answer)
            return
        await self._checkpoint_if_changing(reply)
        await self._run_calls(checks, view)
        # in grammar mode a finish is its own action, never a claim read from the text
        claimed = None if schema is not None else claimed_stop(view)
        if claimed is not None:
            self._stop(checks, view, claimed)
            return
        checks.run(Stage.CALLS, view, self.record)

    def _stop(self, checks: Checks, view: StepView, stop: StopRun) -> None:
        """End the turn with the stop the reply asks for, unless a finish check pushes it back
        (the model is told why, and the step ends)."""
        if not checks.run(Stage.FINISH, replace(view, stop=stop, work=self.work), self.record):
            raise stop

    async def _run_calls(self, checks: Checks, view: StepView) -> None:
        """Run the reply's calls in order, the CALL checks after each. A model held to one call
        per reply has the calls after the first answered without running them."""
        reply, ran = view.reply, False
        for call in reply.tool_calls:
            if self.profile.one_call_per_reply and not ran and self._repeat(call, reply):
                # A small model re-sends its whole plan each reply: the steps done, then the next.
                # Skipping the done ones (nothing changed since) lets the next one run.
                self.record(ToolResult(call_id=call.id, name=call.name, output=render("result_unchanged")))
                continue
            if ran and self.profile.one_call_per_reply:
                output = render("error_one_call")
                self.record(ToolResult(call_id=call.id, name=call.name, output=output, ok=False))
                continue
            ran = True
            await self._call(call)
            checks.run(Stage.CALL, view, self.record)  # a nudge here never keeps the other calls from results

    def _refusal(self, name: str, path: object) -> str:
        """The error for a call of tool `name` on `path` that the task's words refuse before it
        runs: a file it says not to change (agent/handsoff), a new file standing in for one it
        names (agent/misplaced); "" when the call may run."""
        task, root = task_of(self.history), self.dispatcher.context.workspace
        return refusal(task, root, name, path) or misplaced(task, root, name, path)

    def _tests_kept(self, name: str, call: ToolCall) -> str:
        """The error for a write or edit that would change a test the test file had, when the
        task asks to add one (agent/tests_added); "" when the call may run."""
        path = call.arguments.get("path")
        if name not in ("write", "edit") or not isinstance(path, str):
            return ""
        text = current_text(self.dispatcher.context.paths, path)
        new = written_text(name, call.arguments, text)
        if text is None or new is None:
            return ""
        shown = {os.path.normpath(n): t for n, t in shown_texts(self.history).items()}
        return changed_tests(task_of(self.history), path, text, new, shown)

    async def _call(self, call: ToolCall) -> None:
        """Dispatch one call and record what came of it. A write or edit of a file the task says
        not to change ("Do not change the tests") is refused without running (agent/handsoff)."""
        tool = self.dispatcher.toolset.get(call.name)
        refused = (
            self._refusal(tool.name, call.arguments.get("path")) or self._tests_kept(tool.name, call)
            if tool
            else ""
        )
        if refused:
            # the person's word, like the policy's: a refusal is its answer, not the work failing
            self.record(ToolResult(call_id=call.id, name=call.name, output=f"Denied: {refused}", ok=False))
            return
        seen = earlier_look(self.history, call, self.dispatcher.toolset)
        work = self.work.model_copy(deep=True)  # the tools change a draft; the event changes the state
        with self.tracer.tool_call(call) as span:
            *audit, result = await self.dispatcher.dispatch(call, self.state, work=work, caller=self)
            assert isinstance(result, ToolResult)
            span.outcome(result)
        for event in audit:
            self.record(event)
        if seen is not None and result.ok and result.output == seen[1]:
            # the same look, the same answer: the whole file again would only grow the prompt
            # (agent/guard reads the step's output back when it looks for loops)
            result = result.model_copy(update={"output": render("result_seen_unchanged", step=seen[0])})
        self.record(result)
        if work != self.work:
            self.record(WorkUpdated(state=work))
        if self.nested and result.ok and isinstance(call.arguments.get("path"), str):
            for folder, text in self.nested.found(call.arguments["path"], self.state.seen_folders):
                self.record(Notice(reason=NoticeReason.INSTRUCTIONS, text=text, folder=folder))

    def _verdict(self, stuck: Stuck) -> StopRun:
        """A turn stopped on a loop or the step limit ends as its evidence says (agent/verdict)."""
        stop = verdict.judge(self.history, stuck, self.dispatcher.toolset)
        if stop is not stuck:
            self.record(Notice(reason=NoticeReason.VERDICT, text=stop.reason))
        return stop

    def _repeat(self, call: ToolCall, reply: ModelReply) -> bool:
        """A call that already worked in this turn, with no other change since, in a reply with
        more calls after it (a re-sent plan: running it again would change or show nothing new)."""
        if self.dispatcher.toolset.get(call.name) is None or call.error or reply.tool_calls[-1] is call:
            return False
        writes = {t.name for t in self.dispatcher.toolset if not t.read_only}
        return seen_unchanged(self.history, call.name, call.arguments, writes)

    async def _spend(self, budget: TokenBudget, reply: ModelReply) -> None:
        action = budget.due(TokenBudget.cost(reply.usage))  # recording the reply counted it
        if action is BudgetAction.NONE:
            return
        if action is BudgetAction.STOP:
            raise LimitReached(f"the token budget of {budget.limit} tokens is used up")
        percent = round(100 * budget.used / budget.limit)
        if action is BudgetAction.ARCHIVE:
            where = self.archive(self.history) if self.archive else "nowhere (no archive configured)"
            await self.compact(
                force=True, reason=f"token budget {percent}% used; transcript archived to {where}"
            )
            advice = f"Earlier work was archived to {where} and compacted. Finish what matters most now."
        else:
            advice = "Wrap up: finish the most important open todos and skip the rest."
        text = render("notice_budget", used=budget.used, budget=budget.limit, percent=percent, advice=advice)
        self.record(Notice(reason=NoticeReason.BUDGET, text=text))

    async def _checkpoint_if_changing(self, reply: ModelReply) -> None:
        if self.checkpoint is None:
            return
        tools = [self.dispatcher.toolset.get(c.name) for c in reply.tool_calls]
        if any(t is not None and not t.read_only for t in tools):
            steps = sum(1 for e in self.history if isinstance(e, ModelReply))
            # git runs in a thread: other sessions on the same loop (the web UI) are not held up
            checkpoint = await asyncio.to_thread(self.checkpoint, f"before step {steps}")
            self.record(Checkpointed(id=checkpoint, step=steps))


def _thinking_aware(sink: DeltaSink | None) -> DeltaSink | None:
    """Route `<think>` text in streamed content to the thinking channel, live."""
    if sink is None:
        return None
    splitter = ThinkSplitter()

    def forward(delta: Delta) -> None:
        if delta.kind != "text":
            sink(delta)
            return
        for kind, piece in splitter.feed(delta.text):
            sink(Delta("thinking" if kind == "thinking" else "text", piece))

    return forward
