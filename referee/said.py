"""What the referee says, as text and as data.

Every sentence the referee produces for the players (a refusal and its "what would be
legal", a banner, a round's words) is a :class:`Said`: a ``str`` holding the English text,
so every caller and every test reads it as before, which also carries the message's
template (its id for a translation catalogue) and the parameters it was filled with. A
translation renders the template in another language and fills it with the same
parameters, each parameter that is itself a ``Said`` translated in turn. Names, numbers and
tiles are parameters; every English word is in a template.

>>> from referee.tiles import Tile
>>> said = Said("{who} cannot play {tile} on {on}.", who="Ana", tile=Tile(6, 4), on=Tile(6, 6))
>>> said
'Ana cannot play 6-4 on 6-6.'
>>> said.template, said.params["who"]
('{who} cannot play {tile} on {on}.', 'Ana')
>>> whole = Said("{why}, so {who} cannot {doing}.", why=Said("The round is over"),
...              who="Ben", doing=Said("draw"))
>>> whole, whole.params["doing"].template
('The round is over, so Ben cannot draw.', 'draw')
>>> tiles(1), tiles(3), tiles(3).template
('1 tile', '3 tiles', '{n} tiles')
>>> listed(["Ana", "Ben", "Caro"]), listed(["Ana", "Ben"], "or").template
('Ana, Ben and Caro', '{first} or {last}')
>>> late = counted("{n} pip short", "{n} pips short", 1, n=1)
>>> late, late.plural
('1 pip short', ('{n} pip short', '{n} pips short', 1))

A template chosen at run time is marked where it is written, with :func:`phrase`, so the
catalogue's extraction (``make messages``) finds it as it finds ``Said("...")``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


class Said(str):
    """English text that also says which template made it, and with what."""

    template: str
    params: Mapping[str, Any]
    # (singular, plural, n) when the template was chosen by a count: a catalogue picks
    # its own form for n (a language may have more than two).
    plural: tuple[str, str, int] | None = None

    def __new__(cls, template: str, /, **params: Any) -> Said:
        self = super().__new__(cls, template.format_map(params) if params else template)
        self.template = template
        self.params = params
        return self

    def __reduce__(self) -> tuple:
        return _rebuilt, (self.template, dict(self.params), self.plural)

    def __add__(self, other: str) -> Said:  # type: ignore[override]
        """Two sayings one after the other: still data for a translation."""
        return Said("{first}{then}", first=self, then=other)


def _rebuilt(template: str, params: dict[str, Any], plural: tuple | None = None) -> Said:
    said = Said(template, **params)
    said.plural = plural
    return said


def phrase(template: str) -> str:
    """Marks a template that is chosen at run time, for the catalogue; returns it as is."""
    return template


def counted(singular: str, plural: str, n: int, /, **params: Any) -> Said:
    """A saying whose words depend on a count ``n``: English picks by ``n == 1``."""
    said = Said(singular if n == 1 else plural, **params)
    said.plural = (singular, plural, n)
    return said


def tiles(n: int) -> Said:
    """``1 tile``, ``3 tiles``: a count of tiles, its plural in its template."""
    return counted("{n} tile", "{n} tiles", n, n=n)


def listed(words: Sequence[Any], conjunction: str = "and") -> Said:
    """``Ana, Ben and Caro``; ``Ana or Ben``: the conjunction in the template."""
    if not words:
        return Said("")
    if len(words) == 1:
        return Said("{only}", only=words[0])
    rest = Said("{first}, {then}", first=words[0], then=words[1]) if len(words) > 2 else None
    for word in words[2:-1]:
        rest = Said("{first}, {then}", first=rest, then=word)
    first = rest if rest is not None else words[0]
    if conjunction == "or":
        return Said("{first} or {last}", first=first, last=words[-1])
    return Said("{first} and {last}", first=first, last=words[-1])
