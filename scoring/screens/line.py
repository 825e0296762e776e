"""The line games' table screen (Block, Draw, All Fives, Muggins, Fives and Threes, Cross,
Doubles, Dominards): the layout, the picker, the count, the calls and the tally."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext, ngettext, pgettext, pgettext_lazy

from referee import DominoSet, Draw, IllegalAction, Pass, Play, Tile, Undo, line
from referee.games.line import dominards
from scoring import domino
from scoring.drawing import end_marks, layout_svg, picker_html, tile_svg
from scoring.screens.common import (
    Asked,
    Button,
    Step,
    aim,
    basics,
    log,
    log_tail,
    pad_context,
    team_marks,
)
from scoring.services import Table
from scoring.speech import all_of, ended, say, tile_name
from scoring.words import standing


def _button(state: line.RoundState, action, label: str) -> Button:
    return Button(label, line.check(state, action))


def table_context(table: Table, asked: Asked) -> dict[str, Any]:
    """Everything the table screen shows: the tile tapped, the seat this phone has taken
    and the form the referee just refused (a tally keeps what was tapped) are ``asked``'s."""
    tile, notice, my_seat, refused = asked.tile, asked.notice, asked.my_seat, asked.refused
    state = table.state
    marks = end_marks(state.layout)
    turn = state.turn
    seat = turn if turn is not None else 0
    unseen = [t for t in DominoSet(state.top).tiles if t not in state.layout]
    letter_of = {(m.end.on, m.end.face): m.letter for m in marks}
    letter_of[(None, None)] = "lead"
    # Dominards always shows the total: its targets are the total (dominards.total).
    hints = state.dominards or (
        state.game.scores_plays and state.options["hints"] and not state.muggins
    )
    picker = []
    places: dict[tuple, Tile] = {}  # each place a tile can go, with one tile that goes there
    for t in unseen:
        spots = line.fits(state, t) if turn is not None or not state.layout.placed else ()
        for spot in spots:
            places.setdefault(spot, t)
        lit = [(letter_of[spot], spot) for spot in spots if spot in letter_of]
        picker.append(
            {
                "tile": t,
                "svg": tile_svg(t),
                "why": _why_not(state, seat, t, marks) if not spots else None,
                "fits": " ".join(letter_of.get(spot, "") for spot in spots),
                # What each end would score: shown on the ends the tile lights up.
                "gains": " ".join(
                    f"{letter}:{line.gains(state, t, on, face)}" for letter, (on, face) in lit
                )
                if hints
                else "",
                "data": _card_choices(state, t, lit) if state.dominards else {},
            }
        )
    undo_state = table.undo_state
    parts = state.layout.count_parts() if not state.muggins else ()
    shows = sorted({m.end.shows for m in marks}, reverse=True)
    return {
        **basics(table, notice, my_seat),
        "layout_svg": layout_svg(
            state.layout, marks, frozenset(t for t, _ in parts), count_shown=not state.muggins
        ),
        "marks": marks,
        "picker": picker_html(picker, tile),
        # Said when a tapped tile fits no open end (the referee's reason is said where the
        # rules rather than the numbers forbid it).
        "nofit": gettext("This tile fits no open end: they show {numbers}.").format(
            numbers=all_of([str(n) for n in shows])
        )
        if shows
        else "",
        "leading": not state.layout.placed and not state.is_over,
        "leaders": [state.leader]
        if state.leader is not None
        else [state.turn]
        if state.dominards and state.turn is not None  # the roll named the leader
        else domino.may_lead(state)
        if state.parejas is not None
        else range(len(table.names)),
        "lead_default": _lead_default(table),
        "lead_note": domino.lead_note(state, table.names),
        "shared_win": domino.draw_words(state) or _shared_win(state, table.names),
        "seat": seat,
        "turn_name": table.names[turn] if turn is not None else "",
        "draw": _button(state, Draw(seat), gettext("Draw a tile")) if state.game.draws else None,
        # "Drew 3" in one tap, within what the boneyard allows (draw.reserve kept back).
        "draw_more": list(range(2, min(state.drawable, MOST_DRAWN_AT_ONCE) + 1)),
        "knock": _button(state, Pass(seat), gettext("Knock")),
        "undo": Button(gettext("Undo"), line.check(undo_state, Undo()))
        if undo_state is not None
        else None,
        "scoreboard": _scoreboard(table),
        **log_tail(log(table)),
        "tally": _tally(state, unseen, refused) if state.is_over and state.result is None else None,
        **pad_context(table, refused, _pad_counts(state)),
        **domino.pad_made(state, table.names, refused),
        **_own_dice(refused),
        "last_result": result_table(
            table.played.state, table.names, domino.hand_bonuses(table.played.entry_bonuses)
        )
        if table.played and table.played.finished
        else None,
        "last_number": table.last_row.number if table.last_row else 0,
        "missing_cross": state.layout.missing_cross_faces(),
        "cross_words": _cross_words(state.layout),
        "ended_words": ended(state.ended) if state.ended else "",
        "count_parts": parts,
        "last_scored": last_scored(state, table.names),
        "unlocked": [n for n in range(state.top + 1) if state.layout.unlocked(n)]
        if state.options.get("unlock") and state.layout.placed
        else None,
        "my_turn": my_seat is not None and my_seat == turn and not state.is_over,
        "declare_ahead": _declarations_ahead(state, seat, places),
        **_muggins(state, table.names, my_seat),
        **dice_panel(state, table.names),
        **domino.clock(table),
    }


