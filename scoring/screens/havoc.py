"""What the Double Domino Havoc table shows, computed from a replayed round; the template
lays it out.

One seat acts at a time (the turn's seat, or the seat answering a double), so the screen
is a banner saying what must happen now, the turn as steps, and only the legal choices of
the step at hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext, ngettext, pgettext, pgettext_lazy

from referee import Tile, Undo
from referee.actions import BONEYARD, Discard, DrawFrom, Pass, Respond, Train
from referee.corrections import ABANDONED
from referee.games import havoc
from referee.games.havoc import DISCARD, DRAW, PLAY, HavocState
from scoring.drawing import rack_svg, ring_svg, tile_svg
from scoring.screens.common import Asked, Button, Step, basics, log, log_tail
from scoring.services import Table
from scoring.speech import all_of, say, tile_name

STEPS = (
    (DRAW, pgettext_lazy("havoc step", "Draw")),
    (PLAY, pgettext_lazy("havoc step", "Play to the train")),
    (DISCARD, pgettext_lazy("havoc step", "Discard")),
)


def havoc_context(table: Table, screen: Asked) -> dict[str, Any]:
    """Everything the Havoc table shows. The screen's own choices come from the query
    string: ``seat`` (who begins the first round), ``tile`` (the first train tile, before
    its free end is chosen) and ``match`` (the tile answering a double, before the
    replacement is told)."""
    asked, notice, my_seat, refused = screen.query, screen.notice, screen.my_seat, screen.refused
    state: HavocState = table.state  # type: ignore[assignment]
    names = table.names
    acting = state.acting
    undo_state = table.undo_state
    finished = table.played.state if table.played is not None and table.played.finished else None
    context: dict[str, Any] = {
        **basics(table, notice, my_seat),
        "banner": banner(state, table.number),
        "ring": ring_svg(names, state.direction, acting),
        "clockwise": state.direction > 0,
        "racks": [rack_card(state, seat) for seat in range(state.seats)],
        "undo": Button(gettext("Undo"), havoc.check(undo_state, Undo()))  # type: ignore[arg-type]
        if undo_state is not None
        else None,
        "scoreboard": [
            {"name": n, "total": t, "winner": table.match.winner == s}
            for s, (n, t) in enumerate(zip(names, state.totals, strict=True))
        ],
        "rounds": state.options["rounds"],
        "last_result": havoc_result(finished, names, table.last_row.number)
        if finished is not None and table.last_row is not None
        else None,
        "shared_win": all_of([names[s] for s in (finished or state).shared]),
        **log_tail(log(table)),
        "dead_double": _dead_double(state),
    }
    if table.over or state.is_over:
        context["tally"] = (
            _tally(state, refused) if state.result is None and not table.over else None
        )
        return context
    if state.doubles is not None:
        context["respond"] = _respond(state, asked)
    elif state.turn is None:
        context["begin"] = _begin(state, asked)
    else:
        context["turn"] = _turn(state, asked)
    context["seat"] = acting if acting is not None else context.get("begin", {}).get("seat")
    return context


def _dead_double(state: HavocState) -> str:
    """The double the last answer left dead, said aloud (``havoc.dead-double``): every seat
    passed, so it left play and its placer plays a normal turn."""
    last = state.last
    if not isinstance(last, Respond) or last.take or last.match is not None or not state.out:
        return ""
    if state.doubles is not None:  # the next seat answers: not dead yet
        return ""
    double = state.out[-1]
    if state.turn is None:
        return ""
    return gettext(
        "{double} is dead: every seat passed, so it leaves play and {who} plays a normal turn."
    ).format(double=tile_name(double), who=state.names[state.turn])


def banner(state: HavocState, number: int) -> str:
    """What must happen now in round ``number`` (as the log numbers it: an abandoned round
    is not one of the agreed rounds, but it is a round of the log), in the rules' words."""
    names = state.names
    if state.match_over:
        return gettext("The match is over.")
    if state.result is not None and state.result.reason == ABANDONED:  # no train filled
        return gettext("Round {number} was abandoned: it scores nothing.").format(number=number)
    if state.ended is not None:
        return gettext(
            "{who}'s train is full: {who} wins round {number}. Tally the trays: every other "
            "seat's tray pips count against it."
        ).format(who=names[state.filled], number=number)
    doubles = state.doubles
    if doubles is not None:
        n, double = doubles.number, doubles.double
        who, rack = names[doubles.responder], state.racks[doubles.responder]
        if rack.train:
            fact = gettext("{who}'s train ends in {end}").format(who=who, end=rack.free_end)
        else:
            fact = gettext("{who}'s train is empty").format(who=who)
        return gettext(
            "{double} lies in {owner}'s slot: {who} may take it onto {who}'s train if it ends "
            "in {n}, else {who} must put a {n} from the tray in its place, else {who} passes. "
            "({fact}.)"
        ).format(double=tile_name(double), owner=names[doubles.slot], who=who, n=n, fact=fact)
    if state.turn is None:
        return gettext(
            "Round {number}: who begins? The first player draws a 7th tile from the boneyard."
        ).format(number=number)
    who = names[state.turn]
    if state.step == DRAW:
        takeable = ", ".join(
            gettext("{who}'s {tile}").format(
                who=names[s],
                tile=tile_name(state.racks[s].slot),  # type: ignore[arg-type]
            )
            for s in state.takeable(state.turn)
        )
        if not state.boneyard:
            return gettext(
                "{who}'s turn: the boneyard is empty, so {who} takes a discard: {discards}."
            ).format(who=who, discards=takeable)
        if takeable:
            return gettext(
                "{who}'s turn: draw from the boneyard or take a discard ({discards})."
            ).format(who=who, discards=takeable)
        return gettext("{who}'s turn: draw from the boneyard.").format(who=who)
    end = state.racks[state.turn].free_end
    if state.step == PLAY:
        if end is None:
            fits = gettext("any tile starts the train")
        else:
            fits = gettext("it must bear a {end}").format(end=end)
        if not state.drew:
            return gettext(
                "{who} had nothing to draw: play a tile to the train ({fits}) or end the turn; "
                "nothing is discarded."
            ).format(who=who, fits=fits)
        return gettext(
            "{who}: play a tile to the train ({fits}), then discard; or just discard."
        ).format(who=who, fits=fits)
    target = state.took_from if state.took_from is not None else state.turn
    lying = state.racks[target].slot
    if target == state.turn:
        if lying is None:
            text = gettext("{who}: discard a tray tile to {who}'s own slot.")
        else:
            text = gettext(
                "{who}: discard a tray tile to {who}'s own slot; {tile} there leaves play."
            )
    elif lying is None:
        text = gettext(
            "{who}: discard a tray tile to {owner}'s slot ({who} took from it: havoc.discard-back)."
        )
    else:
        text = gettext(
            "{who}: discard a tray tile to {owner}'s slot ({who} took from it: "
            "havoc.discard-back); {tile} there leaves play."
        )
    return text.format(
        who=who, owner=names[target], tile=tile_name(lying) if lying is not None else ""
    )


