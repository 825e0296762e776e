"""The record book: player pages, leaderboards, the score sheet as CSV and as a chart.

Everything here reads what recording already stored (each match's status and winner, each
round's result, each action's points) and never replays a match: a record book spans every
match a player sat in, and replaying them all on each visit would grow without bound.
"""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.db.models import Count, F, Q, QuerySet
from django.utils.formats import get_format
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, ngettext, pgettext

from referee import PRESETS, parse_action
from referee.actions import MAX_SEATS
from referee.corrections import as_played
from referee.teams import Team, team_name, team_of, teams
from referee.tiles import Tile
from scoring import domino
from scoring.games import lowest_wins_games
from scoring.models import Action, Match, Player, Round, Seat
from scoring.screens.summary import summary_context
from scoring.speech import say, tile_name
from scoring.words import standing

RECENT = 20  # matches listed on a player's page; the counts above them cover every match

# A seat's match won: only a finished match has a winner to count. In partnerships the winner
# is the winning team's first seat (0 or 1), so the partner opposite (2 or 3) won it too
# (RULES.md team.seats). A win shared at the top (a stop on level totals, Dominards' last
# card) is a win for each who shares it, as the table told them ("Ana and Ben share the
# win"): the match's shared seats, each between commas.
PARTNERSHIPS = Q(match__options__partnerships=True)


def _sharing(seat: str = "number") -> Q:
    """The seat in ``seat`` shares its match's win."""
    return Q(
        *[Q(**{seat: n, "match__shared__contains": f",{n},"}) for n in range(MAX_SEATS)],
        _connector=Q.OR,
    )


WON = Q(match__status=Match.FINISHED) & (
    Q(match__winner=F("number")) | PARTNERSHIPS & Q(match__winner=F("number") - 2) | _sharing()
)

# The games whose plays can score during a round: the count games by the count, Dominards by
# its dice and cards. Only their logs hold a best play or a Muggins call.
PLAYS_SCORE = tuple(slug for slug, p in PRESETS.items() if p.scoring != "block")

# Double Domino Havoc and the train games count what is left against its holder: lowest wins.
PENALTY_GAMES = lowest_wins_games()


# -- player pages -----------------------------------------------------------------------


def player_context(player: Player, joined: list[int]) -> dict[str, Any]:
    """A player's record; ``joined`` are the matches this phone has a link to, the only
    ones the page links (a match is private to the phones at its table)."""
    plays, made, suffered = _plays_and_calls(player)
    scoring = [play for play in plays if play.points > 0]
    best = max(scoring, key=lambda play: play.points, default=None)  # the first of equals
    games = _games(player)
    return {
        "player": player,
        "games": games,
        "muggins": {"made": made, "suffered": suffered}
        if made or suffered or any(g["muggins"] for g in games)
        else None,
        "best": _best_words(best, set(joined)) if best is not None else None,
        "recent": _recent(player, set(joined)),
        "domino_records": _player_domino_records(player, games),
    }


# -- Dominó's records (parejas.records) ---------------------------------------------------


def domino_records(
    games: Iterable[str], seats: Q | None = None
) -> dict[str, dict[int, dict[str, Any]]]:
    """Per Dominó style, per player: the records of their finished matches (a player's name
    with a count of each kind), read in one query from each round's stored counts and added
    up by the referee (``domino.match_records``: a pollona is the match's, not a round's).
    ``seats`` narrows the seats counted (a player; the players a phone may see)."""
    rows = (
        Round.objects.filter(match__status=Match.FINISHED, match__game__in=list(games))
        .filter(seats if seats is not None else Q())
        .exclude(records=[])
        .values_list(
            "pk",
            "match_id",
            "match__game",
            "match__totals",
            "match__winner",
            "records",
            "match__seats__number",
            "match__seats__player_id",
            "match__seats__player__name",
        )  # fmt: skip
        .order_by()
    )
    matches: dict[int, dict[str, Any]] = {}
    for pk, match, game, totals, winner, counted, number, player, name in rows:
        seen = matches.setdefault(
            match, {"game": game, "totals": totals, "winner": winner, "hands": {}, "seats": {}}
        )
        seen["hands"][pk] = counted
        seen["seats"][number] = (player, name)
    out: dict[str, dict[int, dict[str, Any]]] = defaultdict(dict)
    for seen in matches.values():
        by_seat = domino.match_records(seen["hands"].values(), seen["totals"], seen["winner"])
        for number, (player, name) in seen["seats"].items():
            mine = out[seen["game"]].setdefault(
                player, {"pk": player, "name": name, **dict.fromkeys(domino.RECORDS, 0)}
            )
            for key in domino.RECORDS:
                mine[key] += by_seat[number][key]
    return out


