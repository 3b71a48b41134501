"""The agent loop: query, parse, permit and execute, record. Stopping is an exception.

The agent holds configuration only; the session's state is its event list,
persisted through the store as each event happens.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hearth.agent import verdict
from hearth.agent.budget import BudgetAction, TokenBudget
from hearth.agent.compaction import Compactor, estimate_tokens
from hearth.agent.context import build_messages
from hearth.agent.dispatch import Dispatcher
from hearth.agent.done import FinishReview
from hearth.agent.early_stop import first_new_call
from hearth.agent.eventlog import log_event
from hearth.agent.finish import (
    BadWait,
    answer_text,
    claims_completion,
    final_answer,
    imitates_results,
    marker_stop,
)
from hearth.agent.guard import LoopGuard
from hearth.agent.instructions import NestedInstructions
from hearth.agent.named_files import split_present
from hearth.agent.offered import offered_tools
from hearth.agent.progress import earlier_look, named_specs, steered_specs
from hearth.agent.remedy import remedy
from hearth.agent.reply import action_stop, reply_event
from hearth.agent.tracing import NO_TRACING, Tracer
from hearth.agent.turn import (
    claims_in_a_row,
    last_result,
    not_run_before,
    seen_unchanged,
    stopped_after_a_call,
    tried_a_tool,
)
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
    Status,
    ToolResult,
    UserMessage,
    WindowLearned,
    WorkUpdated,
)
from hearth.core.protocols import Delta, DeltaSink, EventStore, Model, ModelRequest, ModelResponse
from hearth.core.types import Message, ToolCall, ToolSpec
from hearth.core.work import WorkState
from hearth.llm.actions import action_schema, response_format
from hearth.llm.client import STOPPED_AFTER_CALL
from hearth.llm.profiles import ModelProfile, ToolMode
from hearth.llm.thinking import ThinkSplitter
from hearth.prompts import render

log = logging.getLogger(__name__)

MIN_REPLY_TOKENS = 256  # a reply cap never goes below this, however full the window
# The start of a line of Hearth's own "Result of <tool>:" block, taken from its template.
RESULT_STOP = "\n" + render("tool_result_text", name="\x00", output="").split("\x00", 1)[0]


@dataclass(frozen=True)
class Limits:
    max_iterations: int = 50
    max_seconds: float = 3600.0


@dataclass
class Agent:
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
    history: list[Event] = field(default_factory=list)
    compactor: Compactor | None = None
    nested: NestedInstructions | None = None
    budget: TokenBudget | None = None
    archive: Callable[[list[Event]], str] | None = None  # writes the transcript somewhere; says where
    checkpoint: Callable[[str], str] | None = None  # records the workspace before a changing step
    sampling: dict[str, Any] = field(default_factory=dict)  # a role's top_p, seed, max_tokens, stop
    parent_deadline: float | None = None  # a sub-agent's turn ends when its parent's does
    deadline: float | None = None  # time.monotonic() when the running turn must end
    tracer: Tracer = NO_TRACING  # spans for each turn, model request and tool call (runtime/traces.py)
    on_window: Callable[[int], None] | None = None  # told a window the server stated (to remember it)
    # max_tokens sent with each reply: the role's or the profile's cap, raised when a reply is cut mid-call
    _reply_cap: int = field(default=0, init=False)
    _schema: dict[str, Any] | None = field(default=None, init=False)  # grammar mode: this step's action
    # What was open when the person's latest message came: carried over from an earlier turn (still
    # shown to the model), it does not hold up a finish of this one, which may be about something else.
    carried: frozenset[str] = field(default=frozenset(), init=False)

    def __post_init__(self) -> None:
        self._reply_cap = int(self.sampling.get("max_tokens") or self.profile.max_reply_tokens)

    def record(self, event: Event) -> None:
        self.store.append(self.session_id, event)
        self.history.append(event)
        log_event(self.session_id, event)
        if self.on_event:
            self.on_event(self.session_id, event)

    async def run(self, *opening: str | UserMessage | HearthMessage) -> Finished:
        """Work on one turn (the person's words, and Hearth's own lines with them) until the model
        finishes, stops, or a limit hits. A plain string is the person's message."""
        with self.tracer.turn(self.session_id, self.model.name) as span:
            finished = await self._run(opening)
            span.outcome(finished)
        return finished

    async def _run(self, opening: tuple[str | UserMessage | HearthMessage, ...]) -> Finished:
        if any(isinstance(m, str | UserMessage) for m in opening):  # a new message from the person
            self.carried = frozenset(self.work.unfinished())
        for message in opening:
            self.record(UserMessage(text=message) if isinstance(message, str) else message)
        guard = LoopGuard()
        deadline = time.monotonic() + self.limits.max_seconds
        if self.parent_deadline is not None:
            deadline = min(deadline, self.parent_deadline)
        self.deadline = deadline
        try:
            try:
                for _ in range(self.limits.max_iterations):
                    if time.monotonic() > deadline:
                        raise LimitReached(f"the time limit of {self.limits.max_seconds:.0f}s was reached")
                    await self.step(guard)
                raise Stuck(f"the limit of {self.limits.max_iterations} iterations was reached")
            except Stuck as stuck:
                raise self._verdict(stuck) from None
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

    async def step(self, guard: LoopGuard) -> None:
        try:
            await self._step(guard)
        except _Continue:
            return
        except TaskDone as done:
            if not await self._review(done):
                return  # the evidence contradicts the finish: the model was told what is missing
            raise

    async def _review(self, done: TaskDone) -> bool:
        """A small model's finish stands only on evidence (agent/done runs the checks it finds)."""
        if not self.profile.small:
            return True
        return await FinishReview(self.dispatcher, self.record).accepts(self.history, done)

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
        self.compactor.learn(window)
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
        (see agent/progress): the model has read what it needs."""
        if self.profile.tool_mode is not ToolMode.GRAMMAR or not self.profile.action_format:
            return None
        toolset = self.dispatcher.toolset
        specs = offered_tools(toolset, self.profile, self.history, None)
        specs += named_specs(toolset, self.history, {s.name for s in specs})
        return action_schema(steered_specs(specs, toolset, self.history))

    async def _query(self) -> ModelResponse:
        await self.compact()
        self._schema = self._action_schema()
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
                with self.tracer.model_request(self.model.name, request) as span:
                    response = await self.model.complete(request, _thinking_aware(self.on_delta))
                    span.outcome(response)
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

    def _overflowed(self, request: ModelRequest) -> bool:
        """Whether a stream that broke (after the server answered) is most likely an overflow:
        the prompt is past half the window as far as Hearth knows it (a server that crashes on
        short prompts is not overflowing)."""
        if self.compactor is None:
            return False
        return estimate_tokens(request.messages, request.tools) > self.compactor.window // 2

    async def _step(self, guard: LoopGuard) -> None:  # noqa: C901
        response = await self._query()
        toolset, schema = self.dispatcher.toolset, self._schema
        reply, unparsed = reply_event(response, self.history, self.profile.tool_mode, toolset, schema)
        self.record(reply)
        if self.budget:
            await self._spend(self.budget, reply)
        cut = self._note_cut(reply, unparsed)
        if unparsed:
            text = unparsed if schema is not None else render("notice_unparsed_call", error=unparsed)
            self.record(Notice(reason="unparsed_call", text=text))
            return
        chosen = action_stop(reply, schema)
        if chosen is not None:  # grammar mode: the model chose finish or blocked
            self._check_finish(chosen, guard)
            raise chosen
        if not reply.tool_calls:
            if cut:
                return  # a reply cut short is not an answer
            if not reply.text.strip():
                guard.empty_reply()
                self.record(Notice(reason="empty_reply", text=render("notice_empty_reply")))
                return
            try:
                final = final_answer(reply.text)
            except BadWait as exc:
                self.record(Notice(reason="bad_wait", text=render("notice_bad_wait", error=str(exc))))
                return
            self._check_finish(final, guard)
            raise final
        guard.reply_with_content()
        await self._checkpoint_if_changing(reply)
        all_ok = True
        read_only = True
        ran = False
        for call in reply.tool_calls:
            tool = self.dispatcher.toolset.get(call.name)
            read_only = read_only and tool is not None and tool.read_only
            if self.profile.one_call_per_reply and not ran and self._repeat(call, reply):
                # A small model re-sends its whole plan each reply: the steps done, then the next.
                # Skipping the done ones (nothing changed since) lets the next one run.
                self.record(ToolResult(call_id=call.id, name=call.name, output=render("result_unchanged")))
                continue
            if ran and self.profile.one_call_per_reply:
                skipped = ToolResult(
                    call_id=call.id, name=call.name, output=render("error_one_call"), ok=False
                )
                self.record(skipped)
                all_ok = False
                continue
            ran = True
            seen = earlier_look(self.history, call, self.dispatcher.toolset)
            work_before = self.work.model_dump()
            with self.tracer.tool_call(call) as span:
                *audit, result = await self.dispatcher.dispatch(call)
                assert isinstance(result, ToolResult)
                span.outcome(result)
            for event in audit:
                self.record(event)
            full = result.output
            if seen is not None and result.ok and full == seen[1]:
                # the same look, the same answer: the whole file again would only grow the prompt
                result = result.model_copy(update={"output": render("result_seen_unchanged", step=seen[0])})
            self.record(result)
            if self.work.model_dump() != work_before:
                self.record(WorkUpdated(state=self.work.model_copy(deep=True)))
            all_ok = all_ok and result.ok
            if self.nested and result.ok and isinstance(call.arguments.get("path"), str):
                for folder, text in self.nested.found(call.arguments["path"]):
                    self.record(Notice(reason="instructions", text=text, folder=folder))
            pattern = guard.call_result(call, result.ok, full)
            if pattern:
                self.record(Notice(reason="loop", text=render("notice_loop", pattern=pattern)))
        # in grammar mode a finish is its own action, never a claim read from the text
        stop = (
            None
            if schema is not None
            else self._stop_next_to_calls(reply, all_ok=all_ok, read_only=read_only)
        )
        if stop is not None:
            self._check_finish(stop, guard)
            raise stop

    def _verdict(self, stuck: Stuck) -> StopRun:
        """A turn stopped on a loop or the step limit ends as its evidence says (agent/verdict)."""
        stop = verdict.judge(self.history, stuck, self.dispatcher.toolset)
        if stop is not stuck:
            self.record(Notice(reason="verdict", text=stop.reason))
        return stop

    def _repeat(self, call: ToolCall, reply: ModelReply) -> bool:
        """A call that already worked in this turn, with no other change since, in a reply with
        more calls after it (a re-sent plan: running it again would change or show nothing new)."""
        if self.dispatcher.toolset.get(call.name) is None or call.error or reply.tool_calls[-1] is call:
            return False
        writes = {t.name for t in self.dispatcher.toolset if not t.read_only}
        return seen_unchanged(self.history, call.name, call.arguments, writes)

    def _stop_next_to_calls(self, reply: ModelReply, *, all_ok: bool, read_only: bool) -> StopRun | None:
        """A stop asked for in a reply that also called tools, once they have run.

        WAIT stands when every call worked. BLOCKED does not: the model has not seen the
        results. A completion claim is a finish only when it repeats a claim the model made
        before seeing the results of its last calls, and this reply's calls are read-only
        checks that all worked (or the model has claimed so three times in a row, all calls
        working); a reply that imitates a tool result is never a finish.
        """
        try:
            stop = marker_stop(reply.text) if all_ok else None
        except BadWait:
            stop = None
        if isinstance(stop, Waiting):
            return stop
        if not claims_completion(reply.text):
            return None
        claims = claims_in_a_row(self.history)
        if all_ok and not imitates_results(reply.text) and ((claims >= 2 and read_only) or claims >= 3):
            return TaskDone("the model said the task is complete", final_text=answer_text(reply.text))
        if claims == 1:
            self.record(Notice(reason="claim_with_calls", text=render("notice_claim_with_calls")))
        return None

    def _note_cut(self, reply: ModelReply, unparsed: str | None) -> bool:
        """Tell the model when its reply was cut (by the token cap or for repeating itself).

        A reply cut in the middle of a tool call raises the cap for the next replies.
        """
        reason = reply.finish_reason
        if reason not in ("length", "repetition"):
            return False
        mid_call = bool(unparsed) or any(c.error or c.repaired for c in reply.tool_calls)
        thinking_only = not reply.text.strip() and not reply.tool_calls and bool(reply.thinking)
        raised = ""
        if (
            reason == "length"
            and (mid_call or thinking_only)
            and self._reply_cap < self.profile.max_reply_tokens * 4
        ):
            self._reply_cap *= 2
            raised = render("notice_cap_raised", cap=self._reply_cap)
        template = "notice_reply_repeating" if reason == "repetition" else "notice_reply_cut"
        where = ", in the middle of a tool call, so that call was not run" if mid_call else ""
        text = " ".join(render(template, where=where, raised=raised).split())
        self.record(Notice(reason="reply_cut", text=text))
        return True

    async def _spend(self, budget: TokenBudget, reply: ModelReply) -> None:
        action = budget.spend(reply.usage)
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
        self.record(Notice(reason="budget", text=text))

    async def _checkpoint_if_changing(self, reply: ModelReply) -> None:
        if self.checkpoint is None:
            return
        tools = [self.dispatcher.toolset.get(c.name) for c in reply.tool_calls]
        if any(t is not None and not t.read_only for t in tools):
            steps = sum(1 for e in self.history if isinstance(e, ModelReply))
            # git runs in a thread: other sessions on the same loop (the web UI) are not held up
            checkpoint = await asyncio.to_thread(self.checkpoint, f"before step {steps}")
            self.record(Checkpointed(id=checkpoint, step=steps))

    @property
    def work(self) -> WorkState:
        return self.dispatcher.context.work

    def _check_finish(self, stop: StopRun, guard: LoopGuard) -> None:
        """A finish is refused (the model is told what is open) while tracked work remains.

        A BLOCKED before any tool was tried in this turn is pushed back once (twice, naming them,
        when files the task mentions are in the workspace): weak models reach for it at the first
        difficulty. A BLOCKED right after an error whose message names a
        remedy is pushed back once per error, with that remedy. A BLOCKED after that stands.
        """
        if isinstance(stop, Blocked):
            task = next((e.text for e in reversed(self.history) if isinstance(e, UserMessage)), "")
            present = split_present(self.dispatcher.context.workspace, task)[0]
            # files the task names are there to read: pushed back twice, naming them
            if guard.push_back_blocked(tried=tried_a_tool(self.history), times=2 if present else 1):
                there = " " + render("notice_blocked_named", names=", ".join(present)) if present else ""
                self.record(Notice(reason="blocked_early", text=render("notice_blocked_early", there=there)))
                raise _Continue
        if isinstance(stop, Blocked):
            failed = last_result(self.history)
            fixable = failed is not None and not failed.ok and not failed.output.startswith("Denied:")
            advice = remedy(failed.output) if fixable and failed is not None else ""
            if advice and failed is not None and guard.push_back_blocked_after_error(failed.output):
                text = render("notice_blocked_after_error", remedy=advice)
                self.record(Notice(reason="blocked_after_error", text=text))
                raise _Continue
        if not isinstance(stop, TaskDone):
            return
        skipped = not_run_before(self.history, render("error_one_call"))
        if skipped:  # a finish right after calls that were never run: their work was not done
            self.record(
                Notice(reason="calls_not_run", text=render("notice_calls_not_run", calls=", ".join(skipped)))
            )
            raise _Continue
        if stopped_after_a_call(self.history, STOPPED_AFTER_CALL) and guard.push_back_after_cut():
            self.record(Notice(reason="calls_not_run", text=render("notice_reply_stopped")))
            raise _Continue
        self._check_evidence(guard)
        open_items = [item for item in self.work.unfinished() if item not in self.carried]
        if open_items:
            guard.refused_finish(len(open_items))
            items = "\n".join(f"- {item}" for item in open_items[:20])
            self.record(Notice(reason="finish_refused", text=render("notice_finish_refused", items=items)))
            raise _Continue

    def _check_evidence(self, guard: LoopGuard) -> None:
        """A finish right after a check that failed (the last shell or python run, with nothing
        changed since) is pushed back once per failure; finishing again over the same failure
        ends the turn as not done (exit 2): the evidence says the work does not work."""
        evidence = verdict.Evidence.of(self.history, self.dispatcher.toolset)
        failed = evidence.checks_after[-1] if evidence.checks_after else None
        if failed is None or failed.ok or failed.output.startswith("Denied:"):
            return  # a refused run is the policy's answer, not the work failing
        tail = "\n".join(failed.output.strip().splitlines()[-6:])[-600:]
        if guard.push_back_failed_check(failed.output):
            text = render("notice_finish_after_failure", tool=failed.name, output=tail)
            self.record(Notice(reason="finish_after_failure", text=text))
            raise _Continue
        raise LimitReached(
            f"the model finished, but its last {failed.name} run failed and nothing changed since"
        )


class _Continue(Exception):
    """Raised inside a step to end it early and go on with the next one."""


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
