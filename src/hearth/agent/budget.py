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
    """What a session may spend, and has. What to do is read from the share crossed by the last
    reply alone, so a budget rebuilt from the events (a resume) gives no warning twice."""

    limit: int
    warn_at: float = 0.8
    archive_at: float = 0.9
    used: int = 0

    @classmethod
    def resumed(cls, limit: int, used: int) -> TokenBudget:
        """A budget that has `used` tokens spent already; warnings already due are not given again."""
        return cls(limit, used=used)

    @staticmethod
    def cost(usage: Usage) -> int:
        """What one reply counts against the budget: new prompt tokens plus output."""
        return max(0, usage.prompt_tokens - usage.cached_tokens) + usage.completion_tokens

    @property
    def used_up(self) -> bool:
        """Whether nothing is left to spend."""
        return self.used >= self.limit

    def spend(self, usage: Usage) -> BudgetAction:
        """Count one reply's tokens and say what to do now."""
        spent = self.cost(usage)
        self.used += spent
        return self.due(spent)

    def due(self, spent: int) -> BudgetAction:
        """What to do now that the last `spent` tokens (already counted) are spent."""
        if self.used_up:
            return BudgetAction.STOP
        share, before = self.used / self.limit, (self.used - spent) / self.limit
        if before < self.archive_at <= share:
            return BudgetAction.ARCHIVE
        if before < self.warn_at <= share:
            return BudgetAction.WARN
        return BudgetAction.NONE
