"""What the train games' tables show (Mexican Train, and what Chicken Foot shares with it):
the round's engine and who holds it, the trains as rows, the turn as two taps (the tile,
then the train it goes on), draw and pass buttons greyed with the referee's reason, the
tally with 0-0 as the house rule counts it, and the score pad.

One seat acts at a time, so the screen is a banner saying what must happen now and only
the choices of the moment.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, ngettext, pgettext

from referee import Tile, Undo
from referee.actions import MEXICAN, Draw, Engine, Pass, TrainPlay
from referee.corrections import ABANDONED, STOPPED
from referee.games import engine
from referee.games.trains import mexican_train
from referee.games.trains.mexican_train import TrainState, open_doubles
from referee.tiles import DominoSet
from scoring.drawing import picker_html, tile_svg, train_svg
from scoring.screens.common import Asked, Button, Step, basics, log, log_tail, pad_context
from scoring.services import Table
from scoring.speech import all_of, say, tile_name

MOST_SHOWN = 5  # a train's newest tiles drawn in its row; the rest are counted


#: The rules the Mexican Train screen cites beside its engine, rounds and scores.
RULES = {"engine_rule": "train.engine", "rounds_rule": "train.rounds", "score_rule": "train.score"}


def train_context(table: Table, asked: Asked) -> dict[str, Any]:
    """Everything the Mexican Train table shows."""
    state: TrainState = table.state  # type: ignore[assignment]
    placed = state.placer is not None  # Mexican Train names the seat that placed the engine
    context = {
        **round_basics(table, asked, placed, RULES),
        "banner": say(mexican_train.instruction(state)),
        # A score-pad round has no trains on the table: only its tally.
        "trains": [] if state.pad else [_train_row(state, track) for track in state.tracks],
        "target_word": gettext("the train it goes on"),
        "choose_words": gettext("It fits more than one train: now tap the train it goes on."),
    }
    if context["playing"]:
        context["turn"] = _turn(state, asked.tile)
    return context


def round_basics(table: Table, asked: Asked, placed: bool, cited: dict[str, str]) -> dict[str, Any]:
    """What both train games' screens carry: the engine, who holds it, the hands, the
    tally, the score pad, the scoreboard and the last round's result. ``placed``: the
    round's double is on the table; ``cited``: the rules the game's screen cites."""
    notice, my_seat, refused = asked.notice, asked.my_seat, asked.refused
    state = table.state
    rules = engine(table.match.game)
    undo_state = table.undo_state
    finished = table.played.state if table.played is not None and table.played.finished else None
    over = table.over or state.is_over
    pad = state.pad and state.result is None and not table.over
    return {
        **basics(table, notice, my_seat),
        "engine_tile": state.engine,
        "engine_name": tile_name(state.engine),
        "engine_svg": tile_svg(state.engine),
        "rounds": state.rounds,
        "finding": _finding(rules, state, placed) if not over and not pad else None,
        "playing": not over and not pad and placed,
        "undo": Button(gettext("Undo"), rules.check(undo_state, Undo()))
        if undo_state is not None
        else None,
        "tally": _tally(state, refused) if state.is_over and state.result is None else None,
        **pad_context(
            table,
            refused,
            gettext("they count against the seat, {tile} as {value}").format(
                tile=tile_name(Tile(0, 0)), value=state.options["double_blank"]
            ),
            state.value,
            on_table=state.engine,
        ),
        "double_blank_name": tile_name(Tile(0, 0)),
        # Rounds are numbered as the log records them; an abandoned round is dealt again
        # with the same double as the next round, so the double's place may lag behind.
        "round_number": table.number,
        "agreed_number": state.number,
        "scoreboard": [
            {
                "name": n,
                "total": t,
                "winner": _won(table, s),
                "hand": None if state.pad else state.hands[s],
            }  # fmt: skip
            for s, (n, t) in enumerate(zip(state.names, state.totals, strict=True))
        ],
        **cited,
        "last_result": penalty_result(finished, state.names, table.last_row.number)
        if finished is not None and table.last_row is not None
        else None,
        "shared_win": all_of([state.names[s] for s in (finished or state).shared]),
        **log_tail(log(table)),
    }


def _won(table: Table, seat: int) -> bool:
    return table.match.winner == seat


def _finding(rules: Any, state: Any, placed: bool) -> dict[str, Any] | None:
    """Before the engine is placed: who may place it (every seat, as the table says who
    holds it) and who draws next while nobody does (``train.engine``)."""
    if placed:
        return None
    seats = range(state.seats)
    return {
        "place": [
            {"seat": s, "name": state.names[s]}
            for s in seats
            if rules.check(state, Engine(s, state.engine)) is None
        ],
        "draw": [
            {"seat": s, "name": state.names[s]}
            for s in seats
            if rules.check(state, Draw(s)) is None
        ],
    }


def train_board(state: Any, names: tuple[str, ...], number: int) -> dict[str, Any]:
    """The replay's board of a train game's step (Chicken Foot's adds its own drawing):
    the engine, the boneyard and the round's result once tallied."""
    return {
        "board": "trains",
        "engine_tile": state.engine,
        "boneyard": state.boneyard,
        "result": penalty_result(state, names, number) if state.result is not None else None,
    }


def board(state: TrainState, step: Step) -> dict[str, Any]:
    """The replay's board of a Mexican Train step: what had to happen next and the trains."""
    return {
        **train_board(state, step.names, step.number),
        "banner": say(mexican_train.instruction(state)),
        "trains": [_train_row(state, track) for track in state.tracks],
    }


def _train_row(state: TrainState, track: mexican_train.Track) -> dict[str, Any]:
    """A train as a row: its owner, the marker, its newest tiles, its open end, an open
    double, and (for a seat's train) how many tiles that seat holds."""
    owner = track.owner
    mexican = owner == MEXICAN
    name = (
        pgettext("the train open to all", "Mexican Train") if mexican else state.names[int(owner)]
    )
    double = track.open_double
    if track.tiles:
        said = [
            ngettext(
                "{n} tile, open end {end}", "{n} tiles, open end {end}", len(track.tiles)
            ).format(n=len(track.tiles), end=track.end)
        ]
    else:
        said = [gettext("not started")]
    if double is not None:
        said.append(gettext("{double} open").format(double=tile_name(double)))
    if track.marker:
        said.append(gettext("marker out"))
    train = (
        gettext("The Mexican Train")
        if mexican
        else pgettext("a train's label", "{who}'s train").format(who=state.names[int(owner)])
    )
    label = f"{train}: " + ", ".join(said)
    return {
        "key": "mexican" if mexican else str(owner),
        "name": name,
        "mexican": mexican,
        "marker": track.marker,
        "end": track.end,
        "started": bool(track.tiles),
        "double": double,
        "earlier": max(0, len(track.tiles) - MOST_SHOWN),
        "svg": train_svg(state.engine_number, track.tiles, label, MOST_SHOWN, double is not None),
        "hand": None if mexican else state.hands[int(owner)],
        "acting": not mexican and int(owner) == state.acting,
    }


def _turn(state: TrainState, chosen: str | None) -> dict[str, Any]:
    """The seat to act: the tiles not on the table (tap one, then the train it goes on;
    the trains it fits light up), and the draw and pass buttons with their reasons."""
    seat = state.acting
    assert seat is not None
    who = state.names[seat]
    seen = state.on_table()
    # A tile can go only where a train's open end shows one of its numbers: the referee is
    # asked about those alone (a double-12 picker holds up to 90 tiles, six trains each).
    ends = {track.end for track in state.tracks}
    items = []
    for t in DominoSet(state.top).tiles:
        if t in seen:
            continue
        fits = mexican_train.fits(state, t) if t.high in ends or t.low in ends else ()
        items.append(
            {
                "tile": t,
                "svg": tile_svg(t),
                "why": None if fits else _why_not(state, seat, t),
                "fits": " ".join(_key(train) for train in fits),
                "gains": "",
            }
        )
    return {
        "seat": seat,
        "who": who,
        "picker": picker_html(items, chosen),
        # Said when a tapped tile fits no train's open end at all (the referee's reason is
        # said where the rules rather than the numbers forbid it).
        "nofit": gettext("This tile fits no train: their open ends show {numbers}.").format(
            numbers=all_of([str(n) for n in sorted(ends, reverse=True)])
        ),
        "nofit_rule": "train.trains",
        "targets": [
            {"key": _key(track.owner), "name": _target_name(state, track)} for track in state.tracks
        ],
        "buttons": [
            (
                Button(
                    gettext("No play: {who} draws").format(who=who),
                    mexican_train.check(state, Draw(seat)),
                ),
                "draw",
            ),
            (Button(_pass_words(state, who), mexican_train.check(state, Pass(seat))), "pass"),
        ],
    }


def _why_not(state: TrainState, seat: int, tile: Tile) -> Any:
    """The referee's reason ``tile`` goes nowhere where the rules rather than its numbers
    forbid it: an open double to cover first (train.double), a train without its marker
    (train.marker), a first turn on the seat's own train (train.turn). None where it matches
    no open end: the screen says so in one sentence for every such tile."""
    if state.covering:
        return mexican_train.check(state, TrainPlay(seat, tile, open_doubles(state)[0][1]))
    for track in state.tracks:
        if tile.has(track.end):
            reason = mexican_train.check(state, TrainPlay(seat, tile, track.owner))
            if reason is not None:
                return reason
    return None


def _pass_words(state: TrainState, who: str) -> str:
    """A pass puts out the seat's marker, unless it ends a first turn of many tiles."""
    if state.many and state.laid and not state.owed:
        return gettext("{who} ends the turn").format(who=who)
    return gettext("{who} passes, marker out").format(who=who)


def _key(train: Any) -> str:
    return "mexican" if train == MEXICAN else str(train)


def _target_name(state: TrainState, track: mexican_train.Track) -> str:
    if track.owner == MEXICAN:
        if track.tiles:
            return gettext("the Mexican Train · {end}").format(end=track.end)
        return gettext("the Mexican Train (start it)")
    return gettext("{who}'s · {end}").format(who=state.names[int(track.owner)], end=track.end)


# -- the round's end and the score pad (both train games) -------------------------------------


def _tally(state: Any, refused: Any) -> list[dict[str, Any]]:
    """Each hand still holding tiles, to declare by its tiles or its pips; the pips count
    against the seat, 0-0 as ``double_blank`` says. A refused tally comes back as ticked."""
    rows = []
    unseen = list(state.unseen())
    for seat, name in enumerate(state.names):
        if not state.hands[seat]:
            continue
        rows.append(_tally_row(state, seat, name, unseen, refused, state.hands[seat]))
    return rows


def _tally_row(
    state: Any, seat: int, name: str, unseen: list[Tile], refused: Any, count: int | None
) -> dict[str, Any]:
    ticked = set(refused.getlist(f"hand-{seat}")) if refused is not None else set()
    tiles = [
        {"tile": t, "svg": tile_svg(t), "checked": str(t) in ticked, "value": state.value(t)}
        for t in unseen
    ]
    return {
        "seat": seat,
        "name": name,
        "count": count,
        "tiles": tiles,
        "sum": sum(item["value"] for item in tiles if item["checked"]),
        "pips": refused.get(f"pips-{seat}", "") if refused is not None else "",
    }


def penalty_result(state: Any, names: tuple[str, ...], number: int) -> dict[str, Any]:
    """Round ``number``, just tallied: who played out (or held fewest), each seat's pips and
    the running totals (lowest wins)."""
    result = state.result
    assert result is not None
    return {
        "number": number,
        "abandoned": result.reason == ABANDONED,
        "stopped": result.reason == STOPPED,
        "reason": result.reason,
        "winner": names[result.winner] if result.winner is not None else None,
        "rows": [
            {"name": n, "pips": result.points[s], "total": state.totals[s]}
            for s, n in enumerate(names)
        ],
        "engine": state.engine,
    }


def holds(state: Any, seat: int) -> str:
    """What a seat holds, as the replay's scoreboard says it (both train games)."""
    return gettext("{n} in hand").format(n=state.hands[seat])
