"""The end of a line round: the tally of the hands (by tiles or pips), its audit, the
score pad's checks (``pad.record``) and who won the round.
"""

from __future__ import annotations

from collections.abc import Mapping

from referee.actions import (
    Action,
    Tally,
)
from referee.errors import IllegalAction
from referee.frozen import replace
from referee.games.line.checks import (
    _DOING,
    _check_match_on,
    _check_seat,
    _describe,
    _domino_seat,
    _not_in_set,
)
from referee.games.line.scoring import (
    BLOCKED,
    DOMINO,
)
from referee.games.line.state import _THE_TABLE, RoundState
from referee.round.refusals import already_tallied
from referee.round.result import Finding, RoundResult
from referee.round.tally import on_the_table, say_what, wrong_count
from referee.rulebook import hand_size
from referee.said import Said, counted, listed, phrase, tiles
from referee.teams import leader
from referee.tiles import DominoSet, Tile


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
        raise already_tallied()
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
            raise IllegalAction("hand.count", wrong_count(who, state.hands[seat], len(hand)))
        for tile in hand:
            if tile not in DominoSet(state.top):
                raise IllegalAction("set.tiles", _not_in_set(state, tile))
            if tile in state.layout:
                raise IllegalAction("set.unique", on_the_table(tile, who))
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
            said = say_what(missing)
        raise IllegalAction("tally.hands", said)
    return {seat: declared.get(seat, nothing) for seat in range(state.seats)}


# -- the score pad (pad.record) ------------------------------------------------------------


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
