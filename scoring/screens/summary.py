"""The score sheet: every round's points and the running totals, read from the stored
results without replaying anything."""

from __future__ import annotations

from typing import Any

from referee import Play
from scoring.models import Match, Round
from scoring.screens.common import aim


def summary_context(match: Match) -> dict[str, Any]:
    seats = list(match.seats.order_by("number").values_list("player__name", "player_id"))
    names = [name for name, _ in seats]
    rounds = []
    running = [0] * len(names)
    for round_row in Round.objects.filter(match=match, result__isnull=False).order_by("number"):
        result = round_row.result
        points = [result["points"].get(str(s), 0) for s in range(len(names))]
        running = [a + b for a, b in zip(running, points, strict=True)]
        winner = result["winner"]
        rounds.append(
            {
                "number": round_row.number,
                "winner": names[winner] if winner is not None else "—",
                "reason": result["reason"],
                "points": points,
                "running": list(running),
                "finished": True,
            }
        )
    # A round in progress has scored in the count games, but has no result yet.
    playing = [t - r for t, r in zip(match.totals, running, strict=True)]
    if any(playing):
        number = rounds[-1]["number"] + 1 if rounds else 1
        rounds.append(
            {"number": number, "winner": "—", "reason": "in progress", "points": playing,
             "running": list(match.totals), "finished": False}
        )  # fmt: skip
    return {
        "match": match,
        "names": names,
        "players": [{"name": name, "pk": pk} for name, pk in seats],
        "rounds": rounds,
        "totals": match.totals,
        "winner": names[match.winner] if match.winner is not None else None,
        "aim": aim(match),
        "play": Play,
    }
