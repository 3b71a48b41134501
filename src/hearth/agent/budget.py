"""Deep-work token budget: a warning, an archive-and-trim, then a stop."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from hearth.core.types import Usage


class BudgetAction(Enum):
    NONE = "none"
    WARN = "warn"
    ARCHIVE = "archive"
    STOP = "stop"


@dataclass
class TokenBudget:
    limit: int
    warn_at: float = 0.8
    archive_at: float = 0.9
    used: int = 0
    _warned: bool = False
    _archived: bool = False

    @classmethod
    def resumed(cls, limit: int, used: int) -> TokenBudget:
        """A budget that has `used` tokens spent already; warnings already due are not given again."""
        share = used / limit
        return cls(limit, used=used, _warned=share >= cls.warn_at, _archived=share >= cls.archive_at)

    @staticmethod
    def cost(usage: Usage) -> int:
        """What one reply counts against the budget: new prompt tokens plus output."""
        return max(0, usage.prompt_tokens - usage.cached_tokens) + usage.completion_tokens

    def spend(self, usage: Usage) -> BudgetAction:
        """Count one reply's tokens and say what to do now."""
        self.used += self.cost(usage)
        share = self.used / self.limit
        if share >= 1:
            return BudgetAction.STOP
        if share >= self.archive_at and not self._archived:
            self._archived = True
            return BudgetAction.ARCHIVE
        if share >= self.warn_at and not self._warned:
            self._warned = True
            return BudgetAction.WARN
        return BudgetAction.NONE
