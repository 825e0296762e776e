"""The referee's sayings in the phone's language.

The referee speaks English and hands every sentence over as a ``Said`` (referee/said.py):
its template, which is the catalogue's msgid, and its parameters. ``say`` renders one in
the language active for the request: the template through the catalogue (``ngettext``
where the template was chosen by a count), each parameter that is itself a saying in
turn, and each tile by its name in that language. English is the catalogue's identity, so
an English phone reads exactly the referee's own text.

Tile names come from the catalogue too: ``{high}-{low}`` under the context "tile" (and
"double tile" for a double), with every number from 0 to 18 under the context "pips", so
a Spanish table hears "seis-cuatro" and "doble cinco" where an English one reads 6-4.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext, ngettext, pgettext, pgettext_lazy

from referee.said import Said, listed
from referee.tiles import Tile


def say(text: Any) -> str:
    """``text`` in the active language if it is a saying; anything else as it is."""
    if not isinstance(text, Said):
        return "" if text is None else str(text)
    if text.plural is not None:
        singular, plural, n = text.plural
        template = ngettext(singular, plural, n)
    else:
        # gettext("") is the catalogue's header, never a saying.
        template = gettext(text.template) if text.template else ""
    if not text.params:
        return template
    return template.format_map({key: spoken(value) for key, value in text.params.items()})


def spoken(value: Any) -> Any:
    """A saying's parameter as the active language says it."""
    if isinstance(value, Said):
        return say(value)
    if isinstance(value, Tile):
        return tile_name(value)
    return value


def tile_name(tile: Tile) -> str:
    """``6-4`` in English; the catalogue's words elsewhere (``seis-cuatro``, ``doble cinco``)."""
    high, low = str(_PIPS[tile.high]), str(_PIPS[tile.low])
    if tile.high == tile.low:
        # A double's halves are one number: its name may use one of them ("doble cinco").
        # xgettext:no-python-brace-format
        return pgettext("double tile", "{high}-{low}").format(high=high, low=low)
    return pgettext("tile", "{high}-{low}").format(high=high, low=low)


# Every number a half can show (0 to referee.tiles.LARGEST_SET) as the active language
# names it, each written out so that the catalogue's extraction finds it.
_PIPS = (
    pgettext_lazy("pips", "0"),
    pgettext_lazy("pips", "1"),
    pgettext_lazy("pips", "2"),
    pgettext_lazy("pips", "3"),
    pgettext_lazy("pips", "4"),
    pgettext_lazy("pips", "5"),
    pgettext_lazy("pips", "6"),
    pgettext_lazy("pips", "7"),
    pgettext_lazy("pips", "8"),
    pgettext_lazy("pips", "9"),
    pgettext_lazy("pips", "10"),
    pgettext_lazy("pips", "11"),
    pgettext_lazy("pips", "12"),
    pgettext_lazy("pips", "13"),
    pgettext_lazy("pips", "14"),
    pgettext_lazy("pips", "15"),
    pgettext_lazy("pips", "16"),
    pgettext_lazy("pips", "17"),
    pgettext_lazy("pips", "18"),
)


# How a round ended (RoundResult.reason, a state's ``ended``), as the referee stores it, in
# the table's words; a reason not here is shown as stored.
_ENDED = {
    "domino": pgettext_lazy("how a round ended", "domino"),
    "blocked": pgettext_lazy("how a round ended", "blocked"),
    "target": pgettext_lazy("how a round ended", "target"),
    "last-card": pgettext_lazy("how a round ended", "last-card"),
    "train": pgettext_lazy("how a round ended", "train"),
    "pool-empty": pgettext_lazy("how a round ended", "pool-empty"),
    "stalled": pgettext_lazy("how a round ended", "stalled"),
    "stopped": pgettext_lazy("how a round ended", "stopped"),
    "abandoned": pgettext_lazy("how a round ended", "abandoned"),
}


def ended(reason: object) -> str:
    """``domino``, ``blocked``, ``last-card``: how a round ended, in the phone's language."""
    words = _ENDED.get(reason) if isinstance(reason, str) else None
    return str(words) if words is not None else str(reason)


def all_of(names: Sequence[Any]) -> str:
    """``Ana and Ben``, ``Ana, Ben and Caro``: those who share a win or a tie, listed as the
    referee lists names (referee.said.listed), in the phone's language.

    >>> all_of(["Ana", "Ben", "Caro"]), all_of(["Ana"]), all_of([])
    ('Ana, Ben and Caro', 'Ana', '')
    """
    return say(listed(list(names)))