def _pad_counts(state: line.RoundState) -> str:
    """How a score-pad round is counted, said above its form (``pad.record``)."""
    if state.parejas is None:
        return gettext("the winner scores the pips left in the other hands")
    if state.options["count_all_hands"]:
        return gettext(
            "a domino scores the pips left in the three other hands, a tranque is settled as "
            "this match's house rules say"
        )
    return gettext(
        "a domino scores the pips left in the opponents' hands, a tranque is settled as this "
        "match's house rules say"
    )


def _shared_win(state: line.RoundState, names: tuple[str, ...]) -> str:
    """A Dominards game that ended with a tie at the top: every tied seat has won."""
    if not state.shared:
        return ""
    return gettext("{who} share the win with {total}.").format(
        who=all_of([names[s] for s in state.shared]), total=state.totals[state.shared[0]]
    )


#: The faces of the cross's lead (Layout.missing_cross_faces), in the table's words.
_FACES = {
    "side": pgettext_lazy("face of a tile", "side"),
    "end": pgettext_lazy("face of a tile", "end"),
}


def _cross_words(layout) -> str:
    """``line.cross``: the faces of the lead the cross still misses, in a sentence."""
    faces = layout.missing_cross_faces()
    if not faces:
        return ""
    return ngettext(
        "The cross on {tile} still misses {n} face: {faces}.",
        "The cross on {tile} still misses {n} faces: {faces}.",
        len(faces),
    ).format(
        tile=tile_name(layout.lead),
        n=len(faces),
        faces=", ".join(str(_FACES.get(face, face)) for face in faces),
    )


def _card_choices(state: line.RoundState, tile: Tile, lit) -> dict[str, str]:
    """Dominards: per lit end, the total the tile would make there, the card worth that
    total (the only card the page offers to drop for it), and the ends that hit the
    virtual card (which allow one free drop)."""
    totals = {letter: line.total_after(state, tile, on, face) for letter, (on, face) in lit}
    cards = {e: dominards.card_to_drop(total, state.dropped) for e, total in totals.items()}
    virtual = state.dice is not None and state.dice.virtual
    return {
        "totals": " ".join(f"{e}:{total}" for e, total in totals.items()),
        "cards": " ".join(f"{e}:{card}" for e, card in cards.items() if card),
        "virtual": " ".join(e for e, t in totals.items() if virtual and t == state.dice.total),
    }


