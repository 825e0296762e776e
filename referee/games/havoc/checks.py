"""Double Domino Havoc's legality, one check per kind of action: each raises
IllegalAction naming the rule, or returns what the action needs."""

from __future__ import annotations

from collections.abc import Sequence

from referee.actions import (
    BONEYARD,
    Discard,
    DrawFrom,
    Pass,
    Respond,
    Train,
)  # fmt: skip
from referee.errors import IllegalAction, InvalidAction
from referee.games.havoc.state import DISCARD, DRAW, PLAY, HavocState
from referee.round.refusals import OVER_AND_TALLIED, check_seat, no_such_seat, not_your_turn
from referee.said import Said, phrase
from referee.tiles import DominoSet, Tile

# ---------------------------------------------------------------------------------------------
# Checks: each raises IllegalAction naming the rule, or returns what the action needs.


def _commas(items: Sequence[object]) -> Said:
    """``8-4, 7-7``; ``Ana, Ben``: an enumeration as the table has always read it, each item
    a parameter (``listed`` would put an "and" before the last)."""
    if not items:
        return Said("")
    said = Said("{only}", only=items[0])
    for item in items[1:]:
        said = Said("{first}, {then}", first=said, then=item)
    return said


def _check_seat(state: HavocState, seat: int) -> None:
    check_seat(state.seats, seat)
    _check_going(state)


def _check_going(state: HavocState) -> None:
    if state.match_end is not None:
        rule, why = state.match_end
        raise IllegalAction(rule, Said("{why}.", why=why))
    if state.result is not None:
        raise IllegalAction("havoc.win", OVER_AND_TALLIED)
    if state.ended is not None:
        raise IllegalAction(
            "havoc.win",
            Said(
                "The round is over: {who}'s train is full. Tally the trays.",
                who=state.names[state.filled],
            ),
        )


def _check_turn(state: HavocState, seat: int, doing: str) -> None:
    who = state.names[seat]
    doubles = state.doubles
    if doubles is not None:
        responder = state.names[doubles.responder]
        if seat != doubles.responder:
            raise IllegalAction(
                "havoc.doubles",
                Said(
                    "{double} must be answered first, by {responder}.",
                    double=doubles.double,
                    responder=responder,
                ),
            )
        raise IllegalAction(
            "havoc.doubles",
            Said(
                "{who} must answer {double} first: take it, match it or pass.",
                who=who,
                double=doubles.double,
            ),
        )
    if state.turn is None:
        if doing != DRAW:
            raise IllegalAction(
                "havoc.turn", Said("The round begins with a draw from the boneyard: draw first.")
            )
        return
    if seat != state.turn:
        raise not_your_turn(state.names[state.turn], who)


def _check_tile(state: HavocState, seat: int, tile: Tile) -> None:
    """``tile`` may be in ``seat``'s tray: it is in the set and the table has not seen it
    anywhere else (``set.unique``)."""
    DominoSet(state.top).check(tile)
    rack, who = state.racks[seat], state.names[seat]
    if tile in rack.known:
        return
    where = state.seen_at(tile)
    if where is not None:
        raise IllegalAction(
            "set.unique",
            Said("{tile} is {where}, not in {who}'s tray.", tile=tile, where=where, who=who),
        )
    if len(rack.known) >= rack.tray:
        raise IllegalAction(
            "set.unique",
            Said(
                "Every tile in {who}'s tray was taken from a discard slot: {known}; {tile} is "
                "not among them.",
                who=who,
                known=_commas(rack.known),
                tile=tile,
            ),
        )


