"""The interactive REPL, driven in a real pseudo-terminal (pexpect) against the scripted server."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pexpect
import pytest

from hearth.testing import ScriptedCall, ScriptedReply, ScriptedServer
from support import HearthCli, clean_env, state_of, wait_reflected


def call(name: str, **args: object) -> ScriptedReply:
    return ScriptedReply(tool_calls=[ScriptedCall(name=name, arguments=args)])


def spawn_repl(workspace: Path, home: Path, server: ScriptedServer, *flags: str) -> pexpect.spawn:
    import sys

    env = clean_env(home, HEARTH_LLM_URL=server.url, TERM="xterm")
    return pexpect.spawn(
        sys.executable,
        # no flags: the entry point's direct path to the REPL; flags: through the full CLI
        ["-m", "hearth", "-w", str(workspace), *flags],
        env=env,
        encoding="utf-8",
        timeout=30,
        dimensions=(50, 200),
    )


@pytest.fixture
def repl(workspace: Path, home: Path, server: ScriptedServer):  # type: ignore[no-untyped-def]
    children: list[pexpect.spawn] = []

    def start() -> pexpect.spawn:
        child = spawn_repl(workspace, home, server)
        child.expect("›")
        children.append(child)
        return child

    yield start
    for child in children:
        child.close(force=True)


def send(child: pexpect.spawn, line: str, *expect: str) -> None:
    child.sendline(line)
    for pattern in expect:
        child.expect(pattern)
    child.expect("›")


def test_permission_prompt_answered_both_ways(repl, server: ScriptedServer, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    server.add(
        call("shell", command="echo yes > allowed.txt"),
        call("shell", command="echo no > denied.txt"),
        ScriptedReply(text="One ran, one was refused."),
    )
    child = repl()
    child.sendline("make two files")
    child.expect("needs your approval")
    child.expect("echo yes > allowed.txt")
    child.sendline("y")
    child.expect("needs your approval")
    child.sendline("n")
    child.expect("One ran, one was refused")
    child.expect("›")
    assert (workspace / "allowed.txt").read_text() == "yes\n"
    assert not (workspace / "denied.txt").exists()
    child.sendcontrol("d")
    child.expect(pexpect.EOF)


def test_allow_for_the_session_and_deny_with_a_message(repl, server: ScriptedServer, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    server.add(
        call("shell", command="touch one.txt"),
        call("shell", command="touch one.txt"),
        call("shell", command="rm -r build"),
        ScriptedReply(text="OK, I will use make clean."),
    )
    child = repl()
    child.sendline("tidy up")
    child.expect("touch one.txt")
    child.expect("allow for this session")
    child.sendline("a")
    child.expect("rm -r build")  # the second, identical touch ran without asking
    child.sendline("m")
    child.expect("message to the model")
    child.sendline("use make clean instead")
    child.expect("OK, I will use make clean")
    child.expect("›")
    assert (workspace / "one.txt").exists()
    assert "The user says: use make clean instead" in json.dumps(server.requests[-1]["messages"])


def test_ctrl_c_stops_a_streaming_reply_and_the_session_goes_on(repl, server: ScriptedServer) -> None:  # type: ignore[no-untyped-def]
    server.add(ScriptedReply(text="word " * 400, chunk_size=3, delay=0.02), ScriptedReply(text="Still here."))
    child = repl()
    child.sendline("talk a lot")
    child.expect("word word word")
    child.sendintr()
    child.expect("stopped")
    child.expect("›")
    send(child, "are you there?", "Still here.")
    assert server.violations == []
    child.sendcontrol("c")
    child.expect("Ctrl\\+C again")
    child.expect("›")  # the second Ctrl+C must reach the new prompt
    child.sendcontrol("c")
    child.expect(pexpect.EOF)


def test_undo_restores_a_file_changed_by_shell(repl, server: ScriptedServer, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    (workspace / "data.txt").write_text("before\n")
    server.add(call("shell", command="echo after > data.txt"), ScriptedReply(text="Changed it."))
    child = repl()
    send(child, "/mode auto", "Mode: auto")
    send(child, "change data.txt", "Changed it.")
    assert (workspace / "data.txt").read_text() == "after\n"
    send(child, "/undo", "Restored the files to before step 1")
    assert (workspace / "data.txt").read_text() == "before\n"


def test_resume_a_session_from_a_previous_process_and_switch_model(repl, server: ScriptedServer) -> None:  # type: ignore[no-untyped-def]
    server.add(ScriptedReply(text="Noted: the code is 4711."))
    first = repl()
    send(first, "remember 4711", "Noted")
    first.sendline("/session")
    first.expect(r"(\d{8}-\d{6}-[0-9a-f]{6})")
    sid = first.match.group(1)
    first.expect("›")  # Ctrl+D must reach the prompt, not the terminal before it is ready
    first.sendcontrol("d")
    first.expect(pexpect.EOF)

    server.add(ScriptedReply(text="It was 4711."))
    second = repl()
    send(second, f"/resume {sid}", f"Resumed {sid}")
    send(second, "/model", "scripted-model")
    send(second, "/model other-model", "Model: other-model")
    send(second, "/model reviewer big-model", "Model of the reviewer role: big-model")
    send(second, "/model astronaut x", "Unknown role 'astronaut'")
    send(second, "what was the code?", "It was 4711.")
    last = server.requests[-1]
    assert last["model"] == "other-model"
    assert "remember 4711" in json.dumps(last["messages"])
    second.sendcontrol("d")
    second.expect(pexpect.EOF)

    # The switches are events of the session: a new process resuming it uses them, nothing else does.
    server.add(ScriptedReply(text="Still 4711."), ScriptedReply(text="A new one."))
    third = repl()
    send(third, f"/resume {sid}", f"Resumed {sid}")
    send(third, "/model", r"main\s+other-model", r"reviewer\s+big-model")
    send(third, "and now?", "Still 4711.")
    assert server.requests[-1]["model"] == "other-model"
    send(third, "/new", "New session")
    send(third, "hello", "A new one.")
    assert server.requests[-1].get("model", "") == ""  # the configured model: the server's default


def test_unknown_commands_say_what_exists(repl) -> None:  # type: ignore[no-untyped-def]
    child = repl()
    send(child, "/frobnicate", "Unknown command /frobnicate", "/undo")
    send(child, "/help", "/compact", "/cost")


class Terminal:
    """A pseudo-terminal with a screen (pyte) in front of the REPL: it answers cursor-position
    requests as a real terminal does, so prompt_toolkit draws its bottom bar, and assertions
    read the screen as a person sees it."""

    def __init__(self, child: pexpect.spawn, rows: int = 50, cols: int = 200) -> None:
        import pyte

        self.child = child
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.Stream(self.screen)

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def wait_for(self, pattern: str, timeout: float = 30) -> re.Match[str]:
        import time

        deadline = time.monotonic() + timeout
        while True:
            found = re.search(pattern, self.text())
            if found:
                return found
            if time.monotonic() > deadline:
                raise AssertionError(f"{pattern!r} not on the screen:\n{self.text()}")
            try:
                data = self.child.read_nonblocking(65536, timeout=0.2)
            except pexpect.TIMEOUT:
                continue
            if "\x1b[6n" in data:
                self.child.send(f"\x1b[{self.screen.cursor.y + 1};{self.screen.cursor.x + 1}R")
            self.stream.feed(data.replace("\x1b[6n", ""))


def test_thinking_folds_to_a_line_and_the_status_bar_shows_the_session(
    workspace: Path, home: Path, server: ScriptedServer
) -> None:
    server.add(
        ScriptedReply(
            reasoning="First I weigh the greeting.\nThen the tone.\nThen the length.\nFinally: keep it short.",
            text="Hello there.",
        )
    )
    child = spawn_repl(workspace, home, server)
    term = Terminal(child)
    try:
        bar = term.wait_for(r"context (\d+)/8192 \(\d+%\).*sandbox \w+.*session (\d{8}-\d{6}-[0-9a-f]{6})")
        assert bar.group(1) == "0"
        child.sendline("greet me")
        term.wait_for("Hello there.")
        screen = term.text()
        assert "▸ thought for 4 lines (/thinking shows it)" in screen
        assert "Then the tone." not in screen  # folded away once the reply came
        term.wait_for(r"context [1-9]\d*/8192")  # the bar counts the context now in use
        child.sendline("/thinking")
        term.wait_for("Finally: keep it short.")
    finally:
        child.close(force=True)


def test_permission_flag_opens_the_repl_in_that_mode(
    workspace: Path, home: Path, server: ScriptedServer
) -> None:
    server.add(call("shell", command="touch auto.txt"), ScriptedReply(text="Made it."))
    child = spawn_repl(workspace, home, server, "--permission", "auto", "--model", "other-model")
    term = Terminal(child)
    try:
        term.wait_for(r"· auto · sandbox .*session \d{8}-")
        child.sendline("make auto.txt")
        term.wait_for("Made it.")
        assert "needs your approval" not in term.text()  # auto mode: the command ran without asking
        assert (workspace / "auto.txt").exists()
        assert server.requests[-1]["model"] == "other-model"
    finally:
        child.close(force=True)


def test_resume_flag_opens_the_session_with_its_mode_and_session_rules(
    workspace: Path, home: Path, server: ScriptedServer
) -> None:
    server.add(call("shell", command="touch one.txt"), ScriptedReply(text="First done."))
    first = spawn_repl(workspace, home, server, "-p", "manual")
    try:
        first.expect("›")
        first.sendline("make one.txt")
        first.expect("allow for this session")
        first.sendline("a")
        first.expect("First done.")
        first.expect("›")
        first.sendline("/session")
        first.expect(r"(\d{8}-\d{6}-[0-9a-f]{6})")
        sid = first.match.group(1)
        first.expect("›")
        first.sendcontrol("d")
        first.expect(pexpect.EOF)
    finally:
        first.close(force=True)
    (workspace / "one.txt").unlink()
    server.add(call("shell", command="touch one.txt"), ScriptedReply(text="Again, without asking."))
    second = spawn_repl(workspace, home, server, "--resume", sid[:12])
    term = Terminal(second)
    try:
        term.wait_for(rf"· manual · sandbox .*session {sid}")  # the session's own mode, not the default
        second.sendline("make it again")
        term.wait_for("Again, without asking.")
        assert "needs your approval" not in term.text()  # the rule allowed for the session holds
        assert (workspace / "one.txt").exists()
        assert "make one.txt" in json.dumps(server.requests[-1]["messages"])  # its history came along
    finally:
        second.close(force=True)


def test_continue_flag_and_a_wrong_resume_id(
    workspace: Path, home: Path, server: ScriptedServer, hearth: HearthCli
) -> None:
    wrong = hearth("--resume", "nosuchsession", "-w", str(workspace), env={"HEARTH_LLM_URL": server.url})
    assert (
        wrong.code == 1 and "No session 'nosuchsession'" in wrong.stderr and "Traceback" not in wrong.stderr
    )
    server.add(ScriptedReply(text="Noted 4711.\nTASK_COMPLETE"))
    assert hearth("run", "remember 4711", "-w", str(workspace), env={"HEARTH_LLM_URL": server.url}).code == 0
    server.add(ScriptedReply(text="It was 4711."))
    child = spawn_repl(workspace, home, server, "--continue")
    try:
        child.expect("›")
        send(child, "what was it?", "It was 4711.")
        assert "remember 4711" in json.dumps(server.requests[-1]["messages"])
    finally:
        child.close(force=True)


def test_a_rejected_plan_in_the_repl_leaves_writes_allowed(
    repl: Callable[[], pexpect.spawn], server: ScriptedServer, workspace: Path
) -> None:
    server.add(
        ScriptedReply(text="1. Create notes.txt\n2. Fill it"),
        call("write", path="after.txt", content="x"),
        ScriptedReply(text="Wrote after.txt."),
    )
    child = repl()
    child.sendline("/plan write notes")
    child.expect(r"\[a\]pprove, \[e\]dit, \[r\]eject\?")
    child.sendline("r")
    child.expect("done")
    child.expect("›")
    send(child, "write after.txt", "Wrote after.txt.")
    assert (workspace / "after.txt").read_text() == "x"  # the write was not refused by plan mode
    send(child, "/mode", "Mode: normal")


def test_leaving_the_repl_reflects_on_the_sessions_work(
    repl: Callable[[], pexpect.spawn], server: ScriptedServer, workspace: Path
) -> None:
    from hearth.memory.store import MemoryStore
    from hearth.store.sessions import SessionStore

    server.add(call("ls"), ScriptedReply(text="Nothing here.\nTASK_COMPLETE"))
    server.reflection_replies.append(
        ScriptedReply(text=json.dumps({"knowledge": ["The workspace starts empty."]}))
    )
    child = repl()
    send(child, "/mode auto", "Mode: auto")
    send(child, "what is here?", "Nothing here.")
    child.sendeof()  # Ctrl+D: leave at once; the reflection runs in a process of its own
    child.expect(pexpect.EOF)
    store = SessionStore(state_of(workspace) / "sessions.db")
    sid = store.latest()
    store.close()
    assert sid is not None and len(wait_reflected(workspace, sid).stored) == 1
    assert len(server.reflections) == 1
    mem = MemoryStore(state_of(workspace) / "memory.db")
    assert [i.text for i in mem.items()] == ["The workspace starts empty."]
    mem.close()
