"""The line family's reducer (RULES.md §2–§3, §6): Block, Draw, All Fives, Muggins,
Fives and Threes, Cross, Cross with spinners, Doubles and Dominards are presets of this one
engine. It keeps the line's mechanics; what plays and round ends score, when the match ends
and who leads next, it asks the game's scoring family (``referee.games.scoring``).
Dominards adds the dice and cards of ``referee.games.dominards``.

A round is replayed from its actions: ``start`` gives the state before the lead,
``apply`` returns the state after one more action and never mutates. Legality is
written once, in the ``_check_*`` functions; ``apply`` runs them and
``legal_actions`` is the list of candidates they accept.

A score-pad round (``pad.record``, Block and Draw with ``record`` = ``scores``) has no
plays: its tally alone ends it, and says how (a seat with no tiles left dominoed), and the
game's scoring applies to it as to a played round.

>>> from referee.actions import Play, Draw, Pass
>>> state = start("draw", {}, ["Ana", "Ben"])
>>> state = apply(state, Play(0, Tile.parse("6-6")))
>>> state.turn, state.hands, state.layout.count
(1, (6, 7), 12)
>>> print(check(state, Pass(1)))
draw.must-draw: Ben cannot knock while 14 tiles can still be drawn; Ben draws first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from referee.actions import (
    Abandon,
    Action,
    Adjust,
    Challenge,
    Declare,
    Draw,
    Muggins,
    Pass,
    Play,
    Redeal,
    Roll,
    Stop,
    Tally,
    Time,
    Undo,
)
from referee.corrections import ABANDONED, STOPPED, on_the_record, stopped_words
from referee.errors import IllegalAction, InvalidAction
from referee.games import dominards
from referee.games.dominards import Dice, Hits
from referee.games.scoring import (
    BLOCKED,
    DOMINO,
    LAST_CARD,
    TARGET,
    Family,
    credit,
    family,
    match_winner,
)
from referee.layout import END, SIDE, Layout, LayoutRules
from referee.rulebook import Preset, hand_size, max_players, preset, resolve_options
from referee.said import Said, counted, listed, phrase, tiles
from referee.teams import Team, leader, team_name, team_of, teams
from referee.tiles import DominoSet, Tile

#: Declarations the referee considers (multiples of 5 up to this): no count reaches it.
MOST_DECLARED = 120

#: Who acts when no seat does (a tally, a score-pad entry): "so the table cannot ...".
_THE_TABLE = Said("the table")


@dataclass(frozen=True, slots=True)
class Knock:
    """A pass, kept so the tally can audit it (``tally.audit``)."""

    action: int  # index of the pass in the round's log (undos included), as the table numbers it
    seat: int
    layout: Layout


@dataclass(frozen=True, slots=True)
class Finding:
    """Something the tally audit found; the table decides what follows."""

    rule: str
    action: int
    seat: int
    message: Said


@dataclass(frozen=True, slots=True)
class Pending:
    """``fives.muggins``: the last play's score, open until the next tile is placed."""

    seat: int  # who played it
    tile: Tile
    worth: int  # what the play made; players are not shown it while the window is open
    declared: int | None = None  # None until the player declares (0 is "no score")
    lapsed: bool = False  # another action came first: the play stands declared at 0
    taken_by: int | None = None  # the seat that called Muggins
    challenged_by: int | None = None

    @property
    def said(self) -> int:
        """What the player is taken to have declared."""
        return self.declared or 0

    @property
    def settled(self) -> bool:
        """The player has declared, or the chance to has passed."""
        return self.declared is not None or self.lapsed


@dataclass(frozen=True)
class RoundResult:
    """The end of a round: who won, why, the pips declared and the points scored."""

    winner: int | None
    reason: str
    pips: tuple[int, ...]
    points: tuple[int, ...]
    findings: tuple[Finding, ...] = ()
    bonus: Said = Said("")  # how fives.end-bonus was counted, for the table (not exported)

    def to_dict(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "reason": self.reason,
            "pips": {str(seat): pips for seat, pips in enumerate(self.pips)},
            "points": {str(seat): p for seat, p in enumerate(self.points) if p},
        }


