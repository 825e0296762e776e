"""What the referee says when it refuses something.

Two kinds of refusal, kept apart because the table reacts differently to them:
an :class:`InvalidAction` is input the referee cannot even read (a tile written
``7-x``, a missing field); an :class:`IllegalAction` is a readable action that the
rules forbid, and it always names the rule id of RULES.md that forbids it.

An InvalidAction raised by a game, rather than by the parser, also names a rule: the
input reads as an action but cannot be one in this game (``7-7`` in a double-6 set, a
coin tossed between one seat), and the rule says why. Only the shape of an action
(:func:`referee.actions.parse_action`) is not a rules question.
"""

from __future__ import annotations

import reprlib

# Input is quoted back in messages; reprlib bounds the depth and length, so junk nested
# thousands deep or megabytes long still gets a one-line refusal, never a RecursionError.
_QUOTE = reprlib.Repr(maxlevel=2, maxstring=24, maxother=24, maxlist=3, maxdict=3)


def shown(value: object) -> str:
    """``value`` as a short quote for a message: ``'7-x'``, ``[[...]]``."""
    text = _QUOTE.repr(value)
    return text if len(text) <= 20 else text[:17] + "..."


class RefereeError(Exception):
    """Base of every refusal; ``message`` is written for the players, ``rule`` is the id
    of RULES.md that decides it (None only for the shape of an action)."""

    def __init__(self, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule

    def __str__(self) -> str:
        return f"{self.rule}: {self.message}" if self.rule else self.message


class InvalidAction(RefereeError):
    """Malformed input: the referee cannot tell what was meant.

    >>> from referee.said import Said
    >>> str(InvalidAction(Said("7-7 is not in a double-6 set."), rule="set.tiles"))
    'set.tiles: 7-7 is not in a double-6 set.'
    """


class IllegalAction(RefereeError):
    """A well-formed action that a rule forbids.

    >>> from referee.said import Said
    >>> said = Said("It is {now}'s turn, not {who}'s.", now="Ben", who="Ana")
    >>> error = IllegalAction("turn.order", said)
    >>> str(error)
    "turn.order: It is Ben's turn, not Ana's."
    """

    rule: str

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message, rule)
