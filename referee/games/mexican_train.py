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

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from referee.actions import (
    MEXICAN,
    Abandon,
    Action,
    Adjust,
    Draw,
    Engine,
    Pass,
    Stop,
    Tally,
    TrainPlay,
    Undo,
)  # fmt: skip
from referee.corrections import ABANDONED, on_the_record, stopped_words
from referee.errors import IllegalAction, InvalidAction
from referee.games.train_rounds import TrainRounds
from referee.round.refusals import check_seat, nothing_to_take_back
from referee.round.result import RoundResult
from referee.rulebook import Preset, preset, resolve_options
from referee.said import Said, counted, listed
from referee.said import tiles as tile_count
from referee.tiles import DominoSet, Tile

DOMINO, BLOCKED = "domino", "blocked"  # how a round ended (train.end)
#: train.deal: tiles dealt to each seat, by set, for 2–4, 5–6 and 7–8 players.
DEAL = {9: (10, 8, 6), 12: (15, 12, 10), 15: (20, 16, 12)}
PAD_WORDS = Said("This round is kept as a score pad: record what is left in each hand")
TrainKey = int | str  # a train: its owner's seat, or MEXICAN
_IN_THE_HUB = Said("the engine, in the hub")  # where the engine lies (set.unique)


def deal_size(top: int, players: int, hand_size: int = 0) -> int:
    """``train.deal``: the tiles each seat is dealt (``hand_size``, when not 0, overrides).

    >>> deal_size(12, 4), deal_size(12, 5), deal_size(9, 8), deal_size(15, 3, hand_size=7)
    (15, 12, 6, 7)
    """
    if hand_size:
        return hand_size
    few, some, many = DEAL[top]
    return few if players <= 4 else some if players <= 6 else many


# ---------------------------------------------------------------------------------------------
# Trains


@dataclass(frozen=True, slots=True)
class Track:
    """One train on the table (``train.trains``): its owner (a seat, or MEXICAN), its
    tiles from the hub outward, the number its open end shows (the engine's while it is
    empty) and whether the owner's marker is out (``train.marker``; never on the Mexican
    Train, which is always open)."""

    owner: TrainKey
    tiles: tuple[Tile, ...] = ()
    end: int = 0
    marker: bool = False

    @property
    def is_mexican(self) -> bool:
        return self.owner == MEXICAN

    @property
    def open_double(self) -> Tile | None:
        """The double lying crosswise at the end, waiting to be covered (``train.double``):
        a double stays open exactly as long as it is the train's last tile."""
        last = self.tiles[-1] if self.tiles else None
        return last if last is not None and last.is_double else None

    def laying(self, tile: Tile) -> Track:
        """The train with ``tile`` added at its open end."""
        return replace(self, tiles=self.tiles + (tile,), end=tile.other(self.end))


# ---------------------------------------------------------------------------------------------
# The round


