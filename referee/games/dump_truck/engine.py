"""Dump Truck's reducer: the game's state, its checks, one more action, what is legal
now."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from referee.actions import (
    Action,
    Flip,
    Load,
    Replace,
    Return,
    Shift,
    Take,
    Undo,
    Unload,
)  # fmt: skip
from referee.corrections import STOPPED, stopped_words
from referee.errors import IllegalAction, InvalidAction
from referee.frozen import replace
from referee.games.dump_truck.truck import (
    COLS,
    POOL_EMPTY,
    ROWS,
    STALLED,
    TOP,
    Score,
    Truck,
    _joined,
    best,
)
from referee.round.core import Deal, RoundCore, Starter
from referee.round.reducer import Reducer
from referee.round.refusals import check_players, check_seat
from referee.rulebook import Preset, preset, resolve_options
from referee.said import Said, phrase
from referee.tiles import DominoSet, Tile

# ---------------------------------------------------------------------------------------------
# The game


@dataclass(frozen=True)
class TruckResult:
    """The end of the game (``truck.end``): why, and every truck's last score."""

    winner: int | None
    reason: str
    points: tuple[int, ...]  # everything each seat scored in the game
    last_loads: tuple[Score, ...] = ()  # each truck as it stood, scored
    pips: tuple[int, ...] = ()  # no tally in Dump Truck
    findings: tuple = ()
    bonus: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "reason": self.reason,
            "pips": {},
            "points": {str(seat): p for seat, p in enumerate(self.points) if p},
        }


