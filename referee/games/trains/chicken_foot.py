"""Chicken Foot (RULES.md §10): one round per double, the highest first; the round's
double takes its arms before anything else, and every later double three toes.

The referee sees what the table sees (``info.public``): the tiles on the table, how many
tiles each hand and the boneyard hold. Hands are checked when they are declared at the tally.

The table is a small layout of its own (:class:`FootLayout`), not the line games'
``referee.layout.Layout``: that one gives a double two sides (and a spinner two ends) with
the sides-first rule, and keeps the count; here the round's double takes six or four arms
(``foot.root``), a later double exactly three toes on its far side (``foot.toes``), and what
is owed to a double binds the whole table, which is simpler to say in a layout that knows it.

>>> from referee.actions import Engine, Play
>>> state = start("chicken-foot", {}, ["Ana", "Ben", "Caro"])
>>> state = apply(state, Engine(0, Tile.parse("9-9")))
>>> state.names[state.turn], instruction(state)
('Ben', "The root 9-9 needs 6 arms: each must show a 9. Ben's turn: play one, or draw.")
>>> state = apply(state, Play(1, Tile.parse("9-4"), Tile.parse("9-9")))
>>> [str(t) for t in fits(state, Tile.parse("9-2"))], fits(state, Tile.parse("4-2"))
(['9-9'], ())
>>> print(check(state, Play(2, Tile.parse("4-2"), Tile.parse("9-4"))))
foot.root: The root 9-9 still needs 5 arms, each showing a 9, before any other play: 4-2 shows no 9.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.actions import (
    Action,
    Draw,
    Engine,
    Pass,
    Play,
    Tally,
)  # fmt: skip
from referee.corrections import ABANDONED
from referee.errors import IllegalAction, InvalidAction
from referee.frozen import replace
from referee.games.trains.foot_layout import ARM, TOE, TOES, FootLayout, FreeEnd, Line, Owed, Placed
from referee.games.trains.rounds import TrainRounds, pad_result, search_draw, turn_candidates
from referee.round.core import Deal, Starter
from referee.round.reducer import Reducer
from referee.round.refusals import (
    OVER_AND_TALLIED,
    already_tallied,
    check_players,
    check_seat,
    not_your_turn,
)
from referee.round.result import BLOCKED, DOMINO, RoundResult
from referee.round.tally import (
    declared_twice,
    lowest,
    on_the_table,
    say_what,
    settle_lowest,
    wrong_count,
)
from referee.rulebook import Preset, preset, resolve_options
from referee.said import Said, listed, phrase
from referee.said import tiles as tile_count  # `tiles` names many a hand here
from referee.tiles import DominoSet, Tile

# ---------------------------------------------------------------------------------------------
# The round


@dataclass(frozen=True)
class FootState(TrainRounds):
    """Everything the table knows about a round of Chicken Foot."""

    game: Preset
    options: Mapping[str, Any]
    names: tuple[str, ...]
    layout: FootLayout
    hands: tuple[int, ...]  # tiles in each hand (info.public: counts only)
    boneyard: int
    engine: Tile  # this round's double (foot.rounds)
    turn: int | None = None  # the seat to act; None while any seat may begin the search
    drew: bool = False  # the seat to act has drawn its one tile this turn (foot.draw)
    passes: int = 0  # passes in a row with the boneyard empty (foot.end)
    leader: int | None = None  # the seat that must begin the round; None: the table chooses
    first: int | None = None  # the seat that began it
    ended: str | None = None  # DOMINO or BLOCKED (or ABANDONED), until the tally
    pad: bool = False  # pad.record: a score-pad round, recorded by its tally alone

    @property
    def placed(self) -> bool:
        """The round's double is on the table."""
        return self.layout.root is not None

    @property
    def match_over(self) -> bool:
        return self.stop is not None or (self.counted and self.number >= self.rounds)

    rounds_rule = "foot.rounds"

    def played_down(self) -> Said | None:
        if self.rounds != self.top + 1:
            return None
        return Said(
            "all {rounds} rounds are played, {highest} down to 0-0",
            rounds=self.rounds,
            highest=Tile(self.top, self.top),
        )

    @property
    def carry(self) -> dict[str, Any]:
        """What the next round needs: how many rounds were played, and its double (an
        abandoned round replays the same one)."""
        played = self.played + self.counted
        return {"played": played, "engine": max(0, self.engine.high - self.counted)}

    @property
    def acting(self) -> int | None:
        """The seat that must act now (None: any seat may begin, or nobody plays)."""
        return None if self.is_over or self.pad else self.turn

    @property
    def dealt(self) -> int:
        """The boneyard as dealt: what a hand could have drawn from (``pad.record``)."""
        return len(DominoSet(self.top).tiles) - self.options["hand_size"] * self.seats

    def next_seat(self, seat: int) -> int:
        """The next seat clockwise (``seat.order``)."""
        return (seat + 1) % self.seats

    def unseen(self) -> tuple[Tile, ...]:
        """The tiles not on the table: in some hand or in the boneyard."""
        return tuple(t for t in DominoSet(self.top).tiles if t not in self.layout)

    def ended_words(self) -> Said:
        """How the round ended, for the table."""
        if self.ended == DOMINO:
            return Said("{who} played their last tile", who=self.names[self.hands.index(0)])
        stuck = self.layout.stuck()
        if stuck is not None:
            return Said("nobody can play: {why}", why=stuck)
        return Said("nobody can play or draw: the boneyard is empty and every seat passed in a row")


