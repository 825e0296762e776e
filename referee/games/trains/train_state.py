"""What the table knows about a round of Mexican Train: the trains, the hands' counts,
the open doubles; where a tile fits, and what the table is asked to do now.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee.actions import (
    MEXICAN,
)  # fmt: skip
from referee.corrections import ABANDONED
from referee.frozen import replace
from referee.games.trains.rounds import TrainRounds
from referee.round.result import BLOCKED, DOMINO
from referee.rulebook import Preset
from referee.said import Said, listed
from referee.tiles import DominoSet, Tile

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
    pad: bool = False  # pad.record: a score-pad round, recorded by its tally alone

    @property
    def engine(self) -> Tile:
        """This round's engine double (``train.engine``)."""
        return Tile(self.engine_number, self.engine_number)

    @property
    def placed(self) -> bool:
        """The round's engine is in the hub."""
        return self.placer is not None

    @property
    def match_over(self) -> bool:
        if self.stopped:
            return True
        return self.counted and (self.engine_number == 0 or self.number >= self.rounds)

    def played_down(self) -> Said | None:
        # The match ends at 0-0's round even when more rounds were agreed (train.rounds).
        return Said("the last round, 0-0's, is played") if self.engine_number == 0 else None

    @property
    def carry(self) -> dict[str, Any]:
        """What the next round starts from: how many rounds are played, and so its engine,
        one lower than this one's (the same again after an abandoned round)."""
        played = self.played + self.counted
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