def dice_panel(state: line.RoundState, names: tuple[str, ...]) -> dict[str, Any]:
    """Dominards' dice panel: who controls the dice, the roll, what it makes a target and
    for how many more turns; who must roll now; what the last play met."""
    if not state.dominards:
        return {"dice": None}
    dice, must = state.dice, state.must_roll
    return {
        "dice": {
            "controller": names[dice.controller] if dice is not None else "",
            "roll": " + ".join(map(str, dice.roll)) if dice is not None else "",
            "target": dice.target if dice is not None else "",
            "left": dice.turns_left(state.seats) if dice is not None else 0,
            "must_roll": must,
            "roller": names[must] if must is not None and must >= 0 else "",
        },
        "ranks": dominards.RANKS,
        "free_drop_from": state.cards[state.turn] if state.turn is not None else 0,
    }


def _lead_default(table: Table) -> int:
    """The seat "Who leads?" starts on where the table chooses (round.lead): the seat after
    the last round's leader, as tables pass the lead on; the first seat in round 1. Only a
    default: any seat may be tapped."""
    state = table.state
    if state.leader is not None:
        return state.leader
    if state.parejas is not None:  # Dominó: the style's rule (parejas.lead), else the first seat
        proposed = domino.proposed_leader(state)
        return 0 if proposed is None else proposed
    if table.between_rounds and table.played is not None:
        actions = table.played.actions
        led = next(
            (actions[i].seat for i in standing(actions) if isinstance(actions[i], Play)), None
        )
        if led is not None:
            return state.next_seat(led)
    return 0


def _own_dice(refused: Mapping[str, Any] | None) -> dict[str, Any]:
    """The fields for dice the table rolled itself; a refused roll shows them again as they
    were typed, the panel open, so a wrong die is corrected rather than typed anew."""
    typed = refused is not None and refused.get("type") == "roll"
    return {
        "own_dice_open": typed,
        "own_dice": [
            {"name": f"die-{i}", "value": refused.get(f"die-{i}", "") if typed else ""}
            for i in range(4)
        ],
    }


def _hits_words(state: line.RoundState, names: tuple[str, ...]) -> str:
    """What the last play met, as the table says it: "Ben's 6-2 made 14: the dice's
    multiple and a card (Q dropped): +14. Domino bonus +5."."""
    hits, last = state.last_hits, state.last
    assert hits is not None and isinstance(last, Play)
    if hits.targets and hits.cards:
        said = gettext("{who}'s {tile} made {total}: {met}, +{points} ({cards} dropped).")
    elif hits.targets:
        said = gettext("{who}'s {tile} made {total}: {met}, +{points}.")
    elif hits.cards:
        said = gettext("{who}'s {tile} made {total}: no target ({cards} dropped).")
    else:
        said = gettext("{who}'s {tile} made {total}: no target.")
    said = said.format(
        who=names[last.seat],
        tile=tile_name(last.tile),
        total=hits.total,
        met=all_of([dominards.TARGET_WORDS[t] for t in hits.targets]) if hits.targets else "",
        points=hits.points,
        cards=", ".join(hits.cards),
    )
    if hits.domino_bonus:
        said += " " + gettext(
            "Domino bonus +{points} (a point per domino in opponents' hands)."
        ).format(points=hits.domino_bonus)
    if hits.card_bonus:
        said += " " + gettext(
            "Last card: bonus +{points} (2 per card in opponents' hands)."
        ).format(points=hits.card_bonus)
    return said