def options_for(slug: str, given: Mapping[str, Any] | None, players: int) -> dict[str, Any]:
    """The match's options, checked against the number of players: the deal must fit the
    set (``foot.deal``), and the rounds the set's doubles (``foot.rounds``)."""
    game = preset(slug)
    options = resolve_options(slug, given)
    check_players(game, players)
    top, size = options["set"], options["hand_size"]
    tiles = len(DominoSet(top).tiles)
    if size * players > tiles:
        most = tiles // players
        if most >= game.option("hand_size").choices[0]:
            fix = Said("deal at most {most} each (hand_size) or choose a larger set", most=most)
        else:
            fix = Said("choose a larger set")
        raise InvalidAction(
            Said(
                "{players} players with {size} tiles each need {need} tiles; a double-{top} set "
                "has {tiles}: {fix}.",
                players=players,
                size=size,
                need=size * players,
                top=top,
                tiles=tiles,
                fix=fix,
            ),
            rule="foot.deal",
        )
    rounds = options["rounds"]
    if rounds != "all" and rounds > top + 1:
        # Our ruling: refused rather than cut short, so the table knows at the start.
        raise InvalidAction(
            Said(
                "A double-{top} set has {doubles} doubles ({highest} down to 0-0), one a round: "
                "a match has at most {doubles} rounds, not {rounds}.",
                top=top,
                doubles=top + 1,
                highest=Tile(top, top),
                rounds=rounds,
            ),
            rule="foot.rounds",
        )
    return options


def _deal(deal: Deal) -> FootState:
    """A new round (``foot.deal``, ``foot.rounds``): each seat dealt its hand, this round's
    double not yet placed. ``leader`` is the seat that begins it (None: the table chooses);
    ``carry`` what the last round's :attr:`FootState.carry` handed on; ``record`` "scores"
    for a score-pad round (None: the match's option)."""
    options, seats, played, leader = deal.options, deal.seats, deal.played, deal.leader
    top, size = options["set"], options["hand_size"]
    number = int(deal.carry.get("engine", top - played))
    if not 0 <= number <= top:
        # Not a Tile parameter: the number came from outside and may be no tile's at all.
        raise InvalidAction(Said("There is no {n}-{n} in a double-{top} set.", n=number, top=top))
    pad = deal.pad
    return FootState(
        **deal.opening(),
        layout=FootLayout(top, options["root_arms"]),
        hands=(size,) * seats,
        boneyard=len(DominoSet(top).tiles) - size * seats,
        engine=Tile(number, number),
        turn=None if pad else leader,
        leader=leader,
        first=leader,
        played=played,
        pad=pad,
    )


start = Starter(options_for, _deal)


def next_leader(state: FootState) -> int | None:
    """Our ruling: the next round begins with the seat clockwise of this round's beginner
    (when the table chose it: the seat that began the search for the double, or placed it).
    An abandoned round too: its double is played again, begun by the next seat."""
    return None if state.first is None else state.next_seat(state.first)


