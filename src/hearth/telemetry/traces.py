"""OpenTelemetry traces when `otel_endpoint` is set: the agent's spans (telemetry/otel.py) sent over
OTLP/HTTP (protobuf) to `{otel_endpoint}/v1/traces`, what an OpenTelemetry Collector, Jaeger,
Tempo or Phoenix accept on port 4318. The OTLP exporter's own environment variables apply
(`OTEL_EXPORTER_OTLP_HEADERS` for a collector that wants a key, `OTEL_EXPORTER_OTLP_TIMEOUT`).

It needs the `otel` extra (`pip install 'hearth[otel]'`): without it, a set `otel_endpoint` is a
clear error at start, not a session that silently sends nothing. Nothing is set up at import and
nothing global: each runtime has its own tracer provider, shut down (spans sent) when it closes.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from hearth.agent.tracing import NO_TRACING, Tracer
from hearth.core import environment
from hearth.core.errors import HearthError
from hearth.runtime.config import Settings

TIMEOUT = 5.0  # seconds for one export, retries included, unless the OTLP variables say otherwise


def traces_url(endpoint: str) -> str:
    """The collector's traces URL for the setting (a base URL, or one already ending /v1/traces)."""
    parts = urlsplit(endpoint.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise HearthError(
            f"otel_endpoint {endpoint!r} is not an http(s) URL.",
            "Set it to the collector's OTLP/HTTP address, e.g. http://127.0.0.1:4318, or leave it blank.",
        )
    url = endpoint.strip().rstrip("/")
    return url if url.endswith("/v1/traces") else url + "/v1/traces"


def configure_traces(settings: Settings) -> Tracer:
    """The tracer for a runtime: OpenTelemetry's when `otel_endpoint` is set, else none."""
    if not settings.telemetry.otel_endpoint:
        return NO_TRACING
    url = traces_url(settings.telemetry.otel_endpoint)
    try:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

        from hearth.telemetry.otel import OtelTracer, ReachableExporter
    except ImportError as exc:
        raise HearthError(
            f"otel_endpoint is set, but OpenTelemetry is not installed ({exc.name} is missing).",
            "Install the extra: pip install 'hearth[otel]'; or unset otel_endpoint (HEARTH_OTEL_ENDPOINT).",
        ) from None
    timeout = None if environment.otel_timeout_set() else TIMEOUT
    return OtelTracer(ReachableExporter(OTLPSpanExporter(endpoint=url, timeout=timeout), url))
