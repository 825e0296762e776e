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
from referee.corrections import ABANDONED, STOPPED, on_the_record, stopped_words
from referee.errors import IllegalAction, InvalidAction
from referee.games.line import RoundResult  # a round's end reads the same in every game
from referee.rulebook import Preset, preset, resolve_options
from referee.tiles import DominoSet, Tile

DOMINO, BLOCKED = "domino", "blocked"  # how a round ended (train.end)
#: train.deal: tiles dealt to each seat, by set, for 2–4, 5–6 and 7–8 players.
DEAL = {9: (10, 8, 6), 12: (15, 12, 10), 15: (20, 16, 12)}
PAD_WORDS = "This round is kept as a score pad: record what is left in each hand"
TrainKey = int | str  # a train: its owner's seat, or MEXICAN


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
class TrainState:
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

    # What the match machinery asks of every game's state.
    pending = None
    last_hits = None
    dominards = False
    muggins = False

    @property
    def seats(self) -> int:
        return len(self.names)

    @property
    def top(self) -> int:
        return self.options["set"]

    @property
    def engine(self) -> Tile:
        """This round's engine double (``train.engine``)."""
        return Tile(self.engine_number, self.engine_number)

    @property
    def number(self) -> int:
        """This round's number in the match, from 1 (an abandoned round is dealt again)."""
        return self.rounds_played + 1

    @property
    def rounds(self) -> int:
        """How many rounds the match has (``train.rounds``)."""
        rounds = self.options["rounds"]
        return self.top + 1 if rounds == "all" else rounds

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(b + s for b, s in zip(self.base, self.scores, strict=True))

    @property
    def is_over(self) -> bool:
        return self.ended is not None or self.result is not None

    @property
    def stopped(self) -> bool:
        return self.stop is not None

    @property
    def counted(self) -> bool:
        """This round is over and counts as one of the match's rounds: an abandoned one
        does not (correct.abandon: the next round replays the same engine)."""
        return self.result is not None and self.result.reason not in (ABANDONED, STOPPED)

    def abandoned_result(self) -> RoundResult:
        nobody = (0,) * self.seats
        return RoundResult(None, ABANDONED, nobody, nobody)

    def stopped_result(self) -> RoundResult:
        return RoundResult(None, STOPPED, (0,) * self.seats, self.scores)

    @property
    def match_over(self) -> bool:
        if self.stopped:
            return True
        return self.counted and (self.engine_number == 0 or self.number >= self.rounds)

    @property
    def match_end(self) -> tuple[str, str] | None:
        """The rule that ended the match (``train.rounds``, or ``correct.abandon`` for a
        stop) and how, in the players' words; None while it goes on."""
        if not self.match_over:
            return None
        if self.stop is not None:
            rule, how = "correct.abandon", stopped_words(self.stop)
        elif self.engine_number == 0:
            rule, how = "train.rounds", "the last round, 0-0's, is played"
        elif self.rounds == 1:
            rule, how = "train.rounds", "the one agreed round is played"
        else:
            rule, how = "train.rounds", f"all {self.rounds} agreed rounds are played"
        if self.champion is not None:
            how += (
                f", and {self.names[self.champion]} has the lowest total "
                f"({self.totals[self.champion]})"
            )
        elif self.shared:
            tied = " and ".join(self.names[s] for s in self.shared)
            how += f", and {tied} share the lowest total ({self.totals[self.shared[0]]})"
        return rule, f"The match is over: {how}"

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

    def track(self, train: TrainKey) -> Track:
        return self.tracks[self.seats if train == MEXICAN else int(train)]

    def train_name(self, train: TrainKey) -> str:
        """``Ben's train`` or ``the Mexican Train``."""
        return "the Mexican Train" if train == MEXICAN else f"{self.names[int(train)]}'s train"

    def on_table(self) -> dict[Tile, str]:
        """Where each tile on the table is (``set.unique``), in the players' words."""
        where: dict[Tile, str] = {}
        if self.placer is not None:
            where[self.engine] = "the engine, in the hub"
        for track in self.tracks:
            for tile in track.tiles:
                where[tile] = f"on {self.train_name(track.owner)}"
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


def _listed(words: Sequence[str], conjunction: str = "or") -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + f" {conjunction} " + words[-1]


