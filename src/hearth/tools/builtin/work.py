"""Work tracking: todos, the work queue, plan steps, task state. Read-only for permissions (no side
effects). The queue (wyrmspire's queue_add/queue_next/queue_done) is the todo list taken in order:
one state, kept in the session's `work` events, so resume and the UIs see both the same way."""

from __future__ import annotations

from pydantic import Field

from hearth.core.errors import ToolError
from hearth.core.work import Todo, TodoStatus
from hearth.tools.base import RunContext, Tool, ToolInput


def _todo(ctx: RunContext, todo_id: int) -> Todo:
    for t in ctx.work.todos:
        if t.id == todo_id:
            return t
    ids = ", ".join(str(t.id) for t in ctx.work.todos) or "none yet"
    raise ToolError(f"No todo {todo_id}. Todo ids: {ids}.")


class TodoAddInput(ToolInput):
    """Add a todo; parent makes it a sub-task."""

    text: str = Field(min_length=1)
    parent: int | None = None


def todo_add(args: TodoAddInput, ctx: RunContext) -> str:
    if args.parent is not None:
        _todo(ctx, args.parent)
    new_id = max((t.id for t in ctx.work.todos), default=0) + 1
    ctx.work.todos.append(Todo(id=new_id, text=args.text, parent=args.parent))
    return f"Added todo {new_id}.\n{ctx.work.render()}"


class TodoUpdateInput(ToolInput):
    """Change a todo's text or status."""

    id: int
    text: str | None = None
    status: TodoStatus | None = None


def todo_update(args: TodoUpdateInput, ctx: RunContext) -> str:
    todo = _todo(ctx, args.id)
    if args.text:
        todo.text = args.text
    if args.status:
        todo.status = args.status
    return _after_change(ctx, f"Updated todo {todo.id}.")


class TodoCompleteInput(ToolInput):
    """Mark a todo done."""

    id: int


def todo_complete(args: TodoCompleteInput, ctx: RunContext) -> str:
    _todo(ctx, args.id).status = "done"
    return _after_change(ctx, f"Completed todo {args.id}.")


def _after_change(ctx: RunContext, said: str) -> str:
    if ctx.work.todos and not ctx.work.open_todos():
        return f"{said} All todos are done. If the task is complete, stop now: give a short summary and TASK_COMPLETE."
    return f"{said}\n{ctx.work.render()}"


class TodoListInput(ToolInput):
    """Show todos, plan and task state."""


def todo_list(args: TodoListInput, ctx: RunContext) -> str:
    return ctx.work.render()


class QueueAddInput(ToolInput):
    """Add a task to the end of your work queue."""

    task: str = Field(min_length=1)


def queue_add(args: QueueAddInput, ctx: RunContext) -> str:
    new_id = max((t.id for t in ctx.work.todos), default=0) + 1
    ctx.work.todos.append(Todo(id=new_id, text=args.task))
    pending = sum(t.status == "pending" for t in ctx.work.todos)
    return f"Queued task {new_id}; {pending} waiting. Take the next with queue_next."


class QueueNextInput(ToolInput):
    """Take the next queued task (marks it in progress)."""


def queue_next(args: QueueNextInput, ctx: RunContext) -> str:
    busy = next((t for t in ctx.work.todos if t.status == "in_progress"), None)
    if busy is not None:
        raise ToolError(
            f"Task {busy.id} ({busy.text}) is still in progress. Finish it first: "
            f'queue_done(id={busy.id}, changed="<what you changed>").'
        )
    item = ctx.work.next_pending()
    if item is None:
        done = sum(t.status == "done" for t in ctx.work.todos)
        return (
            f"The queue is empty ({done} done). Add work with queue_add, or finish if the task is complete."
        )
    item.status = "in_progress"
    return f"Task {item.id}: {item.text}\nDo it, then call queue_done(id={item.id}, changed=..., next=...)."


class QueueDoneInput(ToolInput):
    """Mark a queued task done: what changed, what is next."""

    id: int
    changed: str = Field(min_length=1)
    next: str = ""