def _check_draw(state: HavocState, action: DrawFrom) -> None:
    seat, who = action.seat, state.names[action.seat]
    _check_turn(state, seat, DRAW)
    if state.step == PLAY and not state.drew:
        raise IllegalAction(
            "havoc.boneyard-empty",
            Said(
                "Nothing is left for {who} to draw: {who} skips the draw, then plays a tile to "
                "the train or ends the turn.",
                who=who,
            ),
        )
    if state.step != DRAW:
        if state.step == PLAY:
            drawn = phrase("{who} has drawn this turn; now play a tile to the train or discard.")
        else:
            drawn = phrase("{who} has drawn this turn; now discard.")
        raise IllegalAction("havoc.turn", Said(drawn, who=who))
    if action.source == BONEYARD:
        if not state.boneyard:
            raise IllegalAction(
                "havoc.boneyard-empty",
                Said("The boneyard is empty: take a tile from another seat's discard slot."),
            )
        if action.tile is not None:
            DominoSet(state.top).check(action.tile)
            if not action.tile.is_double:
                raise IllegalAction(
                    "info.public",
                    Said(
                        "A tile drawn from the boneyard stays private unless it is a double; "
                        "record the draw without naming {tile}.",
                        tile=action.tile,
                    ),
                )
            where = state.seen_at(action.tile)
            if where is not None:
                raise IllegalAction(
                    "set.unique", Said("{tile} is {where}.", tile=action.tile, where=where)
                )
        return
    other = int(action.source)
    if other >= state.seats:
        raise no_such_seat(state.seats, other)
    if other == seat:
        raise IllegalAction(
            "havoc.turn",
            Said(
                "{who} may take another seat's discard, not the one in {who}'s own slot.", who=who
            ),
        )
    lying = state.racks[other].slot
    owner = state.names[other]
    if lying is None:
        raise IllegalAction("havoc.turn", Said("{owner}'s discard slot is empty.", owner=owner))
    if action.tile is None:
        # A discard lies face up (havoc.turn): the record names it, so a replay can check it.
        raise InvalidAction(
            Said(
                "Name the tile {who} takes from {owner}'s discard slot: {tile}.",
                who=who,
                owner=owner,
                tile=lying,
            ),
            rule="havoc.turn",
        )
    if action.tile != lying:
        raise IllegalAction(
            "havoc.turn",
            Said(
                "{owner}'s discard slot holds {lying}, not {tile}.",
                owner=owner,
                lying=lying,
                tile=action.tile,
            ),
        )


def _check_train(state: HavocState, action: Train) -> None:
    seat, who, tile = action.seat, state.names[action.seat], action.tile
    _check_turn(state, seat, PLAY)
    if state.step == DRAW:
        raise IllegalAction(
            "havoc.turn", Said("Draw first, then play: {who} has not drawn yet.", who=who)
        )
    if state.step == DISCARD:
        raise IllegalAction(
            "havoc.turn",
            Said("{who} has played to the train this turn; now discard a tray tile.", who=who),
        )
    if not tile.has(action.lead):
        raise InvalidAction(
            Said(
                "{tile} has no {lead}: write the train tile as it lies.",
                tile=tile,
                lead=action.lead,
            ),
            rule="havoc.turn",
        )
    _check_tile(state, seat, tile)
    end = state.racks[seat].free_end
    if end is None:
        return
    if not tile.has(end):
        raise IllegalAction(
            "havoc.turn",
            Said(
                "{tile} does not match the free end of {who}'s train: the next tile must bear "
                "a {end}.",
                tile=tile,
                who=who,
                end=end,
            ),
        )
    if action.lead != end:
        # The tile as written on the train, matching half first: two numbers, not a Tile
        # (a Tile always shows its high half first).
        raise IllegalAction(
            "havoc.turn",
            Said(
                "Write the matching half first: {end}-{free} on a train ending in {end}.",
                end=end,
                free=tile.other(end),
            ),
        )


def _check_discard(state: HavocState, action: Discard) -> None:
    seat, who = action.seat, state.names[action.seat]
    _check_turn(state, seat, DISCARD)
    if state.step == DRAW:
        raise IllegalAction(
            "havoc.turn", Said("Draw first, then discard: {who} has not drawn yet.", who=who)
        )
    if not state.drew:
        raise IllegalAction(
            "havoc.boneyard-empty",
            Said(
                "{who} drew nothing this turn (nothing was left to draw), so {who} keeps six "
                "tiles and discards nothing: play to the train or end the turn.",
                who=who,
            ),
        )
    _check_tile(state, seat, action.tile)