def _places(state: TrainState, seat: int) -> str:
    """The trains ``seat`` may play on, in words."""
    words = []
    for train in sorted(open_to(state, seat), key=lambda t: (t != seat, t == MEXICAN)):
        track = state.track(train)
        if train == seat:
            words.append(f"{state.names[seat]}'s own train")
        elif train == MEXICAN:
            started = "" if track.tiles else f" (a tile bearing {track.end} starts it)"
            words.append(f"the Mexican Train{started}")
        else:
            words.append(f"{state.train_name(train)} (marker out)")
    return _listed(words)


def instruction(state: TrainState) -> str:
    """What must happen now, in words for the table: who acts, and what they may do."""
    names = state.names
    if state.match_end is not None:
        return state.match_end[1] + "."
    if state.result is not None:
        if state.result.reason == ABANDONED:
            return "This round was abandoned: the next round is dealt with the same engine."
        return "This round is tallied."
    if state.pad:
        return PAD_WORDS + "."
    if state.ended == DOMINO:
        assert state.out is not None
        return (
            f"{names[state.out]} played their last tile: the round is over. "
            "Tally what is left in each hand."
        )
    if state.ended == BLOCKED:
        return f"The round is blocked ({_blocked_words(state)}). Tally what is left in each hand."
    engine = state.engine
    if state.placer is None:
        if state.drawer is not None:
            return (
                f"{names[state.drawer]} places {engine} in the hub if that draw found it; "
                f"else {names[state.turn]} draws a tile."  # type: ignore[index]
            )
        first = "any seat" if state.turn is None else names[state.turn]
        return (
            f"{engine} is this round's engine: whoever holds it places it in the hub. If "
            f"nobody does, {first} draws a tile, then each seat in turn until it is found."
        )
    assert state.turn is not None
    who = names[state.turn]
    if state.covering:
        double, train = open_doubles(state)[0]
        head = (
            f"{double} is open on {state.train_name(train)}: it must be covered before "
            "anything else."
        )
        if state.drew:
            return (
                head + f" {who} covers it with the drawn tile if it fits, or passes (marker out)."
            )
        if not state.boneyard:
            return head + f" {who} covers it, or passes (marker out: the boneyard is empty)."
        return head + f" {who} covers it, or draws a tile."
    places = _places(state, state.turn)
    if state.many and state.laid and not state.owed:
        return (
            f"{who}'s first turn: {who} may lay another tile on {who}'s own train, or pass to "
            f"end the turn (no marker: {who} has played)."
        )
    if state.owed:
        double = open_doubles(state)[-1][0]
        head = f"{who} laid {double} and plays again, on {places}"
    else:
        head = f"{who} plays a tile on {places}"
    if state.drew:
        return f"{head}: the drawn tile if it fits, or {who} passes (marker out)."
    if not state.boneyard:
        return f"{head}, or passes (marker out: the boneyard is empty)."
    return f"{head}, or draws a tile."


