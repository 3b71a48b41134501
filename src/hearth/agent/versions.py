"""Other versions of the file a small model could not get right, kept when the checks pass.

Measured with a 1.5B model: told that the tests fail, it wrote the same wrong file again and
again (a one-character bug, `<` for `<=`, never found however it was asked), or the same broken
one. Its context by then holds its own wrong file several times over, and it copies it. A fresh,
short request (the task, the file as it is, what the failing checks printed, and the test file
they name) sampled a few times gets such a file right one time in a few, and the checks say
which: this is selection by the project's own checks, not by the model's word.

When a small model's turn is about to end not done and the workspace has checks that fail now
(the project's tests, or a command the task gives with the output it must print: see
agent/done), Hearth asks for whole new versions of the file the model was changing, the first at
the session's temperature and the rest at a higher one; writes each through the one dispatcher
(the same permissions, change guard and sandbox as the model's own writes) and runs the checks
again. The first version they pass stays, and the model is told (the file's new text with it,
so its next steps start from what is there); when none does, the file is put back as it was, and
when one was written and tried the turn ends not done (agent/done: the 1.5B's own steps after
such a round passed nothing in 45 held-out runs).
When the file was shown with the task and the model has changed it since, the second version and
all after it are asked from the file as it was shown (not the model's wrong one): the 1.5B's
versions of its own wrong file kept its mistake, where one request from the exercise as given is
what aider sends, and the same request again costs the server nothing new to read.
A reply repeating a version already tried makes the next request hotter (`HOTTER`), and a test
of itself a version ends with is taken off before it is tried (agent/scaffold).
At most `COUNT` versions a round, each only while the turn has time for it and the session's
token budget lasts, at most `ROUNDS` rounds in a turn (a second only after a round that tried
nothing: its replies copied the file or broke), and only where the policy lets a write through
without asking the person.
"""

from __future__ import annotations

import ast
import logging
import os
import re
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from hearth.agent.body import current_text, kept_definitions
from hearth.agent.deadline import DeadlinePassed, has_time, until
from hearth.agent.dispatch import Dispatcher
from hearth.agent.docstrings import docstrings_back, without_docstrings
from hearth.agent.leftovers import renamed
from hearth.agent.policy import Decision
from hearth.agent.scaffold import without_scaffold
from hearth.agent.state import SessionState
from hearth.agent.tracing import Tracer
from hearth.core.errors import ToolError
from hearth.core.events import Event, Notice, NoticeReason, ToolResult, UserMessage
from hearth.core.protocols import Model, ModelRequest
from hearth.core.types import Message, ToolCall
from hearth.llm.actions import BadAction, body_text
from hearth.prompts import render
from hearth.sandbox.secrets import is_secret_path

log = logging.getLogger(__name__)

# After a failed round of four, the 1.5B's own steps passed nothing in two held-out trials (18
# turns) while the turn had a minute or more left; the later versions of a round repeat one
# request, which the server keeps, so each costs it the reply alone
COUNT = 6
# Rounds of versions in a turn. A round that tried a version and passed none ends the turn
# (agent/done); a second comes only after a round whose replies could not be tried
ROUNDS = 2
TEMPERATURE = 0.9  # after the first: the same request at a low temperature gives the same file
# Each reply that repeats a version already tried makes the next request this much hotter, up to
# HOTTEST: at 0.9 the 1.5B answered a version request with the same file three times running (on
# llama.cpp, with its own seed each time), so half a round tried nothing new
HOTTER = 0.2
HOTTEST = 1.3
_MAX_LINES = 200  # a longer file is not written whole by a small model well; left to the model
_MAX_TEST_LINES = 150
# the time one version is taken to need before one was timed (the 1.5B on 2 cores: a prompt of
# 700 tokens and a file of 200, 15 to 25 s), and the checks after it
_FIRST_SECONDS = 30.0
_CHECK_SECONDS = 10.0
_FAILURE_CHARS = 1500
_TEST_FILE = re.compile(r"[\w./-]*\b(?:test_[\w-]*|[\w-]+_test)\.py\b")
_MAX_INPUT_LINES = 60


def same_but_values(text: str, original: str) -> bool:
    """Whether Python `text` is `original` with only literal values changed (numbers, strings):
    a corrected test, not one with an assertion dropped, loosened or skipped."""

    def shape(source: str) -> str:
        tree = ast.parse(source)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant):
                node.value = None
        return ast.dump(tree)

    try:
        return shape(text) == shape(original)
    except (SyntaxError, ValueError):
        return False


