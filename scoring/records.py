"""The record book: player pages, leaderboards, the score sheet as CSV and as a chart."""

from __future__ import annotations

from typing import Any

from scoring.models import Match, Player


def player_context(player: Player, joined: list[int]) -> dict[str, Any]:
    raise NotImplementedError


def leaderboard_context(game: str | None) -> dict[str, Any]:
    raise NotImplementedError


def score_sheet_csv(match: Match) -> str:
    raise NotImplementedError


def score_chart_svg(match: Match) -> str:
    raise NotImplementedError
