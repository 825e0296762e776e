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
from referee.frozen import replace
from referee.rule_texts import RULE_TEXTS
from referee.said import Said


@dataclass(frozen=True, slots=True)
class Option:
    """A house rule: its name in RULES.md, the rule it belongs to and its choices."""

    name: str
    rule: str
    label: str
    default: Any
    choices: tuple[Any, ...] = ()  # empty for booleans
    help: str = ""
    # Where RULES.md gives another default under some value of another house rule of the
    # game: (that option's name, its value, this option's default there), first match
    # wins. The other option is declared first, so it is resolved by the time this one is.
    defaults_when: tuple[tuple[str, Any, Any], ...] = ()

    @property
    def is_flag(self) -> bool:
        return isinstance(self.default, bool)

    def default_for(self, options: Mapping[str, Any]) -> Any:
        """This option's default in a match whose other house rules are ``options``.

        >>> EXACT_TARGET.default_for({"threes_scoring": "face"})
        False
        >>> EXACT_TARGET.default_for({"threes_scoring": "pub"}), EXACT_TARGET.default_for({})
        (True, True)
        """
        for name, value, default in self.defaults_when:
            if name in options and options[name] == value:
                return default
        return self.default

    def check(self, value: object) -> Any:
        """The value if it is allowed, else an InvalidAction naming the choices."""
        if self.is_flag:
            if isinstance(value, bool):
                return value
            raise InvalidAction(
                Said(
                    "House rule {name} is on or off (true or false), not {value}.",
                    name=self.name,
                    value=shown(value),
                )
            )
        # A value is one of the choices, of a choice's own type (so True is not 1; and
        # train.rounds mixes "all" with numbers).
        if type(value) not in {type(c) for c in self.choices} or value not in self.choices:
            raise InvalidAction(
                Said(
                    "House rule {name} must be one of {allowed}; {value} is not.",
                    name=self.name,
                    allowed=", ".join(str(choice) for choice in self.choices),  # values, as typed
                    value=shown(value),
                )
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
    scoring: str = "block"  # block, fives, threes, dominards or parejas: how points are made
    fixed: Mapping[str, Any] = field(default_factory=dict)  # settings that make the game

    @property
    def named(self) -> Said:
        """The title as a saying's parameter: a declared word, translated by its own text
        (scoring.declared lists it for the catalogue), so a translation names the game in
        its own language where an English phone reads the title as it is."""
        return Said(self.title)

    @property
    def scores_plays(self) -> bool:
        """Whether plays score by the count during the round, and may be declared (the
        count games; Dominards scores by its dice and cards instead)."""
        return self.scoring in ("fives", "threes")

    def option(self, name: str) -> Option:
        for option in self.options:
            if option.name == name:
                return option
        raise KeyError(name)


def _option(
    name: str, rule: str, label: str, default: Any, choices=(), help: str = "",
    defaults_when: tuple[tuple[str, Any, Any], ...] = (),
) -> Option:  # fmt: skip
    return Option(name, rule, label, default, tuple(choices), help, defaults_when)


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
UNLOCK = _option(
    "unlock", "line.unlock", "Numbers are locked until their double is down", False, (),
    "A non-double goes on an end showing n only once n-n is on the table.",
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
MUGGINS = _option(
    "muggins", "fives.muggins", "Muggins: players declare their scores", False, (),
    "The player declares each score; an opponent may take what was missed.",
)  # fmt: skip
FALSE_CLAIM = _option(
    "false_claim_penalty", "fives.muggins", "A false claim stands until challenged", False, (),
    "Off: a claim above what the play made is refused. On: it stands, and an opponent who "
    "challenges it before the next tile takes the points falsely claimed.",
)  # fmt: skip
ROUND_COMBINED = _option(
    "round_combined", "fives.end-bonus", "Round the end bonus once, on the sum", False
)
END_AT_TARGET = _option(
    "end_at_target", "fives.target", "The match ends the moment a seat reaches the target", True
)
FIVES_TARGET = _option("target", "fives.target", "Play to", 61, (61, 100, 121, 150, 200, 250))
THREES_SCORING = _option(
    "threes_scoring", "threes.score", "How a count scores", "pub", ("pub", "face", "face-each"),
    "pub: count/5 plus count/3 (15 scores 8); face: the count once; face-each: the count once "
    "for each of 3 and 5 that divides it.",
)  # fmt: skip
EXACT_TARGET = _option(
    "exact_target", "threes.target", "Finish exactly on the target", True, (),
    "A score that would pass the target is not scored.",
    # threes.target: on in pub mode only, the pub game's "exactly 61".
    defaults_when=(("threes_scoring", "face", False), ("threes_scoring", "face-each", False)),
)  # fmt: skip
THREES_TARGET = _option("target", "threes.target", "Play to", 61, (61, 121))
STACK_TARGETS = _option(
    "stack_targets", "dominards.once", "A play scores once per target it meets", False, (),
    "Off: a play scores its total once, however many targets it meets (its card drops all "
    "apply). On: the total once for each target.",
)  # fmt: skip
TRUCK_TEMPLATE = _option(
    "truck_template", "truck.shape", "We use a truck template", False, (),
    "With a paper template the contents stay where they were placed; without one a player "
    "may shift the whole load inside the truck.",
)  # fmt: skip
NO_SHIFT = _option(
    "no_shift", "truck.replace", "No shifting or replacing", False, (),
    "A domino stays where it was loaded: no swapping one out, no shifting the load.",
)  # fmt: skip
NO_REPLACE = _option(
    "no_replace", "truck.replace", "No replacing", False, (),
    "No swapping a drawn domino for one in the truck.",
)  # fmt: skip
BLANKS = _option(
    "blanks", "truck.blanks", "Blanks", "normal", ("normal", "worthless", "double", "wild"),
    "normal: a chain of blanks scores 1 a segment; worthless: 0; double: 2; wild: all blanks "
    "in a load take the one value that scores most, sequences included.",
)  # fmt: skip
HAVOC_SET = _option(
    "set", "set.tiles", "Set", 0, (0, 9, 12),
    "0 takes the set the rules give: double-9 for up to 6 players, double-12 for 7 or 8.",
)  # fmt: skip
ROUNDS = _option(
    "rounds", "havoc.win", "Rounds", 0, (0, 1, 2, 3, 4, 5, 6, 8, 10),
    "How many rounds make the match; 0 plays until the table stops it. Lowest total wins.",
)  # fmt: skip
PARTNERSHIPS = _option(
    "partnerships", "team.seats", "Play in pairs", False, (),
    "Four players in two teams, partners sitting opposite: the first and third players "
    "against the second and fourth. A team scores together and wins together.",
)  # fmt: skip
COUNT_ALL_HANDS = _option(
    "count_all_hands", "team.block", "The winners count every other hand", False, (),
    "In pairs: the team that wins a round scores the pips in all three other hands, the "
    "partner's included (the Latin American count).",
)  # fmt: skip
RECORD = _option(
    "record", "pad.record", "What the table records", "plays", ("plays", "scores"),
    "plays: every play is recorded and refereed; scores: a score pad, each round recorded by "
    "what is left in the hands alone.",
)  # fmt: skip
TRAIN_SET = _option(
    "set", "set.tiles", "Set", 12, (9, 12, 15), "The highest double of the set: double-12 is "
    "the Mexican Train set.",
)  # fmt: skip
TRAIN_HAND = _option(
    "hand_size", "train.deal", "Tiles dealt to each seat", 0, range(0, 31),
    "0 deals as the rules say for the set and the number of players.",
)  # fmt: skip
TRAIN_ROUNDS = _option(
    "rounds", "train.rounds", "Rounds", "all", ("all", *range(1, 17)),
    "all: a round for every double, from the highest down to 0-0; a number plays that many, "
    "the highest doubles first.",
)  # fmt: skip
FIRST_TURN = _option(
    "first_turn", "train.turn", "First turn", "one", ("one", "many"),
    "one: a tile a turn, always; many: in its first turn of a round a seat may lay as many "
    "tiles as it can on its own train.",
)  # fmt: skip
DOUBLE_BLANK = _option(
    "double_blank", "train.score", "0-0 left in hand counts", 50, (50, 0),
    "What the double blank counts against the seat left holding it.",
)  # fmt: skip
FOOT_SET = _option("set", "set.tiles", "Set", 9, (6, 9, 12), "The highest double of the set.")
FOOT_HAND = _option(
    "hand_size", "foot.deal", "Tiles dealt to each seat", 7, range(5, 22),
    "As many as the set allows for the number of players.",
)  # fmt: skip
ROOT_ARMS = _option(
    "root_arms", "foot.root", "Tiles around the round's double", 6, (6, 4),
    "6: three on each long side, the double chicken foot; 4: one on each side and end.",
)  # fmt: skip
HINTS = _option(
    "hints", "fives.score", "Show what each play would score", True, (),
    "Off for competitive play: the player must see the count for themselves.",
)  # fmt: skip


class ListOption(Option):
    """A house rule whose value is a list of whole numbers (``hand_bonus``): ``choices`` are
    the lists a form offers, but a document may give any short list of points."""

    __slots__ = ()

    def check(self, value: object) -> Any:
        if (
            isinstance(value, (list, tuple))
            and len(value) <= MOST_LISTED
            and all(type(v) is int and 0 <= v <= 1000 for v in value)
        ):
            return tuple(value)
        raise InvalidAction(
            Said(
                "House rule {name} is a list of up to {most} whole numbers from 0 to 1000, such "
                "as [100, 75, 50, 25]; {value} is not.",
                name=self.name,
                most=MOST_LISTED,
                value=shown(value),
            )
        )


#: The most entries a list house rule holds (hand_bonus: the first hands of a match).
MOST_LISTED = 12

# -- Dominó (RULES.md §11): every option declared once; each style is a preset of defaults.
_BONUS_POINTS = (0, 10, 20, 25, 30, 40, 50, 75, 100)
FIVE_DOUBLES = _option(
    "five_doubles", "parejas.redeal", "Five doubles: the hand is dealt again", False, (),
    "A seat dealt five or more doubles may show them before the first play, and the hand is "
    "dealt again.",
)  # fmt: skip
FIRST_LEAD = _option(
    "first_lead", "parejas.lead", "Who leads the first hand", "double-six",
    ("double-six", "highest-double", "any"),
    "double-six: the seat holding the 6-6 (9-9 with double-9) leads it; highest-double: the "
    "highest double dealt; any: the table chooses, and the leader may lead any tile.",
)  # fmt: skip
NEXT_LEAD = _option(
    "next_lead", "parejas.lead", "Who leads the later hands", "next",
    ("next", "winner", "winning-team"),
    "next: the seat after the last hand's leader; winner: the seat that won the last hand; "
    "winning-team: either player of the pair that won it.",
)  # fmt: skip
PAREJAS_COUNT_ALL = _option(
    "count_all_hands", "parejas.domino", "A domino counts every other hand", False, (),
    "The pair that dominoes scores the pips in all three other hands, the partner's included.",
)  # fmt: skip
TRANQUE = _option(
    "tranque", "parejas.tranque", "Who wins a tranque", "teams",
    ("teams", "locker", "lowest-hand"),
    "teams: the pair holding fewer pips; locker: the seat that locked it against the next seat; "
    "lowest-hand: the pair of the single hand with fewest pips.",
)  # fmt: skip
TRANQUE_COUNT = _option(
    "tranque_count", "parejas.tranque", "What a tranque scores", "opponents",
    ("opponents", "all"),
    "opponents: the winners score the losers' pips; all: every pip left in the four hands.",
)  # fmt: skip
TRANQUE_TIE = _option(
    "tranque_tie", "parejas.tranque-tie", "A tranque with equal counts", "none",
    ("none", "locker"),
    "none: nobody wins the hand and nobody scores; locker: the pair that locked it wins.",
)  # fmt: skip
CAPICUA_BONUS = _option(
    "capicua_bonus", "parejas.capicua", "Capicúa bonus", 0, _BONUS_POINTS,
    "Winning with a last tile that fits both ends (not a double, the ends different).",
)  # fmt: skip
CHUCHAZO_BONUS = _option(
    "chuchazo_bonus", "parejas.chuchazo", "Chuchazo bonus", 0, _BONUS_POINTS,
    "Winning with the 0-0 as the last tile.",
)  # fmt: skip
PASE_DOUBLE = _option(
    "pase_salida_double", "parejas.pase", "Pase de salida after a double lead", 0, _BONUS_POINTS,
    "To the leader's pair when the next seat cannot answer a double lead.",
)  # fmt: skip
PASE_OTHER = _option(
    "pase_salida_other", "parejas.pase", "Pase de salida after any other lead", 0,
    _BONUS_POINTS, "To the leader's pair when the next seat cannot answer the lead.",
)  # fmt: skip
PASO_CORRIDO = _option(
    "paso_corrido_bonus", "parejas.pase", "Paso corrido bonus", 0, _BONUS_POINTS,
    "A seat plays and the three others knock in a row: scored when it plays again.",
)  # fmt: skip
TRANQUE_BONUS = _option(
    "tranque_bonus", "parejas.tranque-bonus", "Tranque bonus", 0, _BONUS_POINTS,
    "Scored on top by the pair that wins a tranque.",
)  # fmt: skip
HAND_BONUS = ListOption(
    "hand_bonus", "parejas.hand-bonus", "Bonuses for the first hands", (),
    ((), (100, 75, 50, 25), (100, 50, 25), (50, 25)),
    "The winners of the match's first hands score these on top, in order (100, 75, 50, 25: "
    "the first hand 100 more, the fourth 25); a hand nobody wins uses up its place.",
)  # fmt: skip
PAREJAS_TARGET = _option("target", "parejas.target", "Play to", 200, (100, 150, 200, 250, 300, 500))
TIME_LIMIT = _option(
    "time_limit", "parejas.time", "Time limit (minutes)", 0, (0, 20, 30, 40, 45, 50, 60, 90),
    "0: none. When the time is up a keeper records Time: the hand in progress is finished "
    "and the pair ahead wins.",
)  # fmt: skip
PAREJAS_SET = _option(
    "set", "set.tiles", "Set", 6, (6, 9),
    "double-6: 7 tiles each; double-9: 10 each, 15 left out of play.",
)  # fmt: skip


def _default(option: Option, default: Any) -> Option:
    """The same house rule with this game's default."""
    return replace(option, default=default)


def _default_rule(option: Option, rule: str) -> Option:
    """The same house rule filed under another rule id."""
    return replace(option, rule=rule)


_COMMON_RULES = ("set.tiles", "set.unique", "seat.order", "info.public", "round.lead")
_LAYOUT_RULES = (
    "line.lead", "line.attach", "line.crosswise", "line.spinner", "line.sides-first",
    "line.dead-end", "line.count", "line.count-spinner",
)  # fmt: skip
_CROSS_RULES = (
    "line.lead", "line.attach", "line.crosswise", "line.spinner", "line.cross", "line.dead-end",
    "line.count",
)  # fmt: skip
_END_RULES = ("hand.count", "end.domino", "end.blocked", "tally.hands", "tally.one-end-doubles",
              "tally.audit", "tally.winner")  # fmt: skip
_DRAW_RULES = ("draw.must-draw", "draw.until", "draw.reserve")
# Every game's table can fix its record (RULES.md §7).
_CORRECTIONS = (
    "correct.record", "correct.replay", "correct.audit", "correct.adjust", "correct.abandon",
)  # fmt: skip
_PROCEDURE = ("procedure.misplay", "procedure.out-of-turn", "procedure.exposed") + _CORRECTIONS
_DRAW_PROCEDURE = ("procedure.overdraw", "procedure.underdraw")
_FIVES_RULES = ("fives.score", "fives.end-bonus", "fives.target", "fives.muggins")
# Partnerships (RULES.md §8), in the games that offer them.
_TEAM_BLOCK = ("team.seats", "team.score", "team.block", "team.tally")
_TEAM_FIVES = ("team.seats", "team.score", "team.fives", "team.muggins", "team.tally")
_TEAM_THREES = ("team.seats", "team.score", "team.fives", "team.tally")

_LINE_OPTIONS = (SET, HAND_SIZE, OPENING, SPINNERS, SIDES_FIRST, SPINNER_COUNT)
_TALLY_OPTIONS = (ONE_END_DOUBLES, BLOCKED_MINUS_OWN, TARGET, PARTNERSHIPS, COUNT_ALL_HANDS)
_FIVES_OPTIONS = (
    SET, HAND_SIZE, OPENING, SIDES_FIRST, SPINNER_COUNT, DRAW_UNTIL, _default(RESERVE, 2),
    ONE_END_DOUBLES, FALSE_CLAIM, ROUND_COMBINED, END_AT_TARGET, FIVES_TARGET, HINTS,
    PARTNERSHIPS,
)  # fmt: skip
_CROSS_OPTIONS = (SET, HAND_SIZE, DRAW_UNTIL, RESERVE) + _TALLY_OPTIONS

_PAREJAS_RULES = (
    # In the order of play, as the Dominó rules page teaches them.
    "set.tiles", "set.unique", "info.public", "seat.order", "team.seats", "parejas.deal",
    "parejas.redeal", "round.lead", "parejas.lead", "line.lead", "turn.order", "line.attach",
    "line.crosswise", "line.spinner", "block.no-draw", "parejas.pase", "hand.count",
    "end.domino", "parejas.capicua", "parejas.chuchazo", "end.blocked", "line.dead-end",
    "parejas.tranque", "parejas.tranque-tie", "parejas.tranque-bonus", "tally.hands",
    "tally.audit", "tally.winner", "team.tally", "parejas.domino", "team.score",
    "parejas.hand-bonus", "parejas.target", "parejas.time", "parejas.records", "pad.record",
    "procedure.misplay", "procedure.out-of-turn", "procedure.exposed", *_CORRECTIONS,
)  # fmt: skip
#: What makes every style Dominó: Block in two fixed pairs, the whole set dealt, nothing
#: drawn, a plain line (parejas.deal).
_PAREJAS_FIXED = {
    "partnerships": True, "opening": "any", "spinners": "none", "sides_first": True,
    "spinner_count": "while-end", "one_end_doubles": False, "blocked_minus_own": False,
    "hand_size": 0,
}  # fmt: skip


def _style(slug: str, title: str, summary: str, **defaults: Any) -> Preset:
    """A Dominó style (RULES.md §11's table): the one set of options with its defaults."""
    options = tuple(
        _default(option, defaults[option.name]) if option.name in defaults else option
        for option in (
            PAREJAS_SET, FIVE_DOUBLES, FIRST_LEAD, NEXT_LEAD, PAREJAS_COUNT_ALL, TRANQUE,
            TRANQUE_COUNT, TRANQUE_TIE, CAPICUA_BONUS, CHUCHAZO_BONUS, PASE_DOUBLE, PASE_OTHER,
            PASO_CORRIDO, TRANQUE_BONUS, HAND_BONUS, PAREJAS_TARGET, TIME_LIMIT, RECORD,
        )
    )  # fmt: skip
    return Preset(
        slug, title, "line", summary, options, (4, 4), {4: 7}, draws=False,
        rules=_PAREJAS_RULES, scoring="parejas", fixed=_PAREJAS_FIXED,
    )  # fmt: skip


#: The six styles of RULES.md §11, in its order.
STYLES = (
    _style(
        "domino-international",
        "Dominó (international)",
        "Four players in two pairs, double-6, 7 each. The 6-6 leads the first hand, then each "
        "seat in turn; to 200; no bonuses.",
        target=200,
    ),
    _style(
        "domino-dominican",
        "Dominó (Dominican)",
        "To 200; the 6-6 leads the first hand, the winner leads the next. Capicúa 25, pase de "
        "salida 25 or 50, paso corrido 25.",
        next_lead="winner",
        target=200,
        capicua_bonus=25,
        pase_salida_double=25,
        pase_salida_other=50,
        paso_corrido_bonus=25,
    ),
    _style(
        "domino-puerto-rican",
        "Dominó (Puerto Rican 500)",
        "To 500; the winner leads. Capicúa, chuchazo and tranque 100 each; the first four hands "
        "pay 100, 75, 50, 25 more; a domino counts all three other hands.",
        next_lead="winner",
        target=500,
        count_all_hands=True,
        tranque_count="all",
        capicua_bonus=100,
        chuchazo_bonus=100,
        tranque_bonus=100,
        hand_bonus=(100, 75, 50, 25),
    ),
    _style(
        "domino-cuban",
        "Dominó (Cuban)",
        "Double-9, 10 each and 15 out of play; the table chooses the first leader, then each "
        "seat in turn; five doubles are dealt again; to 150.",
        set=9,
        five_doubles=True,
        first_lead="any",
        target=150,
    ),
    _style(
        "domino-venezuelan",
        "Dominó (Venezuelan)",
        "The 6-6 leads the first hand, then each seat in turn; to 100; no bonuses.",
        target=100,
    ),
    _style(
        "domino-spanish",
        "Dominó (Spanish)",
        "The FED game: the table chooses the first leader, then each seat in turn; a tranque "
        "scores every pip left; to 300.",
        first_lead="any",
        target=300,
        tranque_count="all",
    ),
)

PRESETS: dict[str, Preset] = {
    preset.slug: preset
    for preset in (
        Preset(
            "block", "Block", "line",
            "Match tiles end to end. Nobody draws: if you cannot play, you knock. "
            "First to play out, or lowest pips when the game blocks, scores the rest.",
            _LINE_OPTIONS + _TALLY_OPTIONS + (RECORD,), (2, 4), {2: 7, 3: 5, 4: 5},
            draws=False,
            rules=_COMMON_RULES + _LAYOUT_RULES + ("turn.order", "block.no-draw") + _END_RULES
            + ("block.score",) + _TEAM_BLOCK + _PROCEDURE + ("pad.record",),
        ),
        Preset(
            "draw", "Draw", "line",
            "Block with a boneyard: if you cannot play, draw until you can. "
            "You knock only when nothing is left to draw.",
            _LINE_OPTIONS + (DRAW_UNTIL, RESERVE) + _TALLY_OPTIONS + (RECORD,), (2, 5),
            {2: 7, 3: 5, 4: 4, 5: 3}, draws=True,
            rules=_COMMON_RULES + _LAYOUT_RULES + ("turn.order",) + _DRAW_RULES + _END_RULES
            + ("block.score",) + _TEAM_BLOCK + _PROCEDURE + _DRAW_PROCEDURE + ("pad.record",),
        ),
        Preset(
            "all-fives", "All Fives", "line",
            "Score the count whenever the open ends add up to a multiple of five; the first "
            "double spins. Play out to score your opponents' pips, rounded to fives.",
            _FIVES_OPTIONS[:3] + (_default(SPINNERS, "first"),) + _FIVES_OPTIONS[3:8]
            + (MUGGINS,) + _FIVES_OPTIONS[8:],
            (2, 5), {2: 5, 3: 5, 4: 5, 5: 5}, draws=True, scoring="fives",
            rules=_COMMON_RULES + _LAYOUT_RULES + ("turn.order",) + _DRAW_RULES + _END_RULES
            + _FIVES_RULES + _TEAM_FIVES + _PROCEDURE + _DRAW_PROCEDURE,
        ),
        Preset(
            "muggins", "Muggins", "line",
            "All Fives where you must call your own score: miss it and an opponent shouts "
            "\"Muggins!\" and takes it.",
            _FIVES_OPTIONS[:3] + (SPINNERS,) + _FIVES_OPTIONS[3:8]
            + (_default(MUGGINS, True),) + _FIVES_OPTIONS[8:],
            (2, 5), {2: 5, 3: 5, 4: 5, 5: 5}, draws=True, scoring="fives",
            rules=_COMMON_RULES + _LAYOUT_RULES + ("turn.order",) + _DRAW_RULES + _END_RULES
            + _FIVES_RULES + _TEAM_FIVES + _PROCEDURE + _DRAW_PROCEDURE,
        ),
        Preset(
            "fives-and-threes", "Fives and Threes", "line",
            "The pub game: a count divisible by five or three scores; no drawing; first to "
            "exactly 61.",
            _LINE_OPTIONS + (ONE_END_DOUBLES, THREES_SCORING, ROUND_COMBINED, EXACT_TARGET,
                             THREES_TARGET, _default_rule(HINTS, "threes.score"),
                             PARTNERSHIPS),
            (2, 4), {2: 7, 3: 5, 4: 5}, draws=False, scoring="threes",
            rules=_COMMON_RULES + _LAYOUT_RULES + ("turn.order", "block.no-draw") + _END_RULES
            + ("threes.score", "threes.chip-out", "fives.end-bonus", "threes.target")
            + _TEAM_THREES + _PROCEDURE,
        ),
        Preset(
            "cross", "Cross", "line",
            "Draw, opened with a cross: the lead double's four faces are covered first, "
            "then four ordinary arms.",
            _CROSS_OPTIONS, (2, 5), {2: 7, 3: 5, 4: 4, 5: 3}, draws=True,
            fixed={"opening": "cross", "spinners": "none", "sides_first": True,
                   "spinner_count": "while-end"},
            rules=_COMMON_RULES + _CROSS_RULES + ("turn.order",) + _DRAW_RULES + _END_RULES
            + ("block.score",) + _TEAM_BLOCK + _PROCEDURE + _DRAW_PROCEDURE,
        ),
        Preset(
            "cross-spinners", "Cross with spinners", "line",
            "Cross where every double played later spins too, opening two new arms.",
            _CROSS_OPTIONS, (2, 5), {2: 7, 3: 7, 4: 5, 5: 5}, draws=True,
            fixed={"opening": "cross", "spinners": "all", "sides_first": False,
                   "spinner_count": "while-end"},
            rules=_COMMON_RULES + _CROSS_RULES + ("line.sides-first", "turn.order")
            + _DRAW_RULES + _END_RULES + ("block.score",) + _TEAM_BLOCK + _PROCEDURE
            + _DRAW_PROCEDURE,
        ),
        Preset(
            "doubles", "Doubles", "line",
            "Lead a double; every double spins, and a number is locked until its double is "
            "down. Draw one tile when stuck.",
            (SET, HAND_SIZE, _default(SPINNERS, "all"), _default(SIDES_FIRST, False),
             SPINNER_COUNT, _default(UNLOCK, True), _default(DRAW_UNTIL, "one"),
             _default(RESERVE, 2)) + _TALLY_OPTIONS,
            (2, 4), {2: 8, 3: 6, 4: 6}, draws=True, fixed={"opening": "double"},
            rules=_COMMON_RULES + _LAYOUT_RULES + ("line.unlock", "turn.order") + _DRAW_RULES
            + _END_RULES + ("block.score",) + _TEAM_BLOCK + _PROCEDURE + _DRAW_PROCEDURE,
        ),
        Preset(
            "dominards", "Dominards", "line",
            "Dominoes, cards and dice: bring the total to a card in your hand, a multiple of "
            "the dice or the virtual card, and drop your cards. The first to drop their last "
            "card ends the game.",
            (STACK_TARGETS,), (2, 4),
            {2: 6, 3: 6, 4: 6}, draws=True, scoring="dominards",
            fixed={"set": 6, "opening": "double", "spinners": "first", "sides_first": True,
                   "spinner_count": "halves", "draw_until": "playable", "reserve": 0},
            rules=_COMMON_RULES + _LAYOUT_RULES + ("turn.order", "hand.count", "end.domino",
                   "end.blocked", "dominards.draw", "dominards.dice", "dominards.total",
                   "dominards.card", "dominards.multiple", "dominards.virtual",
                   "dominards.once", "dominards.domino-bonus", "dominards.card-bonus")
            + _PROCEDURE + _DRAW_PROCEDURE,
        ),
        Preset(
            "dump-truck", "Dump Truck", "truck",
            "Everyone draws a domino each turn and loads it into a truck of 3 by 4 half-domino "
            "cells; unload for chains of like values and one sequence. Highest total wins.",
            (TRUCK_TEMPLATE, NO_SHIFT, NO_REPLACE, BLANKS), (2, 6), fixed={"set": 6},
            rules=("set.tiles", "set.unique", "seat.order", "info.public", "truck.shape",
                   "truck.draw", "truck.load", "truck.replace", "truck.unload", "truck.segment",
                   "truck.like", "truck.sequence", "truck.best", "truck.blanks", "truck.end",
                   "procedure.misplay", "procedure.exposed") + _CORRECTIONS,
        ),
        Preset(
            "havoc", "Double Domino Havoc", "havoc",
            "Draw, play to your train, discard: the first to fill six train slots wins the "
            "round. A double in a discard slot turns play and makes the next seat answer it. "
            "Tray pips count against you; lowest total wins.",
            (HAVOC_SET, ROUNDS), (2, 8),
            rules=("set.tiles", "set.unique", "seat.order", "info.public", "round.lead",
                   "havoc.setup", "havoc.invariant", "havoc.turn", "havoc.drawn-double",
                   "havoc.discard-back", "havoc.doubles", "havoc.direction", "havoc.dead-double",
                   "havoc.boneyard-empty", "havoc.win", "procedure.misplay",
                   "procedure.exposed") + _CORRECTIONS,
        ),
        Preset(
            "mexican-train", "Mexican Train", "train",
            "Every seat builds its own train from the hub, and anyone may play on the Mexican "
            "Train or on a train whose marker is out. A double must be covered before anything "
            "else. One round per double, 12-12 down to 0-0; lowest total wins.",
            (TRAIN_SET, TRAIN_HAND, TRAIN_ROUNDS, FIRST_TURN, DOUBLE_BLANK, RECORD), (2, 8),
            draws=True,
            rules=("set.tiles", "set.unique", "seat.order", "info.public", "train.deal",
                   "train.rounds", "train.engine", "train.trains", "train.marker", "train.turn",
                   "train.draw", "train.double", "train.end", "train.score", "tally.hands",
                   "procedure.misplay", "procedure.exposed") + _CORRECTIONS + ("pad.record",),
        ),
        Preset(
            "chicken-foot", "Chicken Foot", "foot",
            "The round's double takes six tiles around it before anything else, and every "
            "later double three toes: a chicken foot. One round per double, 9-9 down to 0-0; "
            "lowest total wins.",
            (FOOT_SET, FOOT_HAND, _default_rule(TRAIN_ROUNDS, "foot.rounds"), ROOT_ARMS,
             _default_rule(DOUBLE_BLANK, "foot.score"), RECORD), (2, 8),
            draws=True,
            rules=("set.tiles", "set.unique", "seat.order", "info.public", "foot.deal",
                   "foot.rounds", "foot.root", "foot.toes", "foot.draw", "foot.end",
                   "foot.score", "tally.hands", "procedure.misplay", "procedure.exposed")
            + _CORRECTIONS + ("pad.record",),
        ),
        *STYLES,
    )
}  # fmt: skip

#: Beyond double-6 the rulebook gives no hand sizes; our ruling: 7 each for up to four
#: players, 5 each for more (as double-9 sets are commonly dealt), up to eight players.
LARGE_SET_PLAYERS = 8


def preset(slug: str) -> Preset:
    try:
        return PRESETS[slug]
    except (KeyError, TypeError):
        raise InvalidAction(
            Said(
                "There is no game {slug} here; the games are {games}.",
                slug=shown(slug),
                games=", ".join(PRESETS),  # the slugs a document names a game by
            )
        ) from None


def resolve_options(slug: str, given: Mapping[str, Any] | None) -> dict[str, Any]:
    """The match's options: every option of the game, defaults filled in, values checked."""
    game = preset(slug)
    if given is not None and not isinstance(given, Mapping):
        raise InvalidAction(Said("Options must be an object of house rules."))
    given = dict(given or {})
    known = {option.name for option in game.options}
    # The title is a declaration, translated by its own text like everywhere it is shown.
    title = game.named
    for name, value in given.items():
        if name in game.fixed:
            if value != game.fixed[name]:
                raise InvalidAction(
                    Said(
                        "{game} always plays with {name} {value}; that is what makes the game.",
                        game=title,
                        name=name,
                        value=shown(game.fixed[name]),
                    )
                )
            continue
        if name not in known:
            raise InvalidAction(
                Said(
                    "{game} has no house rule {name}; its house rules are {known}.",
                    game=title,
                    name=shown(name),
                    known=", ".join(sorted(known)),  # the options' names, as a document writes them
                )
            )
    resolved: dict[str, Any] = {}
    for option in game.options:  # in order: a default may follow an option declared before it
        value = given[option.name] if option.name in given else option.default_for(resolved)
        resolved[option.name] = option.check(value)
    return {**resolved, **game.fixed}


def max_players(game: Preset, top: int) -> int:
    return game.players[1] if top == 6 else LARGE_SET_PLAYERS


def hand_size(game: Preset, options: Mapping[str, Any], players: int) -> int:
    """Tiles dealt to each seat (``hand.count``), as the rulebook's table says."""
    if options.get("hand_size"):
        return options["hand_size"]
    if options.get("partnerships") and (game.slug == "block" or game.scoring == "parejas"):
        # team.seats: partnership Block deals the whole double-6 set, 10 each from larger ones
        # (parejas.deal: Dominó too, the 15 tiles left of a double-9 out of play).
        return 7 if options["set"] == 6 else 10
    if options["set"] == 6:
        return game.hand_sizes[players]
    return 7 if players <= 4 else 5


def rule_text(rule: str) -> str:
    """The rulebook's text of a rule id."""
    return RULE_TEXTS[rule][1]


def rule_section(rule: str) -> str:
    return RULE_TEXTS[rule][0]
