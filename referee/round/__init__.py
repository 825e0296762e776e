"""The round kernel every game shares (issue 30), as python-chess builds its variants on
one ``Board``: the machinery once, each game only its differences.

- :mod:`referee.round.result`: how a round ends (:class:`RoundResult`, the reasons);
- :mod:`referee.round.core`: seats, totals, the round's number, whether it is over and
  counts, and every game's ``start``, written once (:class:`~referee.round.core.Starter`:
  a game states only its deal, from a resolved :class:`~referee.round.core.Deal`);
- :mod:`referee.round.reducer`: undo, the table's own entries, ``check``, ``legal_actions``;
- :mod:`referee.round.refusals`: the refusals games share, each written once;
- :mod:`referee.round.tally`: the tally's shared checks and words, and the lowest total
  winning.

It imports no game (an import-linter contract holds it). What every game offers is written
here, as two protocols: :class:`Round`, a round's state, and :class:`Engine`, the module
that referees a game (``referee.games.engine(slug)`` finds it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from referee.actions import Action, Stop
from referee.errors import IllegalAction
from referee.round.core import Starter
from referee.rulebook import Preset
from referee.said import Said


class Round(Protocol):
    """A round's state, as every game's answers: immutable; ``apply`` makes the next."""

    game: Preset
    options: Mapping[str, Any]
    names: tuple[str, ...]
    base: tuple[int, ...]  # the match totals before this round
    scores: tuple[int, ...]  # what this round has scored so far, by seat
    result: Any  # the round's result once it is over (a RoundResult, or Dump Truck's)
    champion: int | None  # the seat that won the match, once it is won
    shared: tuple[int, ...]  # the seats tied at the top, when the match ended so
    stop: Stop | None  # the table stopped the match
    last: Action | None  # the last action applied
    last_points: tuple[int, ...]  # what it scored, by seat
    actions: int  # actions applied (undos aside)
    logged: int  # entries of the round's log, undos included
    previous: Round | None  # the state before the last action (what an undo restores)
    settled: int  # actions before this one stand: their misplay window has closed
    pending: Any  # the line's open muggins window; None elsewhere

    @property
    def seats(self) -> int: ...
    @property
    def totals(self) -> tuple[int, ...]: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def match_over(self) -> bool: ...
    @property
    def match_end(self) -> tuple[str, Said] | None: ...
    @property
    def carry(self) -> dict[str, Any]: ...

    def abandoned_result(self) -> Any: ...
    def stopped_result(self) -> Any: ...


class Engine(Protocol):
    """The module that referees a family of games: a pure reducer over :class:`Round`
    states, and the facts about its games that screens ask rather than know."""

    #: The family (``Preset.family``) it referees, and the screen that shows its table.
    FAMILY: str
    SCREEN: str
    #: Hands count against their holders: the lowest total wins the match.
    LOWEST_TOTAL_WINS: bool
    #: The match is played in rounds (a table may abandon one); Dump Truck is one game.
    ROUNDS: bool

    def options_for(
        self, slug: str, given: Mapping[str, Any] | None, players: int
    ) -> dict[str, Any]: ...

    #: A new round's state (:class:`~referee.round.core.Starter`: the kernel's, over the
    #: engine's own deal).
    start: Starter

    def apply(self, state: Any, action: Action) -> Any: ...
    def check(self, state: Any, action: Action) -> IllegalAction | None: ...
    def legal_actions(self, state: Any) -> tuple[Action, ...]: ...
    def next_leader(self, state: Any) -> int | None: ...


__all__ = ["Engine", "Round"]