def _player_domino_records(
    player: Player, games: list[dict[str, Any]]
) -> list[dict[str, Any]] | None:
    """A player's Dominó records over every style, a row per kind; None if they finished no
    Dominó match (``games``, their record by game, says so without a query)."""
    finished = [g["slug"] for g in games if domino.is_domino(g["slug"]) and g["played"]]
    if not finished:
        return None
    by_game = domino_records(finished, Q(match__seats__player=player))
    if not by_game:
        return None
    return [
        {"name": name, "count": sum(game[player.pk][key] for game in by_game.values())}
        for key, name in domino.RECORD_NAMES.items()
    ]


def _games(player: Player) -> list[dict[str, Any]]:
    """Per game the player sat in: matches played (finished), won, in progress, and the
    average a round."""
    counts = {
        row["match__game"]: row
        for row in Seat.objects.filter(player=player)
        .values("match__game")
        .annotate(
            played=Count("pk", filter=Q(match__status=Match.FINISHED)),
            won=Count("pk", filter=WON),
            playing=Count("pk", filter=Q(match__status=Match.PLAYING)),
            muggins=Count("pk", filter=Q(match__options__muggins=True)),
        )
        .order_by()  # the models' orderings would split the groups
    }
    scored = _round_points(player)
    return [
        {
            "slug": slug,
            "title": gettext(game.title),
            "played": counts[slug]["played"],
            "won": counts[slug]["won"],
            "playing": counts[slug]["playing"],
            "muggins": counts[slug]["muggins"],
            "average": _average(*scored[slug]) if slug in scored else None,
            "unit": pgettext("per round", "penalty points")
            if slug in PENALTY_GAMES
            else pgettext("per round", "points"),
        }
        for slug, game in PRESETS.items()
        if slug in counts
    ]


def _round_points(player: Player) -> dict[str, tuple[int, int]]:
    """Per game: the points the player scored in finished rounds, and how many such rounds
    they sat in (a round scores in its result, whatever the game)."""
    scored: dict[str, tuple[int, int]] = defaultdict(lambda: (0, 0))
    rows = (
        Round.objects.filter(match__seats__player=player, result__isnull=False)
        # A round the table stopped or abandoned was not played out (correct.abandon).
        .exclude(result__reason__in=("stopped", "abandoned"))
        .values_list("match__game", "match__seats__number", "result__points")
        .order_by()
    )
    for game, seat, points in rows:
        total, rounds = scored[game]
        scored[game] = (total + (points or {}).get(str(seat), 0), rounds + 1)
    return scored


def _average(points: int, rounds: int) -> str:
    """``8.3``, with the decimal mark of the phone's language (``8,3``)."""
    return f"{points / rounds:.1f}".replace(".", get_format("DECIMAL_SEPARATOR"))


@dataclass
class _Play:
    """A tile played, and what it finally earned its player: the play's own points, or in
    muggins mode its declaration, less what a challenge took back."""

    match: int
    game: str
    seat: int
    tile: str
    points: int


# The kinds that credit a play or call one out (fives.muggins): the rest of a log is not read.
PLAY_KINDS = ("play", "declare", "challenge", "muggins")


