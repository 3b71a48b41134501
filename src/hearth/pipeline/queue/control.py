"""What changes many rows of the queue at once: the user's controls (cancel, resume,
retry-failed) and the runner's upkeep (take over the claims of runners that are gone, fail what
depends on a failure, end the plans that have no open task)."""

from __future__ import annotations

import time

from hearth.pipeline.queue.rows import LEASE_SECONDS, PlanRow, alive, iso
from hearth.pipeline.queue.tables import PipelineTables


class PipelineControls(PipelineTables):
    def cancel(self, plan_id: int | None = None) -> int:
        """Cancel open plans (one, or all): their pending tasks are not started; a task being
        worked finishes its attempt. How many plans were cancelled."""
        where, params = ("AND id=?", (plan_id,)) if plan_id is not None else ("", ())
        with self._tx() as cur:
            ids = [
                r[0]
                for r in cur.execute(
                    f"SELECT id FROM pipeline_plans WHERE status IN ('new','planning','active') {where}",
                    params,
                )
            ]
            for pid in ids:
                cur.execute(
                    "UPDATE pipeline_plans SET status='cancelled', reason='cancelled by the user', updated=? WHERE id=?",
                    (iso(), pid),
                )
                cur.execute(
                    "UPDATE pipeline_tasks SET status='cancelled', reason='cancelled by the user'"
                    " WHERE plan_id=? AND status='pending'",
                    (pid,),
                )
        return len(ids)

    def resume(self, plan_id: int | None = None) -> int:
        """Cancelled plans open again (their cancelled tasks pending); how many plans."""
        where, params = ("AND id=?", (plan_id,)) if plan_id is not None else ("", ())
        with self._tx() as cur:
            rows = cur.execute(
                f"SELECT id, (SELECT COUNT(*) FROM pipeline_tasks t WHERE t.plan_id=p.id) FROM pipeline_plans p"
                f" WHERE status='cancelled' AND reason='cancelled by the user' {where}",
                params,
            ).fetchall()
            for pid, ntasks in rows:
                cur.execute(
                    "UPDATE pipeline_plans SET status=?, reason='', ended=NULL, updated=? WHERE id=?",
                    ("active" if ntasks else "new", iso(), pid),
                )
                cur.execute(
                    "UPDATE pipeline_tasks SET status='pending', reason='' WHERE plan_id=? AND status='cancelled'",
                    (pid,),
                )
        return len(rows)

    def retry_failed(self, plan_id: int | None = None) -> int:
        """Failed tasks (and the plans they belong to) back to pending, attempts counted afresh;
        a plan that failed in planning is planned again. How many tasks or plans were reopened."""
        where, params = ("AND plan_id=?", (plan_id,)) if plan_id is not None else ("", ())
        pwhere = "AND id=?" if plan_id is not None else ""
        with self._tx() as cur:
            tasks = cur.execute(
                f"UPDATE pipeline_tasks SET status='pending', stage='', retried_at=attempts, session=NULL,"
                f" reason='', feedback='' WHERE status='failed' {where}",
                params,
            ).rowcount
            planless = cur.execute(
                f"UPDATE pipeline_plans SET status='new', reason='', ended=NULL, updated=? WHERE status='failed'"
                f" AND NOT EXISTS (SELECT 1 FROM pipeline_tasks t WHERE t.plan_id=pipeline_plans.id) {pwhere}",
                (iso(), *params),
            ).rowcount
            cur.execute(
                f"UPDATE pipeline_plans SET status='active', reason='', ended=NULL, updated=? WHERE status IN"
                f" ('failed','done') AND EXISTS (SELECT 1 FROM pipeline_tasks t WHERE t.plan_id=pipeline_plans.id"
                f" AND t.status='pending') {pwhere}",
                (iso(), *params),
            )
        return int(tasks) + int(planless)

    def recover(self, lease: float = LEASE_SECONDS) -> list[str]:
        """Release the claims of runners that are gone: a task goes back to pending keeping its
        attempt and session (the next runner resumes it), a plan being planned back to new."""
        notes: list[str] = []
        cutoff = time.time() - lease
        with self._tx() as cur:
            for tid, owner, beat, title in cur.execute(
                "SELECT id, claimed_by, heartbeat, title FROM pipeline_tasks WHERE status='running'"
            ).fetchall():
                if owner is None or not alive(owner) or (beat or 0) < cutoff:
                    cur.execute(
                        "UPDATE pipeline_tasks SET status='pending', claimed_by=NULL WHERE id=?", (tid,)
                    )
                    notes.append(f"task #{tid} {title!r}: its runner {owner} is gone; it resumes")
            for pid, owner, beat, name in cur.execute(
                "SELECT id, claimed_by, heartbeat, name FROM pipeline_plans WHERE status='planning'"
            ).fetchall():
                if owner is None or not alive(owner) or (beat or 0) < cutoff:
                    cur.execute("UPDATE pipeline_plans SET status='new', claimed_by=NULL WHERE id=?", (pid,))
                    notes.append(f"plan #{pid} {name}: its planner {owner} is gone; it is planned again")
        return notes

    def fail_dependants(self) -> list[tuple[int, str]]:
        """Pending tasks that depend on a failed or cancelled one fail, saying which and why;
        repeated until none is left (a chain fails whole). The tasks failed, with reasons."""
        failed: list[tuple[int, str]] = []
        with self._tx() as cur:
            while True:
                rows = cur.execute(
                    "SELECT t.id, d.key, d.status, d.reason FROM pipeline_tasks t JOIN json_each(t.depends) j"
                    " JOIN pipeline_tasks d ON d.plan_id=t.plan_id AND d.key=j.value"
                    " WHERE t.status='pending' AND d.status IN ('failed','cancelled') GROUP BY t.id"
                ).fetchall()
                if not rows:
                    return failed
                for tid, key, status, why in rows:
                    reason = f"not run: it depends on {key}, which {status} ({why})"
                    cur.execute(
                        "UPDATE pipeline_tasks SET status='failed', reason=? WHERE id=?", (reason, tid)
                    )
                    failed.append((int(tid), reason))

    def finish_plans(self) -> list[PlanRow]:
        """Active plans with no open task end (done when every task is); those that ended now."""
        ended: list[int] = []
        with self._tx() as cur:
            for pid, total, done in cur.execute(
                "SELECT p.id, COUNT(t.id), SUM(t.status='done') FROM pipeline_plans p"
                " JOIN pipeline_tasks t ON t.plan_id=p.id WHERE p.status='active' GROUP BY p.id"
                " HAVING SUM(t.status IN ('pending','running'))=0"
            ).fetchall():
                status = "done" if done == total else "failed"
                reason = "" if status == "done" else f"{total - done} of {total} tasks did not finish"
                cur.execute(
                    "UPDATE pipeline_plans SET status=?, reason=?, ended=?, updated=? WHERE id=? AND status='active'",
                    (status, reason, time.time(), iso(), pid),
                )
                ended.append(int(pid))
        return [self.plan(p) for p in ended]
