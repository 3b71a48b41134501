"""Constrained actions (grammar mode): one JSON action per reply, held by the server's schema."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import pytest

from hearth.agent.body import RETRY_TEMPERATURE
from hearth.core.events import Finished, ModelReply, Notice, ToolResult
from hearth.llm.actions import (
    JSON_OBJECT,
    JSON_SCHEMA,
    action_schema,
    needs_body,
    offered_names,
    parse_action,
)
from hearth.llm.client import ClientSettings, OpenAICompatModel
from hearth.llm.probe import probe_action_format
from hearth.store.sessions import SessionStore
from hearth.testing import ScriptedReply, ScriptedServer
from support import HearthCli, state_of

SMALL = "qwen2.5-coder-1.5b-instruct"


def act(tool: str, **fields: Any) -> ScriptedReply:
    if tool in ("finish", "blocked"):
        return ScriptedReply(text=json.dumps({"tool": tool, **fields}))
    return ScriptedReply(text=json.dumps({"tool": tool, "args": fields}))


def wrote(path: str, content: str) -> list[ScriptedReply]:
    """A write as a grammar-mode model makes it: the action naming the file, then (asked for in
    the next request) the file's text in a fenced block."""
    return [act("write", path=path), ScriptedReply(text=f"```\n{content.removesuffix(chr(10))}\n```")]


def run(hearth, server: ScriptedServer, ws: Path, task: str = "do the task", **env: str):  # type: ignore[no-untyped-def]
    res = hearth(
        "run", task, "-w", str(ws), "--json", "--permission", "auto",
        env={"HEARTH_LLM_URL": server.url, "HEARTH_RETRIES": "0", **env},
    )  # fmt: skip
    assert "Traceback" not in res.stdout + res.stderr, res.stderr[-2000:]
    assert server.violations == [], res.stdout[-3000:]
    return res


def events(ws: Path) -> list[Any]:
    store = SessionStore(state_of(ws) / "sessions.db")
    [info] = store.list_sessions()[:1]
    return store.events(info.id)


def finished(ws: Path) -> Finished:
    return next(e for e in reversed(events(ws)) if isinstance(e, Finished))


def schema_of(body: dict[str, Any]) -> dict[str, Any]:
    fmt = body["response_format"]
    return fmt["schema"] if fmt["type"] == "json_object" else fmt["json_schema"]["schema"]


@pytest.mark.parametrize(
    ("honoured", "refused"), [((JSON_OBJECT,), (JSON_SCHEMA,)), ((JSON_SCHEMA,), (JSON_OBJECT,))]
)
def test_a_small_model_on_a_server_that_holds_a_schema_acts_through_it_and_finishes(
    hearth: HearthCli, workspace: Path, user_dirs: Path, honoured: tuple[str, ...], refused: tuple[str, ...]
) -> None:
    script = [
        *wrote("hello.py", "print('hello')\n"),
        act("shell", command="python3 hello.py"),
        act("finish", summary="Wrote hello.py; it prints hello."),
    ]
    with ScriptedServer(script, model=SMALL, formats=honoured, refused_formats=refused) as server:
        res = run(hearth, server, workspace, "Create hello.py that prints hello and run it")
        assert res.code == 0, res.stdout[-2000:]
        assert server.schema_breaks == []
        requests = server.requests
        probes = [p.get("response_format", {}).get("type") for p in server.probes]
        port = server.port
    assert (workspace / "hello.py").read_text() == "print('hello')\n"
    assert finished(workspace).final_text == "Wrote hello.py; it prints hello."
    action_steps = [requests[0], *requests[2:]]
    assert all(b["response_format"]["type"] == honoured[0] and "tools" not in b for b in action_steps)
    # the file's text is asked for in a request of its own, free of the grammar
    assert "response_format" not in requests[1] and "tools" not in requests[1]
    assert "hello.py" in requests[1]["messages"][-1]["content"]
    assert "finish" in offered_names(schema_of(requests[0])) and "blocked" in offered_names(
        schema_of(requests[0])
    )
    assert honoured[0] in probes
    # a second session on the same server and model does not probe again
    with ScriptedServer([act("finish", summary="Nothing to do.")], model=SMALL, formats=honoured,
                        refused_formats=refused, port=port) as server:  # fmt: skip
        assert run(hearth, server, workspace, "Say hi").code == 0
        assert [p for p in server.probes if "response_format" in p] == []
        assert server.requests[0]["response_format"]["type"] == honoured[0]


