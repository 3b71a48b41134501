"""The plan pipeline's queue in SQLite (WAL): plans, their tasks, and every attempt at a task.

It lives in the project's session database, beside the sessions whose ids its rows name. Its
tables have their own schema version (a row of `pipeline_meta`), so the session tables and these
migrate independently; a file written by a newer Hearth is refused, an older one is migrated.

Several runners (processes) may share one database. Whatever two of them could both do (claim a
plan for planning, claim a task, finish a plan, commit a phase) is a compare-and-set inside a
`BEGIN IMMEDIATE` transaction, so exactly one of them does it. A runner's claim names it
(`host:pid:token`) and is refreshed by a heartbeat; a claim whose process is gone (same host) or
whose heartbeat is older than the lease is released to the next runner, with the attempt's
session kept so the work resumes where it stopped instead of starting again.

The store is three layers: the opened tables (pipeline_tables), the controls that change many
rows at once (pipeline_control: cancel, resume, retry, recover, settle) and here, the day-to-day
of the queue (register, claim, record attempts and phases, read).
"""

from __future__ import annotations

import json
import time
from typing import Any

from hearth.core.errors import NotFound
from hearth.pipeline.queue.control import PipelineControls
from hearth.pipeline.queue.rows import (
    PLAN_COLS,
    TASK_COLS,
    AttemptRow,
    CheckoutHold,
    NewTask,
    PlanRow,
    TaskRow,
    iso,
    plan_row,
    runner_id,
    task_row,
)

__all__ = ["AttemptRow", "CheckoutHold", "NewTask", "PipelineStore", "PlanRow", "TaskRow", "runner_id"]


