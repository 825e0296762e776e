"""Double Domino Havoc's reducer: a new round, one more action, the tally, what is legal
now."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from referee.actions import (
    BONEYARD,
    Abandon,
    Action,
    Adjust,
    Discard,
    DrawFrom,
    Pass,
    Respond,
    Stop,
    Tally,
    Train,
    Undo,
)  # fmt: skip
from referee.errors import IllegalAction, InvalidAction
from referee.frozen import replace
from referee.games.havoc.checks import (
    _check_discard,
    _check_draw,
    _check_going,
    _check_pass,
    _check_respond,
    _check_seat,
    _check_tile,
    _check_train,
    _commas,
)
from referee.games.havoc.state import (
    DISCARD,
    DRAW,
    PLAY,
    SLOTS,
    SMALL_SET_PLAYERS,
    STOPPED,
    TRAIN_FULL,
    Doubles,
    HavocState,
    Link,
    Rack,
    direction_of,
)
from referee.round.core import Deal, Starter
from referee.round.reducer import Reducer
from referee.round.refusals import check_players, every_action_settles, no_such_seat
from referee.round.result import RoundResult
from referee.round.tally import settle_lowest
from referee.rulebook import preset, resolve_options
from referee.said import Said, counted, tiles
from referee.tiles import DominoSet, Tile


def options_for(slug: str, given: Mapping[str, Any] | None, players: int) -> dict[str, Any]:
    """Check a match's options against the number of players (``havoc.setup``): double-9
    serves up to six players, double-12 up to eight; set 0 (the default) picks by players."""
    game = preset(slug)
    options = resolve_options(slug, given)
    if options["set"] == 0:
        options["set"] = 12 if players > SMALL_SET_PLAYERS else 9
    check_players(game, players)
    if options["set"] == 9 and players > SMALL_SET_PLAYERS:
        raise InvalidAction(
            Said(
                "A double-9 set serves up to {most} players; {players} need the double-12 set.",
                most=SMALL_SET_PLAYERS,
                players=players,
            )
        )
    return options


def _deal(deal: Deal) -> HavocState:
    """A new round (``havoc.setup``): six tiles in every tray, play clockwise. ``leader``
    is the seat that begins it (None: the table chooses, by the first draw)."""
    return HavocState(
        **deal.opening(),
        racks=(Rack(),) * deal.seats,
        boneyard=len(DominoSet(deal.options["set"]).tiles) - SLOTS * deal.seats,
        turn=deal.leader,
        leader=deal.leader,
        first=deal.leader,
        played=deal.played,
    )


start = Starter(options_for, _deal)


def next_leader(state: HavocState) -> int | None:
    """Our ruling: the round after begins with the seat clockwise of this round's first."""
    return None if state.first is None else (state.first + 1) % state.seats


def _pips(n: int) -> Said:
    """``1 pip``, ``30 pips``: a count of pips, its plural in its template."""
    return counted("{n} pip", "{n} pips", n, n=n)


