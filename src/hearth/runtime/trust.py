"""The workspaces the user trusted to choose Hearth's safety settings, kept in the user's config folder.

A workspace's own files (`.hearth/config.toml`, `.env`) may set how the model
is asked, but not what may run, where requests and the API key go, or which
sandbox is used, unless the user trusted that workspace: `hearth trust` at a
terminal, or the web UI's trust button behind its login. The record is the
folder's real path and a fingerprint of exactly the settings the user saw, so
a later change (by the model, or by a `git pull`) needs a new approval.

The file lives outside every workspace (in the user's config folder, hidden
from the sandbox); a trust file that lies inside a folder never vouches for
that folder, since the agent could have written it.

`TrustGate` is the check `load_settings` (runtime/config.py) runs on each folder's
files: what is in `PROJECT_SAFE` always passes (and `PROJECT_LOWER_ONLY` limits
when they only lower), the rest only from a trusted folder whose fingerprint
still matches; what it holds back is kept, with the reason, for the interfaces.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic.fields import FieldInfo

from hearth.core.errors import ConfigError
from hearth.runtime.shown import shown_value

TRUST_FILE = "trusted-workspaces.json"

# What a folder's own files may set without the user's trust: how the model is asked and how long
# Hearth waits; never what may run, where requests and the key go, or the workspace.
PROJECT_SAFE = frozenset(
    {
        "model",
        "temperature",
        "tool_mode",
        "context_window",
        "connect_timeout",
        "first_token_timeout",
        "idle_timeout",
        "retries",
        "model_parallel",
        "output_limit",
        "embedded_context",
        "embedded_threads",
    }
)
PROJECT_LOWER_ONLY = frozenset(
    {"max_iterations", "max_seconds", "versions"}
)  # limits it may lower, not raise
INSIDE_WORKSPACE = (
    "your user config is inside the workspace, where the agent can write; keep it outside "
    "(set XDG_CONFIG_HOME) or choose a smaller workspace"
)


@dataclass(frozen=True)
class TrustRecord:
    folder: str
    fingerprint: str
    trusted_at: str
    settings: tuple[str, ...]


class TrustStore:
    def __init__(self, path: Path) -> None:
        self.path = path

    def inside(self, folder: Path) -> bool:
        """True when the trust file lies in `folder` (where the agent could write it)."""
        return _real(self.path).is_relative_to(_real(folder))

    def records(self) -> dict[str, TrustRecord]:
        if not self.path.is_file():
            return {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            return {
                folder: TrustRecord(
                    folder,
                    str(rec["fingerprint"]),
                    str(rec.get("trusted_at", "")),
                    tuple(rec.get("settings", ())),
                )
                for folder, rec in dict(data.get("workspaces", {})).items()
            }
        except (OSError, ValueError, TypeError, KeyError, AttributeError) as exc:
            raise ConfigError(
                f"Cannot read the trusted workspaces in {self.path}: {exc}",
                "Fix or delete that file (then trust your workspaces again with `hearth trust`).",
            ) from None

    def get(self, folder: Path) -> TrustRecord | None:
        if self.inside(folder):
            return None
        return self.records().get(str(_real(folder)))

    def record(self, folder: Path, fingerprint: str, settings: list[str]) -> TrustRecord:
        if self.inside(folder):
            raise ConfigError(
                f"The trust list {self.path} is inside {folder}, where the agent can write.",
                "Keep Hearth's config folder outside the workspace (XDG_CONFIG_HOME), or work in a subfolder.",
            )
        stamp = datetime.now(UTC).isoformat(timespec="seconds")
        rec = TrustRecord(str(_real(folder)), fingerprint, stamp, tuple(settings))
        self._write({**self.records(), rec.folder: rec})
        return rec

    def remove(self, folder: Path) -> bool:
        records = self.records()
        if records.pop(str(_real(folder)), None) is None:
            return False
        self._write(records)
        return True

    def _write(self, records: dict[str, TrustRecord]) -> None:
        data: dict[str, Any] = {
            "version": 1,
            "workspaces": {
                f: {"fingerprint": r.fingerprint, "trusted_at": r.trusted_at, "settings": list(r.settings)}
                for f, r in sorted(records.items())
            },
        }
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".trusted-", dir=self.path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(data, fh, indent=2)
                fh.write("\n")
            os.chmod(tmp, 0o600)
            os.replace(tmp, self.path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise


@dataclass(frozen=True)
class Ignored:
    """A setting from a folder's own file that was not used, and why."""

    name: str
    source: str
    value: str  # as shown: secrets masked
    reason: str

    def __str__(self) -> str:
        return f"{self.name} = {self.value} from {self.source}: {self.reason}"


