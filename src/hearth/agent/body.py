"""The text of a grammar-mode `write`, asked for in a reply of its own.

The action names the file under the server's grammar; the next request, without a grammar, asks
for the file's text in a fenced block, which a small model writes as it would show code to a
person rather than escaped inside a JSON string. The two replies become the one reply the
session records (the action, then the block: see `hearth.llm.actions.parse_action`)."""

from __future__ import annotations

import ast
import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from hearth.agent.docstrings import (
    asks_docstrings_only,
    docstrings_back,
    onto_code,
    parses,
    runs_on,
    without_docstrings,
)
from hearth.agent.fragments import merged
from hearth.agent.leftovers import only_renames, renamed, renamed_text
from hearth.agent.moves import move_asked, moved_names, moved_text
from hearth.agent.tracing import Tracer
from hearth.core.errors import ToolError
from hearth.core.events import Event, ModelReply, Notice, NoticeReason, ToolResult, UserMessage
from hearth.core.protocols import DeltaSink, Model, ModelRequest, ModelResponse, WorkspacePaths
from hearth.core.types import Message, Timings, Usage
from hearth.llm.actions import BadAction, NoText, body_text
from hearth.prompts import render

# The task said again right before the text is asked for is at most this long: aider puts the
# instruction last, next to the one reply; a small model asked only for "the whole new content"
# often copied the file it had just read, change not made.
_TASK_CHARS = 1200


def current_task(history: Sequence[Event]) -> str:
    """The person's words for this turn (the last thing they asked), shortened to `_TASK_CHARS`."""
    text = next((e.text for e in reversed(history) if isinstance(e, UserMessage)), "").strip()
    return text if len(text) <= _TASK_CHARS else text[:_TASK_CHARS].rstrip() + " ..."


def body_request(
    request: ModelRequest, action: ModelResponse, args: dict[str, Any], task: str = ""
) -> ModelRequest:
    """The request for the text of the write `action` chose (`args`: its arguments so far), with
    the `task` said again before it."""
    path = str(args.get("path") or "the file")
    return _fresh_request(
        request, action, render("action_body_task" if task else "action_body", path=path, task=task)
    )


# A text refused before for the same file (or the file as it is now) is asked for once more, the
# reason said, at this temperature: at 0.2 the 1.5B sent the same broken file three times running,
# and wrote files back unchanged again and again on fix-the-bug tasks.
RETRY_TEMPERATURE = 0.9
_CURRENT_BYTES = 1 << 20


# The refusals of a write for what its text is (it would break the file, it changes nothing ...),
# not for the file's state (not read yet): the same text would be refused again.
_FOR_THE_TEXT = ("Not changed:", "Not written:")
UNCHANGED = "already has exactly this content"  # the refusal of a write that changes nothing


def refused_texts(history: Sequence[Event], path: str) -> dict[str, str]:
    """The texts of this file's writes refused for what they are, in the session so far, each
    with the first line of its refusal."""
    reasons = {
        e.call_id: e.output.strip().splitlines()[0].removeprefix("Error: ")
        for e in history
        if isinstance(e, ToolResult) and not e.ok and any(m in e.output[:40] for m in _FOR_THE_TEXT)
    }
    return {
        str(call.arguments.get("content")): reasons[call.id]
        for e in history
        if isinstance(e, ModelReply)
        for call in e.tool_calls
        if call.name == "write" and call.id in reasons and call.arguments.get("path") == path
    }


def settled(history: Sequence[Event], path: str) -> bool:
    """Whether the turn's last change of `path` worked with no problem said (a name it never
    defines ...), and nothing failed or was said against the work after it: the file as the model
    meant it, so far as anything shows."""
    start = max((i for i, e in enumerate(history) if isinstance(e, UserMessage)), default=-1)
    ids = {
        call.id
        for e in history[start + 1 :]
        if isinstance(e, ModelReply)
        for call in e.tool_calls
        if call.name in ("write", "edit") and call.arguments.get("path") == path
    }
    events = [e for e in history[start + 1 :] if isinstance(e, (ToolResult, Notice))]
    changes = [e for e in events if isinstance(e, ToolResult) and e.call_id in ids and e.ok]
    if not changes or "Problem:" in changes[-1].output:
        return False
    last = events.index(changes[-1])
    # a notice after it (the finish review's "legacy_mode is still in README.md") says it is not
    return all(isinstance(e, ToolResult) and (e.ok or UNCHANGED in e.output) for e in events[last + 1 :])