@dataclass(frozen=True)
class TruckState(RoundCore):
    """Everything the table knows about a game of Dump Truck (``info.public``): every tile
    drawn is named as it is taken, so only the face-down pool is unknown."""

    game: Preset
    options: Mapping[str, Any]
    names: tuple[str, ...]
    trucks: tuple[Truck, ...]
    holding: tuple[Tile | None, ...]  # each seat's drawn tile, until loaded or returned
    sources: tuple[str | None, ...]  # where each held tile came from: "pool" or "face-up"
    drawn: tuple[bool, ...]  # who has drawn this turn
    face_down: int
    face_up: tuple[Tile, ...] = ()  # the pool's face-up tiles that may be taken now
    fresh: tuple[Tile, ...] = ()  # put back face up this turn: they may be taken next turn
    out: tuple[Tile, ...] = ()  # unloaded: out of the game
    turn_number: int = 1
    dry: bool = False  # the face-down pool was empty when this turn began (truck.end)
    placed_any: bool = False  # a domino was placed in a truck this turn (truck.end)
    tosses: tuple[Flip, ...] = ()  # coins tossed this turn (truck.draw)
    last_load: Score | None = None  # what the last unload scored

    # What the match machinery asks of every game's state.
    leader = None
    turn = None

    @property
    def carry(self) -> dict[str, Any]:
        return {}  # a game is one round: nothing carries over

    @property
    def top(self) -> int:
        return TOP

    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def match_over(self) -> bool:
        return self.result is not None

    @property
    def match_end(self) -> tuple[str, Said] | None:
        """The rule that ended the game (``truck.end``) and how, in the players' words; None
        while it goes on."""
        ended = self._end_why()
        if ended is None:
            return None
        rule, why = ended
        return rule, Said("The game is over: {why}", why=why)

    def _end_why(self) -> tuple[str, str] | None:
        """The rule that ended the game and why, as a clause ("the table stopped it"): the
        banner and a refusal after the end each put it in a sentence of their own."""
        if self.stop is not None:
            return "correct.abandon", stopped_words(self.stop)
        if self.result is None:
            return None
        if self.result.reason == POOL_EMPTY:
            return "truck.end", Said("the pool and the hands are empty")
        return "truck.end", Said(
            "a whole turn passed with the face-down pool empty and nothing placed"
        )

    def abandoned_result(self) -> TruckResult:
        raise IllegalAction(
            "correct.abandon",
            Said(
                "Dump Truck is one game, not rounds: stop the match instead (the totals "
                "decide, or nobody wins)."
            ),
        )

    def stopped_result(self) -> TruckResult:
        return TruckResult(None, STOPPED, self.scores)

    @property
    def waiting(self) -> tuple[int, ...]:
        """The seats that still draw this turn."""
        if self.result is not None or not self.takeable:
            return ()
        return tuple(s for s in range(self.seats) if not self.drawn[s])

    @property
    def takeable(self) -> int:
        return self.face_down + len(self.face_up)

    @property
    def pool(self) -> int:
        """Every tile still in the pool, face down or up."""
        return self.face_down + len(self.face_up) + len(self.fresh)

    def unseen(self) -> tuple[Tile, ...]:
        """The tiles that may still lie face down in the pool: every tile nobody has named."""
        named = self.named()
        return tuple(t for t in DominoSet(TOP).tiles if t not in named)

    def named(self) -> dict[Tile, Said]:
        """Where each tile the table has seen is (``set.unique``), in the players' words."""
        where: dict[Tile, Said] = {}
        for t in self.face_up + self.fresh:
            where[t] = Said("face up in the pool")
        for t in self.out:
            where[t] = Said("out of the game (unloaded)")
        for seat, (truck, held) in enumerate(zip(self.trucks, self.holding, strict=True)):
            for t in truck.tiles:
                where[t] = Said("in {who}'s truck", who=self.names[seat])
            if held is not None:
                where[held] = Said("in {who}'s hand", who=self.names[seat])
        return where

    @property
    def swaps_allowed(self) -> bool:
        """Whether a drawn domino may replace one in a truck (``truck.replace``)."""
        return not (self.options["no_shift"] or self.options["no_replace"])

    def disputable(self, seat: int) -> tuple[tuple[int, Tile], ...]:
        """(holder, tile) of the tiles drawn this turn that ``seat`` may say it wanted too
        (``truck.draw``): a face-up tile, or any tile once the pool has nothing else."""
        return tuple(
            (other, held)
            for other, held in enumerate(self.holding)
            if held is not None
            and other != seat
            and (self.sources[other] == "face-up" or self.takeable == 0)
        )

    def ahead(self, a: int, b: int) -> bool | None:
        """Whether seat ``a`` chooses before seat ``b`` (``truck.draw``): the lower score
        first, a tie by this turn's coin; None while a tie has no coin yet."""
        totals = self.totals
        if totals[a] != totals[b]:
            return totals[a] < totals[b]
        for toss in reversed(self.tosses):
            if set(toss.seats) == {a, b}:
                return toss.first == a
        return None


def options_for(slug: str, given: Mapping[str, Any] | None, players: int) -> dict[str, Any]:
    """Check a match's options against the game and the number of players."""
    game = preset(slug)
    options = resolve_options(slug, given)
    check_players(game, players)
    return options


def _deal(deal: Deal) -> TruckState:
    """A new game: every truck empty, every tile face down in the pool."""
    seats = deal.seats
    return TruckState(
        **deal.opening(),
        trucks=(Truck(),) * seats,
        holding=(None,) * seats,
        sources=(None,) * seats,
        drawn=(False,) * seats,
        face_down=len(DominoSet(TOP).tiles),
    )


start = Starter(options_for, _deal)


def next_leader(state: TruckState) -> int | None:
    return None


# ---------------------------------------------------------------------------------------------
# Checks: each raises IllegalAction naming the rule, or returns what the action does.


def _check_seat(state: TruckState, seat: int) -> None:
    check_seat(state.seats, seat)
    ended = state._end_why()
    if ended is not None:
        rule, why = ended
        raise IllegalAction(rule, Said("The game is over: {why}.", why=why))


