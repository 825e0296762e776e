"""What Mexican Train's and Chicken Foot's round states share, over the kernel's
:class:`~referee.round.core.RoundCore`: a match of a fixed number of rounds (one per
double, or ``rounds``), and an abandoned round that does not count (``correct.abandon``:
the same double is replayed). Each game keeps what differs: its layout, its turn, and how
its match ends.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from referee.actions import Action, Draw, Engine, Pass, Undo
from referee.corrections import stopped_words
from referee.errors import IllegalAction
from referee.round.core import RoundCore
from referee.round.result import BLOCKED, DOMINO, RoundResult
from referee.round.tally import agreed_rounds, lowest, lowest_wins
from referee.said import Said
from referee.tiles import DominoSet, Tile


class TrainRounds(RoundCore):
    #: The rule a match ends under once its rounds are played (each game's own id).
    rounds_rule = "train.rounds"

    @property
    def rounds(self) -> int:
        """How many rounds the match has: one per double, or the agreed number."""
        rounds = self.options["rounds"]  # type: ignore[attr-defined]
        return self.top + 1 if rounds == "all" else rounds

    def value(self, tile: Tile) -> int:
        """What a tile left in hand counts (``train.score``, ``foot.score``): its pips;
        0-0 counts the match's double_blank."""
        return self.options["double_blank"] if tile == Tile(0, 0) else tile.pips  # type: ignore[attr-defined]

    def pips_of(self, held: tuple[Tile, ...] | int) -> int:
        """What a declared hand counts: its pip total, or its tiles' (0-0 as the rule says)."""
        return held if isinstance(held, int) else sum(self.value(t) for t in held)

    def pip_range(self, held: int) -> tuple[int, int]:
        """The fewest and the most pips ``held`` tiles off the table can count: a declared
        total outside it is impossible (info.public: as far as the record can tell)."""
        values = sorted(self.value(t) for t in self.unseen())  # type: ignore[attr-defined]
        return sum(values[:held]), sum(values[len(values) - held :]) if held else 0

    def most_pips(self, held: int) -> int:
        """The most pips ``held`` tiles can count, the round's double aside: the bound of a
        score pad's hand (``pad.record``: the table is not recorded)."""
        engine = self.engine  # type: ignore[attr-defined]
        values = sorted(self.value(t) for t in DominoSet(self.top).tiles if t != engine)
        return sum(values[len(values) - held :])

    def played_down(self) -> Said | None:
        """How a match that played its doubles down ended, in the game's own words; None
        where it did not (it played an agreed number of rounds)."""
        return None

    @property
    def match_end(self) -> tuple[str, Said] | None:
        """The rule that ended the match (the game's rounds rule, or ``correct.abandon``
        for a stop) and how, in the players' words; None while it goes on. Every later
        action is refused citing it."""
        if not self.match_over:  # type: ignore[attr-defined]
            return None
        if self.stop is not None:
            return "correct.abandon", lowest_wins(self, stopped_words(self.stop))
        how = self.played_down() or agreed_rounds(self.rounds)
        return self.rounds_rule, lowest_wins(self, how)


def turn_candidates(state: Any) -> tuple[list[Action], int | None]:
    """What a train round's ``legal_actions`` tries before the plays, and the seat whose
    plays the game adds (None: no play can be tried now). Both games look for the round's
    double the same way (every seat may place it; the seats that may search draw) and,
    once it is placed, the seat to act may draw or pass; only where a tile goes differs.
    """
    found: list[Action] = [Undo()]
    if state.is_over or state.pad or state.stopped:
        return found, None
    if not state.placed:
        found += [Engine(seat, state.engine) for seat in range(state.seats)]
        drawers = range(state.seats) if state.turn is None else (state.turn,)
        return found + [Draw(seat) for seat in drawers], None
    seat = state.turn
    assert seat is not None
    return found + [Draw(seat), Pass(seat)], seat


def pad_result(
    state: Any,
    declared: Mapping[int, tuple[Tile, ...] | int],
    refuse: Callable[[Sequence[str]], IllegalAction],
) -> RoundResult:
    """A score-pad round's result from what every seat declared: a seat with no tiles, or
    0 pips, played out (a seat holding 0-0 counted as 0 declares its tiles) and wins it;
    else it was blocked and the fewest pips win. Two seats cannot both have played out:
    ``refuse`` says so, with their names, in the game's words."""
    pips = tuple(state.pips_of(declared[s]) for s in range(state.seats))
    out = [s for s in range(state.seats) if declared[s] in ((), 0)]
    if len(out) > 1:
        raise refuse([state.names[s] for s in out])
    if out:
        return RoundResult(out[0], DOMINO, pips, pips)
    return RoundResult(lowest(pips), BLOCKED, pips, pips)


def search_draw(
    state: Any, seat: int, rule: str, empty: Callable[[], Said], waits: Callable[[str], Said]
) -> None:
    """A draw in the search for the round's double (``train.engine``, ``foot.rounds``):
    none from an empty boneyard (the double is then in a hand: ``empty`` says so), and one
    tile each in turn (``waits`` says whose draw it is, by name). Each game words its own."""
    if not state.boneyard:
        raise IllegalAction(rule, empty())
    if state.turn is not None and seat != state.turn:
        raise IllegalAction(rule, waits(state.names[state.turn]))
