"""The rules pages, generated from the rulebook the referee enforces."""

from __future__ import annotations

from typing import Any

from referee import PRESETS, Preset


def rules_index_context() -> dict[str, Any]:
    return {"games": PRESETS.values()}


def game_rules(game: Preset) -> dict[str, Any]:
    raise NotImplementedError