def _plays_and_calls(player: Player) -> tuple[list[_Play], int, int]:
    """The player's scoring plays, the Muggins calls they made, and those made on their
    plays. A call is on the last tile placed before it (the window closes at the next tile),
    so the log's order says whose play it took points from."""
    theirs = Q(round__match__seats__player=player, round__match__game__in=PLAYS_SCORE)
    rows = (
        Action.objects.filter(theirs, kind__in=PLAY_KINDS)
        .values_list(
            "round_id",
            "seq",
            "kind",
            "payload",
            "points",
            "round__match_id",
            "round__match__game",
            "round__match__seats__number",
        )
        .order_by("round_id", "seq")
    )
    undone = _undone(
        Round.objects.filter(
            match__seats__player=player, match__game__in=PLAYS_SCORE, actions__kind="undo"
        )
    )
    # A round the table corrected is read as it was really played (correct.replay): rare,
    # so only those rounds' logs are read whole.
    corrected = set(
        Action.objects.filter(theirs, kind="correct").values_list("round_id", flat=True)
    )
    if corrected:
        rows = sorted(
            [row for row in rows if row[0] not in corrected] + _as_played(corrected, player),
            key=lambda row: (row[0], row[1]),
        )
    plays: list[_Play] = []
    made = suffered = 0
    last: _Play | None = None
    current = None
    for round_id, seq, kind, payload, points, match, game, mine in rows:
        if round_id not in corrected and (round_id, seq) in undone:
            continue
        if round_id != current:
            current, last = round_id, None
        if kind == "play":
            last = _Play(match, game, payload["seat"], payload["tile"], _credit(points, mine))
            if last.seat == mine:
                plays.append(last)
        elif kind == "muggins":
            if payload["seat"] == mine:
                made += 1
            if last is not None and last.seat == mine:
                suffered += 1
        elif last is not None and last.seat == mine:  # a declaration or a challenge
            last.points += _credit(points, mine)
    return plays, made, suffered


def _as_played(rounds: set[int], player: Player) -> list[tuple]:
    """The rows of corrected rounds as really played, in the shape ``_plays_and_calls``
    reads: the corrections applied, what an undo took back left out, each action with the
    points its log entry counts for."""
    log = (
        Action.objects.filter(round_id__in=rounds, round__match__seats__player=player)
        .values_list("round_id", "seq", "kind", "payload", "points", "round__match_id",
                     "round__match__game", "round__match__seats__number")
        .order_by("round_id", "seq")
    )  # fmt: skip
    by_round: dict[int, list[tuple]] = defaultdict(list)
    for row in log:
        by_round[row[0]].append(row)
    out = []
    for round_id, entries in by_round.items():
        family = PRESETS[entries[0][6]].family
        actions, origins = as_played([parse_action(e[3], family) for e in entries])
        for n in standing(actions):
            action, entry = actions[n], entries[origins[n]]
            if action.kind in PLAY_KINDS:
                out.append((round_id, n, action.kind, action.to_dict(), entry[4], *entry[5:]))
    return out


def _credit(points: list[int], seat: int) -> int:
    return points[seat] if points else 0


def _undone(rounds: QuerySet[Round]) -> set[tuple[int, int]]:
    """(round, seq) of every action an undo took back. The log keeps both (the undo carries
    the negated points), so neither may count. An undo takes back the last action still
    standing in its round; most rounds have none, hence only these rounds' logs are read."""
    log = (
        Action.objects.filter(round__in=rounds.values("pk"))
        .values_list("round_id", "seq", "kind")
        .order_by("round_id", "seq")
    )
    undone: set[tuple[int, int]] = set()
    standing: list[tuple[int, int]] = []
    for round_id, seq, kind in log:
        if standing and standing[-1][0] != round_id:
            standing = []
        if kind != "undo":
            standing.append((round_id, seq))
        elif standing:
            undone.add(standing.pop())
    return undone


def _best_words(best: _Play, joined: set[int]) -> dict[str, Any]:
    return {
        "tile": tile_name(Tile.parse(best.tile)),
        "points": best.points,
        "game": gettext(PRESETS[best.game].title),
        "match": best.match,
        "linked": best.match in joined,
    }


