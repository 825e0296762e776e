"""Match documents for measuring: plain data, no Django (the query-count test uses them too)."""

from __future__ import annotations


def tie_round() -> list[dict]:
    """A blocked round of Draw for four that nobody wins (a tie for lowest): 0 points."""
    return [
        {"type": "play", "seat": 0, "tile": "6-6"}, {"type": "draw", "seat": 1, "count": 12},
        {"type": "pass", "seat": 1}, {"type": "pass", "seat": 2}, {"type": "pass", "seat": 3},
        {"type": "pass", "seat": 0},
        {"type": "tally", "pips": {"0": 15, "1": 106, "2": 15, "3": 20}},
    ]  # fmt: skip


def long_match() -> dict:
    """A Draw match for four: 29 rounds played, and a 30th whose log holds 60 actions. Its
    next legal play is Ben's 6-5 on 6-6."""
    current = [{"type": "play", "seat": 0, "tile": "6-6"}]
    current += [{"type": "draw", "seat": 1, "count": 1}, {"type": "undo"}] * 29
    current += [{"type": "draw", "seat": 1, "count": 1}]
    return {
        "format": "boneyard-match/1", "game": "draw", "options": {"target": 200},
        "players": ["Ana", "Ben", "Caro", "Dan"],
        "rounds": [{"actions": tie_round()} for _ in range(29)] + [{"actions": current}],
    }  # fmt: skip