@dataclass(frozen=True)
class TrainState(TrainRounds):
    """Everything the table knows about a round of Mexican Train."""

    game: Preset
    options: Mapping[str, Any]
    names: tuple[str, ...]
    hands: tuple[int, ...]  # tiles in each hand (private: only the counts are public)
    boneyard: int
    tracks: tuple[Track, ...]  # each seat's train in seat order, then the Mexican Train
    engine_number: int  # this round's double is engine_number-engine_number (train.engine)
    placer: int | None = None  # the seat that placed the engine; None until it is placed
    drawer: int | None = None  # the seat that drew last while the engine was looked for
    turn: int | None = None  # the seat to act; None: any seat may begin (before the engine)
    leader: int | None = None  # the seat that must begin the round; None: the table chooses
    first: int | None = None  # the seat that began it
    drew: bool = False  # the seat to act has drawn (one draw a turn, one more per double)
    owed: bool = False  # it laid a double and owes its extra tile (train.double)
    laid: int = 0  # tiles it laid this turn
    many: bool = False  # first_turn many: it may lay more tiles on its own train this turn
    turns: tuple[int, ...] = ()  # turns each seat has finished this round
    doubles: tuple[TrainKey, ...] = ()  # the trains ending in an open double, oldest first
    passes: int = 0  # passes in a row made with the boneyard empty (train.end)
    ended: str | None = None  # DOMINO or BLOCKED before the tally (ABANDONED: abandoned)
    out: int | None = None  # the seat that played its last tile
    rounds_played: int = 0  # rounds counted before this one
    pad: bool = False  # pad.record: a score-pad round, recorded by its tally alone
    result: RoundResult | None = None
    stop: Stop | None = None  # the table stopped the match
    base: tuple[int, ...] = ()
    scores: tuple[int, ...] = ()
    champion: int | None = None
    shared: tuple[int, ...] = ()
    last: Action | None = None
    last_points: tuple[int, ...] = ()
    actions: int = 0
    logged: int = field(default=0, compare=False)
    previous: TrainState | None = field(default=None, compare=False, repr=False)
    settled: int = field(default=0, compare=False)

    @property
    def engine(self) -> Tile:
        """This round's engine double (``train.engine``)."""
        return Tile(self.engine_number, self.engine_number)

    @property
    def number(self) -> int:
        """This round's number in the match, from 1 (an abandoned round is dealt again)."""
        return self.rounds_played + 1

    @property
    def match_over(self) -> bool:
        if self.stopped:
            return True
        return self.counted and (self.engine_number == 0 or self.number >= self.rounds)

    @property
    def match_end(self) -> tuple[str, Said] | None:
        """The rule that ended the match (``train.rounds``, or ``correct.abandon`` for a
        stop) and how, in the players' words; None while it goes on."""
        if not self.match_over:
            return None
        rule = "train.rounds" if self.stop is None else "correct.abandon"
        if self.stop is not None:
            how = stopped_words(self.stop)
        elif self.engine_number == 0:
            how = Said("the last round, 0-0's, is played")
        elif self.rounds == 1:
            how = Said("the one agreed round is played")
        else:
            how = Said("all {rounds} agreed rounds are played", rounds=self.rounds)
        if self.champion is not None:
            how = Said(
                "{how}, and {who} has the lowest total ({total})",
                how=how,
                who=self.names[self.champion],
                total=self.totals[self.champion],
            )
        elif self.shared:
            how = Said(
                "{how}, and {who} share the lowest total ({total})",
                how=how,
                who=listed([self.names[s] for s in self.shared]),
                total=self.totals[self.shared[0]],
            )
        return rule, Said("The match is over: {how}", how=how)

    @property
    def carry(self) -> dict[str, Any]:
        """What the next round starts from: how many rounds are played, and so its engine,
        one lower than this one's (the same again after an abandoned round)."""
        played = self.rounds_played + self.counted
        engine = self.engine_number - self.counted
        return {"played": played, "engine": engine if engine >= 0 else None}

    @property
    def acting(self) -> int | None:
        """The seat that must act now; None when any seat may (the engine is looked for
        and nobody has begun) or nobody plays (the round is over, a score pad)."""
        if self.is_over or self.pad or self.stopped:
            return None
        return self.turn

    @property
    def covering(self) -> bool:
        """Every open double must be covered, oldest first, before any other play: the
        seat that laid them has finished its turn (``train.double``)."""
        return bool(self.doubles) and not self.owed

    def value(self, tile: Tile) -> int:
        """What a tile left in hand counts (``train.score``): its pips; 0-0 double_blank."""
        return self.options["double_blank"] if tile == Tile(0, 0) else tile.pips

    def track(self, train: TrainKey) -> Track:
        return self.tracks[self.seats if train == MEXICAN else int(train)]

    def train_name(self, train: TrainKey) -> Said:
        """``Ben's train`` or ``the Mexican Train``."""
        if train == MEXICAN:
            return Said("the Mexican Train")
        return Said("{who}'s train", who=self.names[int(train)])

    def on_table(self) -> dict[Tile, Said]:
        """Where each tile on the table is (``set.unique``), in the players' words."""
        where: dict[Tile, Said] = {}
        if self.placer is not None:
            where[self.engine] = _IN_THE_HUB
        for track in self.tracks:
            if track.tiles:
                on = Said("on {train}", train=self.train_name(track.owner))
                for tile in track.tiles:
                    where[tile] = on
        return where

    def unseen(self) -> tuple[Tile, ...]:
        """Tiles not on the table: in a hand or in the boneyard."""
        seen = self.on_table()
        return tuple(t for t in DominoSet(self.top).tiles if t not in seen)