def _recent(player: Player, joined: set[int]) -> list[dict[str, Any]]:
    """The player's latest matches among those this phone has a link to: who played, when
    and how it ended belong to the table (a stranger's phone sees the counts only)."""
    seats = (
        Seat.objects.filter(player=player, match__in=joined)
        .select_related("match")
        .prefetch_related("match__seats__player")
        .order_by("-match__updated_at", "-match__pk")[:RECENT]
    )
    recent = []
    for seat in seats:
        match, side = seat.match, _side(seat.match, seat.number)
        names = {s.number: s.player.name for s in match.seats.all()}
        recent.append(
            {
                "pk": match.pk,
                "title": match.get_game_display(),
                "date": match.updated_at,
                "outcome": _outcome(match, seat.number),
                # In partnerships the team's total: the one the match was decided on.
                "total": sum(match.totals[n] for n in side) if match.totals else 0,
                "partners": [names[n] for n in side if n != seat.number],
                "others": [name for n, name in sorted(names.items()) if n not in side],
            }
        )
    return recent


def _side(match: Match, seat: int) -> Team:
    """The seats that win or lose with ``seat``: its team in partnerships, else itself."""
    return team_of(teams(max(len(match.totals), seat + 1), match.options), seat)


def _outcome(match: Match, seat: int) -> str:
    if match.status == Match.PLAYING:
        return pgettext("match outcome", "in progress")
    if f",{seat}," in match.shared:
        return pgettext("match outcome", "won, shared")  # a tie at the top: a win for each
    if match.winner is None and not match.shared:
        return pgettext("match outcome", "nobody won")  # the table abandoned it
    if match.winner is not None and match.winner in _side(match, seat):
        return pgettext("match outcome", "won")
    return pgettext("match outcome", "lost")


# -- leaderboards -----------------------------------------------------------------------


def players_of(matches: Iterable[int]) -> QuerySet[Player]:
    """The players who sat in ``matches``: whose records a phone holding links to those
    matches may see (issue 28: a stranger read every player's name)."""
    return Player.objects.filter(pk__in=Seat.objects.filter(match__in=matches).values("player"))


def leaderboard_context(game: str | None, known: Iterable[int] | None = None) -> dict[str, Any]:
    """Every game that has a match, or ``game`` alone: its players by matches won, then win
    rate, then matches played, and the same for the pairs who played partnership matches
    together. Only finished matches count. With ``known`` (matches), only the players who
    sat in them are listed, with their whole record."""
    seen = players_of(known) if known is not None else None
    games = _games_with_matches(seen)
    shown = [game] if game is not None else games
    rows = (
        Seat.objects.filter(match__status=Match.FINISHED, match__game__in=shown)
        .filter(**({"player__in": seen} if seen is not None else {}))
        .values("match__game", "player_id", "player__name")
        .annotate(played=Count("pk"), won=Count("pk", filter=WON))
        .order_by()  # the models' orderings would split the groups
    )
    by_game: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        by_game[row["match__game"]].append(
            {
                "pk": row["player_id"],
                "name": row["player__name"],
                "won": row["won"],
                "played": row["played"],
            }
        )
    pairs = _pairs(shown, seen)
    playing = [slug for slug in shown if domino.is_domino(slug)]
    counted = (
        domino_records(playing, Q(match__seats__player__in=seen) if seen is not None else None)
        if playing
        else {}
    )
    return {
        "private": known is not None,
        "game": PRESETS[game] if game is not None else None,
        "games": [PRESETS[slug] for slug in games],
        "sections": [
            {
                "slug": slug,
                "title": gettext(PRESETS[slug].title),
                "players": _ranked(by_game[slug]),
                "pairs": _ranked(pairs[slug]),
                "records": _leaderboard_records(counted.get(slug)),
            }
            for slug in shown
        ],
    }


def _leaderboard_records(players: dict[int, dict[str, Any]] | None) -> dict[str, Any] | None:
    """A Dominó style's records on the leaderboard: a column per kind, a row per player who
    made or suffered any, most capicúas first."""
    if not players:
        return None
    keys = domino.RECORDS
    rows = sorted(
        (p for p in players.values() if any(p[k] for k in keys)),
        key=lambda p: (tuple(-p[k] for k in keys), p["name"].casefold()),
    )
    return {
        "names": list(domino.RECORD_NAMES.values()),
        "players": [{**p, "counts": [p[k] for k in keys]} for p in rows],
    }


