"""What every game's screen shares: what a request asks of it, buttons greyed with the
referee's reason, the round's log, and what a match is played for."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from django.utils.translation import gettext, ngettext

from referee import DominoSet, IllegalAction
from referee.actions import INSERT, Correct
from referee.rulebook import rule_text
from referee.teams import Team, team_name, team_of, team_totals, teams
from scoring import domino
from scoring.drawing import tile_svg
from scoring.games import acting, facts
from scoring.models import Match
from scoring.services import Table, new_key
from scoring.speech import all_of, say
from scoring.words import describe_log


@dataclass(frozen=True)
class Asked:
    """What a request asks of a game's table screen besides the table: every screen's
    context is ``context(table, asked)``, and each reads what it needs of this."""

    #: The screen's own choices from the query string (?tile=, ?seat=, ?match=, ?out=).
    query: Mapping[str, Any] = field(default_factory=dict)
    #: The tile tapped in the picker (a page asked for with ?tile=; None after a tap).
    tile: str | None = None
    #: The refusal (or any words) to show at the top of the turn.
    notice: Any = None
    #: The seat this phone has taken (None: nobody).
    my_seat: int | None = None
    #: The form the referee just refused: shown again as it was chosen.
    refused: Mapping[str, Any] | None = None
    #: The tap just sent, when the request was one.
    posted: Mapping[str, Any] | None = None
    #: The tap was recorded (Dump Truck's screen then moves on to the next seat).
    recorded: bool = False


class Step(NamedTuple):
    """A step of a round's replay, as a game's replay board draws it: the players, the
    round's number, the action that made the step (None at the start) and whether the
    count is still a secret (an open Muggins play)."""

    names: tuple[str, ...]
    number: int
    action: Any = None
    secret: bool = False


def basics(table: Table, notice: Any, my_seat: int | None) -> dict[str, Any]:
    """What every table screen carries: the match at the version the forms are drawn from,
    the refusal to show with its rule's text, and the seat this phone has taken."""
    return {
        "match": table.match,
        "table": table,
        "state": table.state,
        "names": table.names,
        "version": table.match.version,
        # Called by the template once per form: every form gets a key of its own.
        "key": new_key,
        "notice": notice,
        # The rulebook's text, in the phone's language (the rule texts are declared words).
        "notice_text": gettext(rule_text(notice.rule)) if isinstance(notice, IllegalAction) else "",
        "my_seat": my_seat,
        "record": record_forms(table),
        "strip": strip(table, my_seat),
        "match_won": match_won(table),
    }


def pad_context(
    table: Table, refused: Any, counts: str, value=None, on_table=None
) -> dict[str, Any]:
    """``pad.record``: a score-pad round's form (every seat's hand by its tiles or its pips,
    or played out) and whether the table may still choose how the round about to begin is
    kept (before its first entry, in a score-pad match). ``value`` is what a tile left in
    hand counts (its pips by default); ``on_table`` a tile no hand can hold (the train
    games' engine)."""
    state, match = table.state, table.match
    begun = table.played is not None and not table.played.finished and bool(table.rows)
    context: dict[str, Any] = {
        "pad": None,
        "pad_counts": counts,
        "round_number": table.number,
        "switchable": match.options.get("record") == "scores" and not table.over and not begun,
    }
    if not state.pad or state.result is not None or table.over:
        return context
    worth = value or (lambda tile: tile.pips)
    unseen = [t for t in DominoSet(state.top).tiles if t != on_table]
    rows = []
    for seat, name in enumerate(state.names):
        ticked = set(refused.getlist(f"hand-{seat}")) if refused is not None else set()
        tiles = [
            {"tile": t, "svg": tile_svg(t), "checked": str(t) in ticked, "value": worth(t)}
            for t in unseen
        ]
        rows.append(
            {
                "seat": seat,
                "name": name,
                "tiles": tiles,
                "sum": sum(item["value"] for item in tiles if item["checked"]),
                "pips": refused.get(f"pips-{seat}", "") if refused is not None else "",
                "out": refused is not None and refused.get(f"out-{seat}") == "1",
            }
        )
    context["pad"] = rows
    return context


#: team.seats: each team's shape beside its colour, so the teams are told apart without colour.
TEAM_MARKS = ("●", "◆")


def pairs(options: Mapping[str, Any], seats: int) -> tuple[Team, ...] | None:
    """The two teams of a partnership match (0+2 against 1+3); None when every seat plays
    for itself."""
    return teams(seats, options) if options.get("partnerships") else None