def written_text(name: str, arguments: Mapping[str, Any], text: str | None) -> str | None:
    """What a `write` or `edit` with `arguments` would leave in a file that holds `text` now; None
    when it is neither, or would fail (an edit's `old` not found once)."""
    if name == "write" and isinstance(content := arguments.get("content"), str):
        return (text or "") + content if arguments.get("append") else content
    old, new = arguments.get("old"), arguments.get("new")
    if name != "edit" or text is None or not isinstance(old, str) or not isinstance(new, str) or not old:
        return None
    if arguments.get("replace_all"):
        return text.replace(old, new)
    return text.replace(old, new, 1) if text.count(old) == 1 else None


def current_text(paths: WorkspacePaths, path: str) -> str | None:
    """The file's text as it is now (None: not there, not a regular file, or not text); read
    through the workspace's safe paths, so a symlink is never followed."""
    try:
        fd = paths.open(paths.resolve(path), os.O_RDONLY)
    except (OSError, ToolError):
        return None
    with os.fdopen(fd, "rb") as fh:
        data = fh.read(_CURRENT_BYTES + 1)
    if len(data) > _CURRENT_BYTES:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


async def with_body(
    model: Model,
    request: ModelRequest,
    action: ModelResponse,
    args: dict[str, Any],
    sink: DeltaSink | None,
    tracer: Tracer,
    refused: dict[str, str] | None = None,
    task: str = "",
    current: str | None = None,
    notes: list[tuple[NoticeReason, str]] | None = None,
) -> ModelResponse:
    """The action's response with the file's text after it, as one response. A text in `refused`
    (a refused text, or the file as it is now, each with why) is asked for again, once, saying
    why, with more randomness. `task`: the person's words, said again right before the ask.
    `current`: the file as it is now; copied as the text, the model is asked for a Python file's
    new or changed code alone, put into the file (agent/fragments), or to say another file's
    change in words and then write it (`_uncopied`); copied again, it is asked which lines must
    change, and those lines changed in the file are the text (see `changed_lines`).
    Top-level definitions of a Python file the text left out (and the task does not name) are
    kept (see `kept_definitions`); for a task asking docstrings only, the text's docstrings go on
    the file's own code (agent/docstrings: `onto_code`). What Hearth kept is said in `notes`."""
    path = str(args.get("path") or "the file")
    follow = body_request(request, action, args, task)
    bodies = [await _ask(model, follow, sink, tracer)]
    # a refused text, or no text at all (the 1.5B answered the ask for members.csv's text with
    # the write action again, three times running at temperature 0, until the run stopped)
    first = _text(bodies[0].content, args)
    reason = (refused or {}).get(first or "\x00") or _no_text(bodies[0].content, args)
    retry: ModelRequest | None = None
    if current is not None and first == current and current in (refused or {}):
        # the file copied as it is: asked again, the 1.5B copied it at temperature 0.9 too, and
        # again when asked which lines must change. Asked for the new code alone (Python), or to
        # say the change first, it made one.
        retry, again = await _uncopied(model, request, action, path, task, current, sink, tracer)
        bodies += again
    elif reason:
        retry = _again_request(follow, bodies[0], path, reason)
        bodies.append(await _ask(model, retry, sink, tracer))
    if retry is not None and current is not None and _text(bodies[-1].content, args) == current:
        lines = _with_turn(retry, bodies[-1].content, render("body_lines", path=path), follow.temperature)
        answer = await _ask(model, lines, sink, tracer)
        changed = changed_lines(answer.content, current)
        if changed is not None:
            # the file with those lines changed is the write's text; the model's own answer
            # (the lines as they are and as they must be) is kept as the reply's reasoning
            thought = "\n".join(t for t in (answer.reasoning, answer.content) if t)
            bodies.append(replace(answer, content=f"```\n{changed}```", reasoning=thought))
    text = _text(bodies[-1].content, args)
    if current is not None and text is not None:
        if path.endswith(".py"):
            # the text as Hearth mends it replaces the last body's (its usage counted once)
            closed = closed_quotes(text, current)
            if closed is not None:
                text = closed
                bodies[-1] = replace(bodies[-1], content=f"```\n{text}```")
            elif runs_on(text):
                alone = await _code_alone(model, follow, bodies[-1], path, current, sink, tracer)
                if alone is not None:
                    bodies.append(alone)
                    text = _text(alone.content, args) or text
        kept = _kept(text, current, task, path)
        if kept is not None:
            bodies[-1] = replace(bodies[-1], content=f"```\n{kept[0]}```")
            if notes is not None:
                notes.append(kept[1])
    return _merged(action, bodies)