def is_test_file(path: str) -> bool:
    """A test file (test_*.py, *_test.py, conftest.py): the checks, never what a version changes."""
    name = os.path.basename(path)
    return name == "conftest.py" or (
        name.endswith(".py") and (name.startswith("test_") or name.endswith("_test.py"))
    )


def tried(history: Sequence[Event]) -> bool:
    """Whether versions were asked for already in this turn as often as they may be (`ROUNDS`)."""
    rounds = 0
    for event in reversed(history):
        if isinstance(event, UserMessage):
            break
        if isinstance(event, Notice) and event.reason == NoticeReason.VERSIONS:
            rounds += 1
    return rounds >= ROUNDS


@dataclass(frozen=True)
class _Tries:
    """What the versions of one file are asked from."""

    current: str  # the file as it is now (the model's)
    start: str | None  # the file as shown with the task, when the model has changed it since
    failure: str
    tests: tuple[str, str] | None
    count: int

    def shown(self, number: int) -> tuple[str, bool, bool]:
        """The text version `number` (from 0) is asked from, whether without its docstrings, and
        whether it is the file as shown with the task. The first is the model's file; when the
        model changed the file shown with the task, every later one is that file as shown: in
        four held-out suites' 90 rounds, 12 of the 14 versions kept were the first asked from the
        file as given, one the model's at the session's temperature, one the model's hotter, of
        some 250 tries of the model's. A `bare` one shows a Python
        file without its docstrings, which are said apart: the 1.5B copying an exercise's long
        docstring back ran on into the tests and never closed it (the file did not parse), while
        without them it wrote the code. The bare ones come last, one after another: the same
        request again costs the server no new prompt (it keeps the last prompt's prefix). What
        all the versions share (the task, the test file, what the checks printed) comes first in
        each request and the file they differ in last, so a change of file costs the server only
        the file's tokens."""
        bare = number >= (self.count + 1) // 2
        if number >= 1 and self.start is not None:
            return self.start, bare and number >= 2, True
        return self.current, bare, False