class PipelineStore(PipelineControls):
    # -- plans -----------------------------------------------------------------------------

    def register(self, path: str, name: str, digest: str, text: str, test_command: str) -> PlanRow | None:
        """Register a plan's content; None when this content is registered already. An edit of a
        plan still open supersedes it: its work not yet done is cancelled, saying why."""
        now = iso()
        with self._tx() as cur:
            if cur.execute("SELECT 1 FROM pipeline_plans WHERE hash=?", (digest,)).fetchone():
                return None
            version = cur.execute(
                "SELECT COALESCE(MAX(version), 0) + 1 FROM pipeline_plans WHERE path=?", (path,)
            ).fetchone()[0]
            cur.execute(
                "INSERT INTO pipeline_plans(path, name, hash, version, text, test_command, created, updated)"
                " VALUES (?,?,?,?,?,?,?,?)",
                (path, name, digest, version, text, test_command, now, now),
            )
            new_id = cur.lastrowid
            why = f"superseded by version {version} of {path}"
            old = [
                r[0]
                for r in cur.execute(
                    "SELECT id FROM pipeline_plans WHERE path=? AND id<>? AND status IN ('new','planning','active')",
                    (path, new_id),
                )
            ]
            for plan_id in old:
                cur.execute(
                    "UPDATE pipeline_plans SET status='cancelled', reason=?, updated=? WHERE id=?",
                    (why, now, plan_id),
                )
                cur.execute(
                    "UPDATE pipeline_tasks SET status='cancelled', reason=? WHERE plan_id=? AND status='pending'",
                    (why, plan_id),
                )
        assert new_id is not None
        return self.plan(new_id)

    def plans(self, statuses: tuple[str, ...] = ()) -> list[PlanRow]:
        where = f"WHERE status IN ({','.join('?' * len(statuses))})" if statuses else ""
        return [
            plan_row(r)
            for r in self._rows(f"SELECT {PLAN_COLS} FROM pipeline_plans {where} ORDER BY id", statuses)
        ]

    def by_hash(self, digest: str) -> PlanRow | None:
        rows = self._rows(f"SELECT {PLAN_COLS} FROM pipeline_plans WHERE hash=?", (digest,))
        return plan_row(rows[0]) if rows else None

    def find_plan(self, ref: str) -> PlanRow:
        """A plan by `#id`/id, or the newest version of a path or name."""
        key = ref.lstrip("#")
        if key.isdigit():
            return self.plan(int(key))
        rows = self._rows(
            f"SELECT {PLAN_COLS} FROM pipeline_plans WHERE path=? OR name=? OR path LIKE ?"
            " ORDER BY id DESC LIMIT 1",
            (ref, ref, f"%/{ref}"),
        )
        if not rows:
            raise NotFound(f"No plan {ref!r} is registered.", "List them with `hearth pipeline status`.")
        return plan_row(rows[0])

    def claim_plan(self, owner: str, plan_id: int | None = None) -> PlanRow | None:
        """The oldest new plan (or plan `plan_id` if it is new), now being planned by `owner`."""
        with self._tx() as cur:
            row = cur.execute(
                "SELECT id FROM pipeline_plans WHERE status='new' AND (? IS NULL OR id=?) ORDER BY id LIMIT 1",
                (plan_id, plan_id),
            ).fetchone()
            if row is None:
                return None
            cur.execute(
                "UPDATE pipeline_plans SET status='planning', claimed_by=?, heartbeat=?, started=?, updated=?"
                " WHERE id=?",
                (owner, time.time(), time.time(), iso(), row[0]),
            )
        return self.plan(int(row[0]))

    def unclaim_plan(self, plan_id: int) -> None:
        """A plan being planned back to new (its planning was cut short; nothing is counted)."""
        with self._tx() as cur:
            cur.execute(
                "UPDATE pipeline_plans SET status='new', claimed_by=NULL, updated=? WHERE id=? AND status='planning'",
                (iso(), plan_id),
            )

    def set_tasks(self, plan_id: int, tasks: list[NewTask], planner_tokens: int) -> None:
        """The planner's tasks; the plan becomes active (its tasks claimable)."""
        with self._tx() as cur:
            for t in tasks:
                cur.execute(
                    "INSERT INTO pipeline_tasks(plan_id, key, title, description, files, depends, phase)"
                    " VALUES (?,?,?,?,?,?,?)",
                    (
                        plan_id,
                        t.key,
                        t.title,
                        t.description,
                        json.dumps(list(t.files)),
                        json.dumps(list(t.depends)),
                        t.phase,
                    ),
                )
            cur.execute(
                "UPDATE pipeline_plans SET status='active', claimed_by=NULL, planner_tokens=planner_tokens+?,"
                " updated=? WHERE id=? AND status='planning'",
                (planner_tokens, iso(), plan_id),
            )

    def fail_plan(self, plan_id: int, reason: str, planner_tokens: int = 0) -> None:
        with self._tx() as cur:
            cur.execute(
                "UPDATE pipeline_plans SET status='failed', reason=?, claimed_by=NULL, ended=?, updated=?,"
                " planner_tokens=planner_tokens+? WHERE id=?",
                (reason, time.time(), iso(), planner_tokens, plan_id),
            )
            cur.execute(
                "UPDATE pipeline_tasks SET status='failed', reason=? WHERE plan_id=? AND status='pending'",
                (f"not run: the plan failed ({reason})", plan_id),
            )

    # -- tasks -----------------------------------------------------------------------------

    def tasks(self, plan_id: int | None = None) -> list[TaskRow]:
        where, params = ("WHERE plan_id=?", (plan_id,)) if plan_id is not None else ("", ())
        return [
            task_row(r)
            for r in self._rows(
                f"SELECT {TASK_COLS} FROM pipeline_tasks {where} ORDER BY plan_id, id", params
            )
        ]

    def task(self, task_id: int) -> TaskRow:
        rows = self._rows(f"SELECT {TASK_COLS} FROM pipeline_tasks WHERE id=?", (task_id,))
        if not rows:
            raise NotFound(f"No task #{task_id}.", "List them with `hearth pipeline status`.")
        return task_row(rows[0])

    def claim_task(
        self, owner: str, *, stages: tuple[str, ...] = (), plan_id: int | None = None
    ) -> TaskRow | None:
        """The next ready task (pending, its plan active, everything it depends on done), now
        claimed by `owner`. `stages`: only tasks left at one of these stages (phase batching);
        `plan_id`: only that plan's (the plan whose branch is checked out)."""
        with self._tx() as cur:
            row = cur.execute(
                "SELECT t.id FROM pipeline_tasks t JOIN pipeline_plans p ON p.id=t.plan_id"
                " WHERE t.status='pending' AND p.status='active' AND (? IS NULL OR t.plan_id=?)"
                " AND (?=0 OR t.stage IN (SELECT value FROM json_each(?)))"
                " AND NOT EXISTS (SELECT 1 FROM json_each(t.depends) j JOIN pipeline_tasks d"
                "   ON d.plan_id=t.plan_id AND d.key=j.value WHERE d.status<>'done')"
                " ORDER BY t.plan_id, t.phase, t.id LIMIT 1",
                (plan_id, plan_id, len(stages), json.dumps(list(stages))),
            ).fetchone()
            if row is None:
                return None
            cur.execute(
                "UPDATE pipeline_tasks SET status='running', claimed_by=?, heartbeat=? WHERE id=? AND status='pending'",
                (owner, time.time(), row[0]),
            )
        return self.task(int(row[0]))

    def start_attempt(self, task_id: int, owner: str, session: str) -> int:
        """A new attempt (its number) working in `session`."""
        with self._tx() as cur:
            n = cur.execute("SELECT attempts + 1 FROM pipeline_tasks WHERE id=?", (task_id,)).fetchone()[0]
            cur.execute(
                "UPDATE pipeline_tasks SET attempts=?, stage='coding', session=? WHERE id=?",
                (n, session, task_id),
            )
            cur.execute(
                "INSERT INTO pipeline_attempts(task_id, n, session, runner, started) VALUES (?,?,?,?,?)",
                (task_id, n, session, owner, time.time()),
            )
        return int(n)

    def set_stage(self, task_id: int, stage: str) -> None:
        with self._tx() as cur:
            cur.execute(
                "UPDATE pipeline_tasks SET stage=?, heartbeat=? WHERE id=?", (stage, time.time(), task_id)
            )

    def release(self, task_id: int, stage: str) -> None:
        """Hand a claimed task back at `stage` (phase batching: another wave goes on with it)."""
        with self._tx() as cur:
            cur.execute(
                "UPDATE pipeline_tasks SET status='pending', stage=?, claimed_by=NULL WHERE id=?",
                (stage, task_id),
            )

    def end_attempt(
        self,
        task_id: int,
        n: int,
        *,
        outcome: str,
        verifier: list[str],
        verdict: dict[str, Any],
        tokens: int,
        review_tokens: int = 0,
        status: str,
        reason: str = "",
        feedback: str = "",
    ) -> None:
        """Record how attempt `n` ended and put the task in `status` (pending for a rework)."""
        with self._tx() as cur:
            cur.execute(
                "UPDATE pipeline_attempts SET ended=?, outcome=?, verifier=?, verdict=?, tokens=?, review_tokens=?"
                " WHERE task_id=? AND n=?",
                (
                    time.time(),
                    outcome,
                    json.dumps(verifier),
                    json.dumps(verdict),
                    tokens,
                    review_tokens,
                    task_id,
                    n,
                ),
            )
            cur.execute(
                "UPDATE pipeline_tasks SET status=?, stage=?, claimed_by=NULL, reason=?, feedback=? WHERE id=?",
                (status, "" if status != "pending" else "rework", reason, feedback, task_id),
            )

    def attempts(self, task_id: int) -> list[AttemptRow]:
        rows = self._rows(
            "SELECT task_id, n, session, runner, started, ended, outcome, verifier, verdict, tokens, review_tokens"
            " FROM pipeline_attempts WHERE task_id=? ORDER BY n",
            (task_id,),
        )
        return [
            AttemptRow(
                r[0], r[1], r[2], r[3], r[4], r[5], r[6], json.loads(r[7]), json.loads(r[8]), r[9], r[10]
            )
            for r in rows
        ]

    def heartbeat(self, owner: str) -> None:
        with self._tx() as cur:
            now = time.time()
            cur.execute(
                "UPDATE pipeline_tasks SET heartbeat=? WHERE claimed_by=? AND status='running'", (now, owner)
            )
            cur.execute(
                "UPDATE pipeline_plans SET heartbeat=? WHERE claimed_by=? AND status='planning'", (now, owner)
            )

    def claim_phase(self, plan_id: int, phase: int) -> bool:
        """True for the one runner that gets to commit this phase (every task of it done)."""
        with self._tx() as cur:
            open_ = cur.execute(
                "SELECT COUNT(*) FROM pipeline_tasks WHERE plan_id=? AND phase=? AND status<>'done'",
                (plan_id, phase),
            ).fetchone()[0]
            if open_:
                return False
            return (
                cur.execute(
                    "INSERT OR IGNORE INTO pipeline_phases(plan_id, phase) VALUES (?,?)", (plan_id, phase)
                ).rowcount
                == 1
            )

    def set_phase_commit(self, plan_id: int, phase: int, commit_id: str, note: str) -> None:
        with self._tx() as cur:
            cur.execute(
                "UPDATE pipeline_phases SET commit_id=?, note=? WHERE plan_id=? AND phase=?",
                (commit_id, note, plan_id, phase),
            )

    def phases(self, plan_id: int) -> list[tuple[int, str, str]]:
        return [
            (int(r[0]), str(r[1]), str(r[2]))
            for r in self._rows(
                "SELECT phase, commit_id, note FROM pipeline_phases WHERE plan_id=? ORDER BY phase",
                (plan_id,),
            )
        ]

    # -- the checkout, with a branch per plan ------------------------------------------------

    def checkout(self) -> CheckoutHold | None:
        """Which plan's branch the workspace has checked out, and the branch to go back to."""
        rows = self._rows("SELECT value FROM pipeline_meta WHERE key='checkout'")
        if not rows:
            return None
        data = json.loads(rows[0][0])
        return CheckoutHold(int(data["plan"]), str(data["branch"]), str(data["back"]))

    def take_checkout(self, hold: CheckoutHold) -> bool:
        """The checkout is `hold.plan`'s until dropped; False when another plan holds it."""
        value = json.dumps({"plan": hold.plan_id, "branch": hold.branch, "back": hold.back})
        with self._tx() as cur:
            return (
                cur.execute(
                    "INSERT OR IGNORE INTO pipeline_meta(key, value) VALUES ('checkout', ?)", (value,)
                ).rowcount
                == 1
            )

    def drop_checkout(self, plan_id: int) -> bool:
        """The checkout no longer `plan_id`'s; True for the one caller that dropped it."""
        with self._tx() as cur:
            return (
                cur.execute(
                    "DELETE FROM pipeline_meta WHERE key='checkout' AND json_extract(value, '$.plan')=?",
                    (plan_id,),
                ).rowcount
                == 1
            )

    def working_since(self) -> float | None:
        """When the oldest attempt still being worked began (None: no coder is working)."""
        rows = self._rows(
            "SELECT MIN(a.started) FROM pipeline_attempts a JOIN pipeline_tasks t"
            " ON t.id=a.task_id AND a.n=t.attempts WHERE t.status='running' AND a.ended IS NULL"
        )
        return float(rows[0][0]) if rows and rows[0][0] is not None else None

    def has_work(self) -> bool:
        """Is there a plan to plan or a task to work (ready or not)?"""
        return bool(
            self._rows(
                "SELECT 1 FROM pipeline_plans WHERE status='new' UNION ALL SELECT 1 FROM pipeline_tasks t"
                " JOIN pipeline_plans p ON p.id=t.plan_id WHERE t.status='pending' AND p.status='active' LIMIT 1"
            )
        )

    def busy(self) -> bool:
        """Is any task being worked or any plan being planned (by any runner)?"""
        return bool(
            self._rows(
                "SELECT 1 FROM pipeline_tasks WHERE status='running'"
                " UNION ALL SELECT 1 FROM pipeline_plans WHERE status='planning' LIMIT 1"
            )
        )

    def counts(self) -> dict[str, int]:
        return {
            str(r[0]): int(r[1])
            for r in self._rows("SELECT status, COUNT(*) FROM pipeline_tasks GROUP BY status")
        }