def _pairs(games: list[str], seen: QuerySet[Player] | None) -> dict[str, list[dict[str, Any]]]:
    """Per game, the pairs who played finished partnership matches together: one query, a
    row per team's first seat (0 or 1) joined to its partner opposite (2 or 3), grouped by
    the two players. A pair is the same whichever seats it took, and is named by its players
    in alphabetical order ("Ana & Caro")."""
    rows = (
        Seat.objects.filter(
            PARTNERSHIPS,
            match__status=Match.FINISHED,
            match__game__in=games,
            number__lt=2,
            match__seats__number=F("number") + 2,  # the partner's seat, joined once
            # In the same filter() as the partner's seat: a second filter() on a many-valued
            # relation joins it again, and every seat of the match became a "partner".
            **({"player__in": seen, "match__seats__player__in": seen} if seen is not None else {}),
        )
        .values(
            "match__game",
            "player_id",
            "player__name",
            "match__seats__player_id",
            "match__seats__player__name",
        )
        .annotate(
            played=Count("pk"), won=Count("pk", filter=Q(match__winner=F("number")) | _sharing())
        )
        .order_by()  # the models' orderings would split the groups
    )
    merged: dict[tuple[str, frozenset[int]], dict[str, Any]] = {}
    for row in rows:
        players = sorted(
            [
                {"pk": row["player_id"], "name": row["player__name"]},
                {"pk": row["match__seats__player_id"], "name": row["match__seats__player__name"]},
            ],
            key=lambda p: (p["name"].casefold(), p["pk"]),
        )
        key = (row["match__game"], frozenset(p["pk"] for p in players))
        pair = merged.setdefault(
            key,
            {
                "players": players,
                "name": team_name([p["name"] for p in players], (0, 1)),
                "won": 0,
                "played": 0,
            },
        )
        pair["won"] += row["won"]
        pair["played"] += row["played"]
    by_game: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for (game, _), pair in merged.items():
        by_game[game].append(pair)
    return by_game


def _games_with_matches(seen: QuerySet[Player] | None) -> list[str]:
    """The games that have at least one match (of ``seen`` players), in the rulebook's
    order."""
    matches = Match.objects.order_by()
    if seen is not None:
        matches = matches.filter(seats__player__in=seen)
    played = set(matches.values_list("game", flat=True).distinct())
    return [slug for slug in PRESETS if slug in played]


