"""The line's legality, one check per kind of action: each raises IllegalAction naming
the rule, or returns what the action needs. ``apply`` runs them; ``legal_actions`` is the
candidates they accept.
"""

from __future__ import annotations

from referee.actions import (
    Action,
    Challenge,
    Declare,
    Draw,
    Muggins,
    Pass,
    Play,
    Roll,
)
from referee.errors import IllegalAction
from referee.games.line.scoring import (
    DOMINO,
)
from referee.games.line.state import Pending, RoundState
from referee.layout import Layout
from referee.round.refusals import check_seat
from referee.round.result import ABANDONED
from referee.round.tally import not_in_set
from referee.said import Said, counted, listed, phrase, tiles
from referee.tiles import DominoSet, Tile

# -- legality: one check per kind of action ------------------------------------------------


def _check_seat(state: RoundState, seat: int) -> None:
    check_seat(state.seats, seat)


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


def stands(state: RoundState) -> Said:
    """Why the last action can no longer be taken back (``procedure.misplay``)."""
    return Said(
        "{action} stands: a tile was placed after it, which closed its misplay window.",
        action=_describe(state, state.last),
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


#: What a refused action would have done, by its kind, in the words of ``_check_match_on``
#: ("... so Ana cannot {doing}.").
_DOING = {
    "play": Said("play"), "draw": Said("draw"), "pass": Said("knock"), "roll": Said("roll"),
    "declare": Said("declare a score"), "muggins": Said("call Muggins"),
    "challenge": Said("challenge"),
}  # fmt: skip


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
    return not_in_set(tile, state.top)


def _domino_seat(state: RoundState) -> int:
    return state.hands.index(0)
