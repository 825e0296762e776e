"""The registry of engines: one per family of games, each on the round kernel
(:mod:`referee.round`) and stating only its differences from it.

Every engine is an :class:`referee.round.Engine`: the reducer (``options_for``, ``start``,
``apply``, ``check``, ``legal_actions``, ``next_leader``) over states that say their
``result``, ``totals``, ``champion``, ``match_over``, ``match_end`` and ``carry``; and the
facts a screen asks of a game rather than knowing them (``FAMILY``, ``SCREEN``,
``LOWEST_TOTAL_WINS``, ``ROUNDS``).
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from referee.round import Engine


@cache
def engines() -> dict[str, Engine]:
    """Every engine, by the family it referees (``Preset.family``).

    >>> sorted(engines())
    ['foot', 'havoc', 'line', 'train', 'truck']
    """
    from referee.games import dump_truck, havoc, line
    from referee.games.trains import chicken_foot, mexican_train

    found = (line, mexican_train, chicken_foot, havoc, dump_truck)
    return {module.FAMILY: cast("Engine", module) for module in found}


def engine(slug: str) -> Engine:
    """The engine that referees ``slug``.

    >>> engine("dump-truck").__name__, engine("havoc").__name__, engine("muggins").__name__
    ('referee.games.dump_truck', 'referee.games.havoc', 'referee.games.line')
    >>> engine("mexican-train").LOWEST_TOTAL_WINS, engine("block").LOWEST_TOTAL_WINS
    (True, False)
    """
    from referee.rulebook import preset

    return engines()[preset(slug).family]
