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
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


class Said(str):
    """English text that also says which template made it, and with what."""

    template: str
    params: Mapping[str, Any]

    def __new__(cls, template: str, /, **params: Any) -> Said:
        self = super().__new__(cls, template.format_map(params) if params else template)
        self.template = template
        self.params = params
        return self

    def __reduce__(self) -> tuple:
        return _rebuilt, (self.template, dict(self.params))

    def __add__(self, other: str) -> Said:  # type: ignore[override]
        """Two sayings one after the other: still data for a translation."""
        return Said("{first}{then}", first=self, then=other)


def _rebuilt(template: str, params: dict[str, Any]) -> Said:
    return Said(template, **params)


def tiles(n: int) -> Said:
    """``1 tile``, ``3 tiles``: a count of tiles, its plural in its template."""
    return Said("{n} tile" if n == 1 else "{n} tiles", n=n)


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
    return Said("{first} " + conjunction + " {last}", first=first, last=words[-1])