def _held(state: TruckState, seat: int, tile: Tile, doing: Said) -> None:
    held = state.holding[seat]
    who = state.names[seat]
    if held is None:
        raise IllegalAction(
            "truck.load",
            Said(
                "{who} holds no domino to {doing}: draw one from the pool first.",
                who=who,
                doing=doing,
            ),
        )
    if held != tile:
        raise IllegalAction(
            "truck.load", Said("{who} holds {held}, not {tile}.", who=who, held=held, tile=tile)
        )


def _names(state: TruckState, seats: Iterable[int]) -> Said:
    return _joined([state.names[s] for s in seats], phrase("{first}, {then}"))


def _check_take(state: TruckState, action: Take) -> int | None:
    """The seat whose tile this take claims (``truck.draw``), or None."""
    seat, tile, who = action.seat, action.tile, state.names[action.seat]
    DominoSet(TOP).check(tile)
    if state.holding[seat] is not None:
        raise IllegalAction(
            "truck.draw",
            Said(
                "{who} already holds {held}: load it or return it to the pool first.",
                who=who,
                held=state.holding[seat],
            ),
        )
    if state.drawn[seat]:
        raise IllegalAction(
            "truck.draw",
            Said(
                "{who} has drawn this turn. The next turn begins when every seat has drawn and "
                "placed its domino; still to draw: {waiting}.",
                who=who,
                waiting=_names(state, state.waiting),
            )
            if state.waiting
            else Said(
                "{who} has drawn this turn. The next turn begins when every seat has placed "
                "its domino.",
                who=who,
            ),
        )
    if tile in state.fresh:
        raise IllegalAction(
            "truck.draw",
            Said(
                "{tile} was put back face up this turn, after the draw: it can be taken next turn.",
                tile=tile,
            ),
        )
    for other, held in enumerate(state.holding):
        if held == tile and other != seat:
            return _check_claim(state, action, other)
    if action.source == "face-up" and tile in state.face_up:
        return None
    where = state.named().get(tile)
    if action.source == "face-up" and where is None:
        up = _joined(state.face_up, phrase("{first}, {then}")) if state.face_up else Said("none")
        raise IllegalAction(
            "truck.draw",
            Said(
                "{tile} is not face up in the pool: it is face down in the pool. Face up: {up}.",
                tile=tile,
                up=up,
            ),
        )
    if where is not None:
        whence = (
            Said("be taken face up")
            if action.source == "face-up"
            else Said("come from the face-down pool")
        )
        if tile in state.face_up:
            raise IllegalAction(
                "set.unique",
                Said(
                    "{tile} cannot {whence}: it is {where} (take it from the face-up tiles).",
                    tile=tile,
                    whence=whence,
                    where=where,
                ),
            )
        raise IllegalAction(
            "set.unique",
            Said("{tile} cannot {whence}: it is {where}.", tile=tile, whence=whence, where=where),
        )
    return None


def _check_claim(state: TruckState, action: Take, other: int) -> int:
    """Two seats want one tile: the lower score chooses first, a tie by a coin
    (``truck.draw``). Only a face-up tile, or the last tile of the pool, is wanted by two."""
    seat, tile = action.seat, action.tile
    who, holder = state.names[seat], state.names[other]
    contested = action.source == state.sources[other] and (other, tile) in state.disputable(seat)
    if not contested:
        raise IllegalAction(
            "set.unique",
            Said(
                "{tile} is in {holder}'s hand; draw another tile from the pool.",
                tile=tile,
                holder=holder,
            ),
        )
    first = state.ahead(seat, other)
    totals = state.totals
    if first is None:
        raise IllegalAction(
            "truck.draw",
            Said(
                "{who} and {holder} both want {tile} and are tied on {score}: flip the coin "
                "to see who chooses first.",
                who=who,
                holder=holder,
                tile=tile,
                score=totals[seat],
            ),
        )
    if not first:
        why = (
            Said(
                "{holder} has the lower score ({low} to {high})",
                holder=holder,
                low=totals[other],
                high=totals[seat],
            )
            if totals[other] < totals[seat]
            else Said("{holder} won the coin", holder=holder)
        )
        raise IllegalAction(
            "truck.draw",
            Said(
                "{tile} stays with {holder}: when two want one tile, {why} and chooses first.",
                tile=tile,
                holder=holder,
                why=why,
            ),
        )
    return other


