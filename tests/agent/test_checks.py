"""The loop's defences as checks (agent/checks): each one on a small event list, the order they
run in, the profile choosing the set, and the step running them on a scripted model."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from pathlib import Path
from typing import cast

import pytest

from hearth.agent.checks import STANDARD, Checks, Nudge, Stage, StepView, claimed_stop, for_profile
from hearth.agent.checks.answer import BadWaitTime, EmptyReply
from hearth.agent.checks.calls import ClaimWithCalls, Loop
from hearth.agent.checks.finish import (
    BlockedAfterError,
    BlockedEarly,
    CallsNotRun,
    FinishAfterFailure,
    FinishRefused,
    ReplyStopped,
)
from hearth.agent.checks.reply import ReplyCut, UnparsedCall, raised_cap
from hearth.agent.dispatch import Dispatcher
from hearth.agent.loop import Agent, Limits
from hearth.agent.policy import PermissionMode, PermissionPolicy
from hearth.agent.prompt import system_prompt
from hearth.core.errors import Blocked, LimitReached, StopRun, Stuck, TaskDone, Waiting
from hearth.core.events import (
    Event,
    EventBase,
    ModelReply,
    Notice,
    NoticeReason,
    Status,
    ToolResult,
    UserMessage,
    parse_event,
)
from hearth.core.types import ToolCall
from hearth.core.work import Todo, WorkState
from hearth.llm.client import STOPPED_AFTER_CALL
from hearth.llm.profiles import ModelProfile, ToolMode
from hearth.prompts import render
from hearth.sandbox.paths import SafePaths
from hearth.store.sessions import SessionStore
from hearth.testing import ScriptedModel, ScriptedReply
from hearth.tools.base import RunContext, Tool, ToolInput
from hearth.tools.builtin.files import file_tools
from hearth.tools.toolset import Toolset


class Shell(ToolInput):
    """Run a command (a stand-in: only its name matters to the checks)."""

    command: str = ""


TOOLS = Toolset([*file_tools(), Tool("shell", Shell, lambda a, c: "")])


def reply(text: str = "", *calls: ToolCall, finish_reason: str | None = None) -> ModelReply:
    return ModelReply(text=text, tool_calls=calls, finish_reason=finish_reason)


def call(call_id: str, name: str, **arguments: object) -> ToolCall:
    return ToolCall(id=call_id, name=name, arguments=arguments)


def result(call_id: str, name: str, output: str, ok: bool = True) -> ToolResult:
    return ToolResult(call_id=call_id, name=name, output=output, ok=ok)


def notice(reason: NoticeReason, text: str = "said before") -> Notice:
    return Notice(reason=reason, text=text)


def view(
    events: Sequence[EventBase],
    *,
    stop: StopRun | None = None,
    workspace: Path = Path("/nonexistent"),
    work: WorkState | None = None,
    unparsed: str | None = None,
    cap_raised: int | None = None,
) -> StepView:
    """The step as a check sees it: `events` is the whole turn, its last reply the current one."""
    latest = next(e for e in reversed(events) if isinstance(e, ModelReply))
    return StepView(
        events=cast(list[Event], list(events)),
        start=0,
        reply=latest,
        toolset=TOOLS,
        profile=ModelProfile(small=True),
        workspace=workspace,
        work=work or WorkState(),
        unparsed=unparsed,
        cap_raised=cap_raised,
        stop=stop,
    )


TASK = UserMessage(text="fix the bug")
DONE = TaskDone("the model said the task is complete")


# -- each check on a small event list ---------------------------------------------------------


def test_reply_cut_says_where_and_goes_on() -> None:
    cut = reply("half a", call("c1", "write", path="a.py"), finish_reason="length")
    assert ReplyCut().check(view([TASK, reply("whole")])) is None
    nudge = ReplyCut().check(view([TASK, cut], unparsed="no closing brace", cap_raised=2048))
    assert isinstance(nudge, Nudge) and nudge.goes_on
    assert nudge.reason is NoticeReason.REPLY_CUT
    assert "in the middle of a tool call" in nudge.text and "2048" in nudge.text


def test_the_reply_cap_doubles_only_for_a_call_cut_by_the_cap_and_only_so_far() -> None:
    profile = ModelProfile(max_reply_tokens=1000)
    mid_call = reply("", call("c1", "write", path="a.py"), finish_reason="length")
    mid_call = mid_call.model_copy(
        update={"tool_calls": (mid_call.tool_calls[0].model_copy(update={"repaired": True}),)}
    )
    assert raised_cap(mid_call, None, 1000, profile) == 2000
    assert raised_cap(mid_call, None, 4000, profile) is None  # four times the profile's is the most
    assert raised_cap(reply("prose", finish_reason="length"), None, 1000, profile) is None
    assert raised_cap(reply("", finish_reason="repetition"), "broken", 1000, profile) is None


def test_unparsed_call_ends_the_step_with_the_error() -> None:
    assert UnparsedCall().check(view([TASK, reply("ok")])) is None
    nudge = UnparsedCall().check(view([TASK, reply("```json {")], unparsed="Expecting value"))
    assert isinstance(nudge, Nudge) and not nudge.goes_on
    assert nudge.reason is NoticeReason.UNPARSED_CALL and "Expecting value" in nudge.text


def test_empty_replies_are_counted_in_the_events_and_the_third_in_a_row_stops() -> None:
    assert EmptyReply().check(view([TASK, reply("an answer")])) is None
    first = EmptyReply().check(view([TASK, reply("")]))
    assert isinstance(first, Nudge) and first.reason is NoticeReason.EMPTY_REPLY
    two_before = [
        TASK,
        reply(""),
        notice(NoticeReason.EMPTY_REPLY),
        reply(""),
        notice(NoticeReason.EMPTY_REPLY),
    ]
    stop = EmptyReply().check(view([*two_before, reply("")]))
    assert isinstance(stop, LimitReached) and "3 empty replies" in stop.reason
    # a reply with calls between them starts the count again
    between = [*two_before, reply("", call("c1", "read", path="a")), result("c1", "read", "x"), reply("")]
    assert isinstance(EmptyReply().check(view(between)), Nudge)


def test_a_wait_whose_time_cannot_be_read_is_said_back() -> None:
    assert BadWaitTime().check(view([TASK, reply("WAIT: 2030-01-01T10:00: the build")])) is None
    nudge = BadWaitTime().check(view([TASK, reply("WAIT: tomorrow: the build")]))
    assert isinstance(nudge, Nudge) and nudge.reason is NoticeReason.BAD_WAIT and "'tomorrow'" in nudge.text


def _same_failing_calls(n: int) -> list[EventBase]:
    events: list[EventBase] = [TASK]
    for i in range(n):
        events += [
            reply("", call(f"c{i}", "read", path="gone.txt")),
            result(f"c{i}", "read", "No such file", ok=False),
        ]
    return events


def test_loop_names_a_failing_call_repeated_once_then_stops_it() -> None:
    assert Loop().check(view(_same_failing_calls(1))) is None
    nudge = Loop().check(view(_same_failing_calls(2)))
    assert isinstance(nudge, Nudge) and nudge.goes_on and nudge.reason is NoticeReason.LOOP
    assert "the same failing call 2 times" in nudge.text
    assert isinstance(Loop().check(view(_same_failing_calls(3))), Stuck)


def test_loop_nudges_each_kind_once_a_turn_counted_from_the_events() -> None:
    """Two calls alternating: named at six; at seven (still alternating) not again; eight stops."""

    def alternating(n: int) -> list[EventBase]:
        events: list[EventBase] = [TASK]
        for i in range(n):
            path = "a.txt" if i % 2 == 0 else "b.txt"
            events += [reply("", call(f"c{i}", "read", path=path)), result(f"c{i}", "read", f"v{i}")]
        return events

    assert Loop().check(view(alternating(5))) is None
    nudge = Loop().check(view(alternating(6)))
    assert isinstance(nudge, Nudge) and "alternating" in nudge.text
    assert Loop().check(view(alternating(7))) is None
    assert isinstance(Loop().check(view(alternating(8))), Stuck)


def test_loop_reads_a_look_shortened_to_unchanged_as_the_output_it_had() -> None:
    """The loop records a repeated look as "unchanged since step N"; the guard sees the same
    result each time, so the same read four times is named at three and stopped at four."""
    events: list[EventBase] = [TASK]
    for i in range(4):
        output = "the file" if i == 0 else render("result_seen_unchanged", step=1)
        events += [reply("", call(f"c{i}", "read", path="a.txt")), result(f"c{i}", "read", output)]
        found = Loop().check(view(events))
        if i < 2:
            assert found is None
        elif i == 2:
            assert isinstance(found, Nudge) and "the same call with the same result 3 times" in found.text
        else:
            assert isinstance(found, Stuck)


def test_a_claim_next_to_calls_is_a_finish_only_when_repeated_over_checks_that_worked() -> None:
    first = [TASK, reply("Done. TASK_COMPLETE", call("c1", "write", path="a")), result("c1", "write", "ok")]
    assert claimed_stop(view(first)) is None
    nudge = ClaimWithCalls().check(view(first))
    assert isinstance(nudge, Nudge) and nudge.reason is NoticeReason.CLAIM_WITH_CALLS and nudge.goes_on
    again = [*first, reply("TASK_COMPLETE", call("c2", "read", path="a")), result("c2", "read", "x")]
    assert isinstance(claimed_stop(view(again)), TaskDone)
    assert ClaimWithCalls().check(view(again)) is None  # said once a claim run
    failed = [
        *first,
        reply("TASK_COMPLETE", call("c2", "read", path="a")),
        result("c2", "read", "x", ok=False),
    ]
    assert claimed_stop(view(failed)) is None
    waiting = [
        TASK,
        reply("WAIT: 2030-01-01T10:00: ci", call("c1", "read", path="a")),
        result("c1", "read", "x"),
    ]
    assert isinstance(claimed_stop(view(waiting)), Waiting)


def test_blocked_before_trying_anything_is_pushed_back_once_twice_when_named_files_are_there(
    workspace: Path,
) -> None:
    blocked = Blocked("no path given")
    task = UserMessage(text="fix greet.py")
    early = BlockedEarly()
    assert early.check(view([task, reply("BLOCKED: no path")], stop=DONE)) is None  # not a BLOCKED
    nudge = early.check(view([task, reply("BLOCKED: no path")], stop=blocked))
    assert isinstance(nudge, Nudge) and nudge.reason is NoticeReason.BLOCKED_EARLY
    once = [task, reply("BLOCKED: x"), notice(NoticeReason.BLOCKED_EARLY), reply("BLOCKED: x")]
    assert early.check(view(once, stop=blocked)) is None
    (workspace / "greet.py").write_text("print('hi')\n")
    named = early.check(view(once, stop=blocked, workspace=workspace))
    assert isinstance(named, Nudge) and "greet.py" in named.text
    tried = [task, reply("", call("c1", "ls")), result("c1", "ls", "a"), reply("BLOCKED: x")]
    assert early.check(view(tried, stop=blocked)) is None


def test_blocked_on_an_error_that_names_a_remedy_gets_it_back_once_per_error() -> None:
    error = "fatal: not a git repository\nhint: use git init to create one"
    events = [TASK, reply("", call("c1", "shell", command="git log")), result("c1", "shell", error, ok=False)]
    check = BlockedAfterError()
    nudge = check.check(view([*events, reply("BLOCKED: no repo")], stop=Blocked("no repo")))
    assert isinstance(nudge, Nudge) and "use git init" in nudge.text
    again = [
        *events,
        reply("BLOCKED: no repo"),
        notice(NoticeReason.BLOCKED_AFTER_ERROR),
        reply("BLOCKED: still"),
    ]
    assert check.check(view(again, stop=Blocked("no repo"))) is None
    denied = [TASK, reply("", call("c1", "shell")), result("c1", "shell", "Denied: use another", ok=False)]
    assert check.check(view([*denied, reply("BLOCKED")], stop=Blocked("denied"))) is None


def test_a_finish_right_after_calls_that_never_ran_is_pushed_back() -> None:
    not_run = render("error_one_call")
    events = [
        TASK,
        reply("", call("c1", "write", path="a"), call("c2", "write", path="b")),
        result("c1", "write", "ok"),
        result("c2", "write", not_run, ok=False),
        reply("TASK_COMPLETE"),
    ]
    nudge = CallsNotRun().check(view(events, stop=DONE))
    assert isinstance(nudge, Nudge) and nudge.reason is NoticeReason.CALLS_NOT_RUN and "write" in nudge.text
    assert CallsNotRun().check(view(events, stop=Blocked("x"))) is None


def test_a_finish_after_a_reply_stopped_at_its_first_call_is_pushed_back_once_a_turn() -> None:
    stopped = [
        TASK,
        reply("", call("c1", "write", path="a"), finish_reason=STOPPED_AFTER_CALL),
        result("c1", "write", "ok"),
    ]
    nudge = ReplyStopped().check(view([*stopped, reply("TASK_COMPLETE")], stop=DONE))
    assert isinstance(nudge, Nudge) and nudge.text == render("notice_reply_stopped")
    said = [*stopped, reply("TASK_COMPLETE"), notice(NoticeReason.CALLS_NOT_RUN, nudge.text)]
    said += [
        reply("", call("c2", "write", path="b"), finish_reason=STOPPED_AFTER_CALL),
        result("c2", "write", "ok"),
    ]
    assert ReplyStopped().check(view([*said, reply("TASK_COMPLETE")], stop=DONE)) is None


def test_a_finish_over_a_failed_check_is_pushed_back_once_then_ends_the_turn_not_done() -> None:
    failed = [
        TASK,
        reply("", call("c1", "write", path="a.py")),
        result("c1", "write", "wrote a.py"),
        reply("", call("c2", "shell", command="pytest")),
        result("c2", "shell", "1 failed\nexit code 1", ok=False),
    ]
    nudge = FinishAfterFailure().check(view([*failed, reply("TASK_COMPLETE")], stop=DONE))
    assert (
        isinstance(nudge, Nudge)
        and nudge.reason is NoticeReason.FINISH_AFTER_FAILURE
        and "1 failed" in nudge.text
    )
    again = [
        *failed,
        reply("TASK_COMPLETE"),
        notice(NoticeReason.FINISH_AFTER_FAILURE),
        reply("TASK_COMPLETE"),
    ]
    stop = FinishAfterFailure().check(view(again, stop=DONE))
    assert isinstance(stop, LimitReached) and "last shell run failed" in stop.reason
    passed = [*failed, reply("", call("c3", "shell", command="pytest")), result("c3", "shell", "ok")]
    assert FinishAfterFailure().check(view([*passed, reply("TASK_COMPLETE")], stop=DONE)) is None


def test_a_finish_with_open_work_is_refused_and_the_third_ends_the_turn() -> None:
    work = WorkState(todos=[Todo(id=1, text="write the tests")])
    events: list[EventBase] = [TASK, reply("TASK_COMPLETE")]
    assert FinishRefused().check(view(events, stop=DONE)) is None  # nothing open
    nudge = FinishRefused().check(view(events, stop=DONE, work=work))
    assert isinstance(nudge, Nudge) and "todo 1: write the tests" in nudge.text
    for _ in range(2):
        events += [notice(NoticeReason.FINISH_REFUSED), reply("TASK_COMPLETE")]
    stop = FinishRefused().check(view(events, stop=DONE, work=work))
    assert isinstance(stop, LimitReached) and "3 times with 1 item(s) still open" in stop.reason


def test_counts_start_at_the_turn_not_the_session() -> None:
    """What a check counts is this turn's: nudges of an earlier turn are not held against it."""
    earlier = [TASK, reply(""), notice(NoticeReason.EMPTY_REPLY), reply(""), notice(NoticeReason.EMPTY_REPLY)]
    latest = reply("")
    events = [*earlier, UserMessage(text="go on"), latest]
    turn = StepView(
        events=cast(list[Event], events),
        start=len(earlier),
        reply=latest,
        toolset=TOOLS,
        profile=ModelProfile(),
        workspace=Path("/nonexistent"),
        work=WorkState(),
    )
    assert isinstance(EmptyReply().check(turn), Nudge)


