"""One module per game family; :func:`engine` finds a game's.

Every engine offers the same reducer API: ``options_for``, ``start``, ``apply``,
``check``, ``legal_actions`` and ``next_leader``, with states that say their
``result``, ``totals``, ``champion``, ``match_over``, ``match_end`` (the rule that ended
the match, and how) and ``carry``.
"""

from __future__ import annotations

from types import ModuleType


def engine(slug: str) -> ModuleType:
    """The module that referees ``slug``.

    >>> engine("dump-truck").__name__, engine("havoc").__name__, engine("muggins").__name__
    ('referee.games.dump_truck', 'referee.games.havoc', 'referee.games.line')
    """
    from referee.games import dump_truck, havoc, line
    from referee.games.trains import chicken_foot, mexican_train
    from referee.rulebook import preset

    families = {"truck": dump_truck, "havoc": havoc, "train": mexican_train, "foot": chicken_foot}
    return families.get(preset(slug).family, line)