def _check_load(state: TruckState, action: Load) -> None:
    _held(state, action.seat, action.tile, Said("load"))
    refusal = state.trucks[action.seat].refusal(action.cells, action.tile)
    if refusal is not None:
        raise refusal


def _check_return(state: TruckState, action: Return) -> None:
    _held(state, action.seat, action.tile, Said("return"))


def _check_replace(state: TruckState, action: Replace) -> Truck:
    """The truck after the swap."""
    if not state.swaps_allowed:
        raise IllegalAction(
            "truck.replace",
            Said("House rule: dominoes stay where they were loaded; load or return the one held."),
        )
    _held(state, action.seat, action.tile, Said("swap in"))
    truck = state.trucks[action.seat]
    if truck.holding(action.out) is None:
        raise IllegalAction(
            "truck.replace",
            Said("{tile} is not in {who}'s truck.", tile=action.out, who=state.names[action.seat]),
        )
    emptied = truck.without(action.out)
    refusal = emptied.refusal(action.cells, action.tile)
    if refusal is not None:
        raise refusal
    after = emptied.with_tile(action.tile, action.cells)
    if action.to is not None:
        if set(action.to) == set(truck.holding(action.out).cells):  # type: ignore[union-attr]
            raise IllegalAction(
                "truck.replace",
                Said(
                    "{tile} must go to another place in the truck, or face up to the pool.",
                    tile=action.out,
                ),
            )
        refusal = after.refusal(action.to, action.out)
        if refusal is not None:
            raise refusal
        after = after.with_tile(action.out, action.to)
    return after


def _check_shift(state: TruckState, action: Shift) -> Truck:
    if state.options["truck_template"] or state.options["no_shift"]:
        rule = "truck.shape" if state.options["truck_template"] else "truck.replace"
        raise IllegalAction(
            rule, Said("House rule: the truck's contents stay where they were placed.")
        )
    truck = state.trucks[action.seat]
    if not truck.placed:
        raise IllegalAction("truck.shape", Said("The truck is empty: there is nothing to shift."))
    if (action.rows, action.cols) not in truck.shifts():
        raise IllegalAction(
            "truck.shape",
            Said(
                "That shift moves nothing or pushes dominoes out of the truck; the contents "
                "must stay inside its {rows} rows and {columns} columns.",
                rows=ROWS,
                columns=COLS,
            ),
        )
    return truck.shifted(action.rows, action.cols)


def _check_unload(state: TruckState, action: Unload) -> Score:
    who = state.names[action.seat]
    held = state.holding[action.seat]
    if held is not None:
        raise IllegalAction(
            "truck.unload",
            Said(
                "{who} holds {held}: load it or return it first, then unload.", who=who, held=held
            ),
        )
    truck = state.trucks[action.seat]
    if not truck.placed:
        raise IllegalAction(
            "truck.unload", Said("{who}'s truck is empty: there is nothing to unload.", who=who)
        )
    if action.blank_as is not None and state.options["blanks"] != "wild":
        raise IllegalAction(
            "truck.blanks", Said("Blanks are wild only under the house rule of wild blanks.")
        )
    if not action.score:
        return Score(0, ())
    return best(truck, state.options["blanks"], action.blank_as)


