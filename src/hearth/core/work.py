"""What the agent is tracking: todos (a task tree), plan steps, and the task state.

Persisted as a `WorkUpdated` snapshot event each time it changes, so resume
and the UIs read it from the session like everything else.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

TodoStatus = Literal["pending", "in_progress", "done"]


class Todo(BaseModel):
    """A todo; the work queue (queue_add/queue_next/queue_done) is these same items, taken in order."""

    id: int
    text: str
    status: TodoStatus = "pending"
    parent: int | None = None
    changed: str = ""  # queue_done: what the work changed
    next: str = ""  # queue_done: what the agent said comes next


class PlanStep(BaseModel):
    text: str
    done: bool = False
    note: str = ""


class TaskState(BaseModel):
    """LMAgent's task state: the objective, what counts as finished, progress and what is left."""

    objective: str = ""
    completion_gate: str = ""
    done_count: int = 0
    total_count: int | None = None
    remaining: list[str] = Field(default_factory=list)


class WorkState(BaseModel):
    todos: list[Todo] = Field(default_factory=list)
    plan: list[PlanStep] = Field(default_factory=list)
    task: TaskState = Field(default_factory=TaskState)

    def open_todos(self) -> list[Todo]:
        return [t for t in self.todos if t.status != "done"]

    def next_pending(self) -> Todo | None:
        """The queue's next item: the first pending todo, in the order they were added."""
        return next((t for t in self.todos if t.status == "pending"), None)

    def open_steps(self) -> list[tuple[int, PlanStep]]:
        return [(i, s) for i, s in enumerate(self.plan, start=1) if not s.done]

    def unfinished(self) -> list[str]:
        """What still stands between the agent and a legitimate finish."""
        items = [f"todo {t.id}: {t.text}" for t in self.open_todos()]
        items += [f"plan step {i}: {s.text}" for i, s in self.open_steps()]
        items += [f"remaining: {r}" for r in self.task.remaining]
        task = self.task
        if task.total_count is not None and task.done_count < task.total_count:
            items.append(f"progress {task.done_count}/{task.total_count}")
        return items

    def render(self) -> str:
        lines = []
        if self.task.objective:
            lines.append(f"Objective: {self.task.objective}")
        if self.todos:
            lines.append("Todos:")
            marks = {"pending": "[ ]", "in_progress": "[~]", "done": "[x]"}
            for t in self.todos:
                indent = "  " if t.parent is not None else ""
                notes = "; ".join(f"{k}: {v}" for k, v in (("changed", t.changed), ("next", t.next)) if v)
                lines.append(f"{indent}{marks[t.status]} {t.id}. {t.text}" + (f" ({notes})" if notes else ""))
        if self.plan:
            lines.append("Plan:")
            lines += [f"{'[x]' if s.done else '[ ]'} {i}. {s.text}" for i, s in enumerate(self.plan, start=1)]
        return "\n".join(lines) or "Nothing tracked yet."