def queue_done(args: QueueDoneInput, ctx: RunContext) -> str:
    item = next((t for t in ctx.work.todos if t.id == args.id), None)
    if item is None:
        ids = ", ".join(f"{t.id} ({t.status.replace('_', ' ')})" for t in ctx.work.todos) or "none yet"
        raise ToolError(f"No task {args.id} in the queue. Task ids: {ids}.")
    if item.status == "done":
        following = ctx.work.next_pending()
        after = f"queue_next takes task {following.id}." if following else "The queue is empty."
        raise ToolError(f"Task {item.id} is already done (changed: {item.changed or 'not said'}). {after}")
    item.status, item.changed, item.next = "done", args.changed, args.next
    said = f"Task {item.id} done."
    following = ctx.work.next_pending()
    if following is not None:
        return f"{said} Next in the queue: task {following.id}: {following.text}. Take it with queue_next."
    if args.next:
        return f"{said} The queue is empty. If '{args.next}' is still to do, queue_add it."
    return _after_change(ctx, said)


class PlanCompleteStepInput(ToolInput):
    """Mark a step of the approved plan done."""

    step: int = Field(ge=1)
    note: str = ""


def plan_complete_step(args: PlanCompleteStepInput, ctx: RunContext) -> str:
    if not ctx.work.plan:
        raise ToolError("There is no plan to track.")
    if args.step > len(ctx.work.plan):
        raise ToolError(f"The plan has {len(ctx.work.plan)} steps.")
    step = ctx.work.plan[args.step - 1]
    step.done, step.note = True, args.note
    left = ctx.work.open_steps()
    if not left:
        return "All plan steps are done. If the task is complete, give a short summary and TASK_COMPLETE."
    return f"Step {args.step} done. Next: step {left[0][0]}: {left[0][1].text}"


class TaskStateUpdateInput(ToolInput):
    """Record the objective, completion gate, counts and remaining items."""

    objective: str | None = None
    completion_gate: str | None = None
    done_count: int | None = Field(None, ge=0)
    total_count: int | None = Field(None, ge=0)
    remaining: list[str] | None = None


def task_state_update(args: TaskStateUpdateInput, ctx: RunContext) -> str:
    task = ctx.work.task
    for field_name in ("objective", "completion_gate", "done_count", "total_count", "remaining"):
        value = getattr(args, field_name)
        if value is not None:
            setattr(task, field_name, value)
    return "Task state saved.\n" + task_state_text(ctx)


class TaskStateGetInput(ToolInput):
    """Show the task state."""


def task_state_text(ctx: RunContext) -> str:
    t = ctx.work.task
    counts = f"{t.done_count}/{t.total_count}" if t.total_count is not None else str(t.done_count)
    remaining = "\n".join(f"- {r}" for r in t.remaining) or "(none)"
    return (
        f"objective: {t.objective or '(not set)'}\ncompletion gate: {t.completion_gate or '(not set)'}\n"
        f"done: {counts}\nremaining:\n{remaining}"
    )


def task_state_get(args: TaskStateGetInput, ctx: RunContext) -> str:
    return task_state_text(ctx)


WORK_TOOL_NAMES = (
    "todo_add",
    "todo_update",
    "todo_complete",
    "todo_list",
    "queue_add",
    "queue_next",
    "queue_done",
    "plan_complete_step",
    "task_state_update",
    "task_state_get",
)


def work_tools() -> list[Tool]:
    return [
        Tool("todo_add", TodoAddInput, todo_add, read_only=True),
        Tool("todo_update", TodoUpdateInput, todo_update, read_only=True),
        Tool("todo_complete", TodoCompleteInput, todo_complete, read_only=True),
        Tool("todo_list", TodoListInput, todo_list, read_only=True),
        Tool("queue_add", QueueAddInput, queue_add, read_only=True),
        Tool("queue_next", QueueNextInput, queue_next, read_only=True),
        Tool("queue_done", QueueDoneInput, queue_done, read_only=True),
        Tool("plan_complete_step", PlanCompleteStepInput, plan_complete_step, read_only=True),
        Tool("task_state_update", TaskStateUpdateInput, task_state_update, read_only=True),
        Tool("task_state_get", TaskStateGetInput, task_state_get, read_only=True),
    ]