def _blocked_words(state: TrainState) -> str:
    """Why a blocked round is blocked (``train.end``, ``train.double``)."""
    if state.doubles and can_no_longer_be_covered(state, open_doubles(state)[0][0]):
        double, train = open_doubles(state)[0]
        return (
            f"{double} on {state.train_name(train)} can no longer be covered: every other "
            f"tile bearing {double.high} is on the table"
        )
    return "the boneyard is empty and every seat has passed in a row"


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
        raise InvalidAction(f"{game.title} is for {low} to {high} players, not {players}.")
    top = options["set"]
    tiles = len(DominoSet(top).tiles)
    size = deal_size(top, players, options["hand_size"])
    if size * players > tiles:
        raise InvalidAction(
            f"A double-{top} set has {tiles} tiles: not enough to deal {size} each to "
            f"{players} players (at most {tiles // players} each).",
            rule="train.deal",
        )
    if options["rounds"] != "all" and options["rounds"] > top + 1:
        raise InvalidAction(
            f"A double-{top} set has {top + 1} doubles, one a round: at most {top + 1} "
            f"rounds, not {options['rounds']}.",
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
            "Every double of the set has been the engine: the match has no round left.",
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
    if seat >= state.seats:
        raise IllegalAction(
            "seat.order", f"There is no seat {seat}; this match has seats 0 to {state.seats - 1}."
        )


def _check_going(state: TrainState) -> None:
    """The match and the round still go on; else the rule that ended them."""
    if state.match_end is not None:
        rule, why = state.match_end
        raise IllegalAction(rule, f"{why}; nothing more is recorded after that.")
    if state.result is not None:
        if state.result.reason == ABANDONED:
            raise IllegalAction(
                "correct.abandon",
                "This round was abandoned; the next round is dealt with the same engine.",
            )
        raise IllegalAction(
            "train.end", "This round is over and tallied; the next round has begun."
        )


def _check_playing(state: TrainState, who: str, doing: str) -> None:
    """The round is being played: not ended, not a score pad."""
    if state.pad:
        raise IllegalAction("pad.record", f"{PAD_WORDS}: {who} cannot {doing} in it.")
    if state.ended is not None:
        why = (
            f"{state.names[state.out]} played their last tile"
            if state.ended == DOMINO and state.out is not None
            else f"it is blocked: {_blocked_words(state)}"
        )
        raise IllegalAction(
            "train.end",
            f"The round is over ({why}), so {who} cannot {doing}: tally what is left in each hand.",
        )


def _check_engine_found(state: TrainState, seat: int, doing: str) -> None:
    """Nothing is played before the engine is in the hub (``train.engine``)."""
    if state.placer is not None:
        return
    holder = "whoever holds it places it in the hub"
    if state.drawer is not None:
        holder = f"{state.names[state.drawer]} places it if the last draw found it"
    nxt = "a seat" if state.turn is None else state.names[state.turn]
    raise IllegalAction(
        "train.engine",
        f"The engine {state.engine} is not in the hub yet, so {state.names[seat]} cannot "
        f"{doing}: {holder}; if nobody does, {nxt} draws a tile.",
    )


def _check_turn(state: TrainState, seat: int, doing: str) -> None:
    if state.turn is not None and seat != state.turn:
        raise IllegalAction(
            "seat.order",
            f"It is {state.names[state.turn]}'s turn, not {state.names[seat]}'s, so "
            f"{state.names[seat]} cannot {doing} now.",
        )


def _check_engine(state: TrainState, action: Engine) -> None:
    seat, who, tile = action.seat, state.names[action.seat], action.tile
    DominoSet(state.top).check(tile)
    engine = state.engine
    if state.placer is not None:
        raise IllegalAction(
            "train.engine",
            f"The engine {engine} is already in the hub: {state.names[state.placer]} placed it.",
        )
    if tile != engine:
        raise IllegalAction(
            "train.engine",
            f"This round's engine is {engine}, not {tile}: the rounds count down one double "
            f"a round from {state.top}-{state.top}, so only {engine} goes in the hub now.",
        )
    if state.drawer is not None and seat != state.drawer:
        raise IllegalAction(
            "train.engine",
            f"Nobody held {engine} after the deal, so it is found by drawing: only "
            f"{state.names[state.drawer]}, who drew last, can have found it now; else "
            f"{state.names[state.turn]} draws next, not {who}.",  # type: ignore[index]
        )


def _check_draw(state: TrainState, action: Draw) -> None:
    seat, who = action.seat, state.names[action.seat]
    if action.count != 1:
        raise IllegalAction("train.draw", f"A draw is one tile at a time, not {action.count}.")
    if state.placer is None:
        if not state.boneyard:
            raise IllegalAction(
                "train.engine",
                f"The boneyard is empty, so {state.engine} is in a hand: whoever holds it "
                "places it in the hub.",
            )
        if state.turn is not None and seat != state.turn:
            raise IllegalAction(
                "train.engine",
                f"Seats draw for the engine one tile each in turn: it is "
                f"{state.names[state.turn]}'s draw, not {who}'s.",
            )
        return
    _check_turn(state, seat, "draw")
    if state.laid and not state.owed:
        raise IllegalAction(
            "train.draw",
            f"{who} has played this turn, and only a seat that has not played draws: "
            f"{who} lays another tile on {who}'s own train, or passes to end the turn.",
        )
    if state.drew:
        raise IllegalAction(
            "train.draw",
            f"{who} has drawn a tile already (only one per turn): {who} plays it if it fits, "
            "or passes and puts out the marker.",
        )
    if not state.boneyard:
        raise IllegalAction(
            "train.draw",
            f"The boneyard is empty: {who} plays if {who} can, else passes and puts out "
            "the marker.",
        )


def _check_pass(state: TrainState, action: Pass) -> None:
    seat, who = action.seat, state.names[action.seat]
    _check_turn(state, seat, "pass")
    if state.laid and not state.owed:
        return  # first_turn many: a seat that played ends its turn so
    if not state.drew and state.boneyard:
        raise IllegalAction(
            "train.draw",
            f"{who} cannot pass yet: draw first. A seat that cannot play draws one tile "
            f"({state.boneyard} left in the boneyard) and plays it if it fits; only then "
            "does it pass and put out its marker.",
        )


def _check_play(state: TrainState, action: TrainPlay) -> Track:
    """The train ``action`` lays its tile on, if it may."""
    seat, who, tile, train = action.seat, state.names[action.seat], action.tile, action.train
    _check_turn(state, seat, "play")
    DominoSet(state.top).check(tile)
    where = state.on_table().get(tile)
    if where is not None:
        raise IllegalAction("set.unique", f"{tile} is {where}, not in {who}'s hand.")
    if train != MEXICAN and not 0 <= int(train) < state.seats:
        raise IllegalAction(
            "train.trains",
            f"There is no seat {train}, so no train of theirs: the trains are each seat's "
            f"(0 to {state.seats - 1}) and the Mexican Train.",
        )
    track = state.track(train)
    if state.covering:
        double, oldest = open_doubles(state)[0]
        if train != oldest:
            later = [f"{d} on {state.train_name(t)}" for d, t in open_doubles(state)[1:]]
            more = f" (then {_listed(later, 'and')})" if later else ""
            raise IllegalAction(
                "train.double",
                f"{double} is open on {state.train_name(oldest)}: it must be covered before "
                f"anything else{more}. {who} covers it, or draws a tile and covers it with "
                "that if it fits, else passes.",
            )
        if not tile.has(double.high):
            raise IllegalAction(
                "train.double",
                f"{tile} does not cover {double} on {state.train_name(oldest)}: only a tile "
                f"bearing {double.high} does.",
            )
        return track
    if state.many and state.laid and not state.owed and train != seat:
        raise IllegalAction(
            "train.turn",
            f"In this first turn {who} lays more tiles on {who}'s own train only, one after "
            f"another; {state.train_name(train)} waits for a later turn. {who} lays another "
            "tile on their own train, or passes to end the turn.",
        )
    if train not in (seat, MEXICAN) and not track.marker:
        owner = state.names[int(train)]
        raise IllegalAction(
            "train.marker",
            f"{owner}'s train is {owner}'s own: {who} may play on it only while it carries "
            f"{owner}'s marker. {who} may play on {_places(state, seat)}.",
        )
    if not tile.has(track.end):
        name = state.train_name(train)
        if not track.tiles:
            raise IllegalAction(
                "train.trains",
                f"{tile} cannot start {name}: a train's first tile bears the engine's "
                f"number, {track.end}, at the hub end.",
            )
        raise IllegalAction(
            "train.trains",
            f"{tile} does not match {name}: its open end is {track.end}, so the next tile "
            f"there bears a {track.end}.",
        )
    return track


def _check_undo(state: TrainState) -> None:
    if state.previous is None:
        raise IllegalAction("procedure.misplay", "There is nothing to take back in this round.")
    if state.actions - 1 < state.settled:
        raise IllegalAction(
            "procedure.misplay",
            "Only the last action can be taken back: every action moves a tile, which closes "
            "the window on the one before.",
        )


# -- the tally ---------------------------------------------------------------------------------


def _value(state: TrainState, tile: Tile) -> int:
    """What a tile left in hand counts (``train.score``): its pips; 0-0 double_blank."""
    return state.options["double_blank"] if tile == Tile(0, 0) else tile.pips


def _tiles(n: int) -> str:
    return f"{n} tile{'s' if n != 1 else ''}"


def _declared(state: TrainState, action: Tally) -> dict[int, Any]:
    declared = dict(action.hands if action.hands is not None else action.pips or ())
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
        verb = "holds" if len(missing) == 1 else "hold"
        nothing = " (nothing, for a seat that played out)" if state.pad else ""
        raise IllegalAction(
            "tally.hands", f"Say what {_listed(missing, 'and')} still {verb}{nothing}."
        )
    empty: Any = () if action.hands is not None else 0
    return {seat: declared.get(seat, empty) for seat in range(state.seats)}


def _check_hand_tiles(state: TrainState, hands: Mapping[int, tuple[Tile, ...]]) -> None:
    """Every declared tile is in the set, in one hand only, and not on the table."""
    where: dict[Tile, int] = {}
    table = state.on_table()
    if state.pad:
        table = {state.engine: "the engine, in the hub"}
    for seat, tiles in sorted(hands.items()):
        who = state.names[seat]
        for tile in tiles:
            if tile not in DominoSet(state.top):
                raise IllegalAction("set.tiles", f"{tile} is not in a double-{state.top} set.")
            if tile in table:
                raise IllegalAction("set.unique", f"{tile} is {table[tile]}, not in {who}'s hand.")
            if tile in where:
                other = state.names[where[tile]]
                place = (
                    f"twice in {who}'s hand" if other == who else f"in {other}'s and {who}'s hands"
                )
                raise IllegalAction(
                    "set.unique", f"{tile} is declared {place}; each tile exists once."
                )
            where[tile] = seat


def _check_tally(state: TrainState, action: Tally) -> RoundResult:
    if state.pad:
        return _tally_pad(state, action)
    if state.ended is None:
        raise IllegalAction(
            "train.end",
            "The round is still on: it ends when a seat plays its last tile, or when the "
            "boneyard is empty and every seat has passed in a row.",
        )
    declared = _declared(state, action)
    if action.hands is not None:
        for seat, tiles in declared.items():
            if len(tiles) != state.hands[seat]:
                raise IllegalAction(
                    "tally.hands",
                    f"{state.names[seat]} holds {_tiles(state.hands[seat])}, not "
                    f"{_tiles(len(tiles))}.",
                )
        _check_hand_tiles(state, declared)
        pips = tuple(sum(_value(state, t) for t in declared[s]) for s in range(state.seats))
    else:
        # A total is possible when it lies between the held count of cheapest and of
        # dearest tiles off the table (info.public: as far as the record can tell).
        values = sorted(_value(state, t) for t in state.unseen())
        for seat, total in declared.items():
            held = state.hands[seat]
            least, most = sum(values[:held]), sum(values[len(values) - held :]) if held else 0
            if not least <= total <= most:
                bound = f"at most {most}" if total > most else f"at least {least}"
                raise IllegalAction(
                    "tally.hands",
                    f"{state.names[seat]} holds {_tiles(held)}: {bound} pips with the tiles "
                    f"off the table, not {total}.",
                )
        pips = tuple(declared[s] for s in range(state.seats))
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
    if action.hands is not None:
        for seat, tiles in declared.items():
            if len(tiles) > most_held:
                raise IllegalAction(
                    "pad.record",
                    f"{state.names[seat]} cannot hold {_tiles(len(tiles))}: the deal "
                    f"({state.hands[seat]}) and the whole boneyard ({state.boneyard}) give "
                    f"at most {most_held}.",
                )
        _check_hand_tiles(state, declared)
        pips = tuple(sum(_value(state, t) for t in declared[s]) for s in range(state.seats))
        out = [s for s in range(state.seats) if not declared[s]]
    else:
        values = sorted(_value(state, t) for t in DominoSet(state.top).tiles if t != state.engine)
        most = sum(values[len(values) - most_held :])
        for seat, total in declared.items():
            if total > most:
                raise IllegalAction(
                    "pad.record",
                    f"{state.names[seat]} cannot hold {total} pips: at most {most_held} "
                    f"tiles (the deal and the whole boneyard), {most} pips at most.",
                )
        pips = tuple(declared[s] for s in range(state.seats))
        out = [s for s in range(state.seats) if not pips[s]]
    if len(out) > 1:
        raise IllegalAction(
            "train.end",
            f"Only one seat can play out: the round ends the moment a seat plays its last "
            f"tile, yet {_listed([state.names[s] for s in out], 'and')} hold nothing.",
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


def _transition(state: TrainState, action: Action) -> TrainState:
    if isinstance(action, Tally):
        result = _check_tally(state, action)
        scores = tuple(s + p for s, p in zip(state.scores, result.points, strict=True))
        after = replace(state, result=result, scores=scores, last_points=result.points, turn=None)
        return _settle(after)
    doing = {Engine: "place the engine", Draw: "draw", Pass: "pass", TrainPlay: "play"}
    if type(action) not in doing:
        raise IllegalAction(
            "train.turn",
            f"Mexican Train has no such {action.kind}: a play names its train, a draw is one tile.",
        )
    seat = action.seat  # type: ignore[attr-defined]
    _check_playing(state, state.names[seat], doing[type(action)])
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
    _check_engine_found(state, seat, doing[type(action)])
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