def trains(state: TrainState) -> tuple[Track, ...]:
    """Every train: each seat's in seat order, then the Mexican Train (empty until a seat
    starts it). Each says its owner, tiles, open end, marker and open double."""
    return state.tracks


def engine_double(state: TrainState) -> Tile:
    """The round's engine double: 12-12 in a double-12 match's first round, one lower
    each round after (``train.rounds``)."""
    return state.engine


def open_doubles(state: TrainState) -> tuple[tuple[Tile, TrainKey], ...]:
    """The open doubles and the trains they lie on, oldest first: the order they must be
    covered in (``train.double``)."""
    found = []
    for train in state.doubles:
        double = state.track(train).open_double
        assert double is not None
        found.append((double, train))
    return tuple(found)


def open_to(state: TrainState, seat: int) -> tuple[TrainKey, ...]:
    """The trains ``seat`` may play on in a turn of its own (``train.marker``): its own,
    every train whose owner's marker is out, and the Mexican Train."""
    return tuple(
        track.owner for track in state.tracks if track.owner in (seat, MEXICAN) or track.marker
    )


def can_no_longer_be_covered(state: TrainState, double: Tile) -> bool:
    """Whether every other tile bearing ``double``'s number is on the table, so nothing
    can ever cover it (``train.double``: it blocks the round). Hands are private, so a
    tile in a hand or in the boneyard might still come."""
    seen = state.on_table()
    return all(t in seen for t in DominoSet(state.top).bearing(double.high) if t != double)


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


def _places(state: TrainState, seat: int) -> Said:
    """The trains ``seat`` may play on, in words."""
    words = []
    for train in sorted(open_to(state, seat), key=lambda t: (t != seat, t == MEXICAN)):
        track = state.track(train)
        if train == seat:
            words.append(Said("{who}'s own train", who=state.names[seat]))
        elif train == MEXICAN and track.tiles:
            words.append(Said("the Mexican Train"))
        elif train == MEXICAN:
            words.append(Said("the Mexican Train (a tile bearing {n} starts it)", n=track.end))
        else:
            words.append(Said("{train} (marker out)", train=state.train_name(train)))
    return listed(words, "or")