# the change said in words is short: a small model asked for no code often writes some anyway,
# and what it starts is enough to go on
_PLAN_TOKENS = 200


async def _uncopied(
    model: Model,
    request: ModelRequest,
    action: ModelResponse,
    path: str,
    task: str,
    current: str,
    sink: DeltaSink | None,
    tracer: Tracer,
) -> tuple[ModelRequest, list[ModelResponse]]:
    """After the file `current` was copied as its new text: the replies that follow, the last one
    the text, and the last request. A Python file: its new or changed code alone, put into the
    file (agent/fragments; the file as it is when that fails, so the lines are asked for next).
    Any other: the change said in words, then the whole file with it."""
    if path.endswith(".py"):
        asked = _fresh_request(
            request, action, render("body_fragment", path=path, task=task or "the one above")
        )
        answer = await _ask(model, asked, sink, tracer)
        fragment = _text(answer.content, {"path": path})
        whole = merged(current, fragment) if fragment is not None else None
        thought = "\n".join(t for t in (answer.reasoning, answer.content) if t)
        return asked, [replace(answer, content=f"```\n{whole or current}```", reasoning=thought)]
    asked = replace(
        _fresh_request(request, action, render("body_plan", path=path, task=task or "the one above")),
        max_tokens=_PLAN_TOKENS,
    )
    plan = await _ask(model, asked, sink, tracer)
    retry = _after_plan(asked, plan, path, request.max_tokens)
    return retry, [replace(plan, content="", reasoning=plan.content), await _ask(model, retry, sink, tracer)]


def _fresh_request(request: ModelRequest, action: ModelResponse, ask: str) -> ModelRequest:
    """`ask` right after the write action, without the grammar (and, asked after a copy, without
    the copied text in view: it pulled the model back to copying)."""
    return ModelRequest(
        messages=[
            *request.messages,
            Message(role="assistant", content=action.content.strip()),
            Message(role="user", content=ask),
        ],
        temperature=request.temperature,
        max_tokens=request.max_tokens,
        extra={k: v for k, v in request.extra.items() if k != "response_format"},
    )


def _after_plan(asked: ModelRequest, plan: ModelResponse, path: str, max_tokens: int | None) -> ModelRequest:
    """The ask for the whole file with the change the model just said made."""
    return replace(
        _with_turn(asked, plan.content, render("body_after_plan", path=path), asked.temperature),
        max_tokens=max_tokens,
    )


def _again_request(follow: ModelRequest, body: ModelResponse, path: str, reason: str) -> ModelRequest:
    """The ask for the text again, saying why the last was refused, with more randomness."""
    ask = render("action_body_again", path=path, reason=reason)
    return _with_turn(follow, body.content, ask, max(RETRY_TEMPERATURE, follow.temperature or 0.0))


def _with_turn(request: ModelRequest, reply: str, ask: str, temperature: float | None) -> ModelRequest:
    """`request` with the model's `reply` and the next `ask` after it."""
    messages = [
        *request.messages,
        Message(role="assistant", content=reply),
        Message(role="user", content=ask),
    ]
    return replace(request, messages=messages, temperature=temperature)


def _kept(text: str, current: str, task: str, path: str) -> tuple[str, tuple[NoticeReason, str]] | None:
    """The text of a whole-file write of the file `current` with what the task keeps put back,
    and the notice saying so; None when the text keeps it already. A Python file: its
    definitions, or for a task asking docstrings only, its code. (A renames-only task's write is
    made by Hearth before any text is asked: `mechanical_write`.)"""
    if not path.endswith(".py"):
        return None
    whole, names = kept_definitions(text, current, task)
    if asks_docstrings_only(task):
        onto = onto_code(whole, current)
        if onto is not None:
            return onto, (NoticeReason.CODE_KEPT, render("notice_code_kept", path=path))
    if names:
        notice = render("notice_kept_definitions", path=path, names=", ".join(names))
        return whole, (NoticeReason.KEPT_DEFINITIONS, notice)
    return None


def mechanical_write(
    task: str, path: str, now: str | None, shown: Mapping[str, str], read: Callable[[str], str | None]
) -> tuple[str, NoticeReason, str] | None:
    """The text of a write Hearth makes itself, asked of no model, with the notice saying so: in
    a moves-only task, the file with the move made (agent/moves; the source as `shown` with the
    task, else as `read` now); in a renames-only task, the file with the renames made
    (agent/leftovers). None otherwise, or when the file `now` has it already."""
    move = move_asked(task)
    if move is not None:
        source = shown.get(move.source) or read(move.source)
        text = moved_text(move, os.path.normpath(path), now, source) if source is not None else None
        if text is not None and text != now:
            names = ", ".join(moved_names(move, source or ""))
            said = render("notice_moved", path=path, source=move.source, target=move.target, names=names)
            return text, NoticeReason.MOVED, said
    if now is None or not only_renames(task):
        return None
    text = renamed_text(task, now, path)
    if text == now:
        return None
    names = ", ".join(f"{old} to {new}" for old, new in renamed(task))
    return text, NoticeReason.RENAMES_ONLY, render("notice_renames_only", path=path, names=names)


