"""Permission modes. A module of its own: settings need it without the policy's imports."""

from __future__ import annotations

from enum import StrEnum


class PermissionMode(StrEnum):
    AUTO = "auto"
    NORMAL = "normal"
    MANUAL = "manual"
    PLAN = "plan"