def instruction(state: TrainState) -> Said:
    """What must happen now, in words for the table: who acts, and what they may do."""
    names = state.names
    if state.match_end is not None:
        return Said("{end}.", end=state.match_end[1])
    if state.result is not None:
        if state.result.reason == ABANDONED:
            return Said("This round was abandoned: the next round is dealt with the same engine.")
        return Said("This round is tallied.")
    if state.pad:
        return Said("{pad}.", pad=PAD_WORDS)
    if state.ended == DOMINO:
        assert state.out is not None
        return Said(
            "{who} played their last tile: the round is over. Tally what is left in each hand.",
            who=names[state.out],
        )
    if state.ended == BLOCKED:
        return Said(
            "The round is blocked ({why}). Tally what is left in each hand.",
            why=_blocked_words(state),
        )
    engine = state.engine
    if state.placer is None:
        if state.drawer is not None:
            assert state.turn is not None
            return Said(
                "{who} places {engine} in the hub if that draw found it; else {next} draws a tile.",
                who=names[state.drawer],
                engine=engine,
                next=names[state.turn],
            )
        return Said(
            "{engine} is this round's engine: whoever holds it places it in the hub. If "
            "nobody does, {first} draws a tile, then each seat in turn until it is found.",
            engine=engine,
            first=Said("any seat") if state.turn is None else names[state.turn],
        )
    assert state.turn is not None
    who = names[state.turn]
    if state.covering:
        double, train = open_doubles(state)[0]
        head = Said(
            "{double} is open on {train}: it must be covered before anything else.",
            double=double,
            train=state.train_name(train),
        )
        if state.drew:
            return Said(
                "{head} {who} covers it with the drawn tile if it fits, or passes (marker out).",
                head=head,
                who=who,
            )
        if not state.boneyard:
            return Said(
                "{head} {who} covers it, or passes (marker out: the boneyard is empty).",
                head=head,
                who=who,
            )
        return Said("{head} {who} covers it, or draws a tile.", head=head, who=who)
    places = _places(state, state.turn)
    if state.many and state.laid and not state.owed:
        return Said(
            "{who}'s first turn: {who} may lay another tile on {who}'s own train, or pass to "
            "end the turn (no marker: {who} has played).",
            who=who,
        )
    if state.owed:
        double = open_doubles(state)[-1][0]
        head = Said(
            "{who} laid {double} and plays again, on {places}",
            who=who,
            double=double,
            places=places,
        )
    else:
        head = Said("{who} plays a tile on {places}", who=who, places=places)
    if state.drew:
        return Said(
            "{head}: the drawn tile if it fits, or {who} passes (marker out).", head=head, who=who
        )
    if not state.boneyard:
        return Said("{head}, or passes (marker out: the boneyard is empty).", head=head)
    return Said("{head}, or draws a tile.", head=head)


def _blocked_words(state: TrainState) -> Said:
    """Why a blocked round is blocked (``train.end``, ``train.double``)."""
    if state.doubles and can_no_longer_be_covered(state, open_doubles(state)[0][0]):
        double, train = open_doubles(state)[0]
        return Said(
            "{double} on {train} can no longer be covered: every other tile bearing {n} is on "
            "the table",
            double=double,
            train=state.train_name(train),
            n=double.high,
        )
    return Said("the boneyard is empty and every seat has passed in a row")


# ---------------------------------------------------------------------------------------------
# Setting up


def options_for(slug: str, given: Mapping[str, Any] | None, players: int) -> dict[str, Any]:
    """Check a match's options against the number of players: 2 to 8 (``train.deal``),
    a deal the set can serve, and no more rounds than the set has doubles
    (``train.rounds``)."""
    game = preset(slug)
    options = resolve_options(slug, given)
    low, high = game.players
    if not low <= players <= high:
        raise InvalidAction(
            Said(
                "{game} is for {low} to {high} players, not {players}.",
                game=Said(game.title),
                low=low,
                high=high,
                players=players,
            )
        )
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


