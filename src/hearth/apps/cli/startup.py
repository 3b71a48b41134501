"""The garbage collector at start-up: off while the command imports, on once it has.

Importing allocates about a hundred thousand objects that live as long as the process (modules,
classes, pydantic schemas): the collections that triggers free nothing, and took about a sixth
of `hearth run`'s start. `hearth run` and the REPL call `started()` once imported; a timer does
for every other command.
"""

from __future__ import annotations

import gc
import threading

STARTUP_SECONDS = 3.0  # the collector is back on by then, whatever the command


def starting() -> None:
    gc.disable()
    timer = threading.Timer(STARTUP_SECONDS, started)
    timer.daemon = True
    timer.start()


def started() -> None:
    """Start-up is over: the objects made so far are kept out of every later collection, and
    the collector is on again. Idempotent."""
    if not gc.isenabled():
        gc.freeze()
        gc.enable()
