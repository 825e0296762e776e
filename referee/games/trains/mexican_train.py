"""Mexican Train (RULES.md §9): every seat builds its own train out of the hub, anyone
may play on the Mexican Train or on a train whose marker is out, and a double must be
covered before anything else. One round per double, from the set's highest down.

The referee sees what the table sees (``info.public``): the engine in the hub, the tiles
of every train in order, the markers, how many tiles each hand and the boneyard hold. A
drawn tile stays private; hands are checked when they are declared at the tally.

>>> from referee.actions import Draw, Engine, Pass, TrainPlay
>>> state = start("mexican-train", {"set": 9}, ["Ana", "Ben", "Caro"])
>>> state = apply(state, Engine(1, Tile.parse("9-9")))  # Ben held it: Caro plays first
>>> state.names[state.turn], state.hands
('Caro', (10, 9, 10))
>>> state = apply(state, TrainPlay(2, Tile.parse("9-4"), 2))
>>> state = apply(apply(state, Draw(0)), Pass(0))  # Ana draws, cannot play: marker out
>>> [(t.owner, t.end, t.marker) for t in trains(state)]
[(0, 9, True), (1, 9, False), (2, 4, False), ('mexican', 9, False)]
>>> fits(state, Tile.parse("9-2"))  # Ben's turn: his own train, Ana's, or the Mexican Train
(0, 1, 'mexican')
>>> print(instruction(state))  # doctest: +NORMALIZE_WHITESPACE
Ben plays a tile on Ben's own train, Ana's train (marker out) or the Mexican Train
(a tile bearing 9 starts it), or draws a tile.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.actions import (
    MEXICAN,
    Action,
    Draw,
    Engine,
    Pass,
    Tally,
    TrainPlay,
)  # fmt: skip
from referee.corrections import ABANDONED
from referee.errors import IllegalAction, InvalidAction
from referee.frozen import replace
from referee.games.trains.rounds import search_draw, turn_candidates
from referee.games.trains.train_state import (
    DEAL,
    PAD_WORDS,
    Track,
    TrainKey,
    TrainState,
    _blocked_words,
    _places,
    can_no_longer_be_covered,
    deal_size,
    engine_double,
    instruction,
    open_doubles,
    open_to,
    trains,
)
from referee.games.trains.train_tally import _check_tally
from referee.round.core import Deal, Starter
from referee.round.reducer import Reducer
from referee.round.refusals import check_players, check_seat, every_action_settles, match_over
from referee.round.result import BLOCKED, DOMINO
from referee.round.tally import settle_lowest
from referee.rulebook import preset, resolve_options
from referee.said import Said, listed
from referee.tiles import DominoSet, Tile

# ---------------------------------------------------------------------------------------------
# Setting up


def options_for(slug: str, given: Mapping[str, Any] | None, players: int) -> dict[str, Any]:
    """Check a match's options against the number of players: 2 to 8 (``train.deal``),
    a deal the set can serve, and no more rounds than the set has doubles
    (``train.rounds``)."""
    game = preset(slug)
    options = resolve_options(slug, given)
    check_players(game, players)
    top = options["set"]
    tiles = len(DominoSet(top).tiles)
    size = deal_size(top, players, options["hand_size"])
    if size * players > tiles:
        raise InvalidAction(
            Said(
                "A double-{top} set has {tiles} tiles: not enough to deal {size} each to "
                "{players} players (at most {most} each).",
                top=top,
                tiles=tiles,
                size=size,
                players=players,
                most=tiles // players,
            ),
            rule="train.deal",
        )
    if options["rounds"] != "all" and options["rounds"] > top + 1:
        raise InvalidAction(
            Said(
                "A double-{top} set has {doubles} doubles, one a round: at most {doubles} "
                "rounds, not {rounds}.",
                top=top,
                doubles=top + 1,
                rounds=options["rounds"],
            ),
            rule="train.rounds",
        )
    return options


def _deal(deal: Deal) -> TrainState:
    """A new round (``train.deal``, ``train.engine``): every hand dealt, the engine not yet
    found. ``leader`` is the seat that begins it (None: the table chooses); ``carry`` what
    the last round's :attr:`TrainState.carry` handed on (empty for round 1)."""
    options, seats, played = deal.options, deal.seats, deal.played
    top = options["set"]
    engine = deal.carry.get("engine", top - played)
    if not isinstance(engine, int) or not 0 <= engine <= top or played < 0:
        raise InvalidAction(
            Said("Every double of the set has been the engine: the match has no round left."),
            rule="train.rounds",
        )
    size = deal_size(top, seats, options["hand_size"])
    tracks = tuple(Track(s, end=engine) for s in range(seats)) + (Track(MEXICAN, end=engine),)
    return TrainState(
        **deal.opening(),
        hands=(size,) * seats,
        boneyard=len(DominoSet(top).tiles) - size * seats,
        tracks=tracks,
        engine_number=engine,
        turn=deal.leader,
        leader=deal.leader,
        first=deal.leader,
        turns=(0,) * seats,
        played=played,
        pad=deal.pad,
    )


