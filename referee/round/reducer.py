"""The reducer's shell, the same in every game: undo, the table's own entries (adjust,
abandon, stop), the bookkeeping of each action, ``check`` and ``legal_actions``. A game
gives its transition (what its own actions do, their checks in it) and its candidates.

``legal_actions`` is the candidates that ``check`` accepts: legality is written once, in
the transition, and a button never offers what ``apply`` would refuse.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from referee.actions import Abandon, Action, Adjust, Stop, Undo
from referee.corrections import on_the_record
from referee.errors import IllegalAction
from referee.frozen import replace
from referee.round.refusals import check_seat, nothing_to_take_back
from referee.said import Said

State = Any  # a game's state: a frozen dataclass with the kernel's fields (referee.round)


def never(state: State, action: Action) -> bool:
    return False


def _always(state: State, action: Action) -> bool:
    return True


def _seat_at_table(state: State, seat: int) -> None:
    check_seat(state.seats, seat)


@dataclass(frozen=True)
class Reducer:
    """One game's ``apply``, ``check`` and ``legal_actions``."""

    transition: Callable[[State, Action], State]  # the state after one of the game's actions
    candidates: Callable[[State], Iterable[Action]]  # what legal_actions tries
    stands: Callable[[State], Said]  # why the last action can no longer be taken back
    stop_winner: str = "high"  # whether a stopped match goes to the highest or lowest total
    recorded: tuple[type, ...] = (Adjust, Abandon, Stop)  # the table's own entries
    #: What is checked of an action's seat before anything else (that it is at the table;
    #: a game may check more there, or None: nothing before its own checks).
    seat: Callable[[State, int], None] | None = _seat_at_table
    #: Whether an action closes the misplay window on those before it (else the
    #: transition says, through the state's ``settled``).
    settles: Callable[[State, Action], bool] = _always
    undone: Callable[[State, State], State] | None = None  # what an undo also resets
    finish: Callable[[State], State] | None = None  # what follows every action, once recorded

    def apply(self, state: State, action: Action) -> State:
        """The state after ``action``; raises IllegalAction (nothing changes) if it is not
        legal."""
        if isinstance(action, Undo):
            check_undo(state, self.stands)
            restored = replace(state.previous, settled=state.settled, logged=state.logged + 1)
            return self.undone(state, restored) if self.undone else restored
        if isinstance(action, self.recorded):
            return on_the_record(state, action, stop_winner=self.stop_winner)
        seat = getattr(action, "seat", None)
        if self.seat is not None and seat is not None:
            self.seat(state, seat)
        after = self.transition(state, action)
        after = replace(
            after,
            actions=state.actions + 1,
            logged=state.logged + 1,
            last=action,
            previous=state,
            settled=state.actions if self.settles(state, action) else after.settled,
        )
        return self.finish(after) if self.finish else after

    @property
    def functions(
        self,
    ) -> tuple[
        Callable[[State, Action], State],
        Callable[[State, Action], IllegalAction | None],
        Callable[[State], tuple[Action, ...]],
    ]:
        """``apply``, ``check`` and ``legal_actions``, as a game's module offers them: one
        line in each game rather than the same three assignments in every one."""
        return self.apply, self.check, self.legal_actions

    def check(self, state: State, action: Action) -> IllegalAction | None:
        """Why ``action`` is illegal now, or None; what buttons use to explain themselves."""
        try:
            self.apply(state, action)
        except IllegalAction as error:
            return error
        return None

    def legal_actions(self, state: State) -> tuple[Action, ...]:
        """Every candidate ``apply`` would accept now."""
        return tuple(a for a in self.candidates(state) if self.check(state, a) is None)


def check_undo(state: State, stands: Callable[[State], Said]) -> None:
    """``procedure.misplay``: only an action still in its window can be taken back."""
    if state.previous is None:
        raise nothing_to_take_back()
    if state.actions - 1 < state.settled:
        raise IllegalAction("procedure.misplay", stands(state))


__all__ = ["Reducer", "check_undo", "never"]