def made_body(action: ModelResponse, text: str) -> ModelResponse:
    """The write `action` with `text` as the file's text, made by Hearth and asked of no model."""
    return replace(action, content=action.content.strip() + f"\n```\n{text}```")


def without_body(action: ModelResponse) -> ModelResponse:
    """The write `action` with an empty text: a write refused whatever its text is (of a file the
    task says not to change) costs no request for its text, and goes on to be refused."""
    return replace(action, content=action.content.strip() + "\n```\n```")


async def _code_alone(
    model: Model,
    follow: ModelRequest,
    body: ModelResponse,
    path: str,
    current: str,
    sink: DeltaSink | None,
    tracer: Tracer,
) -> ModelResponse | None:
    """For a text whose docstring runs on (agent/docstrings): the file asked for again without
    its docstrings, their text said apart, and the answer with them put back (its text in a
    fenced block); None when the file has none, or the answer does not parse either."""
    code, docs = without_docstrings(current)
    if not docs:
        return None
    ask = render("body_code", path=path, code=code.rstrip("\n"), docs="\n\n".join(docs))
    request = replace(
        follow,
        messages=[
            *follow.messages,
            Message(role="assistant", content=body.content),
            Message(role="user", content=ask),
        ],
    )
    answer = await _ask(model, request, sink, tracer)
    text = _text(answer.content, {"path": path})
    if text is None or not parses(text):
        return None
    return replace(answer, content=f"```\n{_ended(docstrings_back(text, current))}```")


def closed_quotes(text: str, current: str) -> str | None:
    """`text` (a whole-file write of the Python file `current`) with the closing quotes put back
    on the line where a triple-quoted string is left open, when the file has that line with them
    (a one-line docstring copied without its closing quotes: the 1.5B did so, and every write of
    the file was refused as broken). None when that is not what is wrong."""
    try:
        ast.parse(text)
        return None
    except SyntaxError as exc:
        if "unterminated triple-quoted" not in exc.msg or not exc.lineno:
            return None
        number = exc.lineno
    except (ValueError, RecursionError, MemoryError):
        return None
    lines = text.splitlines(keepends=True)
    if number > len(lines):
        return None
    line = lines[number - 1].rstrip("\n")
    known = set(current.splitlines())
    for quotes in ('"""', "'''"):
        if line + quotes in known:
            lines[number - 1] = line + quotes + "\n"
            fixed = "".join(lines)
            try:
                ast.parse(fixed)
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                return None
            return fixed
    return None


_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def kept_definitions(text: str, current: str, task: str) -> tuple[str, list[str]]:
    """`text` (a whole-file write of the Python file `current`) with the top-level functions and
    classes it left out put back, as they were, before its `if __name__ == "__main__":` block or at
    its end; and their names. A small model asked to change one function often writes only that
    one. Left out: the names the task says (a rename or a removal means them), a name the text
    has with a renamed part (`test_add_song_works` as `test_enqueue_works`), and everything when
    the text defines nothing at all (not this file's text: the agent's own guard answers that)."""
    try:
        old, new = ast.parse(current), ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return text, []
    defined = {node.name for node in new.body if isinstance(node, _DEFINITIONS)}
    renames = renamed(task)
    missing = [
        node
        for node in old.body
        if isinstance(node, _DEFINITIONS)
        and node.name not in defined
        and not re.search(rf"(?<!\w){re.escape(node.name)}(?!\w)", task)
        # test_add_song_works written as test_enqueue_works: the rename reaching a test's name
        and not any(node.name.replace(a, b) in defined for a, b in renames if a in node.name)
    ]
    main, old_main = _main_block(new), _main_block(old)
    # the script's `if __name__ == "__main__":` block, left out (the 1.5B adding docstrings to a
    # whole file stopped before it), unless the task speaks of it
    lost_main = old_main is not None and main is None and not _MAIN_WORDS.search(task)
    if not defined or not (missing or lost_main):
        return text, []
    old_lines = current.split("\n")
    blocks = [
        "\n".join(
            old_lines[min([n.lineno for n in node.decorator_list] + [node.lineno]) - 1 : node.end_lineno]
        )
        for node in missing
    ]
    lines = text.rstrip("\n").split("\n")
    at = main.lineno - 1 if main is not None else len(lines)
    head, tail = "\n".join(lines[:at]).rstrip("\n"), "\n".join(lines[at:])
    if lost_main and old_main is not None:
        tail = "\n".join(old_lines[old_main.lineno - 1 : old_main.end_lineno])
    whole = "\n\n\n".join([head, *blocks, *([tail] if tail else [])]) + "\n"
    try:
        ast.parse(whole)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return text, []
    return whole, [node.name for node in missing] + ([_MAIN_NAME] if lost_main else [])