def start(
    slug: str,
    given: Mapping[str, Any] | None,
    names: Sequence[str],
    leader: int | None = None,
    base: Sequence[int] | None = None,
    carry: Mapping[str, Any] | None = None,
    record: str | None = None,
) -> TrainState:
    """A new round (``train.deal``, ``train.engine``): every hand dealt, the engine not yet
    found. ``leader`` is the seat that begins it (None: the table chooses); ``carry`` what
    the last round's :attr:`TrainState.carry` handed on (None for round 1)."""
    options = options_for(slug, given, len(names))
    seats, top = len(names), options["set"]
    played = int((carry or {}).get("played", 0))
    engine = (carry or {}).get("engine", top - played)
    if not isinstance(engine, int) or not 0 <= engine <= top or played < 0:
        raise InvalidAction(
            Said("Every double of the set has been the engine: the match has no round left."),
            rule="train.rounds",
        )
    size = deal_size(top, seats, options["hand_size"])
    tracks = tuple(Track(s, end=engine) for s in range(seats)) + (Track(MEXICAN, end=engine),)
    nobody = (0,) * seats
    return TrainState(
        game=preset(slug),
        options=options,
        names=tuple(names),
        hands=(size,) * seats,
        boneyard=len(DominoSet(top).tiles) - size * seats,
        tracks=tracks,
        engine_number=engine,
        turn=leader,
        leader=leader,
        first=leader,
        turns=nobody,
        rounds_played=played,
        pad=(record or options["record"]) == "scores",
        base=tuple(base) if base is not None else nobody,
        scores=nobody,
    )


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
        rule, why = state.match_end
        raise IllegalAction(rule, Said("{why}; nothing more is recorded after that.", why=why))
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
        if not state.boneyard:
            raise IllegalAction(
                "train.engine",
                Said(
                    "The boneyard is empty, so {engine} is in a hand: whoever holds it places "
                    "it in the hub.",
                    engine=state.engine,
                ),
            )
        if state.turn is not None and seat != state.turn:
            raise IllegalAction(
                "train.engine",
                Said(
                    "Seats draw for the engine one tile each in turn: it is {turn}'s draw, "
                    "not {who}'s.",
                    turn=state.names[state.turn],
                    who=who,
                ),
            )
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


def _check_undo(state: TrainState) -> None:
    if state.previous is None:
        raise nothing_to_take_back()
    if state.actions - 1 < state.settled:
        raise IllegalAction(
            "procedure.misplay",
            Said(
                "Only the last action can be taken back: every action moves a tile, which "
                "closes the window on the one before."
            ),
        )


# -- the tally ---------------------------------------------------------------------------------


def _declared(state: TrainState, action: Tally) -> dict[int, Any]:
    """Each seat's tiles (a tuple) or pip total (an int), either way for each seat."""
    declared = action.declared
    for seat in declared:
        _check_seat(state, seat)
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


def _pips_of(state: TrainState, held: tuple[Tile, ...] | int) -> int:
    """What a declared hand counts: its pip total, or its tiles' (0-0 as the rule says)."""
    return held if isinstance(held, int) else sum(state.value(t) for t in held)


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
    return counted(
        "Say what {who} still holds.", "Say what {who} still hold.", len(missing), who=who
    )


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
                raise IllegalAction(
                    "set.tiles",
                    Said("{tile} is not in a double-{top} set.", tile=tile, top=state.top),
                )
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
                    twice = Said(
                        "{tile} is declared twice in {who}'s hand; each tile exists once.",
                        tile=tile,
                        who=who,
                    )
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
                "tally.hands",
                Said(
                    "{who} holds {held}, not {declared}.",
                    who=state.names[seat],
                    held=tile_count(state.hands[seat]),
                    declared=tile_count(len(tiles)),
                ),
            )
    _check_hand_tiles(state, hands)
    if len(hands) < state.seats:
        # A total is possible when it lies between the held count of cheapest and of
        # dearest tiles off the table (info.public: as far as the record can tell).
        values = sorted(state.value(t) for t in state.unseen())
        for seat, total in declared.items():
            if isinstance(total, tuple):
                continue
            held = state.hands[seat]
            least, most = sum(values[:held]), sum(values[len(values) - held :]) if held else 0
            if total > most:
                raise IllegalAction(
                    "tally.hands",
                    Said(
                        "{who} holds {held}: at most {most} pips with the tiles off the table, "
                        "not {total}.",
                        who=state.names[seat],
                        held=tile_count(held),
                        most=most,
                        total=total,
                    ),
                )
            if total < least:
                raise IllegalAction(
                    "tally.hands",
                    Said(
                        "{who} holds {held}: at least {least} pips with the tiles off the "
                        "table, not {total}.",
                        who=state.names[seat],
                        held=tile_count(held),
                        least=least,
                        total=total,
                    ),
                )
    pips = tuple(_pips_of(state, declared[s]) for s in range(state.seats))
    if state.ended == DOMINO:
        return RoundResult(state.out, DOMINO, pips, pips)
    return RoundResult(_lowest(pips), BLOCKED, pips, pips)


