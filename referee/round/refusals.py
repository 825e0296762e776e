"""The refusals every game shares, each written once (one catalogue entry each)."""

from __future__ import annotations

from referee.errors import IllegalAction, InvalidAction
from referee.rulebook import Preset
from referee.said import Said


def no_such_seat(seats: int, seat: int, rule: str = "seat.order") -> IllegalAction:
    """``seat`` is not at a table of ``seats``: what the seats are.

    >>> print(no_such_seat(3, 5))
    seat.order: There is no seat 5 at this table; the seats are 0 to 2.
    """
    return IllegalAction(
        rule,
        Said(
            "There is no seat {seat} at this table; the seats are 0 to {last}.",
            seat=seat,
            last=seats - 1,
        ),
    )


def check_seat(seats: int, seat: int, rule: str = "seat.order") -> None:
    """Refuses a seat that is not at the table."""
    if not 0 <= seat < seats:
        raise no_such_seat(seats, seat, rule)


def not_your_turn(turn: str, who: str, rule: str = "seat.order") -> IllegalAction:
    """A seat acting out of turn, in the games whose turn refusal says no more than whose turn
    it is (the line and Mexican Train add what the seat cannot do)."""
    return IllegalAction(rule, Said("It is {turn}'s turn, not {who}'s.", turn=turn, who=who))


def nothing_to_take_back() -> IllegalAction:
    """An undo with nothing before it (``procedure.misplay``)."""
    return IllegalAction("procedure.misplay", Said("There is nothing to take back yet."))


def every_action_settles(state: object) -> Said:
    """Why an action can no longer be taken back (``procedure.misplay``) in a game where
    every action moves a tile in sight of the table: the next one closed its window. A
    reducer's ``stands``."""
    return Said(
        "Only the last action can be taken back: every action moves a tile, which closes the "
        "window on the one before."
    )


def already_tallied() -> IllegalAction:
    """A second tally of a round (``tally.hands``)."""
    return IllegalAction("tally.hands", Said("This round is already tallied."))


#: A round that is over and tallied, refused under each game's own end rule.
OVER_AND_TALLIED = Said("This round is over and tallied.")


def match_over(ended: tuple[str, Said]) -> IllegalAction:
    """Anything recorded once the match has ended, under the rule that ended it."""
    rule, why = ended
    return IllegalAction(rule, Said("{why}; nothing more is recorded after that.", why=why))


def check_players(game: Preset, players: int) -> None:
    """A table of as many players as ``game`` is for."""
    low, high = game.players
    if not low <= players <= high:
        raise InvalidAction(
            Said(
                "{game} is for {low} to {high} players, not {players}.",
                game=game.named,
                low=low,
                high=high,
                players=players,
            )
        )