def _check_flip(state: TruckState, action: Flip) -> None:
    # A flip that cannot be a toss between two tied seats is refused as unreadable (as a
    # tile outside the set is), but still under the rule that tosses the coin.
    if len(action.seats) != 2:
        raise InvalidAction(
            Said(
                "A coin settles a tie between two seats, not {n}: toss it for two seats at a time.",
                n=len(action.seats),
            ),
            rule="truck.draw",
        )
    for s in action.seats:
        _check_seat(state, s)
    a, b = action.seats
    if a == b:
        raise InvalidAction(
            Said(
                "A coin is tossed between two different seats, not {who} and {who}.",
                who=state.names[a],
            ),
            rule="truck.draw",
        )
    if action.first not in action.seats:
        raise InvalidAction(
            Said(
                "The coin was tossed between {a} and {b}: the seat that chooses first is one "
                "of them, not seat {seat}.",
                a=state.names[a],
                b=state.names[b],
                seat=action.first,
            ),
            rule="truck.draw",
        )
    totals = state.totals
    settled = state.ahead(a, b)
    if totals[a] == totals[b] and settled is not None:
        first = state.names[a if settled else b]
        raise IllegalAction(
            "truck.draw", Said("The coin has settled it this turn: {who} chooses first.", who=first)
        )
    if totals[a] != totals[b]:
        low = a if totals[a] < totals[b] else b
        raise IllegalAction(
            "truck.draw",
            Said(
                "No coin is needed: {who} has the lower score ({a} to {b}) and chooses first.",
                who=state.names[low],
                a=totals[a],
                b=totals[b],
            ),
        )


def _stands(state: TruckState) -> Said:
    return Said(
        "That stands: a domino was placed in a truck after it, which closed its window "
        "(taking that domino back does not reopen it)."
    )


def _placing(state: TruckState, action: Action) -> bool:
    """A domino placed in a truck closes the window on what came before it (as in the line
    games, taking it back does not reopen it)."""
    return isinstance(action, Load | Replace)


def _set(values: tuple, seat: int, value: object) -> tuple:
    return values[:seat] + (value,) + values[seat + 1 :]


def _transition(state: TruckState, action: Action) -> TruckState:
    nobody = (0,) * state.seats
    plain = replace(state, last_points=nobody, last_load=None)
    if isinstance(action, Take):
        claimed = _check_take(state, action)
        seat = action.seat
        if claimed is not None:
            # The claimed seat draws again (truck.draw); its tile changes hands.
            plain = replace(
                plain,
                holding=_set(plain.holding, claimed, None),
                sources=_set(plain.sources, claimed, None),
                drawn=_set(plain.drawn, claimed, False),
            )
        elif action.source == "face-up":
            plain = replace(plain, face_up=tuple(t for t in plain.face_up if t != action.tile))
        else:
            plain = replace(plain, face_down=plain.face_down - 1)
        return replace(
            plain,
            holding=_set(plain.holding, seat, action.tile),
            sources=_set(plain.sources, seat, action.source),
            drawn=_set(plain.drawn, seat, True),
        )
    if isinstance(action, Load):
        _check_load(state, action)
        truck = state.trucks[action.seat].with_tile(action.tile, action.cells)
        return _placed(plain, action.seat, truck)
    if isinstance(action, Replace):
        truck = _check_replace(state, action)
        placed = _placed(plain, action.seat, truck)
        if action.to is None:
            placed = replace(placed, fresh=_sorted(placed.fresh + (action.out,)))
        return placed
    if isinstance(action, Return):
        _check_return(state, action)
        return replace(
            plain,
            holding=_set(plain.holding, action.seat, None),
            sources=_set(plain.sources, action.seat, None),
            fresh=_sorted(plain.fresh + (action.tile,)),
        )
    if isinstance(action, Shift):
        truck = _check_shift(state, action)
        return replace(plain, trucks=_set(plain.trucks, action.seat, truck))
    if isinstance(action, Unload):
        scored = _check_unload(state, action)
        gained = _set(nobody, action.seat, scored.points)
        return replace(
            plain,
            trucks=_set(plain.trucks, action.seat, Truck()),
            out=plain.out + state.trucks[action.seat].tiles,
            scores=tuple(a + b for a, b in zip(plain.scores, gained, strict=True)),
            last_points=gained,
            last_load=scored,
        )
    if isinstance(action, Flip):
        _check_flip(state, action)
        return replace(plain, tosses=plain.tosses + (action,))
    raise InvalidAction(Said("Dump Truck has no {kind} action.", kind=action.kind))