def _lowest(pips: Sequence[int]) -> int | None:
    """``train.score``: the seat with the fewest pips, None on a tie."""
    low = min(pips)
    seats = [s for s, p in enumerate(pips) if p == low]
    return seats[0] if len(seats) == 1 else None


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
    values = sorted(state.value(t) for t in DominoSet(state.top).tiles if t != state.engine)
    most = sum(values[len(values) - most_held :])
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
    pips = tuple(_pips_of(state, declared[s]) for s in range(state.seats))
    # No tiles, or 0 pips, played out: a seat holding 0-0 counted as 0 declares its tiles.
    out = [s for s in range(state.seats) if declared[s] in ((), 0)]
    if len(out) > 1:
        raise IllegalAction(
            "train.end",
            Said(
                "Only one seat can play out: the round ends the moment a seat plays its last "
                "tile, yet {who} hold nothing.",
                who=listed([state.names[s] for s in out]),
            ),
        )
    if out:
        return RoundResult(out[0], DOMINO, pips, pips)
    return RoundResult(_lowest(pips), BLOCKED, pips, pips)


def check(state: TrainState, action: Action) -> IllegalAction | None:
    """Why ``action`` is illegal now, or None."""
    try:
        apply(state, action)
    except IllegalAction as error:
        return error
    return None


# ---------------------------------------------------------------------------------------------
# Applying


def apply(state: TrainState, action: Action) -> TrainState:
    """The state after ``action``; raises IllegalAction (nothing changes) if it is not
    legal."""
    if isinstance(action, Undo):
        _check_undo(state)
        assert state.previous is not None
        return replace(state.previous, settled=state.settled, logged=state.logged + 1)
    if isinstance(action, Adjust | Abandon | Stop):
        return on_the_record(state, action, stop_winner="low")
    seat = getattr(action, "seat", None)
    if seat is not None:
        _check_seat(state, seat)
    _check_going(state)
    after = _transition(replace(state, last_points=(0,) * state.seats), action)
    # Every action moves a tile in sight of the table, which settles the one before it
    # (procedure.misplay): only the last action can be taken back.
    return replace(
        after,
        actions=state.actions + 1,
        logged=state.logged + 1,
        last=action,
        previous=state,
        settled=state.actions,
    )


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
    if not state.match_over:
        return state
    totals = state.totals
    low = min(totals)
    leaders = tuple(s for s, t in enumerate(totals) if t == low)
    winner = leaders[0] if len(leaders) == 1 else None
    return replace(state, champion=winner, shared=leaders if winner is None else ())


# ---------------------------------------------------------------------------------------------
# What may be done now


def legal_actions(state: TrainState) -> tuple[Action, ...]:
    """Every engine, draw, pass, play and undo :func:`apply` would accept now (tallies
    aside: they depend on hands only the players know; and the table's own entries)."""
    return tuple(a for a in _candidates(state) if check(state, a) is None)


def _candidates(state: TrainState) -> list[Action]:
    found: list[Action] = [Undo()]
    if state.is_over or state.pad or state.stopped:
        return found
    acting: Iterable[int] = range(state.seats) if state.turn is None else (state.turn,)
    if state.placer is None:
        found += [Engine(s, state.engine) for s in range(state.seats)]
        found += [Draw(s) for s in acting]
        return found
    seat = state.turn
    assert seat is not None
    found += [Draw(seat), Pass(seat)]
    seen = state.on_table()
    for track in state.tracks:
        for tile in DominoSet(state.top).bearing(track.end):
            if tile not in seen:
                found.append(TrainPlay(seat, tile, track.owner))
    return found