@dataclass(frozen=True)
class RoundState:
    """Everything the table knows about a round in progress (``info.public``)."""

    game: Preset
    options: Mapping[str, Any]
    names: tuple[str, ...]
    layout: Layout
    hands: tuple[int, ...]  # tiles in each hand (hand.count)
    stock: int  # tiles in the boneyard, including those held in reserve
    turn: int | None = None  # None before the lead: any seat may lead (round.lead)
    drew: int = 0  # tiles the seat to act has drawn this turn
    passes: int = 0  # knocks in a row with nothing left to draw (end.blocked)
    knocks: tuple[Knock, ...] = ()
    ended: str | None = None  # DOMINO or BLOCKED, before the tally
    result: RoundResult | None = None
    actions: int = 0  # effective actions so far
    logged: int = field(default=0, compare=False)  # entries in the round's log, undos included
    last_points: tuple[int, ...] = ()  # what the last action scored, by seat
    last_passed: int = 0  # what it made but could not score: past the target (threes.target)
    last: Action | None = None
    base: tuple[int, ...] = ()  # the match totals before this round
    scores: tuple[int, ...] = ()  # points scored in this round so far, by seat
    leader: int | None = None  # the seat that must lead, when the game says (round.lead)
    led_by: int | None = None  # the seat that did lead
    pending: Pending | None = None  # the last play's score, while it can be declared or taken
    champion: int | None = None  # the seat that won the match, once it is won
    shared: tuple[int, ...] = ()  # the seats tied at the top when the game ended (Dominards)
    stop: Stop | None = None  # the table stopped the match (correct.abandon)
    pad: bool = False  # pad.record: a score-pad round, recorded by its tally alone
    # Dominards (dominards.*): cards held by each seat, the ranks dropped in the match so far,
    # the dice, and what the last play met.
    cards: tuple[int, ...] = ()
    dropped: tuple[str, ...] = ()
    dice: Dice | None = None
    last_hits: Hits | None = None
    # Dominó (parejas.*): the hand's own state, referee.games.scoring.parejas.Hand (hook).
    parejas: Any = None
    # Undo state: the state before the last action, and how many actions are
    # settled (a play settles everything before it: procedure.misplay).
    previous: RoundState | None = field(default=None, compare=False, repr=False)
    settled: int = field(default=0, compare=False)

    @property
    def seats(self) -> int:
        return len(self.names)

    @property
    def top(self) -> int:
        return self.options["set"]

    @property
    def drawable(self) -> int:
        """Tiles that can still be drawn (``draw.reserve`` keeps some back)."""
        if not self.game.draws:
            return 0
        return max(0, self.stock - self.options["reserve"])

    @property
    def is_over(self) -> bool:
        return self.ended is not None

    @property
    def totals(self) -> tuple[int, ...]:
        """The match totals now: before the round plus what the round has scored."""
        return tuple(b + s for b, s in zip(self.base, self.scores, strict=True))

    @property
    def muggins(self) -> bool:
        return bool(self.options.get("muggins"))

    @property
    def scoring(self) -> Family:
        """The game's scoring family, which the line asks what things score."""
        return family(self.game)

    @property
    def dominards(self) -> bool:
        return self.game.scoring == "dominards"

    @property
    def match_over(self) -> bool:
        """The match has ended: a seat won it, or (Dominards) it ended with a tie at the top."""
        return self.champion is not None or bool(self.shared) or self.stop is not None

    @property
    def match_end(self) -> tuple[str, Said] | None:
        """The rule that ended the match and how, in the players' words; None while it goes
        on. Every refusal of play after the end cites it, in a round or after the last."""
        if self.stop is not None:
            return "correct.abandon", Said("The match is over: {how}", how=stopped_words(self.stop))
        return self.scoring.match_end(self)

    def abandoned_result(self) -> RoundResult:
        return RoundResult(None, ABANDONED, (), (0,) * self.seats)

    def stopped_result(self) -> RoundResult:
        return RoundResult(None, STOPPED, (), self.scores)  # what the round had scored

    @property
    def must_roll(self) -> int | None:
        """The seat that must roll before anything else happens (``dominards.dice``); -1
        before a round's lead, when the seat that leads rolls first."""
        if not self.dominards or self.is_over or self.match_over:
            return None
        if self.dice is None:
            return -1
        return None if self.dice.roll else self.dice.controller

    @property
    def carry(self) -> dict[str, Any]:
        """What the next round starts from besides the totals (Dominards' cards)."""
        return self.scoring.carry(self)

    @property
    def declaring(self) -> int | None:
        """The seat that may declare its last play's score now (``fives.muggins``)."""
        pending = self.pending
        if pending is None or pending.settled or self.result is not None:
            return None
        return pending.seat

    @property
    def callers(self) -> tuple[int, ...]:
        """The seats that may call Muggins now: the player's opponents (a partner may not:
        ``team.muggins``), from the play until the next tile (``fives.muggins``)."""
        if not self.muggins_open:
            return ()
        return self.opponents(self.pending.seat)

    def opponents(self, seat: int) -> tuple[int, ...]:
        """The seats not on ``seat``'s team."""
        return tuple(s for s in range(self.seats) if s not in self.team(seat))

    @property
    def challengers(self) -> tuple[int, ...]:
        """The seats that may challenge the last declaration (``false_claim_penalty``)."""
        pending = self.pending
        if not self.options.get("false_claim_penalty") or pending is None or not pending.declared:
            return ()
        return self.callers if pending.challenged_by is None else ()

    def declarations(self) -> tuple[int, ...]:
        """What the declaring seat may say it scored: 0 and every multiple of 5 up to what the
        layout could show at most (a tile with a free face shows at most a double's worth).
        Public facts only, so the choices never hint at the count."""
        if self.declaring is None:
            return ()
        showing = sum(1 for placed in self.layout.placed if placed.free)
        most = min(MOST_DECLARED, showing * 2 * self.top)
        return tuple(range(0, most // 5 * 5 + 1, 5))

    @property
    def muggins_open(self) -> bool:
        """Whether opponents may call Muggins now: from the play until the next tile, even
        before the player declares (an undeclared score can be taken). Public facts only:
        the worth of the play is not consulted, so an enabled button gives nothing away."""
        pending = self.pending
        return (
            pending is not None
            and pending.taken_by is None
            and self.result is None
            and self.champion is None
        )

    def name(self, seat: int) -> str:
        return self.names[seat]

    @property
    def teams(self) -> tuple[Team, ...]:
        """The teams (``team.seats``): 0+2 against 1+3 in partnerships, else each seat."""
        return teams(self.seats, self.options)

    def team(self, seat: int) -> Team:
        return team_of(self.teams, seat)

    def team_name(self, seat: int) -> str:
        """The seat's team as the table names it: "Ana & Caro", or "Ana" alone."""
        return team_name(self.names, self.team(seat))

    def team_total(self, seat: int) -> int:
        """The total that counts for ``seat`` against the target: its team's (``team.score``)."""
        return sum(self.totals[s] for s in self.team(seat))

    def next_seat(self, seat: int) -> int:
        return (seat + 1) % self.seats


def options_for(slug: str, given: Mapping[str, Any] | None, players: int) -> dict[str, Any]:
    """Check a match's options against its game and player count."""
    game = preset(slug)
    options = resolve_options(slug, given)
    low, high = game.players[0], max_players(game, options["set"])
    if not low <= players <= high:
        raise InvalidAction(
            Said(
                "{game} with a double-{top} set is for {low} to {high} players, not {players}.",
                game=game.named,
                top=options["set"],
                low=low,
                high=high,
                players=players,
            )
        )
    if options.get("partnerships") and players != 4:
        raise InvalidAction(
            Said(
                "Playing in pairs takes four players, two teams of two; this table has {players}.",
                players=players,
            )
        )
    if options.get("count_all_hands") and not options.get("partnerships"):
        raise InvalidAction(
            Said(
                "count_all_hands counts the partner's hand too, so it needs partnerships: "
                "without partners the round's winner already scores every other hand."
            )
        )
    dealt = hand_size(game, options, players) * players
    in_set = len(DominoSet(options["set"]).tiles)
    reserve = options.get("reserve", 0)
    if dealt + reserve > in_set:
        # What would be legal too: the most each seat can be dealt (issue 28).
        template = (
            phrase(
                "A double-{top} set has {tiles}: not enough to deal {each} each to {players} "
                "players and keep {reserve} back (at most {most} each)."
            )
            if reserve
            else phrase(
                "A double-{top} set has {tiles}: not enough to deal {each} each to {players} "
                "players (at most {most} each)."
            )
        )
        raise InvalidAction(
            Said(
                template,
                top=options["set"],
                tiles=tiles(in_set),
                each=dealt // players,
                players=players,
                reserve=reserve,
                most=(in_set - reserve) // players,
            ),
            rule="hand.count",
        )
    return options


def start(
    slug: str,
    given: Mapping[str, Any] | None,
    names: Sequence[str],
    leader: int | None = None,
    base: Sequence[int] | None = None,
    carry: Mapping[str, Any] | None = None,
    record: str | None = None,
) -> RoundState:
    """The state of a new round, before the lead. ``leader`` is the seat that must lead
    (see :func:`next_leader`); ``base`` the match totals so far; ``carry`` what the last
    round's :attr:`RoundState.carry` handed on (None for the first round)."""
    game = preset(slug)
    options = options_for(slug, given, len(names))
    size = hand_size(game, options, len(names))
    rules = LayoutRules(
        top=options["set"],
        spinners=options["spinners"],
        sides_first=options["sides_first"],
        opening=options["opening"],
        unlock=options.get("unlock", False),
        spinner_count=options["spinner_count"],
    )
    nobody = (0,) * len(names)
    return RoundState(
        game=game,
        options=options,
        names=tuple(names),
        layout=Layout(rules),
        hands=(size,) * len(names),
        stock=len(DominoSet(options["set"]).tiles) - size * len(names),
        turn=leader,
        base=tuple(base) if base is not None else nobody,
        scores=nobody,
        leader=leader,
        pad=(record or options.get("record")) == "scores",
        **family(game).deal(len(names), carry),
    )


def next_leader(state: RoundState) -> int | None:
    """Who must lead the next round: in Fives and Threes the seat left of this round's
    leader (``threes.target``); elsewhere the table chooses (None)."""
    return state.scoring.next_leader(state)


# -- legality: one check per kind of action ------------------------------------------------


def _check_seat(state: RoundState, seat: int) -> None:
    if seat >= state.seats:
        raise IllegalAction(
            "seat.order",
            Said(
                "There is no seat {seat} at this table; the seats are 0 to {last}.",
                seat=seat,
                last=state.seats - 1,
            ),
        )


def _check_match_on(state: RoundState, who: str, doing: Said) -> None:
    """``doing`` is what was refused, one of :data:`_DOING`'s phrases."""
    ended = state.match_end
    if ended is not None:
        rule, why = ended
        raise IllegalAction(
            rule, Said("{why}, so {who} cannot {doing}.", why=why, who=who, doing=doing)
        )


def _check_turn(state: RoundState, seat: int, doing: Said) -> None:
    _check_seat(state, seat)
    who = state.name(seat)
    _check_match_on(state, who, doing)
    if state.result is not None and state.result.reason == ABANDONED:
        raise IllegalAction(
            "correct.abandon",
            Said(
                "This round was abandoned, so {who} cannot {doing} in it; the next round has "
                "begun.",
                who=who,
                doing=doing,
            ),
        )
    if state.result is not None:
        tallied = state.scoring.tallied(state)  # an untallied round's end cites how it ended
        ended = "end.domino" if state.ended == DOMINO else "end.blocked"
        template = (
            phrase(
                "This round is tallied, so {who} cannot {doing} in it; the next round has begun."
            )
            if tallied
            else phrase(
                "This round is over, so {who} cannot {doing} in it; the next round has begun."
            )
        )
        raise IllegalAction(
            "tally.hands" if tallied else ended, Said(template, who=who, doing=doing)
        )
    if state.is_over:
        why = (
            Said("{who} played their last tile", who=state.name(_domino_seat(state)))
            if state.ended == DOMINO
            else Said("the game is blocked")
        )
        raise IllegalAction(
            "end.domino" if state.ended == DOMINO else "end.blocked",
            Said(
                "The round is over ({why}), so {who} cannot {doing}; tally the hands.",
                why=why,
                who=who,
                doing=doing,
            ),
        )
    if state.turn is not None and seat != state.turn:
        raise IllegalAction(
            "turn.order",
            Said(
                "It is {turn}'s turn, not {who}'s; {who} cannot {doing} now.",
                turn=state.name(state.turn),
                who=who,
                doing=doing,
            ),
        )
    if state.must_roll is not None:
        dice = Said("2 dice for multiples or 4 for a virtual card")
        if state.must_roll < 0:
            raise IllegalAction(
                "dominards.dice",
                Said(
                    "The seat that leads controls the dice and rolls first ({dice}); record the "
                    "roll, then the lead.",
                    dice=dice,
                ),
            )
        raise IllegalAction(
            "dominards.dice",
            Said(
                "{who} controls the dice now and rolls first ({dice}); then {who} can {doing}.",
                who=who,
                dice=dice,
                doing=doing,
            ),
        )


def _check_roll(state: RoundState, action: Roll) -> None:
    """``dominards.dice``: the controller rolls at the start of their turn."""
    _check_seat(state, action.seat)
    who = state.name(action.seat)
    if not state.dominards:
        raise IllegalAction(
            "dominards.dice",
            Said("{game} has no dice; they belong to Dominards.", game=state.game.named),
        )
    _check_match_on(state, who, _DOING["roll"])
    if state.is_over:
        raise IllegalAction(
            "end.domino" if state.ended == DOMINO else "end.blocked",
            Said(
                "The round is over, so {who} cannot roll in it; the next round is dealt.", who=who
            ),
        )
    if state.must_roll is None:
        dice = state.dice
        assert dice is not None
        left = dice.turns_left(state.seats)
        raise IllegalAction(
            "dominards.dice",
            counted(
                "{who}'s roll of {roll} ({target}) still governs {n} more turn; nobody rolls "
                "until then.",
                "{who}'s roll of {roll} ({target}) still governs {n} more turns; nobody rolls "
                "until then.",
                left,
                who=state.name(dice.controller),
                roll=_dice_words(dice.roll),
                target=dice.target,
                n=left,
            ),
        )
    if state.must_roll >= 0 and action.seat != state.must_roll:
        raise IllegalAction(
            "dominards.dice",
            Said(
                "{controller} controls the dice now, not {who}; {controller} rolls.",
                controller=state.name(state.must_roll),
                who=who,
            ),
        )


def _dice_words(roll: tuple[int, ...]) -> str:
    """The dice as read out, "3 + 4": digits and plus signs, no words to translate."""
    return " + ".join(map(str, roll))


def _check_play(state: RoundState, action: Play) -> Layout:
    if state.leader is not None and not state.layout.placed and action.seat != state.leader:
        _check_seat(state, action.seat)
        raise IllegalAction(
            "round.lead",
            Said(
                "{leader} leads this round: in {game} the seat left of the last round's leader "
                "leads; {who} plays in turn after.",
                leader=state.name(state.leader),
                game=state.game.named,
                who=state.name(action.seat),
            ),
        )
    _check_turn(state, action.seat, _DOING["play"])
    if not state.dominards and (action.card or action.drop):
        raise IllegalAction(
            "dominards.card",
            Said(
                "Cards are dropped only in Dominards; {game} has no cards.", game=state.game.named
            ),
        )
    # A rules refusal (not malformed input): 9-9 is a fine tile, just not in this set.
    for tile in (action.tile, action.on):
        if tile is not None and tile not in DominoSet(state.top):
            raise IllegalAction("set.tiles", _not_in_set(state, tile))
    return state.layout.play(action.tile, action.on, action.face)


def _check_draw(state: RoundState, action: Draw) -> None:
    _check_turn(state, action.seat, _DOING["draw"])
    who = state.name(action.seat)
    if not state.game.draws:
        raise IllegalAction(
            "block.no-draw",
            Said(
                "There is no drawing in {game}: {who} plays a tile or knocks.",
                game=state.game.named,
                who=who,
            ),
        )
    if not state.layout.placed:
        raise IllegalAction(
            "round.lead",
            Said("{who} cannot draw yet: nobody draws before the lead; record it first.", who=who),
        )
    if state.options["draw_until"] == "one":
        if state.drew:
            raise IllegalAction(
                "draw.until",
                Said(
                    "{who} has drawn this turn already: {who} plays the drawn tile if it fits, "
                    "else knocks.",
                    who=who,
                ),
            )
        if action.count != 1:
            raise IllegalAction(
                "draw.until",
                Said("{who} draws a single tile, not {n}.", who=who, n=action.count),
            )
    if state.drawable == 0:
        reserve = state.options["reserve"]
        if not reserve:
            left = Said("the boneyard is empty")
        else:
            left = counted(
                "only the {n} reserved tile is left",
                "only the {n} reserved tiles are left",
                reserve,
                n=reserve,
            )
        raise IllegalAction(
            _drawing(state, "draw.reserve"),
            Said("Nothing can be drawn: {left}. {who} knocks.", left=left, who=who),
        )
    if action.count > state.drawable:
        raise IllegalAction(
            _drawing(state, "draw.reserve"),
            Said(
                "Only {tiles} can be drawn, not {count}; {who} draws {n} at most.",
                tiles=tiles(state.drawable),
                count=action.count,
                who=who,
                n=state.drawable,
            ),
        )


def _drawing(state: RoundState, rule: str) -> str:
    """Dominards has its own rule of drawing (``dominards.draw``: draw until you can play,
    pass on an empty pool); the draw games cite theirs."""
    return "dominards.draw" if state.dominards else rule


def _check_pass(state: RoundState, action: Pass) -> None:
    _check_turn(state, action.seat, _DOING["pass"])
    who = state.name(action.seat)
    if not state.layout.placed:
        raise IllegalAction(
            "round.lead",
            Said(
                "{who} cannot knock yet: nobody knocks before the lead; record it first.", who=who
            ),
        )
    drew_one = state.options.get("draw_until") == "one" and state.drew > 0
    if state.drawable and not drew_one:
        raise IllegalAction(
            _drawing(state, "draw.must-draw"),
            Said(
                "{who} cannot knock while {n} can still be drawn; {who} draws first.",
                who=who,
                n=tiles(state.drawable),
            ),
        )


def _check_undo(state: RoundState) -> None:
    if state.previous is None:
        raise IllegalAction(
            "procedure.misplay", Said("There is nothing to take back in this round.")
        )
    if state.actions - 1 < state.settled:
        raise IllegalAction(
            "procedure.misplay",
            Said(
                "{action} stands: a tile was placed after it, which closed its misplay window.",
                action=_describe(state, state.last),
            ),
        )


def _check_declaring_game(state: RoundState, seat: int, doing: Said) -> Pending:
    """The open play a declare, Muggins or challenge is about; refuses where there is none."""
    _check_seat(state, seat)
    who = state.name(seat)
    if not state.game.scores_plays:
        raise IllegalAction(
            "fives.muggins",
            Said(
                "Nothing scores during play in {game}, so {who} cannot {doing}.",
                game=state.game.named,
                who=who,
                doing=doing,
            ),
        )
    if not state.muggins:
        raise IllegalAction(
            "fives.muggins",
            Said(
                "Muggins is off in this match: the referee credits every score itself, so {who} "
                "cannot {doing}.",
                who=who,
                doing=doing,
            ),
        )
    _check_match_on(state, who, doing)
    if state.pending is None or state.result is not None:
        raise IllegalAction(
            "fives.muggins",
            Said(
                "There is no open play: a score is declared, taken or challenged before the next "
                "tile is placed, so {who} cannot {doing} now.",
                who=who,
                doing=doing,
            ),
        )
    return state.pending


def _check_declare(state: RoundState, action: Declare) -> int:
    """The points a declaration credits."""
    pending = _check_declaring_game(state, action.seat, _DOING["declare"])
    who, player = state.name(action.seat), state.name(pending.seat)
    if action.seat != pending.seat:
        then = (
            Said(
                "as {player}'s partner, {who} may not call Muggins on it either",
                player=player,
                who=who,
            )
            if action.seat in state.team(pending.seat)
            else Said("{who} may call Muggins to take what it missed", who=who)
        )
        raise IllegalAction(
            "fives.muggins",
            Said(
                "Only {player} declares the score of {player}'s {tile}; {then}.",
                player=player,
                tile=pending.tile,
                then=then,
            ),
        )
    if pending.declared is not None:
        raise IllegalAction(
            "fives.muggins",
            Said(
                "{who} has declared {points} for {tile} already.",
                who=who,
                points=pending.declared,
                tile=pending.tile,
            ),
        )
    if pending.lapsed:
        raise IllegalAction(
            "fives.muggins",
            Said(
                "Too late: the table moved on after {who}'s {tile}, so it stands declared with "
                "no score.",
                who=who,
                tile=pending.tile,
            ),
        )
    if action.points % 5:
        raise IllegalAction(
            "fives.score",
            Said(
                "Scores in {game} are multiples of 5; {who} cannot declare {points}. Declare 0 "
                "for no score.",
                game=state.game.named,
                who=who,
                points=action.points,
            ),
        )
    if action.points > pending.worth:
        would_win = state.totals[action.seat] + action.points >= state.options["target"]
        if not state.options["false_claim_penalty"] or would_win:
            # Ruling: a false claim never wins the match, even with the penalty on, since
            # the match would end before anybody could challenge it.
            template = (
                phrase(
                    "{who}'s {tile} made the count {count}, which scores {worth}; {who} cannot "
                    "claim {points}. Declare {worth}."
                )
                if pending.worth
                else phrase(
                    "{who}'s {tile} made the count {count}, which scores nothing; {who} cannot "
                    "claim {points}. Declare no score."
                )
            )
            raise IllegalAction(
                "fives.muggins",
                Said(
                    template,
                    who=who,
                    tile=pending.tile,
                    count=state.layout.count,
                    worth=pending.worth,
                    points=action.points,
                ),
            )
    return action.points


def _check_muggins(state: RoundState, action: Muggins) -> int:
    """The points a Muggins call takes."""
    pending = _check_declaring_game(state, action.seat, _DOING["muggins"])
    who, player = state.name(action.seat), state.name(pending.seat)
    if action.seat == pending.seat:
        raise IllegalAction(
            "fives.muggins",
            Said("{who} cannot call Muggins on {who}'s own {tile}.", who=who, tile=pending.tile),
        )
    _check_opponent(state, action.seat, pending, Said("call Muggins on"))
    if pending.taken_by is not None:
        raise IllegalAction(
            "fives.muggins",
            Said(
                "{taker} already called Muggins on {player}'s {tile}.",
                taker=state.name(pending.taken_by),
                player=player,
                tile=pending.tile,
            ),
        )
    missed = pending.worth - pending.said
    # Before the declaration a call always stands and takes what the play made, nothing
    # included: refusing it when the play made nothing would say so while the window is
    # open (a call would probe the hidden count), and would say the player declared what
    # they had not. Once declared, a call that finds nothing missing is refused.
    if missed <= 0 and pending.declared is not None:
        raise IllegalAction(
            "fives.muggins",
            Said(
                "Nothing to take: {player} declared all that {tile} made. The call is not "
                "recorded.",
                player=player,
                tile=pending.tile,
            ),
        )
    return missed


def _check_opponent(state: RoundState, seat: int, pending: Pending, doing: Said) -> None:
    """``team.muggins``: only an opponent may take or challenge a partner's score."""
    if seat in state.team(pending.seat):
        who, player = state.name(seat), state.name(pending.seat)
        them = listed([state.name(s) for s in state.opponents(pending.seat)], "or")
        raise IllegalAction(
            "team.muggins",
            Said(
                "{who} is {player}'s partner: only an opponent ({them}) may {doing} {player}'s "
                "{tile}.",
                who=who,
                player=player,
                them=them,
                doing=doing,
                tile=pending.tile,
            ),
        )


def _check_challenge(state: RoundState, action: Challenge) -> int:
    """The points falsely claimed, which a challenge moves to the challenger."""
    pending = _check_declaring_game(state, action.seat, _DOING["challenge"])
    who, player = state.name(action.seat), state.name(pending.seat)
    if not state.options["false_claim_penalty"]:
        raise IllegalAction(
            "fives.muggins",
            Said(
                "Challenges are off in this match: a claim above the count is refused when it is "
                "made."
            ),
        )
    if pending.declared is None:
        raise IllegalAction(
            "fives.muggins",
            Said(
                "{player} has declared nothing for {tile} to challenge.",
                player=player,
                tile=pending.tile,
            ),
        )
    if action.seat == pending.seat:
        raise IllegalAction(
            "fives.muggins", Said("{who} cannot challenge {who}'s own claim.", who=who)
        )
    _check_opponent(state, action.seat, pending, _DOING["challenge"])
    if pending.challenged_by is not None:
        raise IllegalAction(
            "fives.muggins",
            Said(
                "{challenger} already challenged {player}'s claim.",
                challenger=state.name(pending.challenged_by),
                player=player,
            ),
        )
    excess = pending.declared - pending.worth
    if excess <= 0:
        raise IllegalAction(
            "fives.muggins",
            Said(
                "{player}'s claim of {points} for {tile} was true; the challenge is not recorded.",
                player=player,
                points=pending.declared,
                tile=pending.tile,
            ),
        )
    return excess


def _check_tally(state: RoundState, action: Tally) -> tuple[RoundState, RoundResult]:
    """The round as it ended and its result. A played round ended in play; a score-pad
    round (``pad.record``) ends with its tally, which says how."""
    if not state.scoring.tallied(state) and not state.dominards:
        raise IllegalAction(
            "threes.chip-out",
            Said(
                "In pub Fives and Threes nothing is counted at a round's end: the tile that "
                "chips out scores its point as it is played, and a blocked round scores "
                "nothing, so the hands are not tallied."
            ),
        )
    if not state.scoring.tallied(state):
        raise IllegalAction(
            "dominards.domino-bonus",
            Said(
                "Dominards rounds are not tallied: a round ends with its last domino or when "
                "every seat has knocked, and the domino bonus counts the dominoes in hand, which "
                "the table already knows."
            ),
        )
    if state.result is not None:
        raise IllegalAction("tally.hands", Said("This round is already tallied."))
    if state.pad:
        state = _pad_end(state, action)
    elif not state.is_over:
        raise IllegalAction(
            "tally.hands",
            Said(
                "The round is still on: it ends when a seat plays its last tile or nobody can play."
            ),
        )
    return state, _tally_seats(state, action.declared)


def _tally_seats(state: RoundState, declared: dict[int, tuple[Tile, ...] | int]) -> RoundResult:
    """Each seat's hand, by its tiles or its pips (either way for each seat): the tiles
    checked and audited, the totals within what such a hand could hold."""
    declared = _every_seat(state, declared, ())
    hands = {seat: held for seat, held in declared.items() if isinstance(held, tuple)}
    totals = {seat: held for seat, held in declared.items() if isinstance(held, int)}
    _check_tally_tiles(state, hands)
    _check_tally_pips(state, totals)
    pips = tuple(
        totals[seat] if seat in totals else sum(_value(state, t) for t in hands[seat])
        for seat in range(state.seats)
    )
    every = {seat: hands.get(seat, ()) for seat in range(state.seats)}
    return _score(state, pips, _audit(state, every))


def _check_tally_tiles(state: RoundState, hands: dict[int, tuple[Tile, ...]]) -> None:
    """The hands declared by their tiles: as many as each holds, every tile in the set,
    off the table and declared once."""
    where: dict[Tile, int] = {}
    for seat, hand in sorted(hands.items()):
        who = state.name(seat)
        if state.pad:
            _check_pad_count(state, seat, len(hand))
        elif len(hand) != state.hands[seat]:
            raise IllegalAction(
                "hand.count",
                Said(
                    "{who} should hold {should}, not {held}.",
                    who=who,
                    should=tiles(state.hands[seat]),
                    held=tiles(len(hand)),
                ),
            )
        for tile in hand:
            if tile not in DominoSet(state.top):
                raise IllegalAction("set.tiles", _not_in_set(state, tile))
            if tile in state.layout:
                raise IllegalAction(
                    "set.unique",
                    Said("{tile} is on the table, not in {who}'s hand.", tile=tile, who=who),
                )
            if tile in where:
                template = (
                    phrase("{tile} is declared twice in {who}'s hand; each tile exists once.")
                    if where[tile] == seat
                    else phrase(
                        "{tile} is declared in both {other}'s and {who}'s hands; each tile "
                        "exists once."
                    )
                )
                raise IllegalAction(
                    "set.unique",
                    Said(template, tile=tile, who=who, other=state.name(where[tile])),
                )
            where[tile] = seat
    if state.pad and len(hands) == state.seats:  # the pad's counts, known by the tiles alone
        _check_pad_counts(state)


def _check_tally_pips(state: RoundState, pips: dict[int, int]) -> None:
    """The hands declared by their pip totals: each within what such a hand could hold."""
    if state.pad:
        _check_pad_pips(state, pips)
        return
    # A total is possible when it lies between the held count of cheapest and of dearest
    # tiles not on the table (info.public: as far as the table's record can tell).
    values = sorted(_value(state, t) for t in DominoSet(state.top).tiles if t not in state.layout)
    for seat, total in pips.items():
        held = state.hands[seat]
        least, most = sum(values[:held]), sum(values[len(values) - held :]) if held else 0
        if not least <= total <= most:
            raise IllegalAction(
                "tally.hands",
                Said(
                    "{who} holds {tiles}: {bound} with the tiles off the table, not {total}.",
                    who=state.name(seat),
                    tiles=tiles(held),
                    bound=_at_most(most) if total > most else _at_least(least),
                    total=total,
                ),
            )


def _at_most(pips: int) -> Said:
    return counted("at most {n} pip", "at most {n} pips", pips, n=pips)


def _at_least(pips: int) -> Said:
    return counted("at least {n} pip", "at least {n} pips", pips, n=pips)


def _value(state: RoundState, tile: Tile) -> int:
    """What a tile left in hand counts (``tally.one-end-doubles`` halves a double)."""
    return tile.high if state.options["one_end_doubles"] and tile.is_double else tile.pips


def _every_seat(state: RoundState, declared: dict, nothing: object) -> dict:
    """Every seat's declaration; a seat that holds no tile has nothing to declare."""
    for seat in declared:
        _check_seat(state, seat)
    missing = [state.name(s) for s in range(state.seats) if s not in declared and state.hands[s]]
    if missing:
        # A score pad knows no hand: a seat that played out says so (no tiles, or 0 pips).
        if state.pad:
            said = counted(
                "Say what {who} still holds (no tiles, or 0 pips, for a seat that played out).",
                "Say what {who} still hold (no tiles, or 0 pips, for a seat that played out).",
                len(missing),
                who=listed(missing),
            )
        else:
            said = counted(
                "Say what {who} still holds.",
                "Say what {who} still hold.",
                len(missing),
                who=listed(missing),
            )
        raise IllegalAction("tally.hands", said)
    return {seat: declared.get(seat, nothing) for seat in range(state.seats)}


# -- the score pad (pad.record) ------------------------------------------------------------

#: What a refused action would have done, by its kind, in the words of ``_check_match_on``
#: ("... so Ana cannot {doing}.").
_DOING = {
    "play": Said("play"), "draw": Said("draw"), "pass": Said("knock"), "roll": Said("roll"),
    "declare": Said("declare a score"), "muggins": Said("call Muggins"),
    "challenge": Said("challenge"),
}  # fmt: skip


def _refuse_in_pad(state: RoundState, action: Action) -> None:
    """``pad.record``: a score-pad round is recorded by its tally alone (with any adjustment,
    undo, abandon or stop, which ``apply`` takes before this); everything else is refused."""
    seat = getattr(action, "seat", None)
    who: str = _THE_TABLE
    if isinstance(seat, int):
        _check_seat(state, seat)
        who = state.name(seat)
    doing = _DOING.get(action.kind) or Said("record a {kind}", kind=action.kind)
    _check_match_on(state, who, doing)
    if state.result is not None:
        raise IllegalAction(
            "pad.record",
            Said(
                "{action} has no place here: this round was kept as a score pad and is over; the "
                "next round has begun (it may be recorded play by play).",
                action=_describe(state, action),
            ),
        )
    raise IllegalAction(
        "pad.record",
        Said(
            "{action} has no place here: this round is kept as a score pad. Record what is left "
            "in each hand (or switch to play by play at the start of a round).",
            action=_describe(state, action),
        ),
    )


def _pad_end(state: RoundState, action: Tally) -> RoundState:
    """How a score-pad round ended, from its tally (``pad.record``): a seat with no tiles left
    dominoed (``end.domino``); with nobody out the round was blocked (``end.blocked``), and
    ``tally.winner`` (``team.block``) decides. The hand counts become what the tally says."""
    by_tiles = action.pips is None
    declared = _every_seat(state, action.declared, None)
    # Ruling: by pips, a seat declared at 0 played out (it dominoed): a score pad writes a
    # domino as 0, and a pip total cannot tell an empty hand from a hand of 0-0 alone. By
    # tiles the hand says which: a seat left holding 0-0 holds a real 0 and did not play out.
    out = [s for s, held in declared.items() if held in ((), 0)]
    if len(out) > 1:
        raise IllegalAction(
            "end.domino",
            Said(
                "{names} cannot both have played out ({kept}): the round ends when the first "
                "seat plays its last tile. Only one seat dominoes; say what the others still held.",
                names=listed([state.name(s) for s in out]),
                kept=Said("no tiles")
                if by_tiles
                else Said("0 pips")
                if action.hands is None
                else Said("no tiles, or 0 pips"),
            ),
        )
    # How many tiles a pip total stands for nobody knows; the seat out holds none.
    hands = tuple(
        len(held) if isinstance(held, tuple) else 0 if seat in out else state.hands[seat]
        for seat, held in ((s, declared[s]) for s in range(state.seats))
    )
    return replace(state, hands=hands, ended=DOMINO if out else BLOCKED)


def _dealt(state: RoundState) -> int:
    return hand_size(state.game, state.options, state.seats)


def _pad_most(state: RoundState) -> tuple[int, Said]:
    """The most tiles a seat can hold at the end of a score-pad round (``hand.count``): the
    deal, plus what could have been drawn (the boneyard less the reserve); and why, aloud
    (what follows a seat's name: "Ana was dealt 7 and ...")."""
    dealt = _dealt(state)
    if not state.game.draws:
        return dealt, Said(
            "was dealt {dealt} and {game} has no drawing", dealt=dealt, game=state.game.named
        )
    template = (
        phrase("was dealt {dealt} and could draw {n} more at most (the boneyard less the reserve)")
        if state.options["reserve"]
        else phrase("was dealt {dealt} and could draw {n} more at most (the boneyard)")
    )
    return dealt + state.drawable, Said(template, dealt=dealt, n=state.drawable)


def _check_pad_count(state: RoundState, seat: int, held: int) -> None:
    most, why = _pad_most(state)
    if held > most:
        raise IllegalAction(
            "hand.count",
            Said(
                "{who} {why}, so {who} holds {most} at most, not {held}.",
                who=state.name(seat),
                why=why,
                most=tiles(most),
                held=held,
            ),
        )


def _check_pad_counts(state: RoundState) -> None:
    """The hands together (``hand.count``): no more drawn between them than the boneyard
    gave, and at least one tile played, the lead (``round.lead``)."""
    dealt, drawable = _dealt(state), state.drawable
    drawn = sum(max(0, held - dealt) for held in state.hands)
    if drawn > drawable:
        raise IllegalAction(
            "hand.count",
            Said(
                "Between them the hands hold {drawn} more than the {dealt} each was dealt, but "
                "only {drawable} could be drawn; at most {n} more in all.",
                drawn=tiles(drawn),
                dealt=dealt,
                drawable=tiles(drawable),
                n=drawable,
            ),
        )
    held = sum(state.hands)
    if held >= dealt * state.seats + drawable:
        template = (
            phrase(
                "The hands hold {held}: every tile dealt and all {drawable} that could be drawn, "
                "so nobody played, yet a round begins with a lead. Together they hold {most} at "
                "most."
            )
            if drawable
            else phrase(
                "The hands hold {held}: every tile dealt, so nobody played, yet a round begins "
                "with a lead. Together they hold {most} at most."
            )
        )
        raise IllegalAction(
            "hand.count",
            Said(
                template,
                held=tiles(held),
                drawable=drawable,
                most=dealt * state.seats + drawable - 1,
            ),
        )


def _check_pad_pips(state: RoundState, pips: Mapping[int, int]) -> None:
    """``tally.hands``: a score-pad round's pip totals, each within what a hand could hold:
    0 (played out) up to the dearest tiles a seat can hold (``tally.one-end-doubles``
    counted)."""
    held, why = _pad_most(state)
    values = sorted((_value(state, t) for t in DominoSet(state.top).tiles), reverse=True)
    most = sum(values[:held])
    for seat, total in pips.items():
        if not 0 <= total <= most:
            raise IllegalAction(
                "tally.hands",
                Said(
                    "{who} {why}, so {who} holds {held} at most: from 0 (played out) to {most} "
                    "pips with the dearest of them, not {total}.",
                    who=state.name(seat),
                    why=why,
                    held=tiles(held),
                    most=most,
                    total=total,
                ),
            )


def _audit(state: RoundState, hands: Mapping[int, tuple[Tile, ...]]) -> tuple[Finding, ...]:
    """``tally.audit``: a tile held at the end that fitted when its holder knocked."""
    findings = []
    for knock in state.knocks:
        for tile in hands[knock.seat]:
            spots = knock.layout.attachments(tile)
            if spots:
                on = spots[0][0]
                findings.append(
                    Finding(
                        "tally.audit",
                        knock.action,
                        knock.seat,
                        Said(
                            "{who} knocked (action {n}) holding {tile}, which fitted on {on}.",
                            who=state.name(knock.seat),
                            n=knock.action + 1,
                            tile=tile,
                            on=on,
                        ),
                    )
                )
                break
    return tuple(findings)


def _score(state: RoundState, pips: tuple[int, ...], findings) -> RoundResult:
    """``tally.winner`` (by team: ``team.block``), then what the round's end scores the
    winner (the family says)."""
    if state.ended == DOMINO:
        winner: int | None = _domino_seat(state)
        if pips[winner]:
            raise IllegalAction(
                "end.domino", Said("{who} played out and holds no pips.", who=state.name(winner))
            )
    else:
        # team.block, team.fives: a blocked round goes to the team with the fewest pips
        # between its seats (a tie: nobody), and is credited to its seat holding fewest.
        team = leader(pips, state.teams, lowest=True)
        winner = None if team is None else min(team, key=lambda seat: pips[seat])
    points, bonus = [0] * state.seats, Said("")
    if winner is not None:
        points[winner], bonus = state.scoring.round_end(state, pips, winner)
    return RoundResult(winner, state.ended or BLOCKED, pips, tuple(points), tuple(findings), bonus)


def _domino_seat(state: RoundState) -> int:
    return state.hands.index(0)


#: An action as the table names it, by its kind; "{who}" is the seat's name.
_NAMED = {
    "draw": phrase("{who}'s draw"), "pass": phrase("{who}'s knock"),
    "roll": phrase("{who}'s roll"), "declare": phrase("{who}'s declaration"),
    "muggins": phrase("{who}'s Muggins call"), "challenge": phrase("{who}'s challenge"),
}  # fmt: skip


def _describe(state: RoundState, action: Action | None) -> Said:
    """An action as the table would name it: "Ana's 6-6", "Ben's draw"."""
    if isinstance(action, Play):
        return Said("{who}'s {tile}", who=state.name(action.seat), tile=action.tile)
    if isinstance(action, Draw | Pass | Roll | Declare | Muggins | Challenge):
        return Said(_NAMED[action.kind], who=state.name(action.seat))
    return Said("That action")


def _not_in_set(state: RoundState, tile: Tile) -> Said:
    return Said("{tile} is not in a double-{top} set.", tile=tile, top=state.top)


# -- the reducer ---------------------------------------------------------------------------


def check(state: RoundState, action: Action) -> IllegalAction | None:
    """The reason ``action`` is illegal now, or None; what buttons use to explain themselves."""
    try:
        apply(state, action)
    except IllegalAction as error:
        return error
    return None


def apply(state: RoundState, action: Action) -> RoundState:
    """The state after ``action``; raises IllegalAction (nothing changes) if it is not legal."""
    if isinstance(action, Undo):
        _check_undo(state)
        assert state.previous is not None
        restored = replace(state.previous, settled=state.settled, logged=state.logged + 1)
        if isinstance(state.last, Play):
            # procedure.misplay: taking back a tile reopens nothing it had closed. Placing it
            # shut the windows of the play before (an undeclared play lapsed at 0), and they
            # stay shut: a tile placed and taken back must not let anyone score or recover.
            restored = replace(restored, pending=None)
        return restored
    if isinstance(action, Adjust | Abandon | Stop):
        return on_the_record(state, action)
    # Only _gain sets last_passed; every other action leaves nothing unscored.
    after = _transition(replace(state, last_passed=0) if state.last_passed else state, action)
    return replace(
        after, actions=state.actions + 1, logged=state.logged + 1, last=action, previous=state
    )


def _transition(state: RoundState, action: Action) -> RoundState:
    nobody = (0,) * state.seats
    if isinstance(action, Redeal | Time):  # hook: Dominó's own actions (parejas.redeal, .time)
        return state.scoring.table_action(state, action)
    if state.pad and not isinstance(action, Tally):
        _refuse_in_pad(state, action)
    if isinstance(action, Play):
        state.scoring.check_play(state, action)  # hook: Dominó's leads (parejas.lead)
        layout = _check_play(state, action)
        hands = _minus(state.hands, action.seat)
        ended = DOMINO if hands[action.seat] == 0 else (BLOCKED if layout.is_blocked else None)
        after = replace(
            state,
            layout=layout,
            hands=hands,
            turn=state.next_seat(action.seat),
            drew=0,
            passes=0,
            ended=ended,
            last_points=nobody,
            settled=state.actions,  # the misplay window closes on everything before this tile
            led_by=action.seat if not state.layout.placed else state.led_by,
            pending=None,  # placing a tile closes the last play's muggins window
        )
        if state.muggins:  # fives.muggins: this play's window opens; it scores when declared
            made = state.scoring.worth(state, layout.count)
            return replace(after, pending=Pending(action.seat, action.tile, made))
        return _end_at_target(_close_untallied(state.scoring.play(after, action)))
    if isinstance(action, Draw):
        _check_draw(state, action)
        hands = tuple(
            h + (action.count if s == action.seat else 0) for s, h in enumerate(state.hands)
        )
        # A draw keeps the turn: the seat plays what it drew, or draws again. A tile drawn
        # now may be the one that fitted at this seat's earlier knocks (draw_until one lets a
        # seat knock while tiles can still be drawn), so tally.audit can no longer judge them.
        return replace(
            state, hands=hands, stock=state.stock - action.count, drew=state.drew + action.count,
            passes=0, last_points=nobody, pending=_lapse(state.pending), last_hits=None,
            knocks=tuple(k for k in state.knocks if k.seat != action.seat),
        )  # fmt: skip
    if isinstance(action, Pass):
        _check_pass(state, action)
        passes = state.passes + 1 if state.drawable == 0 else 0
        after = replace(
            state,
            turn=state.next_seat(action.seat),
            drew=0,
            passes=passes,
            ended=BLOCKED if passes >= state.seats else None,
            knocks=state.knocks + (Knock(state.logged, action.seat, state.layout),),
            last_points=nobody,
            pending=_lapse(state.pending),
        )
        if state.dice is not None:  # dominards.draw: a knock is a turn under the roll
            after = replace(after, dice=state.dice.after_turn(state.seats), last_hits=None)
        after = state.scoring.knock(after, action)  # hook: Dominó's pases (parejas.pase)
        return _close_untallied(after)
    if isinstance(action, Roll):
        _check_roll(state, action)
        return replace(
            state, dice=Dice(action.seat, action.dice), turn=action.seat, last_points=nobody,
            last_hits=None,
        )  # fmt: skip
    if isinstance(action, Declare):
        points = _check_declare(state, action)
        pending = replace(state.pending, declared=action.points)
        return _end_at_target(credit(replace(state, pending=pending), {action.seat: points}))
    if isinstance(action, Muggins):
        missed = _check_muggins(state, action)
        # A call before the declaration takes the whole score: the chance to declare is gone.
        pending = replace(_lapse(state.pending), taken_by=action.seat)
        return _end_at_target(credit(replace(state, pending=pending), {action.seat: missed}))
    if isinstance(action, Challenge):
        excess = _check_challenge(state, action)
        pending = replace(state.pending, challenged_by=action.seat)
        moved = {action.seat: excess, pending.seat: -excess}
        return _end_at_target(credit(replace(state, pending=pending), moved))
    if isinstance(action, Tally):
        _check_match_on(state, _THE_TABLE, Said("tally the hands"))
        state, tallied = _check_tally(state, action)
        state, tallied = state.scoring.settle(state, action, tallied)  # hook: parejas.tranque
        after = credit(
            replace(state, pending=_lapse(state.pending)),
            {seat: p for seat, p in enumerate(tallied.points) if p},
        )
        if after.champion is None and not state.scoring.ends_at_once(state):
            after = replace(after, champion=match_winner(after.totals, state.options))
        # The round's result carries everything the round scored, the tally's share included.
        after = replace(after, result=replace(tallied, points=after.scores))
        return state.scoring.decide(after)  # hook: Dominó's target and time (parejas.target)
    rule = "dominards.dice" if action.kind == "roll" else "info.public"
    raise IllegalAction(
        rule,
        Said(
            "{game} has no {kind}; that belongs to another game.",
            game=state.game.named,
            kind=action.kind,
        ),
    )


def worth(state: RoundState, count: int) -> int:
    """What a play that leaves ``count`` scores (``fives.score``, ``threes.score``)."""
    return state.scoring.worth(state, count)


def _end_at_target(state: RoundState) -> RoundState:
    """A match won mid-round ends the round there: there is nothing left to tally."""
    if state.champion is None or state.result is not None:
        return state
    result = RoundResult(state.champion, TARGET, (), state.scores)
    return replace(state, ended=TARGET, result=result, turn=None)


def _close_untallied(state: RoundState) -> RoundState:
    """Where the family scores a round's end in play (Dominards), the round closes with the
    action that ends it: there is nothing to tally."""
    if state.ended is None or state.result is not None or state.scoring.tallied(state):
        return state
    if state.match_over:
        winner = state.champion  # None for a win shared at the top
    else:
        winner = _domino_seat(state) if state.ended == DOMINO else None
    return replace(state, turn=None, result=RoundResult(winner, state.ended, (), state.scores))


def _lapse(pending: Pending | None) -> Pending | None:
    """Another action came before the player declared: the play stands declared at 0."""
    if pending is None or pending.settled:
        return pending
    return replace(pending, lapsed=True)


def _minus(hands: tuple[int, ...], seat: int) -> tuple[int, ...]:
    return tuple(h - 1 if s == seat else h for s, h in enumerate(hands))


def legal_actions(state: RoundState) -> tuple[Action, ...]:
    """Every play, draw, knock, declaration, Muggins call, challenge and undo ``apply``
    would accept now (tallies aside: a tally's legality depends on hands only the players
    know)."""
    if state.pad:  # pad.record: a score-pad round holds its tally (and adjustments) alone
        return (Undo(),) if check(state, Undo()) is None else ()
    candidates: list[Action] = []
    if state.must_roll is not None:
        seats = range(state.seats) if state.must_roll < 0 else (state.must_roll,)
        candidates += [Roll(seat, dice) for seat in seats for dice in dominards.rolls()]
    elif not state.is_over:
        seats = range(state.seats) if state.turn is None else (state.turn,)
        unseen = [t for t in DominoSet(state.top).tiles if t not in state.layout]
        for seat in seats:
            for tile in unseen:
                if state.layout.placed:
                    spots = state.layout.attachments(tile)
                    candidates += [Play(seat, tile, on, face) for on, face in spots]
                    # A play need not name the face (the referee picks one), and apply
                    # accepts it, so it is legal too.
                    candidates += [
                        Play(seat, tile, on) for on in dict.fromkeys(on for on, _ in spots)
                    ]
                else:
                    candidates.append(Play(seat, tile))
        if state.turn is not None and state.layout.placed:
            candidates += [Draw(state.turn, n) for n in range(1, state.drawable + 1)]
            candidates.append(Pass(state.turn))
    if state.pending is not None:
        seat = state.pending.seat
        candidates += [Declare(seat, p) for p in range(0, MOST_DECLARED + 1, 5)]
        candidates += [Muggins(s) for s in range(state.seats)]
        candidates += [Challenge(s) for s in range(state.seats)]
    candidates.append(Undo())
    legal = [a for a in candidates if check(state, a) is None]
    if state.dominards:
        legal += [v for a in legal if isinstance(a, Play) for v in _card_drops(state, a)]
    return tuple(legal)


def _card_drops(state: RoundState, play: Play) -> list[Play]:
    """``play`` with each card drop its total allows: the card worth the total, and any
    rank after hitting the virtual card."""
    total = total_after(state, play.tile, play.on, play.face)
    card = dominards.card_for(total)
    cards = [card] if card is not None else []
    drops = list(dominards.RANKS) if state.dice and state.dice.virtual else []
    variants = [replace(play, card=c) for c in cards]
    variants += [replace(play, card=c, drop=d) for c in [None, *cards] for d in drops]
    # The play itself is legal: only the cards can make a variant illegal (as apply would).
    return [v for v in variants if _cards_allowed(state, v, total)]


def _cards_allowed(state: RoundState, play: Play, total: int) -> bool:
    try:
        dominards.judge(
            total, state.dice, play.card, play.drop, held=state.cards[play.seat],
            dropped=state.dropped, stack=False, who="",
        )  # fmt: skip
    except IllegalAction:
        return False
    return True


def total_after(state: RoundState, tile: Tile, on: Tile | None, face: str | None = None) -> int:
    """The count (Dominards: the total) the layout would show after this play, or -1 where
    the tile cannot go."""
    try:
        return state.layout.play(tile, on, face).count
    except IllegalAction:
        return -1


def fits(state: RoundState, tile: Tile) -> tuple[tuple[Tile | None, str | None], ...]:
    """Where ``tile`` may go now: (tile it goes on, face) pairs, ``(None, None)`` for the
    lead; empty when it is on the table or the round is over."""
    if state.is_over or tile in state.layout:
        return ()
    if not state.layout.placed:
        return () if check(state, Play(state.turn or 0, tile)) else ((None, None),)
    return state.layout.attachments(tile)


def gains(state: RoundState, tile: Tile, on: Tile | None, face: str | None = None) -> int:
    """What playing ``tile`` on ``on`` would score now: the table's hint. 0 where it scores
    nothing or cannot go; in a target-exact game, 0 where it would pass the target."""
    return state.scoring.gains(state, total_after(state, tile, on, face))


__all__ = [
    "BLOCKED", "DOMINO", "END", "LAST_CARD", "SIDE", "TARGET", "Dice", "Finding", "Hits",
    "Knock", "Pending", "RoundResult", "RoundState", "apply", "check", "fits", "gains",
    "legal_actions", "match_winner", "next_leader", "options_for", "start", "total_after",
    "worth",
]  # fmt: skip