def _check_pass(state: HavocState, action: Pass) -> None:
    seat, who = action.seat, state.names[action.seat]
    _check_turn(state, seat, PLAY)
    if state.step == DRAW:
        raise IllegalAction("havoc.turn", Said("Draw first: {who} has not drawn yet.", who=who))
    if state.drew:
        raise IllegalAction(
            "havoc.turn",
            Said(
                "{who} drew this turn: the turn ends with a discard to keep six tiles in play.",
                who=who,
            ),
        )


def _check_respond(state: HavocState, action: Respond) -> None:
    doubles, seat, who = state.doubles, action.seat, state.names[action.seat]
    if doubles is None:
        raise IllegalAction("havoc.doubles", Said("No double is waiting for an answer."))
    if seat != doubles.responder:
        raise IllegalAction(
            "havoc.doubles",
            Said(
                "{responder} answers {double} now, not {who}.",
                responder=state.names[doubles.responder],
                double=doubles.double,
                who=who,
            ),
        )
    n, rack = doubles.number, state.racks[seat]
    if action.take:
        if rack.free_end != n:
            ends = Said("ends in {end}", end=rack.free_end) if rack.train else Said("is empty")
            raise IllegalAction(
                "havoc.doubles",
                Said(
                    "{who}'s train {ends}: only a train ending in {n} takes {double}. {who} must "
                    "put a tray tile bearing {n} in its place, or pass.",
                    who=who,
                    ends=ends,
                    n=n,
                    double=doubles.double,
                ),
            )
        return
    if action.match is None:
        holding = [t for t in rack.known if t.has(n)]
        if holding and state.replacements(seat) is not None:
            raise IllegalAction(
                "havoc.doubles",
                Said(
                    "{who} took {tile} from a discard slot and holds a {n}: {who} must put it "
                    "in {double}'s place.",
                    who=who,
                    tile=holding[0],
                    n=n,
                    double=doubles.double,
                ),
            )
        return
    tile = action.match
    if not tile.has(n):
        raise IllegalAction(
            "havoc.doubles",
            Said(
                "{tile} does not bear a {n}: it cannot take {double}'s place.",
                tile=tile,
                n=n,
                double=doubles.double,
            ),
        )
    _check_tile(state, seat, tile)
    sources = state.replacements(seat)
    if sources is None:
        raise IllegalAction(
            "havoc.boneyard-empty",
            Said(
                "Nothing is left to draw a replacement from (the boneyard and the other discard "
                "slots are empty), so {who} cannot match {double}: {who} passes.",
                who=who,
                double=doubles.double,
            ),
        )
    if action.source == BONEYARD:
        if not state.boneyard:
            raise IllegalAction(
                "havoc.boneyard-empty",
                Said(
                    "The boneyard is empty: the replacement is taken from another seat's "
                    "discard slot."
                ),
            )
        if action.replacement is not None:
            double = action.replacement
            DominoSet(state.top).check(double)
            if not double.is_double:
                raise IllegalAction(
                    "info.public",
                    Said(
                        "A replacement from the boneyard stays private unless it is a double; "
                        "do not name {tile}.",
                        tile=double,
                    ),
                )
            where = state.seen_at(double)
            if where is None and double == tile:
                raise IllegalAction("set.unique", Said("{tile} is the matching tile.", tile=double))
            if where is not None:
                raise IllegalAction(
                    "set.unique", Said("{tile} is {where}.", tile=double, where=where)
                )
        return
    other = int(action.source)
    if other not in sources:
        if sources:
            refusal = Said(
                "The replacement comes from another seat's discard slot, not the one just "
                "matched; the slots to take from: {seats}.",
                seats=_commas([state.names[s] for s in sources]),
            )
        else:
            refusal = Said(
                "The replacement comes from another seat's discard slot, not the one just "
                "matched; draw it from the boneyard."
            )
        raise IllegalAction("havoc.boneyard-empty", refusal)
    if action.replacement != state.racks[other].slot:
        raise IllegalAction(
            "havoc.boneyard-empty",
            Said(
                "{owner}'s discard slot holds {tile}.",
                owner=state.names[other],
                tile=state.racks[other].slot,
            ),
        )
