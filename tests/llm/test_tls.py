"""The TLS context a model-server client gets: the verifying one for https, and for a plain-http
server one that loads no CA bundle and trusts no certificate."""

from __future__ import annotations

import ssl

from hearth.llm.tls import context_for


def test_an_https_server_gets_the_verifying_context_with_the_ca_bundle() -> None:
    ctx = context_for("HTTPS://api.example.com/v1")
    assert ctx.verify_mode == ssl.CERT_REQUIRED and ctx.check_hostname
    assert ctx.cert_store_stats()["x509_ca"] > 0


def test_a_plain_http_server_gets_a_context_that_would_refuse_any_certificate() -> None:
    ctx = context_for("http://127.0.0.1:1234/v1")
    # still verifying: a TLS connection it were sent to make fails instead of going unchecked
    assert ctx.verify_mode == ssl.CERT_REQUIRED and ctx.check_hostname
    assert ctx.cert_store_stats()["x509_ca"] == 0  # no bundle loaded: nothing to trust
    assert context_for("http://localhost:11434/v1") is ctx  # one per process