def fits(state: FootState, tile: Tile) -> tuple[Tile, ...]:
    """The tiles on the table ``tile`` may go on now (the app lights them up); () when no
    play can be made now."""
    if state.is_over or state.pad or state.match_over:
        return ()
    return state.layout.attachments(tile)


def instruction(state: FootState) -> Said:
    """What must happen now, in the players' words."""
    if state.match_end is not None:
        return Said("{end}.", end=state.match_end[1])
    if state.result is not None:
        if state.result.reason == ABANDONED:
            return Said("This round was abandoned.")
        return OVER_AND_TALLIED
    if state.pad:
        return PAD_WORDS
    if state.ended is not None:
        return _round_over(state)
    if not state.placed:
        if state.turn is None:
            search = Said("seats draw one tile each in turn, any seat beginning")
        else:
            search = Said("{who} draws next", who=state.names[state.turn])
        # The double's place in the match, not the round's: an abandoned round is dealt again
        # with the same double, as the next round of the log (issue 28).
        return Said(
            "{engine} begins this round (double {number} of {rounds}). Whoever holds it places "
            "it; if nobody does, {search}.",
            number=state.number,
            rounds=state.rounds,
            engine=state.engine,
            search=search,
        )
    assert state.turn is not None
    who = state.names[state.turn]
    opening = state.layout.opening
    if state.drew:
        turn = Said("{who} drew: play a tile, or pass.", who=who)
    elif state.boneyard and opening is not None:
        turn = Said("{who}'s turn: play one, or draw.", who=who)
    elif state.boneyard:
        turn = Said("{who}'s turn: play a tile, or draw.", who=who)
    elif opening is not None:
        turn = Said("{who}'s turn: play one, or pass (the boneyard is empty).", who=who)
    else:
        turn = Said("{who}'s turn: play a tile, or pass (the boneyard is empty).", who=who)
    if opening is not None:
        # Two sentences: what the open double needs, then whose turn it is.
        return Said("{owed} {turn}", owed=opening.words(), turn=turn)
    return turn


PAD_WORDS = Said("This round is kept as a score pad: record what is left in each hand.")


def _round_over(state: FootState) -> Said:
    """The banner, and the refusal of every play, once the round has ended untallied."""
    return Said("The round is over: {how}. Tally the hands.", how=state.ended_words())


# ---------------------------------------------------------------------------------------------
# Checks: each raises IllegalAction naming the rule, or returns what the action needs.


def _check_seat(state: FootState, seat: int) -> None:
    check_seat(state.seats, seat)


def _check_match_on(state: FootState) -> None:
    if state.match_end is not None:
        rule, why = state.match_end
        raise IllegalAction(rule, Said("{end}.", end=why))
    if state.result is not None and state.result.reason == ABANDONED:
        raise IllegalAction(
            "correct.abandon", Said("This round was abandoned; nothing more is played in it.")
        )


def _check_going(state: FootState) -> None:
    """Tiles are still played in this round."""
    _check_match_on(state)
    if state.result is not None:
        raise IllegalAction("foot.end", OVER_AND_TALLIED)
    if state.pad:
        raise IllegalAction("pad.record", PAD_WORDS)
    if state.ended is not None:
        raise IllegalAction("foot.end", _round_over(state))


def _check_turn(state: FootState, seat: int) -> None:
    assert state.turn is not None
    if seat != state.turn:
        raise not_your_turn(state.names[state.turn], state.names[seat])


def _searcher(state: FootState) -> Said:
    """Who looks for the round's double next, ending "if nobody does, ..."."""
    if state.turn is None:
        return Said("seats draw one tile each in turn, any seat beginning")
    return Said("{who} draws", who=state.names[state.turn])


def _check_engine(state: FootState, action: Engine) -> None:
    _check_going(state)
    DominoSet(state.top).check(action.tile)
    engine = state.engine
    if state.placed:
        raise IllegalAction(
            "foot.rounds",
            Said("{engine} is placed already: this round goes on from it.", engine=engine),
        )
    if action.tile != engine:
        raise IllegalAction(
            "foot.rounds",
            Said(
                "This round's double is {engine} (double {number} of {rounds}, {highest} down to "
                "0-0), not {tile}: whoever holds {engine} places it.",
                engine=engine,
                number=state.number,
                rounds=state.rounds,
                highest=Tile(state.top, state.top),
                tile=action.tile,
            ),
        )