# -- the order, and the profile choosing the set --------------------------------------------


def test_the_standard_set_is_listed_once_in_the_order_the_step_meets_the_stages() -> None:
    names = [check.name for check in STANDARD]
    assert names == [
        "reply_cut",
        "unparsed_call",
        "empty_reply",
        "bad_wait",
        "loop",
        "claim_with_calls",
        "blocked_early",
        "blocked_after_error",
        "calls_not_run",
        "reply_stopped",
        "finish_after_failure",
        "finish_refused",
    ]
    stages = [check.stage for check in STANDARD]
    order = list(Stage)
    assert stages == sorted(stages, key=order.index)


def test_the_profile_chooses_the_set() -> None:
    small = for_profile(ModelProfile(small=True)).names
    assert small == [check.name for check in STANDARD]
    large = for_profile(ModelProfile()).names
    assert "calls_not_run" not in large and "reply_stopped" not in large  # one call per reply only
    grammar = for_profile(
        ModelProfile(small=True, tool_mode=ToolMode.GRAMMAR, action_format="json_schema")
    ).names
    assert "claim_with_calls" not in grammar  # a finish there is its own action
    chosen = for_profile(ModelProfile(checks=("finish_refused", "reply_cut"))).names
    assert chosen == ["finish_refused", "reply_cut"]
    with pytest.raises(ValueError, match=r"Unknown check.*no_such_check.*Known checks: reply_cut"):
        for_profile(ModelProfile(checks=("no_such_check",)))


