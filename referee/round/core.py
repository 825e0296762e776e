"""What every game's round state answers alike, written once: a mixin over the fields each
state declares (``names``, ``options``, ``base``, ``scores``, ``ended``, ``result``,
``stop``). A game overrides only where its rules differ.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.actions import Action, Stop
from referee.round.result import ABANDONED, STOPPED, RoundResult
from referee.rulebook import preset


@dataclass(frozen=True, kw_only=True)
class RoundCore:
    """Seats, totals and the round's end, as every game's state offers them; and the
    bookkeeping every state carries (keyword-only, so a game's own fields come first)."""

    result: Any = None  # the round's result once it is over (a RoundResult; Dump Truck's own)
    stop: Stop | None = None  # the table stopped the match (correct.abandon)
    base: tuple[int, ...] = ()  # the match totals before this round
    scores: tuple[int, ...] = ()  # points scored in this round so far, by seat
    champion: int | None = None  # the seat that won the match, once it is won
    shared: tuple[int, ...] = ()  # the seats tied at the end of the match
    last: Action | None = None
    last_points: tuple[int, ...] = ()  # what the last action scored, by seat
    actions: int = 0  # effective actions so far
    played: int = 0  # rounds counted before this one (a match played in rounds)
    logged: int = field(default=0, compare=False)  # entries in the round's log, undos included
    # Undo: the state before the last action, and how many actions are settled (their
    # misplay window has closed: procedure.misplay).
    previous: Any = field(default=None, compare=False, repr=False)
    settled: int = field(default=0, compare=False)

    # What the match machinery asks of every game's state; a game that has them declares
    # its own (the line's muggins window, Dominards' dice).
    pending = None
    last_hits = None
    dominards = False
    muggins = False
    #: The pips a round that was not played out reports: none (the line's), or a zero for
    #: each seat (the games whose result always names every seat's pips).
    pips_by_seat = True

    @property
    def seats(self) -> int:
        return len(self.names)  # type: ignore[attr-defined]

    @property
    def top(self) -> int:
        return self.options["set"]  # type: ignore[attr-defined]

    @property
    def number(self) -> int:
        """This round's number in the match, from 1 (an abandoned round does not count, so
        the round dealt again after it has the same number)."""
        return self.played + 1

    @property
    def totals(self) -> tuple[int, ...]:
        """The match totals now: before the round plus what the round has scored."""
        return tuple(b + s for b, s in zip(self.base, self.scores, strict=True))  # type: ignore[attr-defined]

    @property
    def is_over(self) -> bool:
        return self.ended is not None or self.result is not None  # type: ignore[attr-defined]

    @property
    def stopped(self) -> bool:
        return self.stop is not None  # type: ignore[attr-defined]

    @property
    def counted(self) -> bool:
        """This round is over and counts as one of the match's rounds: an abandoned one
        does not (correct.abandon: the next round is dealt as this one was), nor one the
        table stopped the match in."""
        result = self.result  # type: ignore[attr-defined]
        return result is not None and result.reason not in (ABANDONED, STOPPED)

    def name(self, seat: int) -> str:
        return self.names[seat]  # type: ignore[attr-defined]

    def next_seat(self, seat: int) -> int:
        return (seat + 1) % self.seats

    def _no_pips(self) -> tuple[int, ...]:
        return (0,) * self.seats if self.pips_by_seat else ()

    def abandoned_result(self) -> RoundResult:
        """An abandoned round's result: nobody wins, nothing scores."""
        return RoundResult(None, ABANDONED, self._no_pips(), (0,) * self.seats)

    def stopped_result(self) -> RoundResult:
        """The result of the round the table stopped the match in: what it had scored."""
        return RoundResult(None, STOPPED, self._no_pips(), self.scores)  # type: ignore[attr-defined]


@dataclass(frozen=True)
class Deal:
    """What a new round is dealt from, resolved once for every game by :class:`Starter`: the
    game, its options as the engine resolved them, the seats' names, the seat that begins
    (None: the table chooses), the match totals so far (None before the first round), what
    the last round handed on (``{}`` for the first), and how it is kept (``record``; None:
    the match's option)."""

    slug: str
    options: dict[str, Any]
    names: tuple[str, ...]
    leader: int | None
    base: tuple[int, ...] | None
    carry: Mapping[str, Any]
    record: str | None

    @property
    def seats(self) -> int:
        return len(self.names)

    @property
    def pad(self) -> bool:
        """A score-pad round (``pad.record``): its tally alone is recorded."""
        return (self.record or self.options.get("record")) == "scores"

    @property
    def played(self) -> int:
        """Rounds of the match played before this one, as the last round counted them."""
        return int(self.carry.get("played", 0))

    def opening(self) -> dict[str, Any]:
        """The fields every game's new round starts with, for its state's constructor: the
        game, its options, the seats' names, the match totals so far (none before the first
        round) and nothing scored in it yet. A game adds its own deal."""
        nobody = (0,) * self.seats
        return {
            "game": preset(self.slug),
            "options": self.options,
            "names": self.names,
            "base": self.base if self.base is not None else nobody,
            "scores": nobody,
        }


class Starter:
    """An engine's ``start``, written once for every game: ``start(slug, given, names,
    leader=None, base=None, carry=None, record=None)`` is the state of a new round of
    ``slug``, before its first action. The options are resolved (and refused) by the
    engine's ``options_for``; the rest is the engine's own ``deal``."""

    def __init__(
        self,
        options_for: Callable[[str, Mapping[str, Any] | None, int], dict[str, Any]],
        deal: Callable[[Deal], Any],
    ) -> None:
        self.options_for, self.deal = options_for, deal
        self.__doc__ = deal.__doc__

    def __call__(
        self,
        slug: str,
        given: Mapping[str, Any] | None,
        names: Sequence[str],
        leader: int | None = None,
        base: Sequence[int] | None = None,
        carry: Mapping[str, Any] | None = None,
        record: str | None = None,
    ) -> Any:
        options = self.options_for(slug, given, len(names))
        kept = tuple(base) if base is not None else None
        return self.deal(Deal(slug, options, tuple(names), leader, kept, carry or {}, record))