def _ranked(rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Players (or pairs) in order, numbered; equals share a number (1, 2, 2, 4). Each row
    has a name, matches won and played, and whatever else it had."""

    def standing(row: dict[str, Any]) -> tuple[int, Fraction, int]:
        return row["won"], Fraction(row["won"], row["played"]), row["played"]

    ordered = sorted(rows, key=lambda r: (tuple(-x for x in standing(r)), r["name"].casefold()))
    ranked: list[dict[str, Any]] = []
    for place, row in enumerate(ordered, start=1):
        tied = ranked and standing(ordered[place - 2]) == standing(row)
        ranked.append(
            {
                **row,
                "rank": ranked[-1]["rank"] if tied else place,
                "rate": f"{round(100 * row['won'] / row['played'])}%",
            }
        )
    return ranked


# -- the score sheet as CSV -------------------------------------------------------------

# A cell starting with one of these is run as a formula by spreadsheets (CSV injection);
# player names are typed by anyone at the table.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def score_sheet_csv(match: Match) -> str:
    """The score sheet: a row per round (a round in progress too), each player's points,
    then each player's running total, and a Total row. In partnerships each team's points
    and running total come first, headed by the team's name, and the winners are the team;
    each player's own columns follow (a seat keeps its own score)."""
    sheet = summary_context(match)
    names, sides = sheet["names"], sheet["teams"] or []
    out = io.StringIO()
    writer = csv.writer(out)
    # The headers in the phone's language: the sheet is downloaded by a request.
    header = [gettext("Round"), gettext("Winner"), gettext("Reason")]
    columns = [say(t["name"]) for t in sides] + list(names)
    points = [gettext("{name} points").format(name=name) for name in columns]
    total = [gettext("{name} total").format(name=name) for name in columns]
    # The teams' columns first, then the players': points then running total in each.
    header += (
        points[: len(sides)] + total[: len(sides)] + points[len(sides) :] + total[len(sides) :]
    )
    writer.writerow(_text(cell) for cell in [*header, gettext("Corrections and adjustments")])
    # Each round's notes found once: looking through every note for every round made a
    # long match's sheet cost seconds (issue 28).
    noted: dict[int, list[str]] = defaultdict(list)
    for note in sheet["notes"]:
        noted[note["number"]].append(say(note["said"]))
    for r in sheet["rounds"]:
        said = [r["number"], _text(r["winner"]), _text(r["reason"])]
        if sides:
            said += [t["points"] for t in r["teams"]] + [t["running"] for t in r["teams"]]
        notes = "; ".join(noted[r["number"]])
        writer.writerow(said + r["points"] + r["running"] + [_text(notes)])
    ending = [
        _text(sheet["winner"] or sheet["shared"]),
        _text(str(match.get_status_display()).lower()),
    ]
    team_totals = [t["total"] for t in sides]
    totals = [*team_totals, *team_totals, *sheet["totals"], *sheet["totals"]]
    writer.writerow([gettext("Total"), *ending, *totals, ""])
    return out.getvalue()


def _text(cell: str) -> str:
    """A text cell a spreadsheet shows as text. Numbers are written as numbers and never
    pass here: a negative score must stay a number."""
    return "'" + cell if cell.startswith(FORMULA_STARTS) else cell


# -- the score sheet as a chart ---------------------------------------------------------


def score_chart_svg(match: Match) -> str:
    """The running totals of a match by round as an SVG line chart; "" before the first
    round is finished."""
    sheet = summary_context(match, most_notes=0)
    return score_chart(sheet["names"], sheet["rounds"])


# The drawing's units; the viewBox scales it to the screen (a phone is 390 px wide).
WIDTH, LEFT, RIGHT, TOP, PLOT = 360, 40, 14, 10, 160
LEGEND_ROW = 20
# Each player's line differs by its marker and its dash as well as its colour (the colours
# come from boneyard.css, which knows the light and dark themes), so that no reader depends
# on telling colours apart. Marker paths are relative to the point they mark.
MARKERS = (
    "m-3.5 0a3.5 3.5 0 1 0 7 0a3.5 3.5 0 1 0-7 0z",  # circle
    "m-3.2-3.2h6.4v6.4h-6.4z",  # square
    "m0-4.4l4 7h-8z",  # triangle
    "m0-4.6l4.6 4.6-4.6 4.6-4.6-4.6z",  # diamond
    "m0 4.4l4-7h-8z",  # triangle pointing down
    "m-3.5-3.5l7 7m0-7l-7 7",  # cross
    "m-4.5 0h9m-4.5-4.5v9",  # plus
    "m-4.5-1.5h9v3h-9z",  # bar
)
DASHES = ("", "7 3", "2 3", "9 3 2 3")


def score_chart(names: Sequence[str], rounds: Sequence[dict[str, Any]]) -> str:
    """The chart of the score sheet's finished ``rounds`` (``summary_context``'s rows):
    x is the round, 0 to n, y each player's running total; in partnerships a line per team,
    named by its players (the rows carry the teams)."""
    finished = [r for r in rounds if r["finished"]]
    if not finished:
        return ""
    if finished[0].get("teams"):
        names = [team["name"] for team in finished[0]["teams"]]
        series = [[0, *(r["teams"][n]["running"] for r in finished)] for n in range(len(names))]
    else:
        series = [[0, *(r["running"][seat] for r in finished)] for seat in range(len(names))]
    everything = [v for line in series for v in line]
    levels = _ticks(min(everything), max(everything), most=5)
    last = len(finished)
    low, high = levels[0], levels[-1]

    def x(n: int) -> float:
        return LEFT + (WIDTH - LEFT - RIGHT) * n / last

    def y(value: int) -> float:
        return TOP + PLOT * (high - value) / (high - low)

    summary = ", ".join(f"{name} {line[-1]}" for name, line in zip(names, series, strict=True))
    label = escape(
        ngettext(
            "Scores by round: {scores} after {n} round",
            "Scores by round: {scores} after {n} rounds",
            last,
        ).format(scores=summary, n=last)
    )
    legend_top = TOP + PLOT + 46
    height = legend_top + LEGEND_ROW * len(names)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="score-chart" viewBox="0 0 {WIDTH} '
        f'{height}" role="img" aria-label="{label}" font-size="12">',
        f"<title>{label}</title>",
        *_axes(levels, [n for n in _ticks(0, last, most=8) if n <= last], x, y),
    ]
    for seat, line in enumerate(series):
        points = " ".join(f"{x(n):.1f},{y(v):.1f}" for n, v in enumerate(line))
        marks = "".join(_mark(seat, x(n), y(v)) for n, v in enumerate(line) if n)
        parts.append(
            f'<g class="series s{seat % len(MARKERS)}"><polyline points="{points}" fill="none" '
            f'stroke="currentColor" stroke-width="2" stroke-linejoin="round"{_dash(seat)}/>'
            f'<path d="{marks}" fill="currentColor" stroke="currentColor" stroke-width="1.2"/>'
            "</g>"
        )
    parts += _legend(names, series, legend_top)
    parts.append("</svg>")
    return mark_safe("".join(parts))  # every name in it went through escape()