def _check_draw(state: FootState, action: Draw) -> None:
    _check_going(state)
    seat, who = action.seat, state.names[action.seat]
    if action.count != 1:
        raise IllegalAction("foot.draw", Said("A seat draws one tile at a time."))
    if not state.placed:
        engine = state.engine
        search_draw(
            state, seat, "foot.rounds",
            empty=lambda: Said(
                "The boneyard is empty, so {engine} is in a hand: whoever holds it places it.",
                engine=engine,
            ),
            waits=lambda turn: Said(
                "The search for {engine} goes round the table one tile each: {next} draws "
                "next, not {who}.",
                engine=engine, next=turn, who=who,
            ),
        )  # fmt: skip
        return
    _check_turn(state, seat)
    if state.drew:
        raise IllegalAction(
            "foot.draw",
            Said(
                "{who} has drawn this turn, and a seat draws one tile a turn: {who} plays it if "
                "it fits, else passes.",
                who=who,
            ),
        )
    if not state.boneyard:
        raise IllegalAction(
            "foot.draw", Said("The boneyard is empty: {who} plays a tile or passes.", who=who)
        )


def _check_pass(state: FootState, action: Pass) -> None:
    _check_going(state)
    seat, who = action.seat, state.names[action.seat]
    if not state.placed:
        raise IllegalAction(
            "foot.rounds",
            Said(
                "Nobody passes before {engine} is placed: whoever holds it places it; if nobody "
                "does, {search}.",
                engine=state.engine,
                search=_searcher(state),
            ),
        )
    _check_turn(state, seat)
    if state.boneyard and not state.drew:
        raise IllegalAction(
            "foot.draw",
            Said(
                "The boneyard still holds {count}: {who} draws one before passing, and plays it "
                "if it fits.",
                count=tile_count(state.boneyard),
                who=who,
            ),
        )


def _check_play(state: FootState, action: Play) -> FootLayout:
    _check_going(state)
    if action.face is not None or action.card is not None or action.drop is not None:
        raise InvalidAction(
            Said("A Chicken Foot play names its tile and the tile it goes on; no more.")
        )
    seat = action.seat
    if not state.placed:
        raise IllegalAction(
            "foot.rounds",
            Said(
                "{engine} is not placed yet, and nothing is played before it: whoever holds it "
                "places it; if nobody does, {search}.",
                engine=state.engine,
                search=_searcher(state),
            ),
        )
    _check_turn(state, seat)
    DominoSet(state.top).check(action.tile)
    return state.layout.play(action.tile, action.on)


def _check_tally(state: FootState, action: Tally) -> RoundResult:
    _check_match_on(state)
    if state.result is not None:
        raise already_tallied()
    if not state.pad and state.ended is None:
        raise IllegalAction(
            "foot.end",
            Said(
                "The round is still on: it ends when a seat plays its last tile, or when nobody "
                "can play or draw."
            ),
        )
    declared = action.declared  # each seat's tiles (a tuple) or pip total (an int)
    for seat in declared:
        _check_seat(state, seat)
    if state.pad:
        return _tally_pad(state, action, declared)
    missing = [state.names[s] for s in range(state.seats) if state.hands[s] and s not in declared]
    if missing:
        raise IllegalAction("tally.hands", say_what(missing))
    seen: dict[Tile, int] = {}
    for seat, tiles in declared.items():
        if isinstance(tiles, int):
            continue
        who = state.names[seat]
        if len(tiles) != state.hands[seat]:
            raise IllegalAction("tally.hands", wrong_count(who, state.hands[seat], len(tiles)))
        _check_hand(state, seat, tiles, seen)
    pips = [state.pips_of(declared.get(s, ())) for s in range(state.seats)]
    totals = {seat: held for seat, held in declared.items() if isinstance(held, int)}
    if totals:
        for seat, total in totals.items():
            held = state.hands[seat]
            least, most = state.pip_range(held)
            if not least <= total <= most:
                if total > most:
                    template = phrase(
                        "{who} holds {count}: at most {pips} pips with the tiles off the table, "
                        "not {total}."
                    )
                else:
                    template = phrase(
                        "{who} holds {count}: at least {pips} pips with the tiles off the table, "
                        "not {total}."
                    )
                raise IllegalAction(
                    "tally.hands",
                    Said(
                        template,
                        who=state.names[seat],
                        count=tile_count(held),
                        pips=most if total > most else least,
                        total=total,
                    ),
                )
            pips[seat] = total
    if state.ended == DOMINO:
        return RoundResult(state.hands.index(0), DOMINO, tuple(pips), tuple(pips))
    return RoundResult(lowest(pips), BLOCKED, tuple(pips), tuple(pips))


