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


def context_for(url: str) -> ssl.SSLContext:
    """The context for a client of `url`: the verifying one for https; for plain http (a local
    server), one that trusts no certificate, so no CA bundle is loaded (30 to 40 ms of processor
    time a process). Such a client never makes a TLS connection, and one it were sent to make
    would fail verification rather than go unchecked."""
    return shared_context() if url.lower().startswith("https:") else _trusting_none()


@functools.cache
def _trusting_none() -> ssl.SSLContext:
    return ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)  # verify_mode CERT_REQUIRED, no CA loaded