@dataclass(frozen=True)
class FolderSettings:
    """The Hearth settings a folder's own files (`.hearth/config.toml`, `.env`) set."""

    folder: Path
    layers: tuple[tuple[str, dict[str, Any]], ...]  # (file, settings), in PROJECT_FILES order

    def needing_trust(self) -> list[tuple[str, str, str]]:
        """(file, name, shown value) of each setting that is used only if the folder is trusted."""
        return [
            (source, name, shown_value(name, value))
            for source, values in self.layers
            for name, value in sorted(values.items())
            if name not in PROJECT_SAFE and name != "workspace"
        ]

    @property
    def fingerprint(self) -> str:
        """Changes whenever a setting needing trust is added, removed or changed."""
        data = [
            [str(Path(source).relative_to(self.folder)), name, values[name]]
            for source, values in self.layers
            for name in sorted(values)
            if name not in PROJECT_SAFE and name != "workspace"
        ]
        return hashlib.sha256(json.dumps(data, default=str, sort_keys=True).encode()).hexdigest()


class TrustGate:
    """Lets through what a folder's own files may set; collects the rest, with the reason."""

    def __init__(self, store: TrustStore, user: dict[str, Any], fields: Mapping[str, FieldInfo]) -> None:
        self.store = store
        self.fields = fields  # the known settings by key (config.FIELDS): names and defaults
        self.user = user
        self.ignored: list[Ignored] = []
        self.untrusted: list[Path] = []  # folders with settings ignored that trusting would let through
        self._trustable: dict[int, Path] = {}

    def check(self, folder: FolderSettings) -> str | None:
        """None when the folder's settings are trusted as they are now; otherwise why not."""
        if not folder.needing_trust():
            return None
        record = self.store.get(folder.folder)
        if record is not None and record.fingerprint == folder.fingerprint:
            return None
        if self.store.inside(folder.folder):
            return f"your trust list {self.store.path} is inside this folder, so it cannot vouch for it"
        self._trustable[id(folder)] = folder.folder
        if record is not None:
            return "changed since you trusted this folder; review it and run `hearth trust` again"
        return f"{folder.folder} is not a trusted workspace (`hearth trust` lets its settings through)"

    def admit(
        self, layer: tuple[str, dict[str, Any]], untrusted: str | None, folder: FolderSettings | None = None
    ) -> tuple[str, dict[str, Any]]:
        source, values = layer
        kept: dict[str, Any] = {}
        for name, value in values.items():
            reason = self._refusal(name, value, untrusted)
            if reason is None:
                kept[name] = value
                continue
            self.ignored.append(Ignored(name, source, shown_value(name, value), reason))
            trustable = self._trustable.get(id(folder))
            if name != "workspace" and trustable is not None and trustable not in self.untrusted:
                self.untrusted.append(trustable)
        return source, kept

    def _refusal(self, name: str, value: Any, untrusted: str | None) -> str | None:
        if name == "workspace":
            return "the workspace comes from --workspace, the environment or your user config only"
        if name in PROJECT_SAFE or name not in self.fields or untrusted is None:
            return None  # unknown names fail validation below, with the file named
        if name in PROJECT_LOWER_ONLY:
            limit = self.user.get(name, self.fields[name].default)
            try:
                if float(value) <= float(limit):
                    return None
            except (TypeError, ValueError):
                return f"not a number; {untrusted}"
            return f"a folder may lower this limit ({limit}), not raise it: {untrusted}"
        return untrusted


def _real(path: Path) -> Path:
    return Path(os.path.realpath(path))
