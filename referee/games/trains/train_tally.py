"""The end of a round of Mexican Train: the hands declared (by tiles or pips), checked
against what the table saw, and the score pad's tally (``pad.record``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.actions import (
    Tally,
)  # fmt: skip
from referee.errors import IllegalAction
from referee.games.trains.rounds import pad_result
from referee.games.trains.train_state import _IN_THE_HUB, TrainState
from referee.round.refusals import check_seat
from referee.round.result import BLOCKED, DOMINO, RoundResult
from referee.round.tally import declared_twice, lowest, not_in_set, say_what, wrong_count
from referee.said import Said, counted, listed, phrase
from referee.said import tiles as tile_count
from referee.tiles import DominoSet, Tile

# -- the tally ---------------------------------------------------------------------------------


def _declared(state: TrainState, action: Tally) -> dict[int, Any]:
    """Each seat's tiles (a tuple) or pip total (an int), either way for each seat."""
    declared = action.declared
    for seat in declared:
        check_seat(state.seats, seat)
    # A seat that played out has nothing to declare; in a score pad every seat says,
    # since the pad is what tells who played out.
    missing = [
        state.names[s]
        for s in range(state.seats)
        if s not in declared and (state.pad or state.hands[s])
    ]
    if missing:
        raise IllegalAction("tally.hands", _say_what(missing, state.pad))
    return {seat: declared.get(seat, ()) for seat in range(state.seats)}


def _say_what(missing: Sequence[str], pad: bool) -> Said:
    """``tally.hands``: the seats that have not said what they hold (in a score pad, a seat
    that played out says so too); the verb agrees with how many they are."""
    who = listed(missing)
    if pad:
        return counted(
            "Say what {who} still holds (nothing, for a seat that played out).",
            "Say what {who} still hold (nothing, for a seat that played out).",
            len(missing),
            who=who,
        )
    return say_what(missing)


def _check_hand_tiles(state: TrainState, hands: Mapping[int, tuple[Tile, ...]]) -> None:
    """Every declared tile is in the set, in one hand only, and not on the table."""
    where: dict[Tile, int] = {}
    table = state.on_table()
    if state.pad:
        table = {state.engine: _IN_THE_HUB}
    for seat, tiles in sorted(hands.items()):
        who = state.names[seat]
        for tile in tiles:
            if tile not in DominoSet(state.top):
                raise IllegalAction("set.tiles", not_in_set(tile, state.top))
            if tile in table:
                raise IllegalAction(
                    "set.unique",
                    Said(
                        "{tile} is {where}, not in {who}'s hand.",
                        tile=tile,
                        where=table[tile],
                        who=who,
                    ),
                )
            if tile in where:
                other = state.names[where[tile]]
                if other == who:
                    twice = declared_twice(tile, who)
                else:
                    twice = Said(
                        "{tile} is declared in {other}'s and {who}'s hands; each tile exists once.",
                        tile=tile,
                        other=other,
                        who=who,
                    )
                raise IllegalAction("set.unique", twice)
            where[tile] = seat


def _check_tally(state: TrainState, action: Tally) -> RoundResult:
    if state.pad:
        return _tally_pad(state, action)
    if state.ended is None:
        raise IllegalAction(
            "train.end",
            Said(
                "The round is still on: it ends when a seat plays its last tile, or when the "
                "boneyard is empty and every seat has passed in a row."
            ),
        )
    declared = _declared(state, action)
    hands = {seat: held for seat, held in declared.items() if isinstance(held, tuple)}
    for seat, tiles in hands.items():
        if len(tiles) != state.hands[seat]:
            raise IllegalAction(
                "tally.hands", wrong_count(state.names[seat], state.hands[seat], len(tiles))
            )
    _check_hand_tiles(state, hands)
    if len(hands) < state.seats:
        # A total is possible when it lies between the held count of cheapest and of
        # dearest tiles off the table (info.public: as far as the record can tell).
        for seat, total in declared.items():
            if isinstance(total, tuple):
                continue
            held = state.hands[seat]
            least, most = state.pip_range(held)
            if least <= total <= most:
                continue
            # One refusal: the bound the total passed, named as its template names it.
            if total > most:
                template, bound = (
                    phrase(
                        "{who} holds {held}: at most {most} pips with the tiles off the table, "
                        "not {total}."
                    ),
                    {"most": most},
                )
            else:
                template, bound = (
                    phrase(
                        "{who} holds {held}: at least {least} pips with the tiles off the "
                        "table, not {total}."
                    ),
                    {"least": least},
                )
            said = Said(
                template, who=state.names[seat], held=tile_count(held), total=total, **bound
            )
            raise IllegalAction("tally.hands", said)
    pips = tuple(state.pips_of(declared[s]) for s in range(state.seats))
    if state.ended == DOMINO:
        return RoundResult(state.out, DOMINO, pips, pips)
    return RoundResult(lowest(pips), BLOCKED, pips, pips)


def _tally_pad(state: TrainState, action: Tally) -> RoundResult:
    """``pad.record``: the round is its tally alone. The referee still checks what it can:
    hand counts within the deal and the boneyard, tiles unique and never the engine, pips
    within what such a hand could hold, the 0-0 rule. A seat with no tiles left (by pips:
    0, unless declared by tiles) played out."""
    declared = _declared(state, action)
    most_held = min(state.hands[0] + state.boneyard, len(DominoSet(state.top).tiles) - 1)
    hands = {seat: held for seat, held in declared.items() if isinstance(held, tuple)}
    for seat, tiles in hands.items():
        if len(tiles) > most_held:
            raise IllegalAction(
                "pad.record",
                Said(
                    "{who} cannot hold {declared}: the deal ({deal}) and the whole boneyard "
                    "({boneyard}) give at most {most}.",
                    who=state.names[seat],
                    declared=tile_count(len(tiles)),
                    deal=state.hands[seat],
                    boneyard=state.boneyard,
                    most=most_held,
                ),
            )
    _check_hand_tiles(state, hands)
    most = state.most_pips(most_held)
    for seat, total in declared.items():
        if isinstance(total, int) and total > most:
            raise IllegalAction(
                "pad.record",
                Said(
                    "{who} cannot hold {total} pips: at most {held} tiles (the deal and "
                    "the whole boneyard), {most} pips at most.",
                    who=state.names[seat],
                    total=total,
                    held=most_held,
                    most=most,
                ),
            )
    return pad_result(state, declared, _two_out)


def _two_out(out: Sequence[str]) -> IllegalAction:
    return IllegalAction(
        "train.end",
        Said(
            "Only one seat can play out: the round ends the moment a seat plays its last "
            "tile, yet {who} hold nothing.",
            who=listed(out),
        ),
    )
