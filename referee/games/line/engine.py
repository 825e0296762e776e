"""The line's reducer: a new round, one more action, what is legal now, and the hints a
table asks for (where a tile fits, what it would score).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.actions import (
    Action,
    Challenge,
    Declare,
    Draw,
    Muggins,
    Pass,
    Play,
    Redeal,
    Roll,
    Tally,
    Time,
    Undo,
)
from referee.errors import IllegalAction, InvalidAction
from referee.frozen import replace
from referee.games.line import dominards
from referee.games.line.checks import (
    _check_challenge,
    _check_declare,
    _check_draw,
    _check_match_on,
    _check_muggins,
    _check_pass,
    _check_play,
    _check_roll,
    _domino_seat,
    stands,
)
from referee.games.line.dominards import Dice
from referee.games.line.scoring import (
    BLOCKED,
    DOMINO,
    TARGET,
    credit,
    family,
    match_winner,
)
from referee.games.line.state import _THE_TABLE, MOST_DECLARED, Knock, Pending, RoundState
from referee.games.line.tally import _check_tally, _refuse_in_pad
from referee.layout import Layout, LayoutRules
from referee.round.core import Deal, Starter
from referee.round.reducer import Reducer, never
from referee.round.result import RoundResult
from referee.rulebook import hand_size, max_players, preset, resolve_options
from referee.said import Said, phrase, tiles
from referee.tiles import DominoSet, Tile


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


def _deal(deal: Deal) -> RoundState:
    """The state of a new round, before the lead. ``leader`` is the seat that must lead
    (see :func:`next_leader`); ``base`` the match totals so far; ``carry`` what the last
    round's :attr:`RoundState.carry` handed on (empty for the first round)."""
    game, options = preset(deal.slug), deal.options
    size = hand_size(game, options, deal.seats)
    rules = LayoutRules(
        top=options["set"],
        spinners=options["spinners"],
        sides_first=options["sides_first"],
        opening=options["opening"],
        unlock=options.get("unlock", False),
        spinner_count=options["spinner_count"],
    )
    return RoundState(
        **deal.opening(),
        layout=Layout(rules),
        hands=(size,) * deal.seats,
        stock=len(DominoSet(options["set"]).tiles) - size * deal.seats,
        turn=deal.leader,
        leader=deal.leader,
        pad=deal.pad,
        **family(game).deal(deal.seats, deal.carry),
    )


start = Starter(options_for, _deal)


def next_leader(state: RoundState) -> int | None:
    """Who must lead the next round: in Fives and Threes the seat left of this round's
    leader (``threes.target``); elsewhere the table chooses (None)."""
    return state.scoring.next_leader(state)


# -- the reducer ---------------------------------------------------------------------------


def _step(state: RoundState, action: Action) -> RoundState:
    # Only _gain sets last_passed; every other action leaves nothing unscored.
    return _transition(replace(state, last_passed=0) if state.last_passed else state, action)


def _undone(state: RoundState, restored: RoundState) -> RoundState:
    if isinstance(state.last, Play):
        # procedure.misplay: taking back a tile reopens nothing it had closed. Placing it
        # shut the windows of the play before (an undeclared play lapsed at 0), and they
        # stay shut: a tile placed and taken back must not let anyone score or recover.
        return replace(restored, pending=None)
    return restored


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
    legal = list(_REDUCER.legal_actions(state))
    if state.dominards:
        legal += [v for a in legal if isinstance(a, Play) for v in _card_drops(state, a)]
    return tuple(legal)


def _candidates(state: RoundState) -> list[Action]:
    if state.pad:  # pad.record: a score-pad round holds its tally (and adjustments) alone
        return [Undo()]
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
    return candidates


def _card_drops(state: RoundState, play: Play) -> list[Play]:
    """``play`` with each card drop its total allows: the card worth the total, and any
    rank after hitting the virtual card."""
    total = total_after(state, play.tile, play.on, play.face)
    card = dominards.card_for(total)
    cards = [card] if card is not None else []
    # A free drop comes only with a total equal to the virtual card (judge refuses any other):
    # asking judge about the thirteen ranks at every other total was most of Dominards'
    # legal_actions, which every table drawn pays.
    virtual = state.dice is not None and state.dice.virtual and total == state.dice.total
    drops = list(dominards.RANKS) if virtual else []
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


_REDUCER = Reducer(_step, _candidates, stands, seat=None, settles=never, undone=_undone)
#: The state after ``action``; raises IllegalAction (nothing changes) if it is not legal.
apply = _REDUCER.apply
#: The reason ``action`` is illegal now, or None; what buttons use to explain themselves.
check = _REDUCER.check