_MAIN_NAME = 'its `if __name__ == "__main__":` block'
_MAIN_WORDS = re.compile(r"__main__|\bmain\s+block\b", re.IGNORECASE)


def _main_block(tree: ast.Module) -> ast.If | None:
    """The module's `if __name__ == "__main__":` block, when it has one."""
    return next((n for n in tree.body if isinstance(n, ast.If) and "__main__" in ast.unparse(n.test)), None)


def _merged(action: ModelResponse, bodies: list[ModelResponse]) -> ModelResponse:
    """The action and its last body as one response, the usage and time of all of them."""
    body = bodies[-1]
    return ModelResponse(
        content=action.content.strip() + "\n" + body.content,
        reasoning="\n".join(r for r in (action.reasoning, *(b.reasoning for b in bodies)) if r),
        tool_calls=(),
        finish_reason=body.finish_reason,
        usage=Usage(
            prompt_tokens=action.usage.prompt_tokens + sum(b.usage.prompt_tokens for b in bodies),
            cached_tokens=action.usage.cached_tokens + sum(b.usage.cached_tokens for b in bodies),
            completion_tokens=action.usage.completion_tokens + sum(b.usage.completion_tokens for b in bodies),
            estimated=action.usage.estimated or any(b.usage.estimated for b in bodies),
        ),
        timings=Timings(
            ttft_ms=action.timings.ttft_ms,
            total_ms=action.timings.total_ms + sum(b.timings.total_ms for b in bodies),
        ),
        model=action.model,
    )


_BLOCKS = re.compile(r"```[^\n`]*\n(.*?)^[ \t]*```", re.DOTALL | re.MULTILINE)


def changed_lines(answer: str, current: str) -> str | None:
    """The file `current` with the answer's first block (lines as they are) replaced by its second
    (as they must be): found exactly, else line by line ignoring indentation, the new lines then
    indented as the old ones were. None when the answer has no two blocks, the old lines are not
    in the file (or not once), or nothing would change."""
    blocks = _BLOCKS.findall(answer)
    if len(blocks) < 2 or not blocks[0].strip():
        return None
    old, new = blocks[0].rstrip("\n"), blocks[1].rstrip("\n")
    if current.count(old) == 1:
        changed = current.replace(old, new, 1)
        return _ended(changed) if changed != current else None
    lines, old_lines = current.split("\n"), [line.strip() for line in old.split("\n")]
    starts = [
        i
        for i in range(len(lines) - len(old_lines) + 1)
        if [line.strip() for line in lines[i : i + len(old_lines)]] == old_lines
    ]
    if len(starts) != 1:
        return None
    start = starts[0]
    indent = _indent(lines[start])
    base = min((_indent(line) for line in new.split("\n") if line.strip()), default="")
    moved = [indent + line.removeprefix(base) if line.strip() else "" for line in new.split("\n")]
    changed = "\n".join([*lines[:start], *moved, *lines[start + len(old_lines) :]])
    return _ended(changed) if changed != current else None


def _ended(text: str) -> str:
    """The text ending with a newline (so the closing fence of its block starts a line)."""
    return text if text.endswith("\n") else text + "\n"


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]


async def _ask(model: Model, request: ModelRequest, sink: DeltaSink | None, tracer: Tracer) -> ModelResponse:
    with tracer.model_request(model.name, request) as span:
        response = await model.complete(request, sink)
        span.outcome(response)
    return response


def _no_text(reply: str, args: dict[str, Any]) -> str:
    """Why `reply` gives no text for the write at all (the action again, no block); "" when it
    gives one, or fails otherwise."""
    try:
        body_text(reply, str(args.get("path") or "the file"))
    except NoText as exc:
        return str(exc)
    except BadAction:
        return ""
    return ""


def _text(reply: str, args: dict[str, Any]) -> str | None:
    try:
        return body_text(reply, str(args.get("path") or "the file"))
    except BadAction:
        return None