def rack_card(state: HavocState, seat: int) -> dict[str, Any]:
    rack, name = state.racks[seat], state.names[seat]
    train = ", ".join(say(link.tile.name) for link in rack.train)
    waiting = state.doubles is not None and state.doubles.slot == seat
    slot = say(rack.slot.name) if rack.slot else pgettext("discard slot", "empty")
    # English says "tiles" whatever the count; a catalogue picks its own form.
    if rack.train:
        label = ngettext(
            "{name}'s rack: train {train} ({end} free); discard slot {slot}; {n} tiles in the tray",
            "{name}'s rack: train {train} ({end} free); discard slot {slot}; {n} tiles in the tray",
            rack.tray,
        )
    else:
        label = ngettext(
            "{name}'s rack: train {train}; discard slot {slot}; {n} tiles in the tray",
            "{name}'s rack: train {train}; discard slot {slot}; {n} tiles in the tray",
            rack.tray,
        )
    label = label.format(
        name=name,
        train=train or pgettext("train", "empty"),
        end=rack.free_end,
        slot=slot,
        n=rack.tray,
    )
    return {
        "seat": seat,
        "name": name,
        "total": state.totals[seat],
        "svg": rack_svg(rack, label, waiting),
        "train": len(rack.train),
        "end": rack.free_end,
        "tray": rack.tray,
        "known": rack.known,
        "acting": seat == state.acting,
    }


