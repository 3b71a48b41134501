"""The TLS context Hearth's clients of the model server share."""

from __future__ import annotations

import functools
import ssl

import httpx


@functools.cache
def shared_context() -> ssl.SSLContext:
    """One verifying context per process: each client making its own loads the CA bundle again
    (about 20 ms of processor time; `hearth run` made two before its first request)."""
    return httpx.create_ssl_context()
