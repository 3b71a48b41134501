"""The interpreter loop the `python` tool runs inside the sandbox (its source is sent as `-c`).

Standard library only. Requests come as JSON lines on a private copy of stdin;
the user's code gets /dev/null as stdin. Its stdout and stderr (and those of
any process it starts) go to a pipe that a thread drains into a capped buffer;
each answer is one line on a private copy of stdout, starting with MARKER.
"""

from __future__ import annotations

MARKER = b"\x1ehearth-python\x1e "

SOURCE = r"""
import ast, json, os, sys, threading, traceback
MARKER = %(marker)r
CAP = %(cap)d
proto_in = os.fdopen(os.dup(0), "rb")
proto_out = os.fdopen(os.dup(1), "wb")
null = os.open(os.devnull, os.O_RDONLY)
os.dup2(null, 0)
read_end, write_end = os.pipe()
os.dup2(write_end, 1)
os.dup2(write_end, 2)
os.close(write_end)
sys.stdin = open(0, "r", closefd=False)
sys.stdout = open(1, "w", buffering=1, closefd=False, encoding="utf-8", errors="replace")
sys.stderr = open(2, "w", buffering=1, closefd=False, encoding="utf-8", errors="replace")
state = {"head": bytearray(), "tail": bytearray(), "total": 0, "seen": threading.Event(), "token": b""}

def drain():
    pending = b""
    while True:
        chunk = os.read(read_end, 65536)
        if not chunk:
            return
        pending += chunk
        token = state["token"]
        if token and token in pending:
            before, _, pending = pending.partition(token)
            keep(before)
            state["seen"].set()
            continue
        cut = max(0, len(pending) - 64)
        keep(pending[:cut])
        pending = pending[cut:]

def keep(data):
    state["total"] += len(data)
    head = state["head"]
    room = CAP // 2 - len(head)
    if room > 0:
        head += data[:room]
        data = data[room:]
    if data:
        state["tail"] = (state["tail"] + data)[-(CAP // 2):]

threading.Thread(target=drain, daemon=True).start()
space = {"__name__": "__main__", "__builtins__": __builtins__}

def run(code):
    tree = ast.parse(code, "<python>", "exec")
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = ast.Expression(tree.body.pop().value)
    exec(compile(tree, "<python>", "exec"), space)
    if last is not None:
        value = eval(compile(last, "<python>", "eval"), space)
        if value is not None:
            print(repr(value))

for line in proto_in:
    request = json.loads(line)
    error = None
    try:
        run(request["code"])
    except SystemExit as exc:
        error = "SystemExit(%%r): the session goes on" %% (exc.code,)
    except BaseException as exc:
        tb = exc.__traceback__
        while tb is not None and tb.tb_frame.f_code.co_filename != "<python>":
            tb = tb.tb_next
        error = "".join(traceback.format_exception(type(exc), exc, tb))
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass
    token = os.urandom(8).hex().encode()
    state["seen"].clear()
    state["token"] = token
    os.write(1, token)
    state["seen"].wait(5)
    state["token"] = b""
    out = bytes(state["head"])
    if state["total"] > len(state["head"]) + len(state["tail"]):
        out += b"\n[... %%d bytes cut ...]\n" %% (state["total"] - len(state["head"]) - len(state["tail"]))
    out += bytes(state["tail"])
    state["head"], state["tail"], state["total"] = bytearray(), bytearray(), 0
    answer = {"output": out.decode("utf-8", "replace"), "error": error}
    proto_out.write(MARKER + json.dumps(answer).encode() + b"\n")
    proto_out.flush()
"""


def driver_source(cap: int = 40_000) -> str:
    return SOURCE % {"marker": MARKER, "cap": cap}