start = Starter(options_for, _deal)


def next_leader(state: TrainState) -> int | None:
    """Our ruling: the round after begins with the seat clockwise of this round's first
    (the table chose the first round's)."""
    return None if state.first is None else (state.first + 1) % state.seats


# ---------------------------------------------------------------------------------------------
# Checks: each raises IllegalAction naming the rule, or returns what the action needs.


def _check_seat(state: TrainState, seat: int) -> None:
    check_seat(state.seats, seat)


def _check_going(state: TrainState) -> None:
    """The match and the round still go on; else the rule that ended them."""
    if state.match_end is not None:
        raise match_over(state.match_end)
    if state.result is not None:
        if state.result.reason == ABANDONED:
            raise IllegalAction(
                "correct.abandon",
                Said("This round was abandoned; the next round is dealt with the same engine."),
            )
        raise IllegalAction(
            "train.end", Said("This round is over and tallied; the next round has begun.")
        )


def _check_playing(state: TrainState, who: str, doing: Said) -> None:
    """The round is being played: not ended, not a score pad. ``doing`` is what ``who``
    tried, in words (``Said("draw")``)."""
    if state.pad:
        raise IllegalAction(
            "pad.record",
            Said("{pad}: {who} cannot {doing} in it.", pad=PAD_WORDS, who=who, doing=doing),
        )
    if state.ended is not None:
        if state.ended == DOMINO and state.out is not None:
            why = Said("{who} played their last tile", who=state.names[state.out])
        else:
            why = Said("it is blocked: {why}", why=_blocked_words(state))
        raise IllegalAction(
            "train.end",
            Said(
                "The round is over ({why}), so {who} cannot {doing}: tally what is left in "
                "each hand.",
                why=why,
                who=who,
                doing=doing,
            ),
        )


def _check_engine_found(state: TrainState, seat: int, doing: Said) -> None:
    """Nothing is played before the engine is in the hub (``train.engine``)."""
    if state.placer is not None:
        return
    holder = Said("whoever holds it places it in the hub")
    if state.drawer is not None:
        holder = Said("{who} places it if the last draw found it", who=state.names[state.drawer])
    raise IllegalAction(
        "train.engine",
        Said(
            "The engine {engine} is not in the hub yet, so {who} cannot {doing}: {holder}; if "
            "nobody does, {next} draws a tile.",
            engine=state.engine,
            who=state.names[seat],
            doing=doing,
            holder=holder,
            next=Said("a seat") if state.turn is None else state.names[state.turn],
        ),
    )


def _check_turn(state: TrainState, seat: int, doing: Said) -> None:
    if state.turn is not None and seat != state.turn:
        raise IllegalAction(
            "seat.order",
            Said(
                "It is {turn}'s turn, not {who}'s, so {who} cannot {doing} now.",
                turn=state.names[state.turn],
                who=state.names[seat],
                doing=doing,
            ),
        )


def _check_engine(state: TrainState, action: Engine) -> None:
    seat, who, tile = action.seat, state.names[action.seat], action.tile
    DominoSet(state.top).check(tile)
    engine = state.engine
    if state.placer is not None:
        raise IllegalAction(
            "train.engine",
            Said(
                "The engine {engine} is already in the hub: {who} placed it.",
                engine=engine,
                who=state.names[state.placer],
            ),
        )
    if tile != engine:
        raise IllegalAction(
            "train.engine",
            Said(
                "This round's engine is {engine}, not {tile}: the rounds count down one double "
                "a round from {highest}, so only {engine} goes in the hub now.",
                engine=engine,
                tile=tile,
                highest=Tile(state.top, state.top),
            ),
        )
    if state.drawer is not None and seat != state.drawer:
        assert state.turn is not None  # a seat drew, so the next one draws
        raise IllegalAction(
            "train.engine",
            Said(
                "Nobody held {engine} after the deal, so it is found by drawing: only "
                "{drawer}, who drew last, can have found it now; else {next} draws next, "
                "not {who}.",
                engine=engine,
                drawer=state.names[state.drawer],
                next=state.names[state.turn],
                who=who,
            ),
        )