def _check_tally(state: HavocState, action: Tally) -> RoundResult:
    if state.result is not None:
        _check_going(state)
    if state.ended is None:
        raise IllegalAction(
            "havoc.win",
            Said("The round is not over: it ends when a seat's six train slots are full."),
        )
    winner = state.filled
    assert winner is not None
    racks = state.racks
    declared = action.declared  # each tray's tiles (a tuple) or pip total (an int)
    for seat in declared:
        if seat >= state.seats:
            raise no_such_seat(state.seats, seat)
    missing = [state.names[s] for s in range(state.seats) if s != winner and s not in declared]
    if missing:
        raise IllegalAction(
            "havoc.win",
            Said("Declare every tray but the winner's: {missing} still.", missing=_commas(missing)),
        )
    pips = [0] * state.seats
    for seat, total in declared.items():
        if isinstance(total, int):
            who, rack = state.names[seat], racks[seat]
            most = rack.tray * 2 * state.top
            if seat != winner and total > most:
                raise IllegalAction(
                    "havoc.win",
                    counted(
                        "{who}'s {n} tile holds at most {most} pips, not {total}.",
                        "{who}'s {n} tiles hold at most {most} pips, not {total}.",
                        rack.tray,
                        who=who,
                        n=rack.tray,
                        most=most,
                        total=total,
                    ),
                )
            known = sum(t.pips for t in rack.known)
            if seat != winner and total < known:
                if len(rack.known) == 1:
                    kept = Said(
                        "{who} took {tile} from a discard slot and never played it: at least "
                        "{pips}, not {total}.",
                        who=who,
                        tile=rack.known[0],
                        pips=_pips(known),
                        total=total,
                    )
                else:
                    kept = Said(
                        "{who} took {tiles} from discard slots and never played them: at least "
                        "{pips}, not {total}.",
                        who=who,
                        tiles=_commas(rack.known),
                        pips=_pips(known),
                        total=total,
                    )
                raise IllegalAction("havoc.win", kept)
            if seat != winner:
                pips[seat] = total
    seen: dict[Tile, int] = {}
    for seat, held in declared.items():
        if isinstance(held, int):
            continue
        who = state.names[seat]
        for tile in held:
            if tile in seen:
                raise IllegalAction(
                    "set.unique",
                    Said(
                        "{tile} is declared twice ({first} and {then}).",
                        tile=tile,
                        first=state.names[seen[tile]],
                        then=who,
                    ),
                )
            seen[tile] = seat
            _check_tile(state, seat, tile)
        if seat == winner:
            continue
        if len(held) != racks[seat].tray:
            raise IllegalAction(
                "havoc.invariant",
                counted(
                    "{who}'s tray holds {tiles}; {n} was declared.",
                    "{who}'s tray holds {tiles}; {n} were declared.",
                    len(held),
                    who=who,
                    tiles=tiles(racks[seat].tray),
                    n=len(held),
                ),
            )
        kept = [t for t in racks[seat].known if t not in held]
        if kept:
            raise IllegalAction(
                "havoc.win",
                Said(
                    "{who} took {tile} from a discard slot and never played it: it is in "
                    "{who}'s tray.",
                    who=who,
                    tile=kept[0],
                ),
            )
        pips[seat] = sum(t.pips for t in held)
    return RoundResult(winner, TRAIN_FULL, tuple(pips), tuple(pips))


def _step(state: HavocState, action: Action) -> HavocState:
    # Every action moves a tile in sight of the table, which settles the one before it
    # (procedure.misplay): only the last action can be taken back.
    after = _transition(replace(state, last_points=(0,) * state.seats), action)
    return _skip_empty_draw(after)


def _set(values: tuple, seat: int, value: object) -> tuple:
    return values[:seat] + (value,) + values[seat + 1 :]


def _rack(state: HavocState, seat: int, rack: Rack) -> HavocState:
    return replace(state, racks=_set(state.racks, seat, rack))


def _transition(state: HavocState, action: Action) -> HavocState:
    if isinstance(action, DrawFrom):
        return _draw(state, action)
    if isinstance(action, Train):
        _check_train(state, action)
        rack = state.racks[action.seat].taking(action.tile)
        rack = replace(rack, train=rack.train + (Link(action.tile, action.free),))
        state = _rack(state, action.seat, rack)
        if rack.is_full:
            return _train_full(state, action.seat)
        if state.drew:
            return replace(state, step=DISCARD)
        return _pass_on(state, action.seat)  # nothing drawn, nothing to discard
    if isinstance(action, Discard):
        _check_discard(state, action)
        seat, tile = action.seat, action.tile
        state = _rack(state, seat, state.racks[seat].taking(tile))
        target = seat if state.took_from is None else state.took_from
        state = _into_slot(state, target, tile)
        if tile.is_double:
            return _doubles(state, tile, target, seat)
        return _pass_on(state, seat)
    if isinstance(action, Pass):
        _check_pass(state, action)
        return _pass_on(state, action.seat)
    if isinstance(action, Respond):
        _check_respond(state, action)
        return _respond(state, action)
    if isinstance(action, Tally):
        result = _check_tally(state, action)
        scores = tuple(s + p for s, p in zip(state.scores, result.points, strict=True))
        return _settle(replace(state, result=result, scores=scores, last_points=result.points))
    if isinstance(action, Stop):
        if state.match_end is not None:
            rule, why = state.match_end
            raise IllegalAction(rule, Said("{why}.", why=why))
        nobody = (0,) * state.seats
        result = state.result or RoundResult(None, STOPPED, nobody, nobody)
        after = replace(
            state, stop=action, result=result, doubles=None, turn=None, ended=None, filled=None
        )
        return after if action.abandoned else _settle(after)
    raise InvalidAction(Said("Double Domino Havoc has no {kind} action.", kind=action.kind))


