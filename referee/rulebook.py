"""Rule ids, house-rule options and game presets: declared once, used everywhere.

The same definitions drive validation of a match's options, the new-match form
and the rules pages, so what a player reads is what the engine applies.

>>> preset("draw").title
'Draw'
>>> options = resolve_options("draw", {"set": 9, "target": 150})
>>> options["set"], options["target"], options["draw_until"]
(9, 150, 'playable')
>>> rule_text("line.attach")[:40]
'Every later tile is attached to one free'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from referee.errors import InvalidAction, shown
from referee.rule_texts import RULE_TEXTS


@dataclass(frozen=True, slots=True)
class Option:
    """A house rule: its name in RULES.md, the rule it belongs to and its choices."""

    name: str
    rule: str
    label: str
    default: Any
    choices: tuple[Any, ...] = ()  # empty for booleans
    help: str = ""

    @property
    def is_flag(self) -> bool:
        return isinstance(self.default, bool)

    def check(self, value: object) -> Any:
        """The value if it is allowed, else an InvalidAction naming the choices."""
        if self.is_flag:
            if isinstance(value, bool):
                return value
            raise InvalidAction(
                f"House rule {self.name} is on or off (true or false), not {shown(value)}."
            )
        if type(value) is not type(self.default) or value not in self.choices:
            allowed = ", ".join(str(choice) for choice in self.choices)
            raise InvalidAction(
                f"House rule {self.name} must be one of {allowed}; {shown(value)} is not."
            )
        return value


@dataclass(frozen=True, slots=True)
class Preset:
    """A game: the options it offers, with this game's defaults."""

    slug: str
    title: str
    family: str
    summary: str
    options: tuple[Option, ...]
    players: tuple[int, int]
    hand_sizes: Mapping[int, int] = field(default_factory=dict)
    draws: bool = False
    rules: tuple[str, ...] = ()

    def option(self, name: str) -> Option:
        for option in self.options:
            if option.name == name:
                return option
        raise KeyError(name)


def _option(name: str, rule: str, label: str, default: Any, choices=(), help: str = "") -> Option:
    return Option(name, rule, label, default, tuple(choices), help)


SET = _option("set", "set.tiles", "Set", 6, (6, 9, 12), "The highest double of the set.")
HAND_SIZE = _option(
    "hand_size", "hand.count", "Tiles dealt to each seat", 0, range(0, 22),
    "0 deals as the rulebook says for the number of players.",
)  # fmt: skip
OPENING = _option(
    "opening", "line.lead", "Lead", "any", ("any", "double"), "Whether the lead must be a double."
)
SPINNERS = _option(
    "spinners", "line.spinner", "Spinners", "none", ("none", "first", "all"),
    "none: no tile branches; first: the first double is the only spinner; all: every double.",
)  # fmt: skip
SIDES_FIRST = _option(
    "sides_first", "line.sides-first", "Spinner sides first", True, (),
    "A spinner's ends open only once both its long sides are covered.",
)  # fmt: skip
SPINNER_COUNT = _option(
    "spinner_count", "line.count-spinner", "How a spinner counts", "while-end",
    ("while-end", "halves"),
)  # fmt: skip
DRAW_UNTIL = _option(
    "draw_until", "draw.until", "Drawing", "playable", ("playable", "one"),
    "playable: draw until a tile fits; one: draw a single tile, then play it or pass.",
)  # fmt: skip
RESERVE = _option(
    "reserve", "draw.reserve", "Tiles never drawn", 0, range(0, 5),
    "How many boneyard tiles stay undrawn.",
)  # fmt: skip
ONE_END_DOUBLES = _option(
    "one_end_doubles", "tally.one-end-doubles", "A double in hand counts one half", False
)
BLOCKED_MINUS_OWN = _option(
    "blocked_minus_own", "block.score", "Blocked winner subtracts own pips", False
)
TARGET = _option("target", "block.score", "Play to", 100, (50, 100, 101, 150, 200))