def _axes(levels: list[int], rounds: list[int], x, y) -> Iterator[str]:
    """Grid lines at the score levels, the two axes, and their numbers."""
    bottom, right = y(levels[0]), WIDTH - RIGHT
    yield '<g class="grid" stroke="currentColor" stroke-opacity="0.2">'
    for level in levels[1:]:
        yield f'<line x1="{LEFT}" x2="{right:.1f}" y1="{y(level):.1f}" y2="{y(level):.1f}"/>'
    yield "</g>"
    yield (
        f'<g class="axis" stroke="currentColor"><line x1="{LEFT}" x2="{right:.1f}" '
        f'y1="{bottom:.1f}" y2="{bottom:.1f}"/><line x1="{LEFT}" x2="{LEFT}" y1="{TOP}" '
        f'y2="{bottom:.1f}"/></g>'
    )
    yield '<g class="ticks" fill="currentColor">'
    for level in levels:
        yield f'<text x="{LEFT - 5}" y="{y(level) + 4:.1f}" text-anchor="end">{level}</text>'
    for n in rounds:
        yield f'<text x="{x(n):.1f}" y="{bottom + 16:.1f}" text-anchor="middle">{n}</text>'
    middle = (LEFT + right) / 2
    axis = escape(gettext("Round"))
    yield f'<text x="{middle:.1f}" y="{bottom + 32:.1f}" text-anchor="middle">{axis}</text>'
    yield "</g>"


def _legend(names: Sequence[str], series: list[list[int]], top: int) -> Iterator[str]:
    for seat, (name, line) in enumerate(zip(names, series, strict=True)):
        middle = top + LEGEND_ROW * seat + LEGEND_ROW / 2
        yield (
            f'<g class="series s{seat % len(MARKERS)}"><line x1="8" x2="38" y1="{middle}" '
            f'y2="{middle}" stroke="currentColor" stroke-width="2"{_dash(seat)}/>'
            f'<path d="{_mark(seat, 23, middle)}" fill="currentColor" stroke="currentColor" '
            'stroke-width="1.2"/></g>'
            f'<text class="legend" x="46" y="{middle + 4}" fill="currentColor">'
            f"{escape(name)}: {line[-1]}</text>"
        )


def _mark(seat: int, x: float, y: float) -> str:
    return f"M{x:.1f} {y:.1f}{MARKERS[seat % len(MARKERS)]}"


def _dash(seat: int) -> str:
    dash = DASHES[seat % len(DASHES)]
    return f' stroke-dasharray="{dash}"' if dash else ""


def _ticks(low: int, high: int, most: int) -> list[int]:
    """Round numbers from ``low`` or below to ``high`` or above, a step of 1, 2 or 5 times a
    power of ten apart, at most ``most`` steps."""
    for step in _steps():
        first, last = low // step * step, -(-high // step) * step
        if (last - first) // step <= most:
            return list(range(first, max(last, first + step) + 1, step))
    raise AssertionError("unreachable: the steps grow without end")


def _steps() -> Iterator[int]:
    power = 1
    while True:
        yield from (power, 2 * power, 5 * power)
        power *= 10
