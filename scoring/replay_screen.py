"""Replay: one round of a match stepped through action by action."""

from __future__ import annotations

from typing import Any

from scoring.models import Match


def replay_context(match: Match, number: int, step: str | None) -> dict[str, Any] | None:
    """What the replay screen shows after ``step`` actions of round ``number``; None when
    the match has no such round."""
    raise NotImplementedError