def _draw(state: HavocState, action: DrawFrom) -> HavocState:
    _check_draw(state, action)
    seat = action.seat
    if state.turn is None:
        state = replace(state, turn=seat, first=seat)
    if action.source == BONEYARD:
        state = replace(state, boneyard=state.boneyard - 1)
        if action.tile is not None:
            # havoc.drawn-double: at once to the drawer's slot, and the turn ends there.
            state = _into_slot(state, seat, action.tile)
            return _doubles(state, action.tile, seat, seat)
        rack = state.racks[seat]
        state = _rack(state, seat, replace(rack, tray=rack.tray + 1))
        return replace(state, step=PLAY, drew=True, took_from=None)
    other = int(action.source)
    state = _take_discard(state, seat, other)
    return replace(state, step=PLAY, drew=True, took_from=other)


def _take_discard(state: HavocState, seat: int, other: int) -> HavocState:
    tile = state.racks[other].slot
    assert tile is not None
    state = _rack(state, other, replace(state.racks[other], slot=None))
    rack = state.racks[seat]
    return _rack(state, seat, replace(rack, tray=rack.tray + 1, known=rack.known + (tile,)))


def _into_slot(state: HavocState, seat: int, tile: Tile) -> HavocState:
    """``tile`` face up in ``seat``'s discard slot; the tile there is removed from play."""
    lying = state.racks[seat].slot
    if lying is not None:
        state = replace(state, out=state.out + (lying,))
    return _rack(state, seat, replace(state.racks[seat], slot=tile))


def _doubles(state: HavocState, double: Tile, slot: int, placer: int) -> HavocState:
    """A double landed in ``slot``'s discard slot (``havoc.doubles``): it sets the
    direction, and the next seat that way answers it."""
    direction = direction_of(double)
    responder = (placer + direction) % state.seats
    return replace(
        state,
        direction=direction,
        doubles=Doubles(double, slot, placer, responder),
        turn=None,
        step=DRAW,
        drew=False,
        took_from=None,
    )