def _pick(tile: Tile, label: str | None = None) -> dict[str, Any]:
    return {"tile": tile, "svg": tile_svg(tile, label)}


def _draw(state: HavocState, seat: int) -> dict[str, Any]:
    return {
        "boneyard": state.boneyard,
        "doubles": [
            _pick(t)
            for t in state.unseen()
            if t.is_double and havoc.check(state, DrawFrom(seat, BONEYARD, t)) is None
        ],
        "discards": [
            {"seat": s, "name": state.names[s], **_pick(state.racks[s].slot)}  # type: ignore[arg-type]
            for s in state.takeable(seat)
        ],
    }


def _begin(state: HavocState, asked: Mapping[str, Any]) -> dict[str, Any]:
    """The round's first draw: any seat may begin (round.lead); a double as the 7th tile
    needs the seat chosen first."""
    raw = asked.get("seat")
    seat = int(raw) if isinstance(raw, str) and raw.isdecimal() and len(raw) < 3 else None
    if seat is not None and seat >= state.seats:
        seat = None
    if seat is None:
        return {"seat": None}
    return {"seat": seat, "name": state.names[seat], "draw": _draw(state, seat)}


def _turn(state: HavocState, asked: Mapping[str, Any]) -> dict[str, Any]:
    seat = state.turn
    assert seat is not None
    step = state.step
    turn: dict[str, Any] = {
        "steps": [
            {
                "name": str(label),
                "now": key == step,
                "done": [k for k, _ in STEPS].index(key) < [k for k, _ in STEPS].index(step),
            }
            for key, label in STEPS
        ],
        "step": step,
        "who": state.names[seat],
        "drew": state.drew,
    }
    mine = state.holdable(seat)
    if step == DRAW:
        turn["draw"] = _draw(state, seat)
        return turn
    if step == PLAY:
        turn["train"] = _train(state, seat, mine, asked)
        turn["end_turn"] = havoc.check(state, Pass(seat)) is None
    # Every tile the seat may hold may be discarded, or none may (the step decides): one
    # check answers for all, which keeps the page's work off a replay per tile.
    allowed = bool(mine) and havoc.check(state, Discard(seat, mine[0])) is None
    turn["discards"] = [_pick(t) for t in mine] if allowed else []
    return turn


def _train(
    state: HavocState, seat: int, mine: tuple[Tile, ...], asked: Mapping[str, Any]
) -> dict[str, Any]:
    """The tiles that may go to the train now; the first train tile is free, and its free
    end is chosen after it is tapped."""
    end = state.racks[seat].free_end
    if end is not None:
        # The same holds for the tiles bearing the free end: one check answers for all.
        bearing = [t for t in mine if t.has(end)]
        allowed = bool(bearing) and havoc.check(state, Train(seat, bearing[0], end)) is None
        return {
            "end": end,
            "tiles": [{"written": f"{end}-{t.other(end)}", **_pick(t)} for t in bearing]
            if allowed
            else [],
        }
    chosen = _tile(asked.get("tile"))
    if chosen is not None and chosen in mine:
        ways = [(chosen.high, chosen.low), (chosen.low, chosen.high)]
        return {
            "end": None,
            "chosen": chosen,
            "chosen_name": tile_name(chosen),
            "ways": [
                {"written": f"{a}-{b}", "free": b}
                for a, b in dict.fromkeys(ways)
                if havoc.check(state, Train(seat, chosen, a)) is None
            ],
        }
    return {"end": None, "tiles": [{"written": "", **_pick(t)} for t in mine]}


