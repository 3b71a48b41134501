"""The pipeline's loop: register plans, plan them, work their tasks, settle what follows.

Every unit of work is claimed from the queue first (see store/pipeline), so any number of
runners can share a project. One step does one unit: plan one plan, or one attempt at one task
(coder, verifier, reviewer). A task's attempt that a runner did not finish (killed, crashed)
is picked up by the next runner at the stage it had reached: the coder's session resumed where
its events end, or the checks run again; the coder's work is never started over.

A model server that goes away in the middle of a request (see serverwatch) costs nothing: the
plan or task is handed back where it was, attempts uncounted, and redone once the server answers
again. A watching runner waits for it as long as it takes; `--once` waits `server_wait` seconds.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from hearth.core.errors import HearthError, ServerGone
from hearth.core.events import Finished, Status
from hearth.pipeline import planguard
from hearth.pipeline.coder import final_text, open_coder, rework_message, task_message, written_files
from hearth.pipeline.gitphase import commit_phase
from hearth.pipeline.lmstudio import LMStudioModels
from hearth.pipeline.planbranch import PlanCheckout
from hearth.pipeline.planner import plan_tasks
from hearth.pipeline.plans import PlanFile, plan_files, read_plan
from hearth.pipeline.queue.store import PipelineStore, PlanRow, TaskRow, runner_id
from hearth.pipeline.report import write_plan_report
from hearth.pipeline.reviewer import review
from hearth.pipeline.serverwatch import WatchedModel, watched
from hearth.pipeline.verifier import verify
from hearth.runtime.api import (
    Conversation,
    PlanApprovals,
    Runtime,
    record_none,
    state_dir,
    waiting_message,
)

log = logging.getLogger(__name__)
HEARTBEAT_SECONDS = 10.0
SERVER_CHECK_SECONDS = 10.0  # a server that answered this recently is not asked again


@dataclass(frozen=True)
class PipelineOptions:
    max_attempts: int = 3
    git: bool = True  # commit each finished phase where the workspace is a git repository
    test_timeout: float = 600.0
    poll: float = 2.0  # seconds between looks for work when there is none
    batch: bool = False  # phase batching: all coding that is ready, then all reviewing (fewer model swaps)
    server_wait: float = 300.0  # with `once`: how long to wait for a server that went away mid-work
    branch_per_plan: bool = False  # each plan's commits on a branch of its own (see planbranch)


def open_pipeline_store(workspace: Path) -> PipelineStore:
    """The project's queue: tables in its session database."""
    return PipelineStore(state_dir(workspace) / "sessions.db")


def register_plans(store: PipelineStore, workspace: Path, waiting: list[str] | None = None) -> list[PlanRow]:
    """Register every plan file whose content is new; a plan that cannot be planned fails at once.
    A plan a session wrote waits for a person's approval (approvals.py): its path joins `waiting`."""
    new: list[PlanRow] = []
    since = store.working_since()
    approvals = PlanApprovals(workspace)
    try:
        for path in plan_files(workspace):
            if since is not None and _changed_since(path, since):
                continue  # written while a coder works: registered once that work has ended (planguard)
            try:
                plan_file = read_plan(workspace, path)
            except HearthError:
                continue  # gone or unreadable between listing and reading: seen on the next look
            if approvals.waits(plan_file.digest):
                if waiting is not None:
                    waiting.append(plan_file.path)
                continue
            row = _register(store, plan_file)
            if row is not None:
                new.append(row)
    finally:
        approvals.close()
    return new


def _register(store: PipelineStore, plan_file: PlanFile) -> PlanRow | None:
    row = store.register(
        plan_file.path, plan_file.name, plan_file.digest, plan_file.text, plan_file.test_command
    )
    if row is not None and plan_file.problem:
        store.fail_plan(row.id, plan_file.problem)
        row = store.plan(row.id)
    return row


def _changed_since(path: Path, since: float) -> bool:
    try:
        return path.lstat().st_ctime >= since - 1.0
    except OSError:
        return True