def _respond(state: HavocState, action: Respond) -> HavocState:
    doubles = state.doubles
    assert doubles is not None
    seat = action.seat
    if action.take:
        # Onto the train; then the responder discards normally (havoc.doubles, A).
        rack = state.racks[seat]
        state = _rack(
            state, seat, replace(rack, train=rack.train + (Link(doubles.double, doubles.number),))
        )
        state = _rack(state, doubles.slot, replace(state.racks[doubles.slot], slot=None))
        state = replace(state, doubles=None, turn=seat, step=DISCARD, drew=True, took_from=None)
        if state.racks[seat].is_full:
            return _train_full(state, seat)
        return state
    if action.match is None:
        responder = state.next_seat(seat)
        if responder != doubles.placer:
            return replace(state, doubles=replace(doubles, responder=responder))
        # havoc.dead-double: back at the seat that placed it, the double is removed from
        # play and that seat plays a normal turn.
        state = _rack(state, doubles.slot, replace(state.racks[doubles.slot], slot=None))
        return replace(
            state, out=state.out + (doubles.double,), doubles=None, turn=doubles.placer, step=DRAW
        )
    # B: the matching tile takes the double's place, the double leaves play, and the
    # responder draws a replacement.
    state = _rack(state, seat, state.racks[seat].taking(action.match))
    state = _rack(state, doubles.slot, replace(state.racks[doubles.slot], slot=action.match))
    state = replace(state, out=state.out + (doubles.double,), doubles=None)
    if action.source != BONEYARD:
        state = _take_discard(state, seat, int(action.source))
        return _pass_on(state, seat)
    state = replace(state, boneyard=state.boneyard - 1)
    if action.replacement is None:
        rack = state.racks[seat]
        state = _rack(state, seat, replace(rack, tray=rack.tray + 1))
        return _pass_on(state, seat)
    # A replacement double goes to the responder's slot and the rule begins again from
    # there. Our ruling: the responder then draws once more, face down, to keep six tiles
    # in play (havoc.invariant), if the boneyard has one.
    state = _into_slot(state, seat, action.replacement)
    if state.boneyard:
        rack = state.racks[seat]
        state = _rack(state, seat, replace(rack, tray=rack.tray + 1))
        state = replace(state, boneyard=state.boneyard - 1)
    return _doubles(state, action.replacement, seat, seat)


def _pass_on(state: HavocState, seat: int) -> HavocState:
    """The turn passes to the next seat in the direction of play."""
    return replace(
        state, turn=state.next_seat(seat), step=DRAW, drew=False, took_from=None, doubles=None
    )


def _skip_empty_draw(state: HavocState) -> HavocState:
    """``havoc.boneyard-empty``: with nothing to draw, the seat skips the draw."""
    if (
        state.turn is not None
        and state.doubles is None
        and state.step == DRAW
        and not state.is_over
        and not state.can_draw(state.turn)
    ):
        return replace(state, step=PLAY, drew=False)
    return state


def _train_full(state: HavocState, seat: int) -> HavocState:
    """``havoc.win``: the round ends the moment a train's sixth slot fills."""
    return replace(
        state, ended=TRAIN_FULL, filled=seat, turn=None, step=DRAW, doubles=None, took_from=None
    )


def _settle(state: HavocState) -> HavocState:
    """The match's winner once it is over: the lowest total, or a tie at the bottom."""
    return settle_lowest(state)


# ---------------------------------------------------------------------------------------------
# What may be done now


def _candidates(state: HavocState) -> list[Action]:
    found: list[Action] = [Undo(), Stop()]
    acting: Iterable[int] = range(state.seats) if state.acting is None else (state.acting,)
    unseen = state.unseen()
    doubles = [t for t in unseen if t.is_double]
    for seat in acting:
        found.append(DrawFrom(seat, BONEYARD))
        found += [DrawFrom(seat, BONEYARD, d) for d in doubles]
        found += [DrawFrom(seat, s, state.racks[s].slot) for s in state.takeable(seat)]
        mine = state.holdable(seat)
        for tile in mine:
            found += [Train(seat, tile, lead) for lead in {tile.high, tile.low}]
            found.append(Discard(seat, tile))
        found.append(Pass(seat))
        if state.doubles is not None:
            found += [Respond(seat, take=True), Respond(seat)]
            n = state.doubles.number
            for tile in (t for t in mine if t.has(n)):
                found.append(Respond(seat, match=tile))
                found += [Respond(seat, match=tile, replacement=d) for d in doubles]
                found += [
                    Respond(seat, match=tile, replacement=state.racks[s].slot, source=s)
                    for s in state.takeable(seat)
                ]
    return found


# The reducer's three faces (referee.round.reducer); legal_actions leaves out tallies and
# the table's own entries.
apply, check, legal_actions = Reducer(
    _step,
    _candidates,
    every_action_settles,
    stop_winner="low",
    recorded=(Adjust, Abandon),
    seat=_check_seat,
).functions