def team_marks(options: Mapping[str, Any], seats: int) -> list[dict[str, Any] | None]:
    """Per seat, its team's index and shape (None without partnerships): what the scoreboard
    and the round's result show beside a name."""
    sides = pairs(options, seats)
    if sides is None:
        return [None] * seats
    return [
        {"index": i, "mark": TEAM_MARKS[i]}
        for seat in range(seats)
        for i, team in enumerate(sides)
        if seat in team
    ]


def match_line(match: Match) -> dict[str, str]:
    """A match as the home page lists it: who plays (by team in partnerships), the totals,
    and who won a finished one. Reads the prefetched seats; replays nothing."""
    names = [seat.player.name for seat in match.seats.all()]
    totals = match.totals or [0] * len(names)
    sides = pairs(match.options, len(names)) or tuple((s,) for s in range(len(names)))
    won = ""
    if match.status == Match.FINISHED:
        if match.winner is None:
            won = gettext("no single winner")
        else:
            team = team_of(sides, match.winner)
            won = gettext("{team} won").format(team=say(team_name(names, team)))
    players = [say(team_name(names, team)) for team in sides]
    if len(sides[0]) > 1:  # one team against the other: "Ana & Caro v Ben & Dan"
        playing = players[0]
        for team in players[1:]:
            playing = gettext("{first} v {then}").format(first=playing, then=team)
    else:
        playing = " · ".join(players)
    return {
        "players": playing,
        "totals": " – ".join(str(t) for t in team_totals(totals, sides)),
        "won": won,
    }


def match_won(table: Table) -> str:
    """Who won the finished match, in a sentence ("Ana & Caro win the match with 107.");
    "" when nobody did (a stop with no winner, a tie shared at the top: said elsewhere)."""
    match, names = table.match, table.names
    if match.winner is None or match.status != Match.FINISHED:
        return ""
    totals = match.totals or [0] * len(names)
    sides = pairs(match.options, len(names))
    if sides is None:
        return gettext("{who} wins the match with {total}.").format(
            who=names[match.winner], total=totals[match.winner]
        )
    team = team_of(sides, match.winner)
    return gettext("{team} win the match with {total}.").format(
        team=say(team_name(names, team)), total=team_totals(totals, (team,))[0]
    )


def strip(table: Table, my_seat: int | None = None) -> list[dict[str, Any]]:
    """The score strip that stays in view while playing: each seat's total, how far it is
    to the target, and whose turn it is (a paper pad shows the totals at a glance). In
    partnerships, each team's total with its players, the one to act and this phone's
    own marked."""
    state, match = table.state, table.match
    totals = match.totals or [0] * len(table.names)
    target = match.options.get("target") or None
    to_act = None if table.over else acting(match.game, state)
    sides = pairs(match.options, len(table.names))
    if sides is not None:
        return [
            {
                "name": say(team_name(table.names, team)),
                "total": team_totals(totals, (team,))[0],
                "target": target,
                "turn": to_act in team,
                "winner": match.winner in team,
                "team": {"index": i, "mark": TEAM_MARKS[i]},
                "mine": my_seat in team,
                "players": [
                    {"name": table.names[s], "turn": s == to_act, "mine": s == my_seat}
                    for s in team
                ],
            }
            for i, team in enumerate(sides)
        ]
    return [
        {
            "name": name,
            "total": totals[seat],
            "target": target,
            "turn": seat == to_act,
            "winner": match.winner == seat,
        }
        for seat, name in enumerate(table.names)
    ]


def record_forms(table: Table) -> dict[str, Any]:
    """What the table may record about its record now (RULES.md §7): an adjustment always,
    abandoning a round under way, stopping a match that goes on; and who the totals would
    make the winner of a stopped match."""
    game = facts(table.match.game)
    under_way = table.played is not None and not table.between_rounds and not table.over
    # The totals decide, by team in partnerships (team.score).
    names, sides = table.names, teams(len(table.names), table.match.options)
    totals = team_totals(table.state.totals, sides)
    best = min(totals) if game.lowest_wins else max(totals)
    leaders = [team_name(names, team) for team, t in zip(sides, totals, strict=True) if t == best]
    if len(leaders) > 1:  # "Ana, Ben and Caro", as the referee lists names
        winner_words = gettext("{who} share the top with {total}").format(
            who=all_of(leaders), total=best
        )
    elif len(sides[0]) == 1:
        winner_words = gettext("{who} wins with {total}").format(who=say(leaders[0]), total=best)
    else:
        winner_words = gettext("{team} win with {total}").format(team=say(leaders[0]), total=best)
    return {
        "abandon": under_way and game.rounds,  # a match that is one game has no round to drop
        "stop": not table.over,
        "winner_words": winner_words,
        "open": False,
        "chosen": {},
    }