def test_a_reply_that_breaks_the_schema_goes_back_to_the_model_as_an_error_it_can_fix(
    hearth: HearthCli, workspace: Path
) -> None:
    script = [
        ScriptedReply(text='{"tool": "delete_all", "args": {}}'),
        *wrote("a.txt", "a\n"),
        act("finish", summary="Wrote a.txt."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, "Write a.txt")
        assert res.code == 0, res.stdout[-2000:]
        assert len(server.schema_breaks) == 1  # the scripted slip (a real grammar would not let it out)
        second = server.requests[1]["messages"][-1]["content"]
    assert "'delete_all' is not one of the actions offered now" in second
    assert (workspace / "a.txt").read_text() == "a\n"


def test_the_probe_finds_the_spelling_a_server_honours_and_none_when_it_ignores_all() -> None:
    async def probe(server: ScriptedServer) -> str | None:
        model = OpenAICompatModel(ClientSettings(base_url=server.url, retries=0))
        try:
            return await probe_action_format(model)
        finally:
            await model.aclose()

    with ScriptedServer(formats=(JSON_OBJECT,), refused_formats=(JSON_SCHEMA,)) as server:
        assert asyncio.run(probe(server)) == JSON_OBJECT
    with ScriptedServer(formats=(JSON_SCHEMA,), refused_formats=(JSON_OBJECT,)) as server:
        assert asyncio.run(probe(server)) == JSON_SCHEMA
        assert len(server.probes) == 2  # refused, then honoured
    with ScriptedServer(tool_style="text") as server:  # the field ignored: a fenced call comes back
        assert asyncio.run(probe(server)) is None


def test_an_action_is_parsed_into_a_call_finish_or_blocked() -> None:
    from hearth.runtime.offer import small_toolset

    schema = action_schema(small_toolset().specs())
    assert parse_action('{"tool": "read", "args": {"path": "a.py"}}', schema).args == {"path": "a.py"}
    assert parse_action('{"tool": "finish", "summary": "done"}', schema).text == "done"
    assert parse_action('{"tool": "blocked", "reason": "no file"}', schema).tool == "blocked"
    with pytest.raises(ValueError, match="read action does not fit"):
        parse_action('{"tool": "read", "args": {"file": "a.py"}}', schema)
    with pytest.raises(ValueError, match="not one JSON object"):
        parse_action("I will read a.py", schema)
    # a raw tab inside a string: what the model meant
    raw_tab = '{"tool": "shell", "args": {"command": "printf \'1\tone\'"}}'
    assert parse_action(raw_tab, schema).args == {"command": "printf '1\tone'"}
    # a write names its file; its text follows in a fenced block, quotes and all as written
    write = '{"tool": "write", "args": {"path": "a.py"}}'
    assert needs_body(write, schema) == {"path": "a.py"}
    code = 'def f():\n    """Say hi."""\n    return "hi"\n'
    assert parse_action(f"{write}\n```python\n{code}```\n", schema).args == {"path": "a.py", "content": code}
    assert needs_body(f"{write}\n```python\n{code}```\n", schema) is None
    with pytest.raises(ValueError, match="cut off before its closing"):
        parse_action(f"{write}\n```python\n{code}", schema)
    # the action said again where its text was asked for is no file's text
    with pytest.raises(ValueError, match=r"no text for a\.py followed the write action"):
        parse_action(f"{write}\n{write}", schema)
    with pytest.raises(ValueError, match=r"no text for a\.py followed"):
        parse_action(f"{write}\nI change f to say hi. ```", schema)  # a sentence and a bare fence
    # the action fenced as the text (ssh_config became the JSON naming itself); a JSON file's
    # own text with a "tool" key is still a text
    fenced_action = '```json\n{\n  "tool": "write",\n  "args": {\n    "path": "a.py"\n  }\n}\n```'
    with pytest.raises(ValueError, match=r"the fenced block is the write action again, not a\.py's text"):
        parse_action(f"{write}\n{fenced_action}", schema)
    settings = '{"tool": "black", "line-length": 100}\n'
    conf = '{"tool": "write", "args": {"path": "conf.json"}}'
    assert parse_action(f"{conf}\n```json\n{settings}```", schema).args["content"] == settings
    # a sentence on what changes, then the block: the block is the text
    assert parse_action(f"{write}\nI make f say hi.\n```python\n{code}```", schema).args["content"] == code
    # a file is written whole: append is not offered (small models appended new versions)
    with pytest.raises(ValueError, match="append"):
        parse_action('{"tool": "write", "args": {"path": "a.py", "append": true}}\n```\nx\n```', schema)
    # a Markdown file's own fences stay inside it; in any other file a fence line ends the block
    # (the 1.5B closed a Python file's block and opened another: the stray fence was line 20)
    readme = "# Tool\n\n```sh\ntool --help\n```\n"
    md = '{"tool": "write", "args": {"path": "README.md"}}'
    assert parse_action(f"{md}\n```markdown\n{readme}```", schema).args["content"] == readme
    assert parse_action(f"{write}\n```python\n{code}```\n```", schema).args["content"] == code
    assert (
        parse_action(f"{write}\n```python\n{code}```\nThen run it:\n```sh\npython3 a.py\n```", schema).args[
            "content"
        ]
        == code
    )
    # a server that let the text through inside the JSON: taken as meant
    inline = '{"tool": "write", "args": {"path": "a.txt", "content": "x\\n"}}'
    assert needs_body(inline, schema) is None and parse_action(inline, schema).args["content"] == "x\n"


def test_a_blocked_action_with_a_reason_ends_blocked(hearth, workspace) -> None:  # type: ignore[no-untyped-def]
    script = [
        act("ls", path="."),
        act("blocked", reason="quarterly_report.docx is not in the folder."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, "Summarise quarterly_report.docx into summary.txt")
        assert res.code == 3, res.stdout[-2000:]
    assert "quarterly_report.docx is not in the folder" in finished(workspace).reason
    assert not [
        e
        for e in events(workspace)
        if isinstance(e, ModelReply) and e.tool_calls and e.tool_calls[0].name == "blocked"
    ]
    assert not [e for e in events(workspace) if isinstance(e, Notice) and e.reason == "unparsed_call"]
    assert [r.name for r in events(workspace) if isinstance(r, ToolResult)] == ["ls"]


def test_tools_the_session_names_are_in_the_schema_so_a_repository_can_be_committed_to(
    hearth: HearthCli, workspace: Path
) -> None:
    """A small model is shown six tools; in a repository it is told of the git tools too. Held
    to a schema, it can call only what the schema offers: the git tools must be in it."""
    import subprocess

    subprocess.run(["git", "init", "-q", "-b", "main", str(workspace)], check=True)
    for key, value in (("user.name", "T"), ("user.email", "t@example.com")):
        subprocess.run(["git", "config", key, value], cwd=workspace, check=True)
    (workspace / "app.py").write_text("print(1)\n")
    script = [
        act("git_add", paths=["app.py"]),
        act("git_commit", message="Add app.py"),
        act("finish", summary="Committed app.py."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, "Commit app.py with the message 'Add app.py'")
        assert res.code == 0, res.stdout[-2000:]
        assert server.schema_breaks == []
        offered = offered_names(schema_of(server.requests[0]))
    assert "git_commit" in offered and "todo_add" not in offered
    log = subprocess.run(["git", "log", "--oneline"], cwd=workspace, capture_output=True, text=True).stdout
    assert "Add app.py" in log


PRICES = (
    'def with_tax(cents):\n    """The price with 20% tax, in whole cents."""\n    return cents * 12 // 100\n'
)
PRICES_TEST = "from prices import with_tax\n\n\ndef test_with_tax():\n    assert with_tax(1000) == 1200\n"


def test_after_choosing_a_file_the_task_keeps_a_writer_is_held_to_the_files_it_names(
    hearth: HearthCli, workspace: Path
) -> None:
    """Told to leave the test file as it is, a small model chose to write it, twice. Once it has
    chosen a kept file, the schema holds write's and edit's path to the other files the task
    names, so the next write is of prices.py. Reading stays free."""
    (workspace / "prices.py").write_text(PRICES)
    (workspace / "test_prices.py").write_text(PRICES_TEST)
    fixed = PRICES.replace("cents * 12 // 100", "cents * 120 // 100")
    script = [
        act("write", path="test_prices.py"),  # refused: the task keeps it
        *wrote("prices.py", fixed),
        act("finish", summary="Fixed with_tax."),
    ]
    task = "test_prices.py fails. Fix prices.py so that it passes, and leave test_prices.py as it is."
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task)
        assert res.code == 0, res.stdout[-2000:]
        assert server.schema_breaks == []
        first, after = schema_of(server.requests[0]), schema_of(server.requests[1])
        told = server.requests[1]["messages"][-1]["content"]
    assert "the task says not to change test_prices.py" in told and "prices.py" in told
    assert (workspace / "test_prices.py").read_text() == PRICES_TEST
    assert (workspace / "prices.py").read_text() == fixed

    def fits(schema: dict[str, Any], tool: str, path: str, **more: Any) -> bool:
        action = {"tool": tool, "args": {"path": path, **more}}
        return not list(jsonschema.Draft202012Validator(schema).iter_errors(action))

    edit = {"old": "a", "new": "b"}
    assert fits(first, "write", "test_prices.py") and fits(first, "write", "notes.txt")  # not yet held
    assert not fits(after, "write", "test_prices.py") and not fits(after, "edit", "test_prices.py", **edit)
    assert fits(after, "write", "prices.py") and fits(after, "edit", "prices.py", **edit)
    assert not fits(after, "write", "notes.txt")
    assert fits(after, "read", "test_prices.py")  # reading it is what the model should do


TALLY = (
    "import sys\nfrom collections import Counter\n\n\ndef main(argv):\n"
    "    counts = Counter(open(argv[-1]).read().split())\n"
    "    for name, n in counts.most_common():\n        print(f'{name}: {n}')\n"
    "    if '--total' in argv:\n        print(f'total: {sum(counts.values())}')\n\n\n"
    "if __name__ == '__main__':\n    main(sys.argv[1:])\n"
)
TALLY_TEST = (
    "import subprocess\nimport sys\n\n\ndef run(*args):\n"
    "    return subprocess.run([sys.executable, 'tally.py', *args], capture_output=True, text=True).stdout\n\n\n"
    "def test_counts(tmp_path):\n    (tmp_path / 'v.txt').write_text('a b a')\n"
    "    assert run(str(tmp_path / 'v.txt')) == 'a: 2\\nb: 1\\n'\n"
)


def test_a_test_file_rewrite_that_changes_its_old_test_is_refused_when_a_new_test_is_asked(
    hearth: HearthCli, workspace: Path
) -> None:
    """Asked to add a flag and a test for it, a small model rewrote the old test to expect the
    new output without the flag: the write is refused, naming the test to keep, and the next
    write, with the old test as it was and a new one, goes through."""
    (workspace / "tally.py").write_text(
        TALLY.replace("    if '--total' in argv:\n        print(f'total: {sum(counts.values())}')\n", "")
    )
    (workspace / "test_tally.py").write_text(TALLY_TEST)
    rewritten = TALLY_TEST.replace("'a: 2\\nb: 1\\n'", "'a: 2\\nb: 1\\ntotal: 3\\n'")
    added = TALLY_TEST + (
        "\n\ndef test_total(tmp_path):\n    (tmp_path / 'v.txt').write_text('a b a')\n"
        "    assert run('--total', str(tmp_path / 'v.txt')).endswith('total: 3\\n')\n"
    )
    script = [
        *wrote("tally.py", TALLY),
        *wrote("test_tally.py", rewritten),
        *wrote("test_tally.py", added),
        act("finish", summary="Added --total and a test for it."),
    ]
    task = "Add a --total flag to tally.py that prints the number of votes last, and add a test for it to test_tally.py."
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task)
        assert res.code == 0, res.stdout[-2000:]
        told = [
            m["content"] for r in server.requests for m in r["messages"] if "already had" in str(m["content"])
        ]
    assert told and "test_counts" in told[0]
    assert (workspace / "test_tally.py").read_text() == added


def test_in_grammar_mode_the_loop_notice_names_the_finish_and_blocked_actions(hearth, workspace) -> None:  # type: ignore[no-untyped-def]
    """A model held to actions has no TASK_COMPLETE or BLOCKED: text to reply with."""
    script = [
        act("read", path="gone.txt"),
        act("read", path="gone.txt"),
        act("finish", summary="gone.txt is not there."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, "What does gone.txt say?")
        assert res.code == 0, res.stdout[-2000:]
    [loop] = [e for e in events(workspace) if isinstance(e, Notice) and e.reason == "loop"]
    assert "choose finish with a short summary" in loop.text and "choose blocked" in loop.text
    assert "TASK_COMPLETE" not in loop.text


def test_a_refused_write_sent_again_word_for_word_is_asked_for_once_more_saying_why(
    hearth: HearthCli, workspace: Path
) -> None:
    (workspace / "solution.py").write_text('def f():\n    """Say hi."""\n    raise NotImplementedError\n')
    broken = 'def f():\n    """Say hi."""\n    return "hi\n'  # the string never closes
    script = [
        *wrote("solution.py", broken),  # refused: it would break a file that parses
        *wrote("solution.py", broken),  # the same text again ...
        ScriptedReply(text='```python\ndef f():\n    """Say hi."""\n    return "hi"\n```'),  # ... re-asked
        act("finish", summary="Implemented f."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, "Implement f in solution.py so that it returns hi")
        assert res.code == 0, res.stdout[-2000:]
        bodies = [r for r in server.requests if "response_format" not in r]
    assert [b.get("temperature") for b in bodies] == [0.2, 0.2, 0.9]
    assert "would break it" in bodies[2]["messages"][-1]["content"]  # the refusal's reason, said
    assert (workspace / "solution.py").read_text().endswith('    return "hi"\n')


def test_a_file_written_back_unchanged_is_asked_what_must_change_then_asked_for_again(
    hearth: HearthCli, workspace: Path
) -> None:
    """The 1.5B copied the file it was shown when asked for its new text, and copied it again when
    asked again at temperature 0.9. Asked to say in words what must change first, without the copy
    in view, it wrote a changed file: the change it said is the next ask's context."""
    before = "[backup]\nexclude = *.tmp\n"
    (workspace / "backup.ini").write_text(before)
    plan = "Add *.log to the exclude line of backup.ini."
    script = [
        *wrote("backup.ini", before),  # the file as it is: no change
        ScriptedReply(text=plan),  # asked what must change: says it
        ScriptedReply(text="```ini\n[backup]\nexclude = *.tmp *.log\n```"),  # asked for the file: changed
        act("finish", summary="backup.ini excludes log files."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, "Make backup.ini exclude *.log files too")
        assert res.code == 0, res.stdout[-2000:]
        said, again = server.requests[2], server.requests[3]
    assert "response_format" not in said and said["max_tokens"] <= 200
    assert "what must be added or changed in backup.ini" in said["messages"][-1]["content"]
    assert "Make backup.ini exclude" in said["messages"][-1]["content"]  # the task, said again
    assert not [m for m in said["messages"] if m["role"] == "assistant" and before in m["content"]]  # no copy
    assert "response_format" not in again and again["messages"][-2] == {"role": "assistant", "content": plan}
    assert "with that change made" in again["messages"][-1]["content"]
    assert (workspace / "backup.ini").read_text() == "[backup]\nexclude = *.tmp *.log\n"
    assert not [e for e in events(workspace) if isinstance(e, ToolResult) and not e.ok]  # no refusal
    [reply] = [e for e in events(workspace) if isinstance(e, ModelReply) and "exclude =" in e.text]
    assert plan in reply.thinking  # what the model said it would change is kept with its write


def test_a_python_file_written_back_unchanged_gets_the_new_code_alone_put_into_it(
    hearth: HearthCli, workspace: Path
) -> None:
    """Asked for the new or changed code alone, the 1.5B wrote the new function it had copied the
    whole file without: Hearth puts it into the file (and imports the module it uses)."""
    text = '"""Text helpers."""\n\n\ndef title(s):\n    return s.title()\n'
    (workspace / "textutils.py").write_text(text)
    fragment = "def slugify(s):\n    return re.sub(r'[^a-z0-9]+', '-', s.lower()).strip('-')\n"
    script = [
        *wrote("textutils.py", text),  # the file as it is: no change
        ScriptedReply(text=f"```python\n{fragment}```"),  # asked for the new code alone
        act("finish", summary="Added slugify."),
    ]
    task = "Add a function slugify(s) to textutils.py that makes a URL slug of s"
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task)
        assert res.code == 0, res.stdout[-2000:]
        asked = server.requests[2]
    assert "response_format" not in asked
    assert "only the code that is new or changed in textutils.py" in asked["messages"][-1]["content"]
    assert not [m for m in asked["messages"] if m["role"] == "assistant" and text in m["content"]]  # no copy
    assert (workspace / "textutils.py").read_text() == (
        '"""Text helpers."""\n\nimport re\n\n\ndef title(s):\n    return s.title()\n\n\n' + fragment
    )
    assert not [e for e in events(workspace) if isinstance(e, ToolResult) and not e.ok]  # no refusal


def test_a_write_that_stays_unchanged_after_every_ask_is_answered_as_a_write_not_a_finish(
    hearth: HearthCli, workspace: Path
) -> None:
    """The 1.5B's first action wrote the file it was shown back unchanged, and kept to it when
    asked again and asked for the lines to change. That write is judged as a finish (nothing
    changed yet: not done), but the model never said it was done: the notice names its write,
    not a finish, and says how to add the change."""
    text = "def title(s):\n    return s.title()\n"
    (workspace / "textutils.py").write_text(text)
    added = text + "\n\ndef shout(s):\n    return s.upper()\n"
    script = [
        *wrote("textutils.py", text),  # the file as it is
        ScriptedReply(text=f"```python\n{text}```"),  # asked for the new code alone: the same
        ScriptedReply(text="I think the file is right."),  # asked which lines change: none
        *wrote("textutils.py", added),  # told what is missing: the change
        act("finish", summary="Added shout."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, "Add a function shout(s) to textutils.py that upper-cases s")
        assert res.code == 0, res.stdout[-2000:]
    assert (workspace / "textutils.py").read_text() == added
    said = [e.text for e in events(workspace) if isinstance(e, Notice) and e.reason == "finish_unsupported"]
    assert len(said) == 1, said
    assert said[0].startswith("Your write of textutils.py changed nothing") and "You finished" not in said[0]
    assert "nothing was changed in this task" in said[0] and "use edit" in said[0]


def test_a_file_written_again_unchanged_after_its_change_worked_is_not_asked_for_again(
    hearth: HearthCli, workspace: Path
) -> None:
    """The 1.5B wrote its docstrings (right), then the same whole file again; asked again each
    time, it spent the rest of the time limit writing it. After a change of the file worked, the
    same text is taken as it is: the write says nothing would change, and as nothing is missing
    the turn ends done there (the write of what the file holds is judged as a finish)."""
    (workspace / "pick.py").write_text("def last(xs):\n    return xs[0]\n")
    fixed = "def last(xs):\n    return xs[-1]\n"
    script = [
        *wrote("pick.py", fixed),
        *wrote("pick.py", fixed),  # the same text again: not asked for a third time
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, "Fix last() in pick.py: it must return the last item")
        assert res.code == 0, res.stdout[-2000:]
        asked = len(server.requests)
    assert asked == 4  # two actions with their texts; no finish needed
    unchanged = [e for e in events(workspace) if isinstance(e, ToolResult) and not e.ok]
    assert len(unchanged) == 1 and "already has exactly this content" in unchanged[0].output
    assert (workspace / "pick.py").read_text() == fixed


def test_a_docstrings_only_tasks_write_that_changed_code_keeps_the_code(
    hearth: HearthCli, workspace: Path
) -> None:
    """Asked for docstrings only, the 1.5B wrote good ones into a file whose code it changed too
    (a main block dropped, a formula rewritten): the check found the code changed. Its docstrings
    go on the file's own code, and it is told so."""
    code = "import math\n\n\ndef area(r):\n    return math.pi * r * r\n\n\nif __name__ == '__main__':\n    print(area(2))\n"
    (workspace / "shapes.py").write_text(code)
    written = (
        'import math\n\ndef area(r):\n    """Area of a circle of radius r."""\n    return math.pi * r ** 2\n'
    )
    task = "Add a docstring to each function in shapes.py. Do not change any of the code itself."
    script = [*wrote("shapes.py", written), act("finish", summary="Added the docstrings.")]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task)
    assert res.code == 0, res.stdout[-2000:]
    assert (workspace / "shapes.py").read_text() == code.replace(
        "def area(r):\n", 'def area(r):\n    """Area of a circle of radius r."""\n'
    )
    [kept] = [e for e in events(workspace) if isinstance(e, Notice) and e.reason == "code_kept"]
    assert "docstrings onto the file's own code" in kept.text


def test_a_renames_only_tasks_write_is_the_file_with_the_renames_made_and_nothing_else(
    hearth: HearthCli, workspace: Path
) -> None:
    """Asked to rename a CSS class in two files, the 1.5B rewrote index.html with the class
    renamed and the `btn` class beside it lost. A task asking renames only gets each file it
    writes as it was with the renames made, and no model is asked for the text (in another run
    the 1.5B answered the request for stock.csv's text with the write action again, three times,
    until the run stopped); the model is told so."""
    page = '<button class="btn btn-primary">Book</button>\n<a class="btn btn-primary-wide">Call</a>\n'
    (workspace / "index.html").write_text(page)
    (workspace / "style.css").write_text(".btn-primary { color: red; }\n")
    task = "Rename the CSS class btn-primary to btn-main in index.html and style.css. Only that class."
    script = [
        act("write", path="index.html"),
        act("write", path="style.css"),
        act("finish", summary="Renamed btn-primary to btn-main."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task)
        assert res.code == 0, res.stdout[-2000:]
        assert len(server.requests) == 3  # the three actions: no text asked
    assert (workspace / "index.html").read_text() == page.replace('btn-primary"', 'btn-main"')
    assert (workspace / "style.css").read_text() == ".btn-main { color: red; }\n"
    told = [e for e in events(workspace) if isinstance(e, Notice) and e.reason == "renames_only"]
    assert ["index.html" in n.text for n in told] == [True, False]
    assert all("btn-primary to btn-main" in n.text for n in told)


def test_the_request_for_a_files_text_says_the_task_again_right_before_it(
    hearth: HearthCli, workspace: Path
) -> None:
    (workspace / "pick.py").write_text("def last(xs):\n    return xs[0]\n")
    task = "Fix last() in pick.py: it must return the last item"
    script = [
        *wrote("pick.py", "def last(xs):\n    return xs[-1]\n"),
        act("finish", summary="last() returns the last item."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, task)
        assert res.code == 0, res.stdout[-2000:]
        ask = server.requests[1]
    assert "response_format" not in ask
    last = ask["messages"][-1]
    assert last["role"] == "user" and last["content"].startswith(f"The task: {task}\n")
    assert "pick.py" in last["content"] and "fenced code block" in last["content"]


def test_a_file_written_back_unchanged_twice_is_changed_by_the_lines_the_model_names(
    hearth: HearthCli, workspace: Path
) -> None:
    bug = "def last(xs):\n    if not xs:\n        return None\n    return xs[0]\n"
    (workspace / "pick.py").write_text(bug)
    script = [
        *wrote("pick.py", bug),  # the file as it is ...
        ScriptedReply(text=f"```python\n{bug}```"),  # ... and again when asked for the new code alone
        # asked which lines must change: as they are, as they must be (indented its own way)
        ScriptedReply(text="```python\nreturn xs[0]\n```\n\n```python\nreturn xs[-1]\n```"),
        act("finish", summary="last() returns the last item."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, "Fix last() in pick.py: it must return the last item")
        assert res.code == 0, res.stdout[-2000:]
        lines = server.requests[3]
    assert "response_format" not in lines
    assert "Find the line or lines that must change" in lines["messages"][-1]["content"]
    assert (workspace / "pick.py").read_text() == bug.replace("xs[0]", "xs[-1]")
    assert not [e for e in events(workspace) if isinstance(e, ToolResult) and not e.ok]  # no refusal


def test_the_lines_a_model_names_change_the_file_only_where_they_are_found_once() -> None:
    from hearth.agent.body import changed_lines

    text = "def f(x):\n    if x:\n        return 1\n    return 2\n"
    two = "```\n        return 1\n```\n```\n        return 3\n```"
    assert changed_lines(two, text) == text.replace("return 1", "return 3")
    # found line by line, whatever the indentation given; the new lines take the file's
    loose = "```\nif x:\n    return 1\n```\n```\nif x > 0:\n    return 1\n```"
    assert changed_lines(loose, text) == text.replace("if x:", "if x > 0:")
    assert changed_lines("```\nreturn 9\n```\n```\nreturn 8\n```", text) is None  # not in the file
    assert changed_lines("```\nreturn 1\n```", text) is None  # one block: nothing says what to
    assert changed_lines("```\nreturn 1\n```\n```\nreturn 1\n```", text) is None  # no change
    assert changed_lines("```\nreturn\n```\n```\nyield\n```", "return\nreturn\n") is None  # twice


SENSORS = (
    '"""Readings."""\n\n\nclass TempReading:\n    def __init__(self, c):\n        self.c = c\n\n\n'
    "def parse(line):\n    return TempReading(float(line))\n\n\n"
    'if __name__ == "__main__":\n    print(parse("2").c)\n'
)


def test_definitions_a_whole_file_write_left_out_are_kept_and_the_model_told(
    hearth: HearthCli, workspace: Path
) -> None:
    """The 1.5B renamed a class by writing the class alone: the write was refused again and again
    for removing every definition. The ones the task does not name are kept as they were."""
    (workspace / "sensors.py").write_text(SENSORS)
    main = SENSORS[SENSORS.index("if __name__") :]
    renamed = (
        '"""Readings."""\n\n\nclass Measurement:\n    def __init__(self, c):\n        self.c = c\n\n\n' + main
    )
    fixed = SENSORS.replace("TempReading", "Measurement")
    script = [
        *wrote("sensors.py", renamed),  # parse left out
        act("finish", summary="Renamed."),  # TempReading is still used in parse: goes back
        *wrote("sensors.py", fixed),
        act("finish", summary="Renamed TempReading to Measurement."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        # more than a rename asked: a renames-only task's write would be the renames alone
        task = "Rename the class TempReading to Measurement in sensors.py, and add a docstring to it."
        res = run(hearth, server, workspace, task)
        assert res.code == 0, res.stdout[-2000:]
    [kept] = [e for e in events(workspace) if isinstance(e, Notice) and e.reason == "kept_definitions"]
    assert "left out parse" in kept.text
    writes = [e for e in events(workspace) if isinstance(e, ToolResult) and e.name == "write"]
    assert writes[0].ok  # not refused for removing every definition
    assert (workspace / "sensors.py").read_text() == fixed


def test_kept_definitions_are_those_the_task_does_not_name_placed_before_the_main_block() -> None:
    from hearth.agent.body import kept_definitions

    only_class = (
        '"""Readings."""\n\n\nclass Measurement:\n    pass\n\n\nif __name__ == "__main__":\n    print(1)\n'
    )
    whole, names = kept_definitions(only_class, SENSORS, "Rename the class TempReading to Measurement.")
    assert names == ["parse"]  # TempReading is the task's: renamed, not kept
    assert whole.index("def parse(line):") < whole.index('if __name__ == "__main__":')
    assert "class TempReading" not in whole
    # nothing defined at all (a script's output written over it): left to the write's guard
    assert kept_definitions("print(3)\n", SENSORS, "Fix it.") == ("print(3)\n", [])
    # everything kept: nothing to do
    assert kept_definitions(SENSORS, SENSORS, "Fix it.") == (SENSORS, [])


def test_a_reply_still_coming_at_the_time_limit_is_not_acted_on(hearth: HearthCli, workspace: Path) -> None:
    """A slow server's reply still streaming at --max-seconds: the turn ends at the limit (exit
    2) and the write the reply asks for is never made; before, the run went on past its limit."""
    late = act("write", path="late.txt", content="too late\n")
    slow = ScriptedReply(text=late.text, chunk_size=4, delay=0.15)  # about 2.5 s in all
    with ScriptedServer([slow], model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, "Write late.txt", HEARTH_MAX_SECONDS="1")
    assert res.code == 2, res.stdout[-2000:]
    assert "time limit" in finished(workspace).reason
    assert not (workspace / "late.txt").exists()


SPEC = '''def count_up_to(n):
    """Take a non-negative integer and return a list of the prime numbers that are
    less than it, smallest first.
    for example:
    count_up_to(5) => [2, 3]
    count_up_to(12) => [2, 3, 5, 7, 11]
    """
    raise NotImplementedError
'''
PRIMES_CODE = "def count_up_to(n):\n    return [k for k in range(2, n) if all(k % d for d in range(2, k))]\n"


def test_a_docstring_that_runs_on_gets_the_code_asked_for_alone_and_the_docstring_back(
    hearth: HearthCli, workspace: Path
) -> None:
    """The 1.5B wrote an exercise's file as its docstring run on into the examples and the tests
    it was shown, never closed and with no code; every write was refused as breaking the file.
    Asked for the file without its docstrings, it writes the code; Hearth puts them back."""
    (workspace / "solution.py").write_text(SPEC)
    run_on = SPEC.split("    raise")[0].removesuffix('    """\n') + "    assert candidate(20) == [2, 3, 5]\n"
    used = {"prompt_tokens": 100, "completion_tokens": 10}
    script = [
        ScriptedReply(text=act("write", path="solution.py").text, usage=used),
        ScriptedReply(text=f"```python\n{run_on}```", usage=used),
        ScriptedReply(text=f"```python\n{PRIMES_CODE}```", usage=used),  # asked for the code alone
        act("finish", summary="count_up_to is written."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, "Implement count_up_to in solution.py.")
        asked = server.requests[2]["messages"][-1]["content"]
    assert res.code == 0, res.stdout[-2000:]
    assert "docstring is opened and never closed" in asked and "raise NotImplementedError" in asked
    assert "Take a non-negative integer" in asked and '"""' not in asked.split("What the code must do")[0]
    assert (workspace / "solution.py").read_text() == SPEC.replace(
        "    raise NotImplementedError\n", PRIMES_CODE.split("\n", 1)[1]
    )
    write = next(e for e in events(workspace) if isinstance(e, ModelReply) and e.tool_calls)
    assert (write.usage.prompt_tokens, write.usage.completion_tokens) == (300, 30)  # each request once


def test_a_one_line_docstring_copied_without_its_closing_quotes_gets_them_back(
    hearth: HearthCli, workspace: Path
) -> None:
    """The 1.5B wrote search.py whole with its change made but the docstring's closing quotes
    lost; the file has that line with them, so they are put back and the write goes through
    (every such write was refused as breaking the file, until the loop guard stopped the run)."""
    before = (
        '"""Print the lines that contain a word."""\n\nimport sys\n\n\ndef main():\n    print(sys.argv)\n'
    )
    (workspace / "search.py").write_text(before)
    lost = before.replace('word."""', "word.").replace("print(sys.argv)", "print(sys.argv[1:])")
    script = [*wrote("search.py", lost), act("finish", summary="search.py prints its arguments.")]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, "Make search.py print only its arguments, not its own name")
    assert res.code == 0, res.stdout[-2000:]
    assert (workspace / "search.py").read_text() == before.replace("print(sys.argv)", "print(sys.argv[1:])")


def test_an_answer_with_no_text_for_a_write_is_asked_again_once_with_the_reason(
    hearth: HearthCli, workspace: Path
) -> None:
    """Asked for members.csv's text, the 1.5B answered with the write action again, fenced, three
    times running at temperature 0, until the run stopped. The text is asked for again once,
    saying why, with more randomness; the answer then is the write's text."""
    (workspace / "members.csv").write_text("name,fee\nAda,40\n")
    fenced_action = '```json\n{\n  "tool": "write",\n  "args": {\n    "path": "members.csv"\n  }\n}\n```'
    script = [
        act("write", path="members.csv"),
        ScriptedReply(text=fenced_action),
        ScriptedReply(text="```\nname,fee\nAda,45\n```"),
        act("finish", summary="Raised the fee."),
    ]
    with ScriptedServer(script, model=SMALL, formats=(JSON_OBJECT,)) as server:
        res = run(hearth, server, workspace, "Raise every fee in members.csv by 5.")
        assert res.code == 0, res.stdout[-2000:]
        again = server.requests[2]
    assert (workspace / "members.csv").read_text() == "name,fee\nAda,45\n"
    assert "the fenced block is the write action again" in again["messages"][-1]["content"]
    assert again["temperature"] >= RETRY_TEMPERATURE
    assert not [e for e in events(workspace) if isinstance(e, Notice) and e.reason == "unparsed_call"]