def _why_not(state: line.RoundState, seat: int, tile: Tile, marks) -> IllegalAction | None:
    """The referee's reason a tapped tile lights nothing, where the rules rather than the
    numbers forbid it: a lead that must be a double, a locked number, a spinner's covered
    sides, a face off the open cross."""
    if state.is_over:
        return None
    if not state.layout.placed:
        tries = [Play(seat, tile)]
    else:
        tries = [Play(seat, tile, m.end.on, m.end.face) for m in marks if tile.has(m.end.shows)]
        # Faces that are no open end yet (off the open cross) explain themselves too.
        tries += [
            Play(seat, tile, p.tile)
            for p in state.layout.placed
            if any(tile.has(face.shows) for face in p.free)
        ]
    for play in tries:
        reason = line.check(state, play)
        if reason is not None and reason.rule not in ("turn.order", "line.attach"):
            return reason
    return None


def last_scored(state: line.RoundState, names: tuple[str, ...]) -> str:
    """What the last play scored, in scoring games where the referee credits it."""
    if state.dominards:
        return _hits_words(state, names) if state.last_hits is not None else ""
    last = state.last
    if not isinstance(last, Play) or not state.game.scores_plays or state.muggins:
        return ""
    scored = state.last_points[last.seat] if state.last_points else 0
    if scored:
        said = gettext("{who}'s {tile} scored {points} (count {count}).")
    elif state.last_passed:
        said = gettext(
            "{who}'s {tile} made {points}, which would pass {target}: not scored (count {count})."
        )
    else:
        said = gettext("{who}'s {tile} scored nothing (count {count}).")
    return said.format(
        who=names[last.seat],
        tile=tile_name(last.tile),
        points=scored or state.last_passed,
        target=state.options.get("target"),
        count=state.layout.count,
    )


def _muggins(state: line.RoundState, names: tuple[str, ...], mine: int | None) -> dict[str, Any]:
    """The declare, Muggins! and challenge buttons (fives.muggins), as the referee offers
    them; this phone's own seat first among the callers."""
    pending = state.pending
    context: dict[str, Any] = {"declare": None, "callers": [], "challengers": []}
    if pending is None:
        return context
    if state.declaring is not None:
        context["declare"] = {
            "seat": state.declaring,
            "name": names[state.declaring],
            "tile": pending.tile,
            "tile_name": tile_name(pending.tile),
            "choices": [p for p in state.declarations() if p],  # 0 is the "No score" button
        }

    def mine_first(seats: tuple[int, ...]) -> list[tuple[int, str]]:
        return [(s, names[s]) for s in sorted(seats, key=lambda s: s != mine)]

    context["callers"] = mine_first(state.callers)
    context["challengers"] = mine_first(state.challengers)
    context["pending_name"] = names[pending.seat]
    context["pending_tile"] = pending.tile
    context["pending_tile_name"] = tile_name(pending.tile)
    return context


def _declarations_ahead(state: line.RoundState, seat: int, places: dict) -> list[int]:
    """Muggins (``fives.muggins``): the scores the player may declare with the play, chosen
    on the phone before the play is sent (both go in one step). The referee's own choices
    after a play (public facts only), for every place a tile can go now; "No score" is a
    button of its own. Empty where plays are not declared."""
    if not state.muggins or state.is_over:
        return []
    most: tuple[int, ...] = ()
    for (on, face), tile in places.items():
        try:
            after = line.apply(state, Play(seat, tile, on, face))
        except IllegalAction:  # a lead whose seat the table has not chosen yet
            continue
        if len(after.declarations()) > len(most):
            most = after.declarations()
    return [points for points in most if points]


MOST_DRAWN_AT_ONCE = 8  # the count buttons beside "draws a tile"; more is drawn in steps


def _scoreboard(table: Table) -> list[dict[str, Any]]:
    state, match = table.state, table.match
    totals = match.totals or [0] * len(table.names)
    marks = team_marks(match.options, len(table.names))
    return [
        {
            "seat": seat,
            "name": name,
            "total": totals[seat],
            "aim": aim(match),
            "hand": state.hands[seat],
            "cards": state.cards[seat] if state.cards else None,
            "turn": seat == state.turn and not state.is_over,
            "winner": match.winner is not None and match.winner in state.team(seat),
            "team": marks[seat],
        }
        for seat, name in enumerate(table.names)
    ]


