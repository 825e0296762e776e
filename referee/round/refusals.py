"""The refusals every game shares, each written once (one catalogue entry each)."""

from __future__ import annotations

from referee.errors import IllegalAction
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


def nothing_to_take_back() -> IllegalAction:
    """An undo with nothing before it (``procedure.misplay``)."""
    return IllegalAction("procedure.misplay", Said("There is nothing to take back yet."))


def match_over(ended: tuple[str, Said]) -> IllegalAction:
    """Anything recorded once the match has ended, under the rule that ended it."""
    rule, why = ended
    return IllegalAction(rule, Said("{why}; nothing more is recorded after that.", why=why))