def _check_draw(state: TrainState, action: Draw) -> None:
    seat, who = action.seat, state.names[action.seat]
    if action.count != 1:
        raise IllegalAction(
            "train.draw", Said("A draw is one tile at a time, not {n}.", n=action.count)
        )
    if state.placer is None:
        search_draw(
            state, seat, "train.engine",
            empty=lambda: Said(
                "The boneyard is empty, so {engine} is in a hand: whoever holds it places it "
                "in the hub.",
                engine=state.engine,
            ),
            waits=lambda turn: Said(
                "Seats draw for the engine one tile each in turn: it is {turn}'s draw, not "
                "{who}'s.",
                turn=turn, who=who,
            ),
        )  # fmt: skip
        return
    _check_turn(state, seat, Said("draw"))
    if state.laid and not state.owed:
        raise IllegalAction(
            "train.draw",
            Said(
                "{who} has played this turn, and only a seat that has not played draws: "
                "{who} lays another tile on {who}'s own train, or passes to end the turn.",
                who=who,
            ),
        )
    if state.drew:
        raise IllegalAction(
            "train.draw",
            Said(
                "{who} has drawn a tile already (only one per turn): {who} plays it if it "
                "fits, or passes and puts out the marker.",
                who=who,
            ),
        )
    if not state.boneyard:
        raise IllegalAction(
            "train.draw",
            Said(
                "The boneyard is empty: {who} plays if {who} can, else passes and puts out "
                "the marker.",
                who=who,
            ),
        )


def _check_pass(state: TrainState, action: Pass) -> None:
    seat, who = action.seat, state.names[action.seat]
    _check_turn(state, seat, Said("pass"))
    if state.laid and not state.owed:
        return  # first_turn many: a seat that played ends its turn so
    if not state.drew and state.boneyard:
        raise IllegalAction(
            "train.draw",
            Said(
                "{who} cannot pass yet: draw first. A seat that cannot play draws one tile "
                "({n} left in the boneyard) and plays it if it fits; only then does it pass "
                "and put out its marker.",
                who=who,
                n=state.boneyard,
            ),
        )


def _check_play(state: TrainState, action: TrainPlay) -> Track:
    """The train ``action`` lays its tile on, if it may."""
    seat, who, tile, train = action.seat, state.names[action.seat], action.tile, action.train
    _check_turn(state, seat, Said("play"))
    DominoSet(state.top).check(tile)
    where = state.on_table().get(tile)
    if where is not None:
        raise IllegalAction(
            "set.unique",
            Said("{tile} is {where}, not in {who}'s hand.", tile=tile, where=where, who=who),
        )
    if train != MEXICAN and not 0 <= int(train) < state.seats:
        raise IllegalAction(
            "train.trains",
            Said(
                "There is no seat {train}, so no train of theirs: the trains are each seat's "
                "(0 to {last}) and the Mexican Train.",
                train=train,
                last=state.seats - 1,
            ),
        )
    track = state.track(train)
    if state.covering:
        double, oldest = open_doubles(state)[0]
        if train != oldest:
            raise IllegalAction("train.double", _cover_first(state, who))
        if not tile.has(double.high):
            raise IllegalAction(
                "train.double",
                Said(
                    "{tile} does not cover {double} on {train}: only a tile bearing {n} does.",
                    tile=tile,
                    double=double,
                    train=state.train_name(oldest),
                    n=double.high,
                ),
            )
        return track
    if state.many and state.laid and not state.owed and train != seat:
        raise IllegalAction(
            "train.turn",
            Said(
                "In this first turn {who} lays more tiles on {who}'s own train only, one after "
                "another; {train} waits for a later turn. {who} lays another tile on their "
                "own train, or passes to end the turn.",
                who=who,
                train=state.train_name(train),
            ),
        )
    if train not in (seat, MEXICAN) and not track.marker:
        raise IllegalAction(
            "train.marker",
            Said(
                "{owner}'s train is {owner}'s own: {who} may play on it only while it carries "
                "{owner}'s marker. {who} may play on {places}.",
                owner=state.names[int(train)],
                who=who,
                places=_places(state, seat),
            ),
        )
    if not tile.has(track.end):
        name = state.train_name(train)
        if not track.tiles:
            raise IllegalAction(
                "train.trains",
                Said(
                    "{tile} cannot start {train}: a train's first tile bears the engine's "
                    "number, {n}, at the hub end.",
                    tile=tile,
                    train=name,
                    n=track.end,
                ),
            )
        raise IllegalAction(
            "train.trains",
            Said(
                "{tile} does not match {train}: its open end is {n}, so the next tile there "
                "bears a {n}.",
                tile=tile,
                train=name,
                n=track.end,
            ),
        )
    return track