def test_a_stage_runs_its_checks_in_order_records_nudges_and_stops_at_one_that_ends_the_step() -> None:
    recorded: list[Notice] = []
    cut = reply("```json {", finish_reason="length")
    checks = Checks([UnparsedCall(), ReplyCut(), EmptyReply()])
    assert checks.run(Stage.REPLY, view([TASK, cut], unparsed="broken"), recorded.append)
    assert [n.reason for n in recorded] == [NoticeReason.UNPARSED_CALL]  # it ended the step first
    recorded.clear()
    checks = Checks([ReplyCut(), UnparsedCall()])
    assert checks.run(Stage.REPLY, view([TASK, cut], unparsed="broken"), recorded.append)
    assert [n.reason for n in recorded] == [NoticeReason.REPLY_CUT, NoticeReason.UNPARSED_CALL]
    work = WorkState(todos=[Todo(id=1, text="x")])
    three = [TASK, reply("TASK_COMPLETE"), notice(NoticeReason.FINISH_REFUSED)] * 2 + [reply("TASK_COMPLETE")]
    with pytest.raises(LimitReached):
        Checks([FinishRefused()]).run(Stage.FINISH, view(three, stop=DONE, work=work), recorded.append)


def test_notice_reasons_keep_their_stored_values() -> None:
    """Stored sessions and the web UI read the strings: the enum keeps them, older ones included."""
    assert json.loads(Notice(reason=NoticeReason.LOOP, text="t").model_dump_json())["reason"] == "loop"
    stored = '{"kind": "notice", "ts": "2026-01-01T00:00:00Z", "reason": "repeated_failure", "text": "t"}'
    event = parse_event(stored)
    assert isinstance(event, Notice) and event.reason is NoticeReason.REPEATED_FAILURE
    assert str(event.reason) == "repeated_failure"


