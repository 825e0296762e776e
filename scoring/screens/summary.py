"""The score sheet: every round's points and the running totals, read from the stored
log's points without replaying anything."""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from django.utils.translation import gettext, pgettext

from referee import PRESETS, Play, parse_action
from referee.teams import Team, team_name, team_of, team_totals, teams
from scoring import domino
from scoring.models import Action, Match, Round
from scoring.screens.common import TEAM_MARKS, aim, moved_words
from scoring.speech import all_of, ended, say
from scoring.words import describe

# What the table recorded about its record (RULES.md §7): the score sheet lists each one.
RECORD_KINDS = ("correct", "adjust", "abandon", "stop")


# The score sheet's page lists this many of the table's notes about its record; a hostile
# match may hold thousands, and each round's replay lists its own (issue 28).
MOST_NOTES = 100


def summary_context(match: Match, most_notes: int | None = None) -> dict[str, Any]:
    """A row per round: what each seat scored in it (every action's points, adjustments and
    corrections included, so the rows add up to the totals) and the running totals. In
    partnerships (RULES.md ``team.score``) each row also has each team's points and running
    total, and the winners are named by their team ("Ana & Caro"). The notes (corrections,
    adjustments...) are said in words up to ``most_notes`` (None: all of them); the others
    are counted in ``notes_more``."""
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
    more = 0
    taken_back = _taken_back(match)
    for number, seq, kind, payload, points, moved in log:
        if points:
            row = scored.setdefault(number, [0] * len(names))
            for seat, p in enumerate(points):
                row[seat] += p
        if kind in RECORD_KINDS and most_notes is not None and len(notes) >= most_notes:
            more += 1
        elif kind in RECORD_KINDS:
            said = say(describe(parse_action(payload, family), names, family=family))
            said += say(moved_words(moved, names))
            if (number, seq) in taken_back:  # listed, so it must not read as if it stood
                said += " · " + gettext("taken back")
            notes.append({"number": number, "entry": seq + 1, "said": said})
    # Only a partnership match has teams to show; alone, every seat is its own "team".
    sides = teams(len(names), match.options) if match.options.get("partnerships") else None

    def credited(seat: int) -> str:
        return say(team_name(names, team_of(sides, seat))) if sides else names[seat]

    rounds = []
    running = [0] * len(names)
    hands = []  # Dominó: each round's records, as the referee counted them
    for round_row in Round.objects.filter(match=match).order_by("number"):
        hands.append(round_row.records)
        result = round_row.result
        points = scored.get(round_row.number, [0] * len(names))
        running = [a + b for a, b in zip(running, points, strict=True)]
        if result is None and not any(points):
            continue  # a round just begun has nothing to show yet
        winner = result["winner"] if result is not None else None
        rounds.append(
            {
                "number": round_row.number,
                "winner": credited(winner) if winner is not None else "—",
                "reason": ended(result["reason"])
                if result is not None
                else pgettext("round", "in progress"),
                "points": points,
                "running": list(running),
                "finished": result is not None,
                "teams": _team_columns(names, sides, points, running) if sides else None,
            }
        )
    return {
        "match": match,
        "names": names,
        "players": [{"name": name, "pk": pk} for name, pk in seats],
        "rounds": rounds,
        "totals": match.totals,
        "teams": _teams(names, seats, sides, match.totals) if sides else None,
        "winner": credited(match.winner) if match.winner is not None else None,
        # A tie at the top: every seat that shares the win, as the table named them.
        "shared": all_of([names[int(n)] for n in match.shared.strip(",").split(",") if n]),
        "aim": say(aim(match)),
        "play": Play,
        "notes": notes,
        "notes_more": more,
        "records": _records(match, names, hands),
    }


def _records(match: Match, names: list[str], hands: list[list[list[int]]]) -> dict | None:
    """Dominó (``parejas.records``): what each player made and suffered over the match,
    the referee's counts; None for every other game."""
    if not domino.is_domino(match.game):
        return None
    winner = match.winner if match.status == Match.FINISHED else None
    by_seat = domino.match_records(hands, match.totals or [0] * len(names), winner)
    order = (0, 2, 1, 3)  # each pair side by side, as the strip shows them (team.seats)
    return {
        "seats": [{"name": names[s], "team": s % 2, "mark": TEAM_MARKS[s % 2]} for s in order],
        "rows": [
            {**row, "counts": [row["counts"][s] for s in order]}
            for row in domino.records_table(by_seat)
        ],
    }


def _taken_back(match: Match) -> set[tuple[int, int]]:
    """(round, entry) of every entry an undo took back: each undo takes back the last entry
    still standing in its round (scoring.words.standing), corrections aside. Only the rounds
    that hold an undo are read whole."""
    rounds = Action.objects.filter(round__match=match, kind="undo").values("round")
    log = (
        Action.objects.filter(round__in=rounds)
        .order_by("round__number", "seq")
        .values_list("round__number", "seq", "kind")
    )
    undone: set[tuple[int, int]] = set()
    kept: list[tuple[int, int]] = []
    for number, seq, kind in log:
        if kept and kept[-1][0] != number:
            kept = []
        if kind == "undo":
            if kept:
                undone.add(kept.pop())
        elif kind != "correct":
            kept.append((number, seq))
    return undone


def _team_columns(
    names: list[str], sides: tuple[Team, ...], points: list[int], running: list[int]
) -> list[dict[str, Any]]:
    """A round's row for each team: what its seats scored in the round, and its running
    total."""
    return [
        {"name": say(team_name(names, team)), "points": p, "running": total}
        for team, p, total in zip(
            sides, team_totals(points, sides), team_totals(running, sides), strict=True
        )
    ]


def _teams(
    names: list[str], seats: list[tuple[str, int]], sides: tuple[Team, ...], totals: list[int]
) -> list[dict[str, Any]]:
    """Each team: its name, its players (each with their own total: a seat keeps its own
    score), the team's total, and its mark as the table shows it."""
    own = totals or [0] * len(names)
    return [
        {
            "name": say(team_name(names, team)),
            "players": [
                {"name": seats[seat][0], "pk": seats[seat][1], "total": own[seat]} for seat in team
            ],
            "total": total,
            "index": index,
            "mark": TEAM_MARKS[index],  # the table's shape for the team, beside its colour
        }
        for index, (team, total) in enumerate(zip(sides, team_totals(own, sides), strict=True))
    ]