def _cover_first(state: TrainState, who: str) -> Said:
    """``train.double``: the oldest open double is covered before anything else, the
    later ones (named when there are any) after it."""
    (double, oldest), *later = open_doubles(state)
    if not later:
        return Said(
            "{double} is open on {train}: it must be covered before anything else. {who} "
            "covers it, or draws a tile and covers it with that if it fits, else passes.",
            double=double,
            train=state.train_name(oldest),
            who=who,
        )
    return Said(
        "{double} is open on {train}: it must be covered before anything else (then "
        "{later}). {who} covers it, or draws a tile and covers it with that if it fits, "
        "else passes.",
        double=double,
        train=state.train_name(oldest),
        later=listed(
            [Said("{double} on {train}", double=d, train=state.train_name(t)) for d, t in later]
        ),
        who=who,
    )


def _step(state: TrainState, action: Action) -> TrainState:
    _check_going(state)
    # Every action moves a tile in sight of the table, which settles the one before it
    # (procedure.misplay): only the last action can be taken back.
    return _transition(replace(state, last_points=(0,) * state.seats), action)


def _set(values: tuple, index: int, value: object) -> tuple:
    return values[:index] + (value,) + values[index + 1 :]


def _plus(hands: tuple[int, ...], seat: int, n: int) -> tuple[int, ...]:
    return _set(hands, seat, hands[seat] + n)


#: What a seat tried, in words for a refusal ("Ben cannot draw").
_DOING = {
    Engine: Said("place the engine"),
    Draw: Said("draw"),
    Pass: Said("pass"),
    TrainPlay: Said("play"),
}


def _transition(state: TrainState, action: Action) -> TrainState:
    if isinstance(action, Tally):
        result = _check_tally(state, action)
        scores = tuple(s + p for s, p in zip(state.scores, result.points, strict=True))
        after = replace(state, result=result, scores=scores, last_points=result.points, turn=None)
        return _settle(after)
    if type(action) not in _DOING:
        raise IllegalAction(
            "train.turn",
            Said(
                "Mexican Train has no such {kind}: a play names its train, a draw is one tile.",
                kind=action.kind,
            ),
        )
    seat = action.seat  # type: ignore[attr-defined]
    _check_playing(state, state.names[seat], _DOING[type(action)])
    if isinstance(action, Engine):
        _check_engine(state, action)
        return _place_engine(state, seat)
    if isinstance(action, Draw):
        _check_draw(state, action)
        if state.placer is None:
            return _draw_for_engine(state, seat)
        # One draw a turn (another after each double laid); a drawn tile ends any run of
        # first-turn tiles: the seat plays it or passes.
        return replace(
            state,
            hands=_plus(state.hands, seat, 1),
            boneyard=state.boneyard - 1,
            drew=True,
            many=False,
            passes=0,
        )
    _check_engine_found(state, seat, _DOING[type(action)])
    if isinstance(action, Pass):
        _check_pass(state, action)
        return _pass(state, seat)
    assert isinstance(action, TrainPlay)
    track = _check_play(state, action)
    return _lay(state, seat, action.tile, track)


def _draw_for_engine(state: TrainState, seat: int) -> TrainState:
    """``train.engine``: nobody holds the engine; seats draw one tile each in turn, from
    the seat that begins the round, until it is found."""
    return replace(
        state,
        hands=_plus(state.hands, seat, 1),
        boneyard=state.boneyard - 1,
        drawer=seat,
        turn=(seat + 1) % state.seats,
        first=seat if state.first is None else state.first,
    )


def _place_engine(state: TrainState, seat: int) -> TrainState:
    """The engine goes in the hub. Placing it is not a turn: play begins with the next
    seat clockwise (``train.engine``)."""
    hands = _plus(state.hands, seat, -1)
    nxt = (seat + 1) % state.seats
    state = replace(
        state,
        hands=hands,
        placer=seat,
        drawer=None,
        turn=nxt,
        first=seat if state.first is None else state.first,
        many=state.options["first_turn"] == "many",
    )
    if not hands[seat]:  # a one-tile deal: the engine was the placer's last tile
        return replace(state, ended=DOMINO, out=seat, turn=None)
    return state