# -- the step running them ---------------------------------------------------------------------


def _agent(ws: Path, replies: list[ScriptedReply], profile: ModelProfile) -> Agent:
    tools = Toolset(file_tools())
    store = SessionStore(ws / ".hearth" / "sessions.db")
    sid = store.create(str(ws), "scripted")
    return Agent(
        model=ScriptedModel(replies),
        profile=profile,
        dispatcher=Dispatcher(
            tools, PermissionPolicy(PermissionMode.AUTO), RunContext(paths=SafePaths(ws), session_id=sid)
        ),
        store=store,
        session_id=sid,
        system_prompt=system_prompt(tools, profile.tool_mode),
        limits=Limits(max_iterations=10),
    )


def test_the_profiles_checks_decide_what_the_step_pushes_back(workspace: Path) -> None:
    """The same empty reply: nudged with the standard set; with a profile leaving empty_reply out,
    the empty text is the answer."""
    script = [ScriptedReply(text=""), ScriptedReply(text="All good. TASK_COMPLETE")]
    standard = _agent(workspace, list(script), ModelProfile())
    finished = asyncio.run(standard.run("check it"))
    assert finished.status is Status.DONE and finished.final_text == "All good."
    assert [e.reason for e in standard.history if isinstance(e, Notice)] == [NoticeReason.EMPTY_REPLY]

    lenient = _agent(workspace, list(script), ModelProfile(checks=("reply_cut", "unparsed_call")))
    finished = asyncio.run(lenient.run("check it"))
    assert finished.status is Status.DONE and finished.final_text == ""
    assert not [e for e in lenient.history if isinstance(e, Notice)]


def test_an_agent_made_again_over_the_same_events_counts_the_nudges_already_given(workspace: Path) -> None:
    """Two empty replies nudged in a turn; an agent made again over those events (nothing carried
    over but the events) stops the turn at the third, as the first agent would have."""
    first = _agent(workspace, [], ModelProfile())
    said: list[Event] = [UserMessage(text="do it")]
    said += [reply(""), notice(NoticeReason.EMPTY_REPLY)] * 2
    for event in said:
        first.record(event)
    again = _agent(workspace, [ScriptedReply(text="")], ModelProfile())
    for event in first.history:
        again.record(event)
    with pytest.raises(LimitReached, match="3 empty replies in a row"):
        asyncio.run(again.step(0))