class Runner:
    def __init__(
        self,
        rt: Runtime,
        store: PipelineStore,
        options: PipelineOptions | None = None,
        say: Callable[[str], None] | None = None,
        models: LMStudioModels | None = None,
    ) -> None:
        self.rt = rt
        self.store = store
        self.options = options or PipelineOptions()
        self.owner = runner_id()
        self.say = say or (lambda line: log.info("%s", line))
        self.models = models  # LM Studio: load each role's model before its requests
        self._planted: list[str] = []  # what the last coder run changed in plans/ (undone)
        self._told: set[str] = set()  # plans said to wait for approval
        record_none(rt.sandbox.runner.watchers)  # the coder's sessions record no plans: planguard guards them
        self.unreachable = ""  # the model server's URL while it does not answer
        self._answered_at = -SERVER_CHECK_SECONDS  # when the server last answered (monotonic)
        self.cut: list[str] = []  # work the server cut short, handed back (said when it answers again)
        self._coder_model: WatchedModel | None = None
        self._coder_clients: list[WatchedModel] = []  # every one made (closed when the run ends)
        branching = self.options.branch_per_plan and self.options.git
        self.checkout = PlanCheckout(rt, store, self.say, branching)
        self._coder_model_for: object = None

    async def use(self, role: str) -> None:
        if self.models is not None:
            await self.models.ensure(self.rt.role(role).model)

    async def run(self, *, once: bool = False) -> None:
        """Work until stopped; `once`: until nothing is left to do (for any runner). With `once`,
        a model server that does not answer before any work is an error, and one that went away
        mid-work is waited for `server_wait` seconds; otherwise the runner waits for it."""
        beat = asyncio.create_task(self._beat())
        lost_at: float | None = None  # when the server stopped answering after cutting work short
        try:
            while True:
                if await self.step():
                    lost_at = None
                    continue
                if once and self.unreachable and not self.cut:
                    raise HearthError(
                        f"The model server at {self.unreachable} does not answer; no work was started.",
                        "Start the server (or fix HEARTH_LLM_URL), then run again.",
                    )
                if once and self.unreachable:
                    lost_at = time.monotonic() if lost_at is None else lost_at
                    if time.monotonic() - lost_at > self.options.server_wait:
                        raise HearthError(
                            f"The model server at {self.unreachable} went away during {self.cut[-1]} and"
                            f" did not answer again within {self.options.server_wait:.0f}s.",
                            "Nothing was counted against the work it cut short: start the server, then"
                            " run again and it goes on where it stopped.",
                        )
                if once and not self.unreachable and not self.store.busy():
                    return
                await asyncio.sleep(self.options.poll)
        finally:
            beat.cancel()
            for client in self._coder_clients:
                await client.aclose()

    async def _server_answers(self) -> bool:
        """Does the model server answer at all (any HTTP status)? Asked again once the last
        answer is `SERVER_CHECK_SECONDS` old; noted in `unreachable`."""
        if time.monotonic() - self._answered_at < SERVER_CHECK_SECONDS:
            return True
        url = self.rt.server_url
        try:
            async with httpx.AsyncClient(timeout=5.0, verify=url.startswith("https:")) as client:
                await client.get(url + "/models")
        except httpx.TransportError:
            if self.unreachable != url:
                self.say(f"the model server at {url} does not answer; waiting for it")
            self.unreachable = url
            return False
        if self.unreachable and self.cut:
            self.say(f"the model server at {url} answers again; redoing {', '.join(self.cut)}")
            self.cut = []
        self.unreachable = ""
        self._answered_at = time.monotonic()
        return True

    def _server_lost(self, what: str, exc: ServerGone) -> None:
        """Work `what` was cut short by the server (already handed back): wait for it to answer."""
        self.cut.append(what)
        self._answered_at = -SERVER_CHECK_SECONDS  # ask it again before any more work
        self.say(
            f"the model server went away during {what} ({exc.message}); it is redone, uncounted, once the server answers"
        )

    async def step(self) -> bool:
        """One unit of work; False when there was none to claim (or the server does not answer)."""
        for note in self.store.recover():
            self.say(note)
        waiting: list[str] = []
        for new in register_plans(self.store, self.rt.workspace, waiting):
            self.say(f"plan #{new.id} {new.path} (version {new.version}) registered: {new.status}")
            if new.status == "failed":
                self.say(f"plan #{new.id} failed: {new.reason}")
        for path in waiting:
            if path not in self._told:  # said once per runner, not at every look
                self._told.add(path)
                self.say(waiting_message(path))
        if self.store.has_work() and not await self._server_answers():
            return False  # a server that is down must not cost tasks their attempts
        plan = self.store.claim_plan(self.owner)
        if plan is not None:
            await self.plan_one(plan)
            await self.settle()
            return True
        if not self.options.batch:
            task = await self.checkout.claim(self.owner)
            if task is not None:
                await self._work(task)
                await self.settle()
                return True
        else:
            # Phase batching: attempts cut short first, then every ready task's coding, then the
            # reviews, so a single loaded model serves each wave.
            for stages, review_now in (
                (("coding", "verifying", "reviewing"), True),
                (("", "rework"), False),
                (("review",), True),
            ):
                task = await self.checkout.claim(self.owner, stages)
                if task is not None:
                    await self._work(task, review_now=review_now)
                    await self.settle()
                    return True
        await self.settle()
        return False

    async def settle(self) -> None:
        """Fail what depends on failures, end finished plans and write their reports."""
        for task_id, reason in self.store.fail_dependants():
            self.say(f"task #{task_id} failed: {reason}")
        for plan in self.store.finish_plans():
            path = write_plan_report(self.store, self.rt.workspace, plan)
            self.say(f"plan #{plan.id} {plan.name} {plan.status}; report: {path}")
        await self.checkout.give_back()

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            self.store.heartbeat(self.owner)

    # -- planning ---------------------------------------------------------------------------

    async def plan_one(self, plan: PlanRow) -> None:
        self.say(f"planning #{plan.id} {plan.name}")
        try:
            await self.use("planner")
            planned = await plan_tasks(self.rt, plan)
        except ServerGone as exc:
            self.store.unclaim_plan(plan.id)
            self._server_lost(f"the planning of plan #{plan.id}", exc)
            return
        except Exception as exc:  # the plan fails saying why; the runner goes on
            if not isinstance(exc, HearthError):
                log.exception("plan %s: planning crashed", plan.id)
            self.store.fail_plan(plan.id, f"planning could not run: {type(exc).__name__}: {exc}")
            self.say(f"plan #{plan.id} failed: {exc}")
            return
        if planned.tasks is None:
            self.store.fail_plan(plan.id, planned.reason, planned.tokens)
            self.say(f"plan #{plan.id} failed: {planned.reason}")
            return
        self.store.set_tasks(plan.id, planned.tasks, planned.tokens)
        self.say(f"plan #{plan.id}: {len(planned.tasks)} tasks")

    # -- one attempt at a task ----------------------------------------------------------------

    async def _work(self, task: TaskRow, *, review_now: bool = True) -> None:
        """An attempt at `task`: coded and verified, then reviewed now, or (`review_now` False:
        phase batching) handed back at the `review` stage for the reviewing wave."""
        plan = self.store.plan(task.plan_id)
        try:
            if task.stage == "review" or (task.stage == "reviewing" and task.session):
                await self._review(plan, task)
            elif await self._code(plan, task):
                if review_now:
                    await self._review(plan, task)
                else:
                    self.store.release(task.id, "review")
        except ServerGone as exc:  # handed back where it was, its attempt uncounted
            now = self.store.task(task.id)
            self.store.release(now.id, now.stage)
            self._server_lost(f"attempt {now.attempts} at task {now.key}", exc)
        except Exception as exc:  # not the coder's to fix by reworking: the task fails, saying why
            if not isinstance(exc, HearthError):
                log.exception("task %s: the attempt crashed", task.key)
            reason = f"the attempt could not run: {type(exc).__name__}: {exc}"
            now = self.store.task(task.id)
            self.store.end_attempt(
                now.id,
                now.attempts,
                outcome="error",
                verifier=[reason],
                verdict={},
                tokens=0,
                status="failed",
                reason=reason,
            )
            self.say(f"task {task.key} failed: {reason}")

    async def _code(self, plan: PlanRow, task: TaskRow) -> bool:
        """The coder's part and the verifier; True when the work goes on to the reviewer."""
        finished: Finished | None = None
        stage, session = task.stage, task.session
        if stage == "coding" and session:
            events = self.rt.store.events(session)
            last = events[-1] if events else None
            if isinstance(last, Finished) and last.status is Status.DONE:
                finished = last  # it had finished; only the checks were not recorded
            else:
                self.say(f"task {task.key}: resuming attempt {task.attempts} in session {session}")
                await self.use("coder")
                finished = await self._guarded(open_coder(self.rt, session, self._coder_client()), None)
        elif not (stage == "verifying" and session):
            rework = stage == "rework" and bool(session)
            conv = open_coder(self.rt, session if rework else None, self._coder_client())
            n = self.store.start_attempt(task.id, self.owner, conv.id)
            session = conv.id
            if rework:
                text = rework_message(n, task.feedback)
            else:
                done = [t for t in self.store.tasks(plan.id) if t.status == "done"]
                text = task_message(plan, task, done)
            self.say(f"task {task.key}: attempt {n} ({task.title})")
            await self.use("coder")
            finished = await self._guarded(conv, text)
        assert session is not None
        planted, self._planted = self._planted, []
        task = self.store.task(task.id)
        coder_tokens = self._coder_tokens(task, session, task.attempts)
        written = written_files(self.rt.store.events(session))
        if finished is not None and not _to_check(finished, written):
            why = f"the coder stopped ({finished.status.value}): {finished.reason or 'no reason given'}"
            self._end(task, f"coder {finished.status.value}", [why, *planted], {}, coder_tokens)
            return False
        self.store.set_stage(task.id, "verifying")
        findings = planted + await verify(
            self.rt, list(task.files), written, plan.test_command, self.options.test_timeout
        )
        if findings:
            self._end(task, "verifier", findings, {}, coder_tokens)
            return False
        return True

    async def _review(self, plan: PlanRow, task: TaskRow) -> None:
        task = self.store.task(task.id)
        session, n = task.session, task.attempts
        assert session is not None
        self.store.set_stage(task.id, "reviewing")
        events = self.rt.store.events(session)
        coder_tokens = self._coder_tokens(task, session, n)
        files = list(dict.fromkeys([*task.files, *written_files(events)]))
        await self.use("reviewer")
        result = await review(self.rt, task, files, final_text(events))
        if result.verdict is None:
            self.store.end_attempt(
                task.id,
                n,
                outcome="reviewer invalid",
                verifier=[],
                verdict={},
                tokens=coder_tokens + result.tokens,
                review_tokens=result.tokens,
                status="failed",
                reason=result.error,
            )
            self.say(f"task {task.key} failed: {result.error}")
            return
        verdict = result.verdict.model_dump()
        if result.verdict.verdict == "rework":
            self._end(task, "reviewer rework", [], verdict, coder_tokens, result.tokens)
            return
        self.store.end_attempt(
            task.id,
            n,
            outcome="pass",
            verifier=[],
            verdict=verdict,
            tokens=coder_tokens + result.tokens,
            review_tokens=result.tokens,
            status="done",
        )
        self.say(f"task {task.key} done (attempt {n})")
        await self._commit_phase(plan, task.phase)

    def _coder_client(self) -> WatchedModel | None:
        """The coder's own client (see serverwatch), made again if the coder's model changed."""
        wanted = self.rt.model_for(self.rt.role("coder"))
        if self._coder_model_for is not wanted:
            self._coder_model, self._coder_model_for = watched(wanted), wanted
            if self._coder_model is not None:
                self._coder_clients.append(self._coder_model)
        return self._coder_model

    async def _guarded(self, conv: Conversation, text: str | None) -> Finished:
        """The coder's run, with plans/ put back as it was before (see planguard). ServerGone
        when the server went away in the middle of it (the run ended for no fault of the coder's)."""
        before = planguard.snapshot(self.rt.workspace)
        client = self._coder_model
        if client is not None:
            client.gone = None
        try:
            finished = await conv.send(text)
            if finished.status is Status.ERROR and client is not None and client.gone is not None:
                raise client.gone
            return finished
        finally:
            # Its background jobs end with its run: none may change anything later, unseen.
            sandbox = self.rt.sandbox.runner
            for job in sandbox.jobs():
                if job.running:
                    await sandbox.stop(job.id)
            self._planted = planguard.restore(self.rt.workspace, before)
            for line in self._planted:
                self.say(line)

    def _coder_tokens(self, task: TaskRow, session: str, n: int) -> int:
        """The coder's tokens in attempt `n`: the session's so far, less earlier attempts'."""
        usage = self.rt.store.usage(session_id=session)
        total = usage.prompt_tokens + usage.completion_tokens
        earlier = sum(a.tokens - a.review_tokens for a in self.store.attempts(task.id) if a.n < n)
        return max(0, total - earlier)

    def _end(
        self,
        task: TaskRow,
        outcome: str,
        findings: list[str],
        verdict: dict[str, Any],
        tokens: int,
        review_tokens: int = 0,
    ) -> None:
        """An attempt that was not accepted: rework while attempts are left, else the task fails."""
        problems = [*findings, *[str(r) for r in verdict.get("reasons", []) or []]]
        n = task.attempts
        if n - task.retried_at >= self.options.max_attempts:
            reason = f"{outcome} after {n} attempt(s): {problems[0].splitlines()[0] if problems else outcome}"
            status, feedback = "failed", ""
            self.say(f"task {task.key} failed: {reason}")
        else:
            reason, status = "", "pending"
            feedback = "\n".join(f"- {p}" for p in problems)
            self.say(f"task {task.key}: attempt {n} not accepted ({outcome}); reworking")
        self.store.end_attempt(
            task.id,
            n,
            outcome=outcome,
            verifier=findings,
            verdict=verdict,
            tokens=tokens + review_tokens,
            review_tokens=review_tokens,
            status=status,
            reason=reason,
            feedback=feedback,
        )

    async def _commit_phase(self, plan: PlanRow, phase: int) -> None:
        if not self.options.git or not (self.rt.workspace / ".git").exists():
            return
        if not self.store.claim_phase(plan.id, phase):
            return
        tasks = [t for t in self.store.tasks(plan.id) if t.phase == phase]
        files: list[str] = []
        for t in tasks:
            files += [*t.files, *(written_files(self.rt.store.events(t.session)) if t.session else [])]
        titles = "; ".join(f"{t.key} {t.title}" for t in tasks)
        message = f"hearth({plan.name}): phase {phase}: {titles}"
        commit, note = await commit_phase(self.rt, message[:300], files)
        note = self.checkout.commit_note(plan.id, commit, note)
        self.store.set_phase_commit(plan.id, phase, commit, note)
        self.say(f"plan #{plan.id} phase {phase}: {note} {commit}".rstrip())


def _to_check(finished: Finished, written: list[str]) -> bool:
    """Whether the coder's work goes on to the verifier and reviewer: when it said it was done,
    or stopped on a loop or the step limit having written files (a small model's work is often
    right while it goes on rewriting it; the checks, not its last words, judge the work)."""
    return finished.status is Status.DONE or (finished.status is Status.LIMIT and bool(written))
