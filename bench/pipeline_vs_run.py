"""A 3-task plan through the pipeline against the same three tasks one by one with `hearth run`.

Both ways run the real CLI in a fresh workspace each, against the same model server, through a
counting proxy in front of it (every request to the model is counted, whoever sends it):

- pipeline: `bench/plans/<plan>.md` in `plans/`, then `hearth pipeline run --once` (planner,
  coder, verifier, reviewer, rework);
- one by one: each task's prompt from `bench/plans/<plan>.toml` with `hearth run -p auto`, in
  order, in one workspace.

Afterwards the same checks (from the .toml) judge each workspace: tasks passed. Model requests
are counted per task (the pipeline's by the task its request names: the coder's and the
reviewer's; the planner's apart), with wall time for each way.

    .venv/bin/python bench/pipeline_vs_run.py --model-url http://127.0.0.1:18090/v1
    .venv/bin/python bench/pipeline_vs_run.py --scripted   # the scripted server, correct answers

`--scripted` checks the benchmark itself end to end: a scripted server that writes each task's
solution (from the .toml) and passes every review; it measures nothing about a model.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

HERE = Path(__file__).resolve().parent
_CODER = re.compile(r"^Work on task (\S+) of")
_REVIEWER = re.compile(r"^Review task (\S+):")
HOP = {"connection", "keep-alive", "transfer-encoding", "content-length", "host", "accept-encoding"}


def first_user_text(body: dict[str, Any]) -> str:
    for message in body.get("messages") or []:
        if message.get("role") == "user":
            content = message.get("content")
            if isinstance(content, list):
                return " ".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
            return str(content or "")
    return ""


class CountingProxy:
    """Forwards every request to `upstream` (streaming answers through) and counts the chat
    requests: under `label` while one is set (a `hearth run` task), else by what the pipeline's
    request names (planning, or a task's coder or reviewer)."""

    def __init__(self, upstream: str) -> None:
        self.upstream = urlsplit(upstream.rstrip("/"))
        self.label = ""
        self.counts: Counter[str] = Counter()
        self.reflections = 0  # end-of-session reflection requests, counted in `counts` too
        self._lock = threading.Lock()
        owner = self
        handler = type("Handler", (_Forward,), {"owner": owner})
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._httpd.daemon_threads = True
        threading.Thread(target=self._httpd.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}{self.upstream.path}"

    def close(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def count(self, body: dict[str, Any], reflection: bool) -> None:
        # a session's reflection runs after `hearth run` answered (detached): it may come during the next task
        if reflection:
            key = "reflection"
        elif self.label:
            key = self.label
        else:
            text = first_user_text(body)
            coder, reviewer = _CODER.match(text), _REVIEWER.match(text)
            if text.startswith("Split the plan"):
                key = "planning"
            elif coder:
                key = f"task {coder.group(1)}"
            elif reviewer:
                key = f"task {reviewer.group(1)}"
            else:
                key = "other"
        with self._lock:
            self.counts[key] += 1
            self.reflections += reflection


class _Forward(BaseHTTPRequestHandler):
    owner: CountingProxy

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        self._forward(b"")

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if self.path.endswith("/chat/completions"):
            try:
                parsed = json.loads(body)
            except ValueError:
                parsed = {}
            self.owner.count(parsed, bool(self.headers.get("X-Hearth-Reflection")))
        self._forward(body)

    def _forward(self, body: bytes) -> None:
        up = self.owner.upstream
        kind = http.client.HTTPSConnection if up.scheme == "https" else http.client.HTTPConnection
        conn = kind(up.hostname or "127.0.0.1", up.port, timeout=3600)
        headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP}
        try:
            conn.request(self.command, self.path, body=body or None, headers=headers)
            resp = conn.getresponse()
        except OSError as exc:
            self.send_error(502, f"upstream: {exc}")
            return
        self.send_response(resp.status)
        for key, value in resp.getheaders():
            if key.lower() not in HOP:
                self.send_header(key, value)
        self.send_header("Connection", "close")
        self.end_headers()
        try:
            while chunk := resp.read1(65536):
                self.wfile.write(chunk)
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass  # Hearth stopped reading (a reply stopped after its first call): expected
        finally:
            conn.close()
            self.close_connection = True


def hearth(*args: str, url: str, workspace: Path, timeout: float) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("HEARTH_LLM_URL")}
    env["HEARTH_LLM_URL"] = url
    return subprocess.run(
        [sys.executable, "-m", "hearth.apps.cli.main", *args, "-w", str(workspace)],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def checks(workspace: Path, tasks: list[dict[str, Any]]) -> dict[str, bool]:
    return {
        t["key"]: subprocess.run(
            t["check"], shell=True, cwd=workspace, capture_output=True, timeout=60
        ).returncode
        == 0
        for t in tasks
    }


def run_pipeline(
    proxy: CountingProxy, plan: Path, tasks: list[dict[str, Any]], timeout: float
) -> dict[str, Any]:
    workspace = Path(tempfile.mkdtemp(prefix="hearth-bench-pipe-"))
    (workspace / "plans").mkdir()
    (workspace / "plans" / plan.name).write_text(plan.read_text(encoding="utf-8"), encoding="utf-8")
    proxy.label, proxy.counts, proxy.reflections = "", Counter(), 0
    started = time.perf_counter()
    done = hearth(
        "pipeline", "run", "--once", "--no-git", url=proxy.url, workspace=workspace, timeout=timeout
    )
    seconds = time.perf_counter() - started
    status = hearth("pipeline", "status", "--json", url=proxy.url, workspace=workspace, timeout=120)
    plans = json.loads(status.stdout)["plans"] if status.returncode == 0 else []
    own = {t["id"]: t["status"] for p in plans for t in p["tasks"]}
    return {
        "workspace": str(workspace),
        "exit": done.returncode,
        "stderr": done.stderr[-2000:],
        "seconds": round(seconds, 1),
        "passed": checks(workspace, tasks),
        "own_tasks": own,  # the planner's tasks and how the pipeline ended each
        "requests": dict(proxy.counts),
        "reflections": proxy.reflections,
    }


def settle(proxy: CountingProxy, expected: int, quiet: float = 10.0) -> None:
    """Wait for the reflections `hearth run` starts after answering: all `expected`, or none for `quiet` s."""
    last, since = proxy.reflections, time.monotonic()
    while proxy.reflections < expected and time.monotonic() - since < quiet:
        time.sleep(0.2)
        if proxy.reflections != last:
            last, since = proxy.reflections, time.monotonic()


def run_one_by_one(proxy: CountingProxy, tasks: list[dict[str, Any]], timeout: float) -> dict[str, Any]:
    workspace = Path(tempfile.mkdtemp(prefix="hearth-bench-run-"))
    proxy.counts, proxy.reflections = Counter(), 0
    exits: dict[str, int] = {}
    started = time.perf_counter()
    for t in tasks:
        proxy.label = f"task {t['key']}"
        result = hearth("run", "-p", "auto", t["prompt"], url=proxy.url, workspace=workspace, timeout=timeout)
        exits[t["key"]] = result.returncode
    proxy.label = ""
    seconds = time.perf_counter() - started
    settle(proxy, len(tasks))
    return {
        "workspace": str(workspace),
        "exits": exits,
        "seconds": round(seconds, 1),
        "passed": checks(workspace, tasks),
        "requests": dict(proxy.counts),
        "reflections": proxy.reflections,
    }


def table(pipe: dict[str, Any], one: dict[str, Any], tasks: list[dict[str, Any]]) -> str:
    """Side by side: each task passed (by the same check) and the model requests it took."""
    lines = [
        f"{'':20}{'pipeline':>22}{'hearth run, one by one':>26}",
        f"{'':20}{'passed':>10}{'requests':>12}{'passed':>14}{'requests':>12}",
    ]
    shown = set()
    for t in tasks:
        key = f"task {t['key']}"
        shown.add(key)
        lines.append(
            f"{t['key']:20}{_yes(pipe['passed'][t['key']]):>10}{pipe['requests'].get(key, '-'):>12}"
            f"{_yes(one['passed'][t['key']]):>14}{one['requests'].get(key, 0):>12}"
        )
    for key, n in sorted(pipe["requests"].items()):  # planning, and tasks the planner named otherwise
        if key not in shown:
            lines.append(f"{'  ' + key:20}{'':>10}{n:>12}")
    total_pipe, total_one = sum(pipe["requests"].values()), sum(one["requests"].values())
    n = len(tasks)
    lines.append(
        f"{'total':20}{sum(pipe['passed'].values()):>8}/{n}{total_pipe:>12}"
        f"{sum(one['passed'].values()):>12}/{n}{total_one:>12}"
    )
    lines.append(f"{'requests per task':20}{'':>10}{total_pipe / n:>12.1f}{'':>14}{total_one / n:>12.1f}")
    lines.append(
        f"{'  of which reflection':20}{'':>10}{pipe['reflections']:>12}{'':>14}{one['reflections']:>12}"
    )
    lines.append(f"{'wall time (s)':20}{'':>10}{pipe['seconds']:>12}{'':>14}{one['seconds']:>12}")
    lines.append(f"the pipeline's own tasks: {pipe['own_tasks']} (exit {pipe['exit']})")
    lines.append(f"hearth run's exit codes: {one['exits']}")
    return "\n".join(lines)


def _yes(ok: bool) -> str:
    return "yes" if ok else "no"


def scripted_server(tasks: list[dict[str, Any]]) -> Any:
    """The scripted server, writing each task's solution and passing every review."""
    from hearth.testing.script import ScriptedCall, ScriptedReply
    from hearth.testing.server import ScriptedServer

    by_prompt = {t["prompt"]: t for t in tasks}
    by_key = {t["key"]: t for t in tasks}

    def answer(body: dict[str, Any]) -> ScriptedReply:
        text = first_user_text(body)
        if text.startswith("Split the plan"):
            planned = [
                {
                    "id": t["key"],
                    "title": t["key"],
                    "description": t["prompt"],
                    "files": list(t["solution"]),
                    "depends_on": [] if i < 2 else [tasks[0]["key"], tasks[1]["key"]],
                    "phase": 1 if i < 2 else 2,
                }
                for i, t in enumerate(tasks)
            ]
            return ScriptedReply(text=json.dumps({"tasks": planned}))
        if _REVIEWER.match(text):
            return ScriptedReply(text='{"verdict": "pass", "reasons": [], "summary": "ok"}')
        coder = _CODER.match(text)
        task = by_key.get(coder.group(1)) if coder else by_prompt.get(text.strip())
        if task is None:
            return ScriptedReply(text="I do not know this task.\nTASK_COMPLETE")
        if (body.get("messages") or [{}])[-1].get("role") == "tool":
            return ScriptedReply(text="Done.\nTASK_COMPLETE")
        calls = [
            ScriptedCall(name="write", arguments={"path": p, "content": c})
            for p, c in task["solution"].items()
        ]
        return ScriptedReply(tool_calls=calls)

    server = ScriptedServer()
    server.add(*[answer] * 200)
    return server.start()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--model-url", help="the model server (OpenAI-compatible), e.g. http://127.0.0.1:18090/v1"
    )
    parser.add_argument(
        "--scripted", action="store_true", help="against the scripted server (checks the benchmark)"
    )
    parser.add_argument("--plan", default="text_tools", help="bench/plans/NAME.md and NAME.toml")
    parser.add_argument("--timeout", type=float, default=1800.0, help="seconds for each hearth command")
    parser.add_argument("--json", dest="json_out", help="write the results here too")
    args = parser.parse_args()
    if bool(args.model_url) == args.scripted:
        parser.error("give --model-url URL or --scripted (one of them)")
    plan = HERE / "plans" / f"{args.plan}.md"
    tasks = tomllib.loads((HERE / "plans" / f"{args.plan}.toml").read_text(encoding="utf-8"))["tasks"]
    server = scripted_server(tasks) if args.scripted else None
    if server is not None:
        os.environ["HEARTH_TOOL_MODE"] = "native"
    proxy = CountingProxy(server.url if server is not None else args.model_url)
    try:
        pipe = run_pipeline(proxy, plan, tasks, args.timeout)
        one = run_one_by_one(proxy, tasks, args.timeout)
    finally:
        proxy.close()
        if server is not None:
            server.stop()
    print(table(pipe, one, tasks))
    if args.json_out:
        Path(args.json_out).write_text(json.dumps({"pipeline": pipe, "one_by_one": one}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
