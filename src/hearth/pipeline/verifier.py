"""The mechanical verifier: checks a coder's claims before any reviewer reads them.

The files a task names and the files its session wrote must exist inside the workspace (through
the tools' own resolver: a path out of the workspace, through a symlink or not, is a finding, never
followed); Python, JSON and TOML files must parse (parsed, never run); the plan's test command must
pass, run in the sandbox like any command of the agent's. Each problem is one line the coder reads.
"""

from __future__ import annotations

import ast
import json
import os
import stat
import tomllib

from hearth.core.errors import ToolError
from hearth.core.protocols import ExecSpec
from hearth.core.text import cap_text
from hearth.runtime.api import Runtime, SafePaths, workspace_paths

MAX_PARSE_BYTES = 2_000_000
TEST_OUTPUT_CHARS = 3000


async def verify(
    rt: Runtime, named: list[str], written: list[str], test_command: str, timeout: float
) -> list[str]:
    paths = workspace_paths(rt)
    findings: list[str] = []
    for rel in dict.fromkeys([*named, *written]):
        findings += _check_file(paths, rel, must_exist=rel in named)
    if test_command:
        result = await rt.sandbox.runner.run(
            ExecSpec(command=test_command, cwd=rt.workspace, timeout=timeout)
        )
        if result.exit_code != 0:
            why = f"killed ({result.killed})" if result.killed else f"exit code {result.exit_code}"
            findings.append(
                f"the test command `{test_command}` failed ({why}):\n{cap_text(result.output.strip(), TEST_OUTPUT_CHARS)}"
            )
    return findings


def _check_file(paths: SafePaths, rel: str, *, must_exist: bool) -> list[str]:
    try:
        real = paths.resolve(rel)
    except ToolError as exc:
        return [f"{rel}: {exc}"]
    st = paths.stat(real)
    if st is None:
        return [f"{rel}: the task names this file but it does not exist"] if must_exist else []
    if stat.S_ISDIR(st.st_mode) or not stat.S_ISREG(st.st_mode):
        return []
    suffix = os.path.splitext(rel)[1].lower()
    if suffix not in (".py", ".json", ".toml"):
        return []
    if st.st_size > MAX_PARSE_BYTES:
        return []
    try:
        fd = paths.open(real, os.O_RDONLY)
    except (ToolError, OSError) as exc:
        return [f"{rel}: cannot be read ({exc})"]
    with os.fdopen(fd, "rb") as fh:
        data = fh.read(MAX_PARSE_BYTES)
    try:
        text = data.decode("utf-8")
        if suffix == ".py":
            ast.parse(text, filename=rel)
        elif suffix == ".json":
            json.loads(text)
        else:
            tomllib.loads(text)
    except UnicodeDecodeError:
        return [f"{rel}: is not UTF-8 text"]
    except SyntaxError as exc:
        return [f"{rel}: Python syntax error at line {exc.lineno}: {exc.msg}"]
    except json.JSONDecodeError as exc:
        return [f"{rel}: invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"]
    except tomllib.TOMLDecodeError as exc:
        return [f"{rel}: invalid TOML: {exc}"]
    return []
