"""The score sheet: every round's points and the running totals, read from the stored
log's points without replaying anything."""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from referee import PRESETS, Play, parse_action
from scoring.models import Action, Match, Round
from scoring.screens.common import aim, moved_words
from scoring.words import describe

# What the table recorded about its record (RULES.md §7): the score sheet lists each one.
RECORD_KINDS = ("correct", "adjust", "abandon", "stop")


def summary_context(match: Match) -> dict[str, Any]:
    """A row per round: what each seat scored in it (every action's points, adjustments and
    corrections included, so the rows add up to the totals) and the running totals."""
    seats = list(match.seats.order_by("number").values_list("player__name", "player_id"))
    names = [name for name, _ in seats]
    family = PRESETS[match.game].family
    scored: dict[int, list[int]] = {}
    notes: list[dict[str, Any]] = []
    log = (
        Action.objects.filter(round__match=match)
        .filter(Q(kind__in=RECORD_KINDS) | ~Q(points=[]))
        .values_list("round__number", "seq", "kind", "payload", "points", "moved")
        .order_by("round__number", "seq")
    )
    for number, seq, kind, payload, points, moved in log:
        if points:
            row = scored.setdefault(number, [0] * len(names))
            for seat, p in enumerate(points):
                row[seat] += p
        if kind in RECORD_KINDS:
            said = describe(parse_action(payload, family), names, family=family)
            said += moved_words(moved, names)
            notes.append({"number": number, "entry": seq + 1, "said": said})
    rounds = []
    running = [0] * len(names)
    for round_row in Round.objects.filter(match=match).order_by("number"):
        result = round_row.result
        points = scored.get(round_row.number, [0] * len(names))
        running = [a + b for a, b in zip(running, points, strict=True)]
        if result is None and not any(points):
            continue  # a round just begun has nothing to show yet
        winner = result["winner"] if result is not None else None
        rounds.append(
            {
                "number": round_row.number,
                "winner": names[winner] if winner is not None else "—",
                "reason": result["reason"] if result is not None else "in progress",
                "points": points,
                "running": list(running),
                "finished": result is not None,
            }
        )
    return {
        "match": match,
        "names": names,
        "players": [{"name": name, "pk": pk} for name, pk in seats],
        "rounds": rounds,
        "totals": match.totals,
        "winner": names[match.winner] if match.winner is not None else None,
        "aim": aim(match),
        "play": Play,
        "notes": notes,
    }
