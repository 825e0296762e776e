"""Double Domino Havoc (RULES.md §5): every seat moves six tiles from its tray to its
train, one a turn; a double in a discard slot turns play and must be answered.

The referee sees what the table sees (``info.public``): trains, discard slots, tiles out
of play, how many tiles each tray and the boneyard hold, and the tiles a seat took from a
discard slot. Trays are checked when they are declared at the tally.

>>> from referee.actions import Discard, DrawFrom, Respond, Train
>>> state = start("havoc", {}, ["Ana", "Ben", "Caro"])
>>> state = apply(state, DrawFrom(0, "boneyard"))
>>> state = apply(state, Train(0, Tile.parse("9-4"), 9))
>>> state = apply(state, Discard(0, Tile.parse("3-3")))
>>> state.direction, state.names[state.doubles.responder]
(-1, 'Caro')
>>> state = apply(state, Respond(2, match=Tile.parse("3-1")))
>>> state.racks[0].slot, state.names[state.turn], state.racks[0].free_end
(Tile.parse('3-1'), 'Ben', 4)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
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
from referee.corrections import ABANDONED, on_the_record, stopped_words
from referee.errors import IllegalAction, InvalidAction
from referee.round.refusals import check_seat, no_such_seat, nothing_to_take_back
from referee.round.result import RoundResult
from referee.rulebook import Preset, preset, resolve_options
from referee.said import Said, counted, listed, phrase, tiles
from referee.tiles import DominoSet, Tile

SLOTS = 6  # a train's slots, and the tiles each seat keeps in play (havoc.invariant)
CLOCKWISE, COUNTER = 1, -1
DRAW, PLAY, DISCARD = "draw", "play", "discard"  # the steps of a turn (havoc.turn)
TRAIN_FULL, STOPPED = "train", "stopped"  # why a round ended
SMALL_SET_PLAYERS = 6  # havoc.setup: double-9 for up to six, double-12 beyond


# ---------------------------------------------------------------------------------------------
# Racks


@dataclass(frozen=True, slots=True)
class Link:
    """A tile on a train and the half it leaves free for the next."""

    tile: Tile
    free: int


@dataclass(frozen=True)
class Rack:
    """One seat's rack: the tray (private, only its count is public), the train of six
    slots and the discard slot."""

    tray: int = SLOTS
    known: tuple[Tile, ...] = ()  # tray tiles the table saw go in: taken from a discard
    train: tuple[Link, ...] = ()
    slot: Tile | None = None

    @property
    def free_end(self) -> int | None:
        """The number the next train tile must match (None while the train is empty)."""
        return self.train[-1].free if self.train else None

    @property
    def is_full(self) -> bool:
        return len(self.train) == SLOTS

    @property
    def tiles(self) -> tuple[Tile, ...]:
        return tuple(link.tile for link in self.train)

    def taking(self, tile: Tile) -> Rack:
        """The rack after ``tile`` left the tray."""
        known = tuple(t for t in self.known if t != tile)
        return replace(self, tray=self.tray - 1, known=known)


@dataclass(frozen=True, slots=True)
class Doubles:
    """The rule of doubles in progress (``havoc.doubles``): ``double`` lies in the discard
    slot of seat ``slot``, put there by ``placer``; ``responder`` answers it now."""

    double: Tile
    slot: int
    placer: int
    responder: int

    @property
    def number(self) -> int:
        return self.double.high


def direction_of(double: Tile) -> int:
    """``havoc.direction``: an odd double sets play counter-clockwise, an even one
    clockwise; it sets the direction, it never toggles it."""
    return COUNTER if double.high % 2 else CLOCKWISE


# ---------------------------------------------------------------------------------------------
# The round


@dataclass(frozen=True)
class HavocState:
    """Everything the table knows about a round of Double Domino Havoc."""

    game: Preset
    options: Mapping[str, Any]
    names: tuple[str, ...]
    racks: tuple[Rack, ...]
    boneyard: int
    out: tuple[Tile, ...] = ()  # removed from play face up
    direction: int = CLOCKWISE
    turn: int | None = None  # the seat whose turn it is; None before the round's first draw
    step: str = DRAW
    drew: bool = False  # this turn drew a tile (with nothing to draw, nothing is discarded)
    took_from: int | None = None  # the seat whose discard this turn took (havoc.discard-back)
    doubles: Doubles | None = None
    leader: int | None = None  # the seat that must begin the round; None: the table chooses
    first: int | None = None  # the seat that began it
    played: int = 0  # rounds finished before this one
    ended: int | None = None  # the seat whose train filled, until the tally
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
    previous: HavocState | None = field(default=None, compare=False, repr=False)
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
    def number(self) -> int:
        """This round's number in the match, from 1."""
        return self.played + 1

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
        """This round is over and counts as one of the agreed rounds: an abandoned round
        does not (correct.abandon: the next one is dealt as this one was)."""
        return self.result is not None and self.result.reason != ABANDONED

    def abandoned_result(self) -> RoundResult:
        nobody = (0,) * self.seats
        return RoundResult(None, ABANDONED, nobody, nobody)

    @property
    def match_over(self) -> bool:
        if self.stopped:
            return True
        rounds = self.options["rounds"]
        return self.counted and bool(rounds) and self.number >= rounds

    @property
    def match_end(self) -> tuple[str, Said] | None:
        """The rule that ended the match (``havoc.win``) and how, in the players' words;
        None while it goes on."""
        if not self.match_over:
            return None
        rounds = self.options["rounds"]
        how: str
        if self.stop is not None:
            how = stopped_words(self.stop)
        elif rounds == 1:
            how = Said("the one agreed round is played")
        else:
            how = Said("all {rounds} agreed rounds are played", rounds=rounds)
        if self.champion is not None:
            how = Said(
                "{how}, and {who} has the lowest total ({total})",
                how=how,
                who=self.names[self.champion],
                total=self.totals[self.champion],
            )
        elif self.shared:
            how = Said(
                "{how}, and {who} share the lowest total",
                how=how,
                who=listed([self.names[s] for s in self.shared]),
            )
        return "havoc.win", Said("The match is over: {how}", how=how)

    @property
    def carry(self) -> dict[str, Any]:
        """The next round needs to know how many rounds the match has played."""
        return {"played": self.played + self.counted}

    @property
    def acting(self) -> int | None:
        """The seat that must act now: the responder to a double, else the turn's seat."""
        if self.doubles is not None:
            return self.doubles.responder
        return self.turn

    def next_seat(self, seat: int) -> int:
        """The next seat in the current direction of play (``seat.order``)."""
        return (seat + self.direction) % self.seats

    def _sightings(self) -> dict[Tile, tuple[str, dict[str, str]]]:
        """Where each tile the table can see is: the template of its words and their
        parameters. Every action looks tiles up here, and only a refusal words one, so the
        words (a Said each) are made only when asked for."""
        where: dict[Tile, tuple[str, dict[str, str]]] = {
            t: (phrase("out of play"), {}) for t in self.out
        }
        for seat, rack in enumerate(self.racks):
            rack_of = {"owner": self.names[seat]}
            for t in rack.tiles:
                where[t] = (phrase("on {owner}'s train"), rack_of)
            if rack.slot is not None:
                where[rack.slot] = (phrase("in {owner}'s discard slot"), rack_of)
            for t in rack.known:
                where[t] = (phrase("in {owner}'s tray (taken from a discard slot)"), rack_of)
        return where

    def public(self) -> dict[Tile, Said]:
        """Where each tile the table can see is (``set.unique``), in the players' words."""
        return {t: Said(words, **of) for t, (words, of) in self._sightings().items()}

    def seen_at(self, tile: Tile) -> Said | None:
        """Where the table can see ``tile``, in the players' words; None if it cannot."""
        sighting = self._sightings().get(tile)
        return None if sighting is None else Said(sighting[0], **sighting[1])

    def unseen(self) -> tuple[Tile, ...]:
        """Tiles the table has not seen: in the boneyard or in some tray."""
        seen = self._sightings()
        return tuple(t for t in DominoSet(self.top).tiles if t not in seen)

    def holdable(self, seat: int) -> tuple[Tile, ...]:
        """Tiles that may be in ``seat``'s tray: those it took, and the unseen ones while
        its tray has room for any."""
        rack = self.racks[seat]
        return rack.known if len(rack.known) >= rack.tray else rack.known + self.unseen()

    def takeable(self, seat: int) -> tuple[int, ...]:
        """The seats whose discard ``seat`` may take now."""
        return tuple(s for s, rack in enumerate(self.racks) if s != seat and rack.slot is not None)

    def can_draw(self, seat: int) -> bool:
        return self.boneyard > 0 or bool(self.takeable(seat))

    def replacements(self, seat: int) -> tuple[int, ...] | None:
        """Where a matching responder may draw its replacement from: () for the boneyard,
        the seats whose discard it may take once the boneyard is empty, None for nowhere."""
        if self.boneyard:
            return ()
        assert self.doubles is not None
        taking = tuple(s for s in self.takeable(seat) if s != self.doubles.slot)
        return taking or None


