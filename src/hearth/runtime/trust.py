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
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from hearth.core.errors import ConfigError

TRUST_FILE = "trusted-workspaces.json"


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


def _real(path: Path) -> Path:
    return Path(os.path.realpath(path))
