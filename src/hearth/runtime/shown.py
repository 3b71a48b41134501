"""A setting's value as Hearth shows it (`hearth config`, the trust prompt, ignored settings): secrets masked."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, SecretStr

from hearth.core.text import shown_url


def shown_value(name: str, value: Any) -> str:
    """A setting's value for display, secrets masked."""
    if isinstance(value, SecretStr):
        return mask(value.get_secret_value())
    if name == "api_key":
        return mask(str(value))
    if value is None or value == "" or value == [] or value == {}:
        return "(blank)"
    if isinstance(value, dict):  # the roles table: each role's fields, keys masked
        return "; ".join(f"{k}: {_shown_row(v)}" for k, v in value.items())
    if isinstance(value, list):
        return shown_url(", ".join(map(str, value)))
    return shown_url(str(value.value if hasattr(value, "value") else value))  # a URL's password


def _shown_row(row: Any) -> str:
    fields = row.model_dump() if isinstance(row, BaseModel) else row
    if not isinstance(fields, dict):
        return str(row)
    return shown_url(
        ", ".join(
            f"{k}={mask(str(v.get_secret_value() if isinstance(v, SecretStr) else v)) if k == 'api_key' else v}"
            for k, v in fields.items()
            if v not in (None, "", [], False) or (k == "native_tools" and v is False)
        )
    )


def mask(secret: str) -> str:
    if not secret:
        return "(blank)"
    return "****" if len(secret) < 12 else f"{secret[:3]}…{secret[-2:]} (masked)"