def _tally(state: line.RoundState, unseen: list[Tile], refused) -> list[dict[str, Any]]:
    def tapped(seat: int) -> set[str]:
        return set(refused.getlist(f"hand-{seat}")) if refused is not None else set()

    return [
        {
            "seat": seat,
            "name": name,
            "count": state.hands[seat],
            "tiles": [
                {"tile": t, "svg": tile_svg(t), "checked": str(t) in tapped(seat)} for t in unseen
            ]
            if state.hands[seat]
            else [],
            "tapped": len(tapped(seat)),
            "sum": sum(t.pips for t in unseen if str(t) in tapped(seat)),
            "pips": refused.get(f"pips-{seat}", "") if refused is not None else "",
        }
        for seat, name in enumerate(state.names)
    ]


def _round_won(state: line.RoundState, names: tuple[str, ...], result: line.RoundResult) -> str:
    """Who won the round: "Ana wins", or in partnerships the team with what it scored in
    the round ("Ana & Caro win the round: 37")."""
    if not state.options.get("partnerships"):
        return gettext("{who} wins").format(who=names[result.winner])
    team = state.team(result.winner)
    if state.parejas is not None:  # Dominó's tables say hand (docs/translating.md: mano)
        return gettext("{team} win the hand: {points}").format(
            team=say(state.team_name(result.winner)), points=sum(result.points[s] for s in team)
        )
    return gettext("{team} win the round: {points}").format(
        team=say(state.team_name(result.winner)), points=sum(result.points[s] for s in team)
    )


def result_table(
    state: line.RoundState, names: tuple[str, ...], bonuses: Any = None
) -> dict[str, Any] | None:
    """A finished round's result; a Dominó hand's with every bonus it scored (``bonuses``)."""
    result = state.result
    if result is None:
        return None
    marks = team_marks(state.options, len(names))
    return {
        "winner": _round_won(state, names, result) if result.winner is not None else None,
        "reason": result.reason,
        "reason_words": ended(result.reason),
        "rows": [
            {
                "name": n,
                "pips": result.pips[s] if result.pips else "—",
                "points": result.points[s],
                "team": marks[s],
            }
            for s, n in enumerate(names)
        ],
        "has_pips": bool(result.pips),  # Dominards' rounds end without a tally
        "findings": result.findings,
        "bonus": result.bonus,
        **domino.result_words(state, names, bonuses),
        "hits": _hits_words(state, names) if state.last_hits is not None else "",
    }


def board(state: line.RoundState, step: Step) -> dict[str, Any]:
    """The replay's board of a line game's step: the layout with its open ends lettered,
    the count and what made it."""
    names, layout, secret = step.names, state.layout, step.secret
    parts = layout.count_parts() if not secret else ()
    turn = state.turn
    return {
        "board": "layout",
        "layout_svg": layout_svg(
            layout, end_marks(layout), frozenset(t for t, _ in parts), count_shown=not secret
        )
        if layout.placed
        else "",
        "count": None if secret else layout.count,
        "count_parts": parts,
        # Dominards calls the count its total (dominards.total).
        "count_word": pgettext("dominards count", "Total") if state.dominards else gettext("Count"),
        "scored": say(last_scored(state, names)) if isinstance(step.action, Play) else "",
        "dice": dice_panel(state, names)["dice"],
        "next": names[turn] if turn is not None and not state.is_over else "",
        "ended": ended(state.ended) if state.is_over and state.result is None else "",
        "result": result_table(state, names),
    }


def holds(state: line.RoundState, seat: int) -> str:
    """What a seat holds, as the replay's scoreboard says it: its hand, and Dominards'
    cards."""
    said = gettext("{n} in hand").format(n=state.hands[seat])
    if state.cards:  # Dominards' cards in hand
        cards = state.cards[seat]
        said = ngettext("{hand} · {n} card", "{hand} · {n} cards", cards).format(hand=said, n=cards)
    return said