@dataclass
class Versions:
    """Asks for and tries versions of one file (see the module's docstring)."""

    model: Model
    dispatcher: Dispatcher
    record: Callable[[Event], None]
    state: SessionState | None
    tracer: Tracer
    temperature: float | None = None
    max_tokens: int | None = None
    extra: dict[str, Any] | None = None  # the role's request settings (never a response format)
    deadline: float | None = None  # time.monotonic() by which the turn ends
    count: int = COUNT
    # the files versions of which were written and tried and none passed (the turn then ends
    # not done: agent/done); a round whose replies only copied the file, or broke, tells nothing
    failed: list[str] = field(default_factory=list)

    def allowed(self, path: str) -> bool:
        """Whether a write of `path` goes through without asking anyone (Hearth asks nobody to
        approve its own tries)."""
        tool = self.dispatcher.toolset.get("write")
        if tool is None:
            return False
        policy = self.dispatcher.policy_in(self.state)
        verdict = policy.decide(tool, {"path": path, "content": ""}, self.dispatcher.context.paths)
        return verdict.decision is Decision.ALLOW

    async def find(
        self,
        path: str,
        task: str,
        failure: str,
        check: Callable[[], Awaitable[str]],
        *,
        most: int | None = None,
        start: str | None = None,
        inputs: Sequence[str] = (),
    ) -> bool:
        """Try versions of `path` until `check` (what still fails, "" when nothing does) passes,
        at most `most` of them (default: `count`). `start`: the file as it was shown with the
        task, which the versions after the first are asked from ("" for a file the model created:
        those are asked from the task alone, not from the model's wrong file). `inputs`: the workspace files the task's
        commands read (shown when no test file is). True: one passed and is in the workspace
        (a notice says so). False: none did, or none could be tried; the file is as it was."""
        paths = self.dispatcher.context.paths
        original = current_text(paths, path)
        if original is None or original.count("\n") > _MAX_LINES or not self.allowed(path):
            return False
        log.info("asking for other versions of %s: the checks fail", path)
        tests = self._test_file(failure, path) or self._input_file(inputs, path)
        # the file as shown with the task is never a version: its checks may pass (the old tests
        # of a script the task adds an option to), and it undoes the task (the 1.5B's version
        # from the file as given was that file, and Hearth kept it over the model's new option)
        seen: set[str] = {_code(original, path)} | ({_code(start, path)} if start is not None else set())
        before = len(seen)
        try:
            count = self.count if most is None else min(most, self.count)
            fresh = start if start is not None and start != original else None
            tries = _Tries(original, fresh, failure, tests, count)
            number = await self._first_passing(path, task, tries, check, seen)
        except BaseException:
            self.restore(path, original)  # stopped midway (Ctrl-C, an error): never leave a try behind
            raise
        if number:
            text = current_text(paths, path) or ""
            kept = render("notice_version_kept", path=path, number=number, text=text.rstrip("\n"))
            self.record(Notice(reason=NoticeReason.VERSIONS, text=kept))
            return True
        if len(seen) > before:
            self.restore(path, original)
        if number is not None:  # None: no time to ask for any, nothing to tell
            if len(seen) > before:  # tried, not only asked (the replies copied the file, or broke)
                self.failed.append(path)
            self.record(
                Notice(reason=NoticeReason.VERSIONS, text=render("notice_versions_failed", path=path))
            )
        return False

    async def _first_passing(
        self, path: str, task: str, tries: _Tries, check: Callable[[], Awaitable[str]], seen: set[str]
    ) -> int | None:
        """The number (from 1) of the first version the checks pass, written in the workspace; 0
        when none did; None when there was no time to ask for one. `seen` gets each text tried."""
        longest, asked, repeats = _FIRST_SECONDS, 0, 0
        original = tries.current
        copied: set[str] = set()  # the files shown in requests answered with a copy of that file
        for n in range(tries.count):
            shown = _shown(path, tries, n)
            if shown[0] in copied:
                continue  # the same request again: the 1.5B copied the file six times out of six
            if not has_time(self.deadline, longest + _CHECK_SECONDS):
                break  # a version and its checks must end before the turn does
            if self.state is not None and self.state.budget is not None and self.state.budget.used_up:
                break  # the session's token budget is used up (the versions counted in it)
            started = time.monotonic()
            try:
                reply = await until(self.deadline, self._ask(path, task, tries, n, repeats))
            except (DeadlinePassed, TimeoutError):
                break  # the turn's end came first
            longest = max(longest if asked else 0.0, time.monotonic() - started)
            asked += 1
            text = self._usable(reply, original, task, path)
            if text is None or _code(text, path) in seen:
                if n >= 1 and text is not None and _copy(text, shown, tries):
                    copied.add(shown[0])
                repeats += text is not None
                continue
            seen.add(_code(text, path))
            if await self.write(path, text, n) and not await check():
                return n + 1
        return 0 if asked else None

    def _test_file(self, failure: str, path: str) -> tuple[str, str] | None:
        """The first test file the failure names that is in the workspace, with its text."""
        workspace = str(self.dispatcher.context.workspace)
        for name in dict.fromkeys(_TEST_FILE.findall(failure)):
            rel = os.path.relpath(name, workspace) if os.path.isabs(name) else os.path.normpath(name)
            if rel.startswith("..") or rel == path:
                continue  # a test file outside the workspace (the tools' own) is not shown
            text = current_text(self.dispatcher.context.paths, rel)
            if text is not None and text.count("\n") <= _MAX_TEST_LINES:
                return rel, text
        return None

    def _input_file(self, inputs: Sequence[str], path: str) -> tuple[str, str] | None:
        """The first of the task's commands' inputs (not Python, not a secret, a few lines) with
        its text: what the script reads. The 1.5B's versions of a script crashing on its input's
        blank and comment lines never saw that input."""
        for name in inputs:
            rel = os.path.normpath(name)
            if rel == path or rel.endswith(".py") or rel.startswith("..") or is_secret_path(rel):
                continue
            text = current_text(self.dispatcher.context.paths, rel)
            if text is not None and text.count("\n") <= _MAX_INPUT_LINES:
                return rel, text
        return None

    async def _ask(self, path: str, task: str, tries: _Tries, number: int, repeats: int = 0) -> str:
        """One version (see `_Tries.shown`): the first at the session's temperature, and so the
        second when it is asked from the file as shown with the task; the others at a higher one,
        hotter by `HOTTER` for each of the `repeats` replies so far that repeated a version tried."""
        shown, spec, fresh = _shown(path, tries, number)
        tests = tries.tests
        template = (
            "version_request" if not fresh else "version_request_start" if shown else "version_request_new"
        )
        fields = {
            "task": task.strip(),
            "spec": spec,
            "path": path,
            "failure": tries.failure.strip()[-_FAILURE_CHARS:],
            "tests": self._shown_checks(tests),
        }
        if template != "version_request_new":  # a new file's is asked without the model's text
            fields["current"] = shown.rstrip("\n")
        content = render(template, **fields)
        request = ModelRequest(
            messages=[
                Message(role="system", content=render("version_system")),
                Message(role="user", content=content),
            ],
            temperature=self.temperature
            if number == 0 or (fresh and number == 1)
            else _hotter(self.temperature, repeats),
            max_tokens=self.max_tokens,
            extra=dict(self.extra or {}),
        )
        with self.tracer.model_request(self.model.name, request) as span:
            response = await self.model.complete(request, None)
            span.outcome(response)
        self.record(response.used("version", self.model.name))
        return response.content

    @staticmethod
    def _shown_checks(tests: tuple[str, str] | None) -> str:
        """The test file, or the input the failing command reads, as the request shows it."""
        if tests is None:
            return ""
        name, text = tests
        template = "version_tests" if is_test_file(name) else "version_input"
        return render(template, path=name, text=text.rstrip("\n"))

    @staticmethod
    def _usable(reply: str, original: str, task: str, path: str) -> str | None:
        """The version's text from the reply; None when there is none, or a Python file's does
        not parse. Top-level definitions it left out are kept (agent/body)."""
        try:
            text = body_text(reply, path)
        except BadAction:
            return None
        if not path.endswith(".py"):
            return text
        try:
            ast.parse(text)
        except (SyntaxError, ValueError):
            return None
        if is_test_file(path):
            if not renamed(task) and not same_but_values(text, original):
                return None  # a test asked to be corrected: its values, never what it checks
        else:
            text = without_scaffold(text, original, path, task)
        return docstrings_back(kept_definitions(text, original, task)[0], original)

    async def write(self, path: str, text: str, number: int) -> bool:
        """Write a try of `path` through the one dispatcher; whether it was written."""
        call = ToolCall(
            id=f"hearth-version-{number + 1}-{os.urandom(3).hex()}",
            name="write",
            arguments={"path": path, "content": text},
        )
        events = await self.dispatcher.dispatch(call, self.state)
        for event in events:
            self.record(event)
        result = events[-1]
        return isinstance(result, ToolResult) and result.ok

    def restore(self, path: str, original: str) -> None:
        """Put the file back as the model left it: Hearth's own write, beneath the workspace with
        no symlink followed (a check that ran may have changed anything the sandbox lets it)."""
        paths = self.dispatcher.context.paths
        try:
            resolved = paths.resolve(path, write=True)
            fd = paths.open(resolved, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        except (OSError, ToolError) as exc:
            log.warning("could not put %s back after trying versions: %s", path, exc)
            return
        with os.fdopen(fd, "wb") as fh:
            fh.write(original.encode("utf-8"))
        if self.dispatcher.context.known is not None:
            self.dispatcher.context.known.note(paths, resolved)  # the model's next write starts from it


def _shown(path: str, tries: _Tries, number: int) -> tuple[str, str, bool]:
    """What version `number`'s request shows (see `_Tries.shown`): the file's text, the spec
    said apart (its docstrings, for a bare one), and whether it is the file as shown with the
    task."""
    current, bare, fresh = tries.shown(number)
    if bare and path.endswith(".py"):
        shown, docs = without_docstrings(current)
        return shown, render("version_spec", docs="\n\n".join(docs)) if docs else "", fresh
    return current, "", fresh


def _copy(text: str, shown: tuple[str, str, bool], tries: _Tries) -> bool:
    """Whether a reply is a copy of the file its request showed (with its docstrings or without):
    the file as given for a request from it (the model's own file is an answer to that one), else
    the model's file or the file as given."""
    text_shown, _, fresh = shown
    return text in ((text_shown, tries.start) if fresh else (text_shown, tries.current, tries.start))


def _hotter(temperature: float | None, repeats: int) -> float:
    """The temperature of a version after the first: `TEMPERATURE` (or the session's, when higher),
    `HOTTER` more for each reply so far that repeated a version, at most `HOTTEST`."""
    base = max(TEMPERATURE, temperature or 0.0)
    return round(min(base + HOTTER * repeats, max(HOTTEST, base)), 2)


def _code(text: str, path: str) -> str:
    """What tells versions apart: a Python file's syntax tree (a comment or blank line changes
    nothing), else the text."""
    if path.endswith(".py"):
        try:
            return ast.dump(ast.parse(text))
        except (SyntaxError, ValueError):
            pass
    return text
