"""Two corrections to Typer's defaults, made once when the command line loads.

- A usage error (a mistyped flag, a bad value) exits 64, as sysexits has it: Click's 2 is what
  `hearth run` returns for "limit reached", and a script must be able to tell them apart.
- A boolean flag takes no value, so its help shows none (Typer shows `<bool>`, which reads as if
  `--json true` were expected).
"""

from __future__ import annotations

from typing import Any

from typer._click.exceptions import UsageError
from typer.core import TyperOption

USAGE_EXIT = 64


def apply() -> None:
    UsageError.exit_code = USAGE_EXIT
    shown = TyperOption.display_type_rich
    if getattr(shown, "_hearth", False):
        return

    def display_type_rich(self: TyperOption, ctx: Any) -> str | None:
        return None if self.is_bool_flag else shown(self, ctx)

    display_type_rich._hearth = True  # type: ignore[attr-defined]
    TyperOption.display_type_rich = display_type_rich  # type: ignore[method-assign]