def _respond(state: HavocState, asked: Mapping[str, Any]) -> dict[str, Any]:
    """The answer to a double (``havoc.doubles``): take it, match it (then tell the
    replacement), or pass; only what the referee would accept is offered."""
    doubles = state.doubles
    assert doubles is not None
    seat, n = doubles.responder, doubles.number
    mine = state.holdable(seat)
    answer: dict[str, Any] = {
        "who": state.names[seat],
        "double": doubles.double,
        "double_name": tile_name(doubles.double),
        "double_svg": tile_svg(doubles.double),
        "slot_owner": state.names[doubles.slot],
        "number": n,
        "take": havoc.check(state, Respond(seat, take=True)) is None,
        "pass": Button(pgettext("button", "Pass"), havoc.check(state, Respond(seat))),
        "boneyard": state.boneyard,
    }
    chosen = _tile(asked.get("match"))
    if chosen in mine and chosen.has(n) and _can_match(state, seat, chosen):  # type: ignore[union-attr]
        answer["chosen"] = _pick(chosen)
        answer["replacement_doubles"] = [
            _pick(t)
            for t in state.unseen()
            if t.is_double
            and havoc.check(state, Respond(seat, match=chosen, replacement=t)) is None
        ]
        answer["replacement_slots"] = [
            {"seat": s, "name": state.names[s], **_pick(state.racks[s].slot)}  # type: ignore[arg-type]
            for s in (state.replacements(seat) or ())
        ]
        return answer
    answer["matches"] = [_pick(t) for t in mine if t.has(n) and _can_match(state, seat, t)]
    return answer


def _can_match(state: HavocState, seat: int, tile: Tile) -> bool:
    if state.boneyard:
        return havoc.check(state, Respond(seat, match=tile)) is None
    return any(
        havoc.check(state, Respond(seat, match=tile, replacement=state.racks[s].slot, source=s))
        is None
        for s in state.replacements(seat) or ()
    )


def _tile(raw: object) -> Tile | None:
    try:
        return Tile.parse(raw)
    except Exception:  # a tampered query string: nothing chosen
        return None


def _tally(state: HavocState, refused: Any) -> list[dict[str, Any]]:
    """Each tray but the winner's, to declare by its tiles or its pips (``havoc.win``); a
    refused tally comes back as it was ticked and typed."""
    rows = []
    for seat, name in enumerate(state.names):
        if seat == state.filled:
            continue
        rack = state.racks[seat]
        ticked = set(refused.getlist(f"hand-{seat}")) if refused is not None else set()
        tiles = [
            {**_pick(t), "checked": t in rack.known or str(t) in ticked}
            for t in state.holdable(seat)
        ]
        rows.append(
            {
                "seat": seat,
                "name": name,
                "count": rack.tray,
                "known": rack.known,
                "tiles": tiles,
                "sum": sum(item["tile"].pips for item in tiles if item["checked"]),
                "pips": refused.get(f"pips-{seat}", "") if refused is not None else "",
            }
        )
    return rows


def havoc_result(state: HavocState, names: tuple[str, ...], number: int) -> dict[str, Any]:
    result = state.result
    assert result is not None
    return {
        "number": number,
        "winner": names[result.winner] if result.winner is not None else None,
        "stopped": result.reason == havoc.STOPPED,
        "abandoned": result.reason == ABANDONED,
        "rows": [
            {"name": n, "pips": result.pips[s], "total": state.totals[s]}
            for s, n in enumerate(names)
        ],
    }


def board(state: HavocState, step: Step) -> dict[str, Any]:
    """The replay's board of a Havoc step: what had to happen next, the seats round the
    direction of play, and every rack."""
    names, number = step.names, step.number
    return {
        "board": "racks",
        "banner": say(banner(state, number)),
        "ring": ring_svg(names, state.direction, state.acting),
        "clockwise": state.direction > 0,
        "racks": [rack_card(state, seat) for seat in range(state.seats)],
        "boneyard": state.boneyard,
        "out": len(state.out),
        "result": havoc_result(state, names, number) if state.result is not None else None,
    }


def holds(state: HavocState, seat: int) -> str:
    """What a seat holds, as the replay's scoreboard says it: its tray and its train."""
    rack = state.racks[seat]
    return gettext("tray {tray} · train {train}/6").format(tray=rack.tray, train=len(rack.train))