@dataclass(frozen=True)
class Button:
    """A button that is either enabled or disabled with the referee's reason."""

    label: str
    reason: IllegalAction | None

    @property
    def enabled(self) -> bool:
        return self.reason is None


LOG_SHOWN = 12  # the table shows the round's latest lines; the phone need not scroll a novel


def log_tail(lines: list[dict[str, Any]]) -> dict[str, Any]:
    shown = lines[-LOG_SHOWN:]
    return {"log": shown[::-1], "log_total": len(lines), "log_earlier": len(lines) - len(shown)}


def log(table: Table) -> list[dict[str, Any]]:
    """The round's log, one line per entry as recorded, each with what the Fix control
    needs: the round and the entry (a correction is not itself corrected, its entry is)."""
    # Between rounds the new round has no log yet; once the match is over, the last
    # round's log stays on screen.
    if table.played is None or (table.between_rounds and not table.over):
        return []
    played, state = table.played, table.played.state
    # Dominó (parejas.*): each bonus named on the entry that earned it, with its rule.
    bonuses = getattr(played, "entry_bonuses", ()) or [()] * len(played.entries)
    lines = describe_log(
        played.entries,
        table.names,
        # An entry whose points are all bonuses says them once, by the bonus's name.
        [_beside(r.points, scored) for r, scored in zip(table.rows, bonuses, strict=True)],
        played.entry_worths,
        last_play_open=state.pending is not None and state.result is None,
        family=facts(table.match.game).family,
        corrected=played.corrected(),
    )
    number = table.last_row.number if table.last_row is not None else table.number
    return [
        {
            "text": text + moved_words(row.moved, table.names),
            "bonuses": [domino.bonus_words(b, table.names) for b in bonuses[seq]],
            "round": number,
            "seq": seq,
            # A correction is fixed through the entry it fixed; an insert's action directly.
            "fixable": not isinstance(entry, Correct) or entry.change == INSERT,
        }
        for seq, (text, entry, row) in enumerate(
            zip(lines, played.entries, table.rows, strict=True)
        )
    ]


def _beside(points: Any, bonuses: Any) -> Any:
    """An entry's points as the log says them beside its bonuses: none when the bonuses
    are all it scored (``¡Capicúa! Ben y Dan +25`` says the 25 already)."""
    if bonuses and points and sum(points) == sum(b.points for b in bonuses):
        return [0] * len(points)
    return points


def moved_words(moved: list, names: tuple[str, ...] | list[str]) -> str:
    """ " · totals Ben 45 → 38": how a confirmed correction moved the totals (correct.audit)."""
    if not moved:
        return ""
    before, after = moved
    moves = [f"{n} {a} → {b}" for n, a, b in zip(names, before, after, strict=True) if a != b]
    if not moves:
        # Translators: after an entry of the log, a correction that moved no total.
        return " · " + gettext("no total moved")
    # Translators: after an entry of the log, how a correction moved the totals:
    # "totals Ben 45 → 38, Ana 12 → 19".
    return " · " + gettext("totals {moves}").format(moves=", ".join(moves))


def aim(match: Match) -> str:
    """What the match is played for, in a line."""
    options, game = match.options, facts(match.game)
    if game.lowest_wins and not game.trains:  # rounds may be 0: until the table stops
        rounds = options.get("rounds")
        if not rounds:
            return gettext("Lowest total wins, when the table stops the match.")
        return ngettext(
            # Translators: Double Domino Havoc's rounds; English says "rounds" even for one.
            "Lowest total wins, after {n} rounds.",
            "Lowest total wins, after {n} rounds.",
            rounds,
        ).format(n=rounds)
    if game.lowest_wins:  # the train games: "all" is a round for every double
        rounds = options["rounds"]
        count = options["set"] + 1 if rounds == "all" else rounds
        return ngettext(
            "Lowest total wins, after {n} round.", "Lowest total wins, after {n} rounds.", count
        ).format(n=count)
    if options.get("target"):
        return gettext("Playing to {target}.").format(target=options["target"])
    return gettext("Highest total wins.")