def _placed(state: TruckState, seat: int, truck: Truck) -> TruckState:
    return replace(
        state,
        trucks=_set(state.trucks, seat, truck),
        holding=_set(state.holding, seat, None),
        sources=_set(state.sources, seat, None),
        placed_any=True,
    )


def _sorted(tiles: tuple[Tile, ...]) -> tuple[Tile, ...]:
    return tuple(sorted(tiles, reverse=True))


def _turn_over(state: TruckState) -> TruckState:
    """Begin the next turn once every seat has drawn (or nothing is left to draw) and
    placed; end the game when the pool and hands are empty, or when a turn that began with
    the face-down pool empty placed nothing (``truck.end``)."""
    if any(t is not None for t in state.holding) or state.waiting:
        return state
    if state.pool == 0:
        return _finish(state, POOL_EMPTY)
    if state.dry and not state.placed_any:
        return _finish(state, STALLED)
    if not any(state.drawn):
        return state  # the turn has not begun: nobody has drawn yet
    return replace(
        state,
        face_up=_sorted(state.face_up + state.fresh),
        fresh=(),
        drawn=(False,) * state.seats,
        turn_number=state.turn_number + 1,
        dry=state.face_down == 0,
        placed_any=False,
        tosses=(),
    )


def _finish(state: TruckState, reason: str) -> TruckState:
    """Every truck scored as it stands (the app picks the wild blanks' value)."""
    loads = tuple(best(truck, state.options["blanks"]) for truck in state.trucks)
    scores = tuple(s + load.points for s, load in zip(state.scores, loads, strict=True))
    points = tuple(p + load.points for p, load in zip(state.last_points, loads, strict=True))
    totals = tuple(b + s for b, s in zip(state.base, scores, strict=True))
    top = max(totals)
    leaders = tuple(s for s, t in enumerate(totals) if t == top)
    winner = leaders[0] if len(leaders) == 1 else None
    return replace(
        state,
        scores=scores,
        last_points=points,
        result=TruckResult(winner, reason, scores, loads),
        champion=winner,
        shared=leaders if winner is None else (),
    )


# ---------------------------------------------------------------------------------------------
# What may be done now


def _candidates(state: TruckState) -> list[Action]:
    found: list[Action] = [Undo()]
    for seat in range(state.seats):
        held, truck = state.holding[seat], state.trucks[seat]
        for tile in state.unseen():
            found.append(Take(seat, tile, "pool"))
        for tile in (*state.face_up, *state.fresh):
            found.append(Take(seat, tile, "face-up"))
        for other in state.holding:
            if other is not None:
                found += [Take(seat, other, "pool"), Take(seat, other, "face-up")]
        if held is not None:
            found.append(Return(seat, held))
            found += [Load(seat, held, cells) for cells in truck.placements()]
            for p in truck.placed:
                emptied = truck.without(p.tile)
                for cells in emptied.placements():
                    found.append(Replace(seat, held, cells, p.tile))
                    after = emptied.with_tile(held, cells)
                    found += [Replace(seat, held, cells, p.tile, to) for to in after.placements()]
        found += [Shift(seat, r, c) for r, c in truck.shifts()]
        found += [Unload(seat, score) for score in (True, False)]
        if state.options["blanks"] == "wild":
            found += [Unload(seat, score, b) for b in range(TOP + 1) for score in (True, False)]
        for other in range(state.seats):
            if other != seat:
                found += [Flip((seat, other), seat), Flip((seat, other), other)]
    return found


# The reducer's three faces (referee.round.reducer); legal_actions lists both outcomes of a
# coin (its toss is the app's).
apply, check, legal_actions = Reducer(
    _transition, _candidates, _stands, seat=_check_seat, settles=_placing, finish=_turn_over
).functions