_BLOCK_RULES = (
    "set.tiles", "set.unique", "seat.order", "info.public", "round.lead",
    "line.lead", "line.attach", "line.crosswise", "line.spinner", "line.sides-first",
    "line.dead-end", "line.count", "line.count-spinner", "turn.order", "hand.count",
    "end.domino", "end.blocked", "tally.hands", "tally.one-end-doubles", "tally.audit",
    "tally.winner", "block.score", "procedure.misplay", "procedure.out-of-turn",
    "procedure.exposed",
)  # fmt: skip
_LINE_OPTIONS = (SET, HAND_SIZE, OPENING, SPINNERS, SIDES_FIRST, SPINNER_COUNT)
_TALLY_OPTIONS = (ONE_END_DOUBLES, BLOCKED_MINUS_OWN, TARGET)

PRESETS: dict[str, Preset] = {
    preset.slug: preset
    for preset in (
        Preset(
            "block", "Block", "line",
            "Match tiles end to end. Nobody draws: if you cannot play, you knock. "
            "First to play out, or lowest pips when the game blocks, scores the rest.",
            _LINE_OPTIONS + _TALLY_OPTIONS, (2, 4), {2: 7, 3: 5, 4: 5}, draws=False,
            rules=_BLOCK_RULES[:15] + ("block.no-draw",) + _BLOCK_RULES[15:],
        ),
        Preset(
            "draw", "Draw", "line",
            "Block with a boneyard: if you cannot play, draw until you can. "
            "You knock only when nothing is left to draw.",
            _LINE_OPTIONS + (DRAW_UNTIL, RESERVE) + _TALLY_OPTIONS, (2, 5),
            {2: 7, 3: 5, 4: 4, 5: 3}, draws=True,
            rules=_BLOCK_RULES[:15]
            + ("draw.must-draw", "draw.until", "draw.reserve", "procedure.overdraw",
               "procedure.underdraw")
            + _BLOCK_RULES[15:],
        ),
    )
}  # fmt: skip

#: Beyond double-6 the rulebook gives no hand sizes; our ruling: 7 each for up to four
#: players, 5 each for more (as double-9 sets are commonly dealt), up to eight players.
LARGE_SET_PLAYERS = 8


def preset(slug: str) -> Preset:
    try:
        return PRESETS[slug]
    except (KeyError, TypeError):
        names = ", ".join(PRESETS)
        raise InvalidAction(
            f"There is no game {shown(slug)} here; the games are {names}."
        ) from None


def resolve_options(slug: str, given: Mapping[str, Any] | None) -> dict[str, Any]:
    """The match's options: every option of the game, defaults filled in, values checked."""
    game = preset(slug)
    if given is not None and not isinstance(given, Mapping):
        raise InvalidAction("Options must be an object of house rules.")
    given = dict(given or {})
    known = {option.name for option in game.options}
    for name in given:
        if name not in known:
            raise InvalidAction(
                f"{game.title} has no house rule {shown(name)}; its house rules are "
                + ", ".join(sorted(known))
                + "."
            )
    return {
        option.name: option.check(given.get(option.name, option.default)) for option in game.options
    }


def max_players(game: Preset, top: int) -> int:
    return game.players[1] if top == 6 else LARGE_SET_PLAYERS


def hand_size(game: Preset, options: Mapping[str, Any], players: int) -> int:
    """Tiles dealt to each seat (``hand.count``), as the rulebook's table says."""
    if options.get("hand_size"):
        return options["hand_size"]
    if options["set"] == 6:
        return game.hand_sizes[players]
    return 7 if players <= 4 else 5


def rule_text(rule: str) -> str:
    """The rulebook's text of a rule id."""
    return RULE_TEXTS[rule][1]


def rule_section(rule: str) -> str:
    return RULE_TEXTS[rule][0]