def options_for(slug: str, given: Mapping[str, Any] | None, players: int) -> dict[str, Any]:
    """Check a match's options against the number of players (``havoc.setup``): double-9
    serves up to six players, double-12 up to eight; set 0 (the default) picks by players."""
    game = preset(slug)
    options = resolve_options(slug, given)
    if options["set"] == 0:
        options["set"] = 12 if players > SMALL_SET_PLAYERS else 9
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
    if options["set"] == 9 and players > SMALL_SET_PLAYERS:
        raise InvalidAction(
            Said(
                "A double-9 set serves up to {most} players; {players} need the double-12 set.",
                most=SMALL_SET_PLAYERS,
                players=players,
            )
        )
    return options


def start(
    slug: str,
    given: Mapping[str, Any] | None,
    names: Sequence[str],
    leader: int | None = None,
    base: Sequence[int] | None = None,
    carry: Mapping[str, Any] | None = None,
) -> HavocState:
    """A new round (``havoc.setup``): six tiles in every tray, play clockwise. ``leader``
    is the seat that begins it (None: the table chooses, by the first draw)."""
    options = options_for(slug, given, len(names))
    seats = len(names)
    nobody = (0,) * seats
    return HavocState(
        game=preset(slug),
        options=options,
        names=tuple(names),
        racks=(Rack(),) * seats,
        boneyard=len(DominoSet(options["set"]).tiles) - SLOTS * seats,
        turn=leader,
        leader=leader,
        first=leader,
        played=int((carry or {}).get("played", 0)),
        base=tuple(base) if base is not None else nobody,
        scores=nobody,
    )


