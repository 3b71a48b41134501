"""Compaction against the prompt cache: a 30-read session in an 8,192-token window.

A scripted model reads 30 files (about 600 tokens each, 18k tokens of results) one per step,
through the real CLI against the scripted server (which states its 8,192-token window), and then
finishes. Counted: the agent's requests whose prompt does not start with the whole previous prompt
(the server's prefix cache cannot reuse all of it: what came after the change is processed again),
and the summary requests compaction sent. Goal: at most 6 and 6.

With `--model-url` and `--server-log` (a llama-cpp-python server and its log), each session's
requests are then sent again, in order, to that real server with `max_tokens: 1`, and the prompt
tokens the server itself evaluated for each (its log: what its prefix cache could not reuse) and
its time are printed: what the same session costs a real small model's prefill.

The same session runs on this tree and, as the baseline, on the `src` of another commit (default
`main`; `git archive`d to a temporary folder, run with this venv), printed side by side.

    .venv/bin/python bench/compaction_cache.py [--reads 30] [--baseline main]
        [--model-url http://127.0.0.1:18090/v1 --server-log server.log]
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path
from typing import Any

import httpx

from hearth.bench.suite import server_prefill
from hearth.testing.script import ScriptedCall, ScriptedReply
from hearth.testing.server import ScriptedServer

ROOT = Path(__file__).resolve().parent.parent
SUMMARY_MARK = "You summarise an agent's work"
LINE = "value_{i:03d} = compute(alpha, beta, gamma)  # a line of the file\n"


def workspace(reads: int) -> Path:
    ws = Path(tempfile.mkdtemp(prefix="hearth-bench-"))
    for n in range(reads):
        lines = [LINE.format(i=i) for i in range(34)]  # ~2,100 characters: ~600 tokens with numbers
        (ws / f"f{n:02d}.py").write_text(f"# file {n}\n" + "".join(lines), encoding="utf-8")
    return ws


def script(reads: int) -> list[Any]:
    steps = [
        ScriptedReply(tool_calls=[ScriptedCall(name="read", arguments={"path": f"f{n:02d}.py"})])
        for n in range(reads)
    ]
    steps.append(ScriptedReply(text=f"Read all {reads} files. TASK_COMPLETE"))

    def respond(body: dict[str, Any]) -> ScriptedReply:
        if SUMMARY_MARK in body["messages"][0]["content"]:
            return ScriptedReply(text="Read the files f00 onwards one by one; each holds value_ lines.")
        return steps.pop(0) if steps else ScriptedReply(text="Done. TASK_COMPLETE")

    return [respond] * (reads * 3)


def session(src: Path, reads: int) -> list[dict[str, Any]]:
    home = Path(tempfile.mkdtemp(prefix="hearth-bench-home-"))
    with ScriptedServer(script(reads), model="qwen2.5-coder-32b-instruct", context_window=8192) as server:
        env = {
            **os.environ,
            "PYTHONPATH": str(src),
            "HOME": str(home),
            "XDG_CONFIG_HOME": str(home / "config"),
            "XDG_DATA_HOME": str(home / "data"),
            "HEARTH_LLM_URL": server.url,
            "HEARTH_TOOL_MODE": "native",
            "HEARTH_MAX_ITERATIONS": str(reads + 10),
        }
        cmd = [sys.executable, "-m", "hearth", "run", f"read the {reads} files", "-w", str(workspace(reads))]
        subprocess.run([*cmd, "--json", "--permission", "auto"], env=env, capture_output=True, check=False)
        return list(server.requests)


def counts(requests: list[dict[str, Any]]) -> tuple[int, int, int]:
    """(agent requests, those whose prompt changed before its end, summary requests)."""
    agent = [r for r in requests if SUMMARY_MARK not in r["messages"][0]["content"]]
    changed = sum(1 for a, b in itertools.pairwise(agent) if not extends(a, b))
    return len(agent), changed, len(requests) - len(agent)


def extends(before: dict[str, Any], after: dict[str, Any]) -> bool:
    """Whether `after` sends everything `before` sent, unchanged, and then more."""
    old = before["messages"]
    return before.get("tools") == after.get("tools") and after["messages"][: len(old)] == old


def replay(requests: list[dict[str, Any]], model_url: str, log: Path) -> list[tuple[int, int, float]]:
    """Send each request again to a real server, one token each: (evaluated, cached, seconds)."""
    out = []
    for body in requests:
        sent = {k: v for k, v in body.items() if k in ("messages", "tools", "tool_choice")}
        sent.update(model="local", max_tokens=1, temperature=0, stream=False)
        start = log.stat().st_size
        began = time.perf_counter()
        reply = httpx.post(model_url.rstrip("/") + "/chat/completions", json=sent, timeout=900)
        took = time.perf_counter() - began
        if reply.status_code != 200:
            print(f"  the server refused a request ({reply.status_code}): {reply.text[:200]}")
        time.sleep(0.2)  # the log line is written before the reply; let it reach the file
        evaluated, cached = server_prefill(log, start)
        out.append((evaluated, cached, took))
    return out


def print_replay(label: str, rows: list[tuple[int, int, float]]) -> None:
    evaluated = [e for e, _, _ in rows]
    seconds = [s for _, _, s in rows]
    print(
        f"{label:28} {sum(evaluated):>10} {statistics.median(evaluated):>10.0f} {max(evaluated):>8}"
        f" {sum(seconds):>9.1f} {statistics.median(seconds):>9.2f}"
    )
    print("  per request (evaluated tokens): " + " ".join(str(e) for e in evaluated))


def baseline_src(ref: str) -> Path:
    """`ref`'s src folder, unpacked from git into a temporary folder."""
    out = Path(tempfile.mkdtemp(prefix="hearth-baseline-"))
    raw = subprocess.run(["git", "-C", str(ROOT), "archive", ref, "src"], capture_output=True, check=True)
    with tarfile.open(fileobj=BytesIO(raw.stdout)) as tar:
        tar.extractall(out, filter="data")
    return out / "src"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--reads", type=int, default=30)
    parser.add_argument("--baseline", default="main", help="the commit to compare with (default: main)")
    parser.add_argument("--model-url", help="a llama-cpp-python server to replay the sessions to")
    parser.add_argument("--server-log", type=Path, help="that server's log (its prefix-cache lines)")
    args = parser.parse_args()
    print(f"{args.reads} reads in an 8,192-token window (scripted server)")
    print(f"{'':28} {'requests':>9} {'prefix changed':>15} {'summary requests':>17}")
    sessions = {}
    for label, src in (
        (f"baseline ({args.baseline})", baseline_src(args.baseline)),
        ("this tree", ROOT / "src"),
    ):
        sessions[label] = session(src, args.reads)
        total, changed, summaries = counts(sessions[label])
        print(f"{label:28} {total:>9} {changed:>15} {summaries:>17}")
    if not (args.model_url and args.server_log):
        return
    print("\nthe same requests replayed to the real server (prompt tokens it evaluated; seconds)")
    print(f"{'':28} {'evaluated':>10} {'median':>10} {'max':>8} {'seconds':>9} {'median s':>9}")
    for label, requests in sessions.items():
        print_replay(label, replay(requests, args.model_url, args.server_log))


if __name__ == "__main__":
    main()