def _check_hand(state: FootState, seat: int, tiles: Iterable[Tile], seen: dict[Tile, int]) -> None:
    """Each tile of a declared hand is in the set, off the table, declared once."""
    who = state.names[seat]
    for tile in tiles:
        DominoSet(state.top).check(tile)
        if tile in state.layout or (state.pad and tile == state.engine):
            if tile != state.engine:
                raise IllegalAction("set.unique", on_the_table(tile, who))
            raise IllegalAction(
                "set.unique",
                Said(
                    "{tile} is on the table (this round's double), not in {who}'s hand.",
                    tile=tile,
                    who=who,
                ),
            )
        if tile in seen:
            if seen[tile] == seat:
                said = declared_twice(tile, who)
            else:
                said = Said(
                    "{tile} is declared in {other}'s and {who}'s; each tile exists once.",
                    tile=tile,
                    other=state.names[seen[tile]],
                    who=who,
                )
            raise IllegalAction("set.unique", said)
        seen[tile] = seat


def _tally_pad(state: FootState, action: Tally, declared: dict[int, Any]) -> RoundResult:
    """``pad.record``: the round recorded by its tally alone. The referee checks what it
    can: every seat said, a hand no larger than its deal and the whole boneyard, its tiles
    off the table (the round's double is on it) and unique, pips within what such a hand
    could hold; a seat with no tiles, or 0 pips, played out (our ruling: 0 pips declared
    as pips means played out; a seat holding 0-0 counted as 0 declares its tiles)."""
    missing = [state.names[s] for s in range(state.seats) if s not in declared]
    if missing:
        raise IllegalAction(
            "tally.hands",
            Said(
                "Say what each seat holds, {who} too (nothing or 0 for the seat that played out).",
                who=listed(missing),
            ),
        )
    most_tiles = state.options["hand_size"] + state.dealt
    seen: dict[Tile, int] = {}
    most = state.most_pips(most_tiles)
    for seat in range(state.seats):
        held = declared[seat]
        if isinstance(held, int):
            if held > most:
                raise IllegalAction(
                    "pad.record",
                    Said(
                        "{who} can hold at most {most} tiles, worth at most {pips} pips, not "
                        "{total}.",
                        who=state.names[seat],
                        most=most_tiles,
                        pips=most,
                        total=held,
                    ),
                )
            continue
        if len(held) > most_tiles:
            # Hands are of 5 tiles or more, so these counts are always plural.
            raise IllegalAction(
                "pad.record",
                Said(
                    "{who} was dealt {size} tiles and the boneyard held {dealt}: at most "
                    "{most} tiles, not {n}.",
                    who=state.names[seat],
                    size=state.options["hand_size"],
                    dealt=state.dealt,
                    most=most_tiles,
                    n=len(held),
                ),
            )
        _check_hand(state, seat, held, seen)

    def refuse(out: Sequence[str]) -> IllegalAction:
        if action.pips is None:
            return IllegalAction(
                "pad.record", Said("Only one seat can play out, not {who}.", who=listed(out))
            )
        said = Said(
            "Only one seat can play out, not {who}; a seat holding 0-0 counted as 0 declares "
            "its tiles.",
            who=listed(out),
        )
        return IllegalAction("pad.record", said)

    return pad_result(state, declared, refuse)


def _stands(state: FootState) -> Said:
    return Said("Only the last action can be taken back: the one after it closed the window on it.")