def next_leader(state: HavocState) -> int | None:
    """Our ruling: the round after begins with the seat clockwise of this round's first."""
    return None if state.first is None else (state.first + 1) % state.seats


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
        raise IllegalAction("havoc.win", Said("This round is over and tallied."))
    if state.ended is not None:
        raise IllegalAction(
            "havoc.win",
            Said(
                "The round is over: {who}'s train is full. Tally the trays.",
                who=state.names[state.ended],
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
        raise IllegalAction(
            "seat.order",
            Said("It is {turn}'s turn, not {who}'s.", turn=state.names[state.turn], who=who),
        )


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
    winner = state.ended
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


def _check_undo(state: HavocState) -> None:
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


def check(state: HavocState, action: Action) -> IllegalAction | None:
    """Why ``action`` is illegal now, or None."""
    try:
        apply(state, action)
    except IllegalAction as error:
        return error
    return None


# ---------------------------------------------------------------------------------------------
# Applying


def apply(state: HavocState, action: Action) -> HavocState:
    """The state after ``action``; raises IllegalAction (nothing changes) if it is not
    legal."""
    if isinstance(action, Undo):
        _check_undo(state)
        assert state.previous is not None
        return replace(state.previous, settled=state.settled, logged=state.logged + 1)
    if isinstance(action, Adjust | Abandon):
        return on_the_record(state, action, stop_winner="low")
    seat = getattr(action, "seat", None)
    if seat is not None:
        _check_seat(state, seat)
    after = _transition(replace(state, last_points=(0,) * state.seats), action)
    after = _skip_empty_draw(after)
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
        after = replace(state, stop=action, result=result, doubles=None, turn=None, ended=None)
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
    return replace(state, ended=seat, turn=None, step=DRAW, doubles=None, took_from=None)


def _settle(state: HavocState) -> HavocState:
    """The match's winner once it is over: the lowest total, or a tie at the bottom."""
    if not state.match_over:
        return state
    totals = state.totals
    low = min(totals)
    leaders = tuple(s for s, t in enumerate(totals) if t == low)
    winner = leaders[0] if len(leaders) == 1 else None
    return replace(state, champion=winner, shared=leaders if winner is None else ())


# ---------------------------------------------------------------------------------------------
# What may be done now


def legal_actions(state: HavocState) -> tuple[Action, ...]:
    """Every draw, train tile, discard, response, pass, stop and undo :func:`apply` would
    accept now (tallies aside: they depend on trays only the players know)."""
    return tuple(a for a in _candidates(state) if check(state, a) is None)


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