def _lay(state: TrainState, seat: int, tile: Tile, track: Track) -> TrainState:
    train = track.owner
    laid = track.laying(tile)
    if train == seat:
        laid = replace(laid, marker=False)  # train.marker: the owner played on its own train
    index = state.seats if train == MEXICAN else int(train)
    doubles = tuple(t for t in state.doubles if t != train)  # a tile on a double covers it
    if tile.is_double:
        doubles += (train,)
    hands = _plus(state.hands, seat, -1)
    state = replace(
        state,
        hands=hands,
        tracks=_set(state.tracks, index, laid),
        doubles=doubles,
        passes=0,
        laid=state.laid + 1,
        # train.double: a double earns its layer one more tile, and a draw for it.
        owed=tile.is_double,
        drew=False if tile.is_double else state.drew,
        many=state.many and train == seat,
    )
    if not hands[seat]:
        # train.end: the last tile ends the round, a double included (it need not be
        # covered).
        return replace(state, ended=DOMINO, out=seat, turn=None)
    if tile.is_double or state.many:
        return state  # the seat plays again: its extra tile, or its first turn's run
    return _pass_on(state, seat)


def _pass(state: TrainState, seat: int) -> TrainState:
    # Our ruling (first_turn many): a seat that laid tiles on its own train in its first
    # turn ends that turn with a pass, and since it played, its marker stays in. A seat
    # that owes a double's extra tile and cannot play it does put out its marker
    # (train.double), whatever it laid before.
    marker = not (state.laid and not state.owed)
    if marker:
        track = replace(state.tracks[seat], marker=True)
        state = replace(state, tracks=_set(state.tracks, seat, track))
    # train.end: the round is blocked once every seat has passed in a row with nothing
    # left to draw; a pass made with tiles still in the boneyard starts no such row.
    passes = state.passes + 1 if marker and not state.boneyard else 0
    state = _pass_on(replace(state, passes=passes), seat)
    if state.ended is None and passes >= state.seats:
        return replace(state, ended=BLOCKED, turn=None)
    return state


def _pass_on(state: TrainState, seat: int) -> TrainState:
    """``seat``'s turn is over; the next seat clockwise plays."""
    nxt = (seat + 1) % state.seats
    turns = _plus(state.turns, seat, 1)
    state = replace(
        state,
        turn=nxt,
        turns=turns,
        drew=False,
        owed=False,
        laid=0,
        many=state.options["first_turn"] == "many" and not turns[nxt] and not state.doubles,
    )
    # train.double: the double that must be covered now can never be, so play cannot go
    # on. Our ruling: this is judged when the cover is due (the seat that laid it has
    # finished its turn), for the oldest open double; a later one waits its turn, since
    # covering the first may still end the round.
    if state.doubles and can_no_longer_be_covered(state, open_doubles(state)[0][0]):
        return replace(state, ended=BLOCKED, turn=None)
    return state


def _settle(state: TrainState) -> TrainState:
    """``train.score``: after the last round the lowest total wins; a tie is shared."""
    return settle_lowest(state)


# ---------------------------------------------------------------------------------------------
# What may be done now


def fits(state: TrainState, tile: Tile) -> tuple[TrainKey, ...]:
    """The trains the seat to act may lay ``tile`` on now (what the app lights up)."""
    seat = state.acting
    if seat is None:
        return ()
    return tuple(
        track.owner
        for track in state.tracks
        if check(state, TrainPlay(seat, tile, track.owner)) is None
    )


def _candidates(state: TrainState) -> list[Action]:
    found, seat = turn_candidates(state)
    if seat is None:
        return found
    seen = state.on_table()
    for track in state.tracks:
        for tile in DominoSet(state.top).bearing(track.end):
            if tile not in seen:
                found.append(TrainPlay(seat, tile, track.owner))
    return found


# The reducer's three faces (referee.round.reducer). legal_actions offers every engine, draw,
# pass, play and undo; not tallies (they depend on hands only the players know), nor the
# table's own entries.
apply, check, legal_actions = Reducer(
    _step, _candidates, every_action_settles, stop_winner="low"
).functions

#: The facts a screen asks of the game rather than knowing them (referee.round.Engine).
FAMILY, SCREEN, LOWEST_TOTAL_WINS, ROUNDS = "train", "train", True, True

__all__ = [
    "DEAL", "FAMILY", "LOWEST_TOTAL_WINS", "PAD_WORDS", "ROUNDS", "SCREEN", "Engine", "Track",
    "TrainKey", "TrainState", "apply", "can_no_longer_be_covered", "check", "deal_size",
    "engine_double", "fits", "instruction", "legal_actions", "next_leader", "open_doubles",
    "open_to", "options_for", "start", "trains",
]  # fmt: skip