def _step(state: FootState, action: Action) -> FootState:
    # Every action moves a tile in sight of the table or ends the turn, which settles the one
    # before it (procedure.misplay): only the last action can be taken back.
    return _transition(replace(state, last_points=(0,) * state.seats), action)


def _less(hands: tuple[int, ...], seat: int, by: int = 1) -> tuple[int, ...]:
    return tuple(h - by if s == seat else h for s, h in enumerate(hands))


def _transition(state: FootState, action: Action) -> FootState:
    if isinstance(action, Engine):
        _check_engine(state, action)
        seat = action.seat
        # Placing it is not a turn: play begins with the next seat clockwise (foot.rounds).
        state = replace(
            state,
            layout=state.layout.lay(action.tile),
            hands=_less(state.hands, seat),
            turn=state.next_seat(seat),
            first=seat if state.first is None else state.first,
            drew=False,
            passes=0,
        )
        return _stuck(state)
    if isinstance(action, Play):
        layout = _check_play(state, action)
        seat = action.seat
        hands = _less(state.hands, seat)
        state = replace(
            state, layout=layout, hands=hands, turn=state.next_seat(seat), drew=False, passes=0
        )
        if not hands[seat]:
            return replace(state, ended=DOMINO, turn=None)
        return _stuck(state)
    if isinstance(action, Draw):
        _check_draw(state, action)
        seat = action.seat
        state = replace(state, hands=_less(state.hands, seat, -1), boneyard=state.boneyard - 1)
        if not state.placed:
            # foot.rounds: while nobody holds the double, seats draw one tile each in turn.
            first = seat if state.first is None else state.first
            return replace(state, turn=state.next_seat(seat), first=first)
        return replace(state, drew=True, passes=0)
    if isinstance(action, Pass):
        _check_pass(state, action)
        # foot.end: a pass counts toward the block only with nothing left to draw (a seat
        # that drew the last tile and passes counts: its hand can change no more).
        passes = state.passes + 1 if not state.boneyard else 0
        state = replace(state, turn=state.next_seat(action.seat), drew=False, passes=passes)
        if passes >= state.seats:
            return replace(state, ended=BLOCKED, turn=None)
        return state
    if isinstance(action, Tally):
        result = _check_tally(state, action)
        scores = tuple(s + p for s, p in zip(state.scores, result.points, strict=True))
        return _settle(
            replace(state, result=result, scores=scores, last_points=result.points, turn=None)
        )
    raise InvalidAction(Said("Chicken Foot has no {kind} action.", kind=action.kind))


def _stuck(state: FootState) -> FootState:
    """``foot.toes``, ``foot.end``: a root or foot that can never be completed, or a table
    where nothing can ever be played, blocks the round."""
    if state.layout.stuck() is not None:
        return replace(state, ended=BLOCKED, turn=None)
    return state


def _settle(state: FootState) -> FootState:
    """The match's winner once it is over (``foot.score``): the lowest total, or a tie
    at the bottom shared."""
    return settle_lowest(state)


# ---------------------------------------------------------------------------------------------
# What may be done now


def _candidates(state: FootState) -> list[Action]:
    # A round the table has not stopped and that is not over is not a match that is over
    # (match_over asks for a result), so the shared ``stopped`` test is this game's too.
    found, seat = turn_candidates(state)
    if seat is not None:
        for tile in state.unseen():
            found += [Play(seat, tile, on) for on in state.layout.attachments(tile)]
    return found


# The reducer's three faces (referee.round.reducer). legal_actions leaves out tallies (they
# depend on hands only the players know) and the table's own entries.
apply, check, legal_actions = Reducer(_step, _candidates, _stands, stop_winner="low").functions


#: The facts a screen asks of the game rather than knowing them (referee.round.Engine).
FAMILY, SCREEN, LOWEST_TOTAL_WINS, ROUNDS = "foot", "foot", True, True

__all__ = [
    "FAMILY", "LOWEST_TOTAL_WINS", "ROUNDS", "SCREEN",
    "ARM", "TOE", "TOES", "FootLayout", "FootState", "FreeEnd", "Line", "Owed", "Placed",
    "apply", "check", "fits", "legal_actions", "next_leader", "options_for", "start", "instruction",
]  # fmt: skip
