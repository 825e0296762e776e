"""What the Dump Truck table shows, computed from a replayed game; the template lays it out.

Every seat draws at once, so the screen is about one chosen seat at a time (this phone's,
or the first with something to do); the others are shown as small trucks to tap.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext, pgettext_lazy

from referee import Tile, Undo
from referee.actions import Flip, Shift, Take, Unload
from referee.games import dump_truck
from referee.games.dump_truck import TruckState, cell_words
from scoring.drawing import tile_svg, truck_svg
from scoring.screens.common import Asked, Button, Step, basics, log, log_tail
from scoring.services import Table
from scoring.speech import all_of, say, tile_name

SHIFT_WORDS = {
    (-1, 0): pgettext_lazy("shift the load", "up"),
    (1, 0): pgettext_lazy("shift the load", "down"),
    (0, -1): pgettext_lazy("shift the load", "left"),
    (0, 1): pgettext_lazy("shift the load", "right"),
}


def truck_context(table: Table, screen: Asked) -> dict[str, Any]:
    """Everything the Dump Truck table shows. The screen's own choices come from the query
    string, or after a tap from the tap itself (the screen stays on the seat it was for):
    ``seat`` (whose turn is entered), ``first`` (the cell tapped first, without JavaScript)
    and ``out`` (the truck domino to swap out). After a recorded tap a seat with nothing
    left to do hands the screen to the next that has."""
    asked = screen.posted if screen.posted is not None else screen.query
    notice, my_seat, moving_on = screen.notice, screen.my_seat, screen.recorded
    state: TruckState = table.state  # type: ignore[assignment]
    names = table.names
    seat = _chosen_seat(state, asked.get("seat"), my_seat, moving_on)
    truck = state.trucks[seat]
    blanks = state.options["blanks"]
    undo_state = table.undo_state
    context: dict[str, Any] = {
        **basics(table, notice, my_seat),
        "seat": seat,
        "seat_name": names[seat],
        "status": truck_status(state),
        "trucks": [truck_card(state, s, seat) for s in range(state.seats)],
        "pool": {
            "face_down": state.face_down,
            "face_up": [{"tile": t, "svg": tile_svg(t)} for t in state.face_up],
            "fresh": state.fresh,
        },
        "undo": Button(gettext("Undo"), dump_truck.check(undo_state, Undo()))  # type: ignore[arg-type]
        if undo_state is not None
        else None,
        "scoreboard": [
            {"name": n, "total": t, "winner": table.match.winner == s}
            for s, (n, t) in enumerate(zip(names, state.totals, strict=True))
        ],
        "final": final_table(state, names) if state.result is not None else None,
        "shared_win": all_of([names[s] for s in state.shared]),
        **log_tail(log(table)),
        "log_title": gettext("This game"),  # a game of Dump Truck is one round
    }
    if state.result is not None:
        return context
    held = state.holding[seat]
    if held is not None:
        context["load"] = _load(state, seat, held, asked)
    elif state.drawn[seat] or not state.takeable:
        context["idle"] = True
    else:
        context["draw"] = _draw(state, seat)
    context["shifts"] = [
        {"rows": r, "cols": c, "words": str(words)}
        for (r, c), words in SHIFT_WORDS.items()
        if dump_truck.check(state, Shift(seat, r, c)) is None
    ]
    if held is None and truck.placed:
        score = dump_truck.best(truck, blanks)
        context["unload"] = {
            "score": score,
            "svg": truck_svg(
                truck,
                score.chains,
                gettext("{who}'s load, scored").format(who=names[seat]),
                big=True,
            ),
            "words": say(score.words),
            "blank_as": score.blank_as if score.blank_as is not None else "",
            "allowed": dump_truck.check(state, Unload(seat, True, score.blank_as)) is None,
        }
    return context


def _chosen_seat(state: TruckState, asked: object, mine: int | None, moving_on: bool) -> int:
    """The seat the screen enters for: the one asked for, else this phone's, else the first
    with something to do (a tile to place, then a draw to make). A phone that is nobody's
    moves on from a seat that has just finished its turn."""
    if (
        isinstance(asked, str)
        and asked.isascii()
        and asked.isdecimal()
        and len(asked) < 3  # int() of thousands of digits is refused (a 500), and slow
        and int(asked) < state.seats
    ):
        seat = int(asked)
        busy = state.holding[seat] is not None or seat in state.waiting
        if busy or not moving_on or mine is not None:
            return seat
    elif mine is not None and mine < state.seats:
        return mine
    for seat, held in enumerate(state.holding):
        if held is not None:
            return seat
    return state.waiting[0] if state.waiting else 0


def truck_status(state: TruckState) -> str:
    names = state.names
    if state.result is not None:
        return gettext("The game is over.")
    holding = [
        gettext("{who} places {tile}").format(who=names[s], tile=tile_name(t))
        for s, t in enumerate(state.holding)
        if t is not None
    ]
    waiting = [names[s] for s in state.waiting]
    parts = [gettext("Turn {number}").format(number=state.turn_number)]
    if waiting:
        parts.append(gettext("to draw: {names}").format(names=", ".join(waiting)))
    parts += holding
    if not waiting and not holding:
        parts.append(gettext("every seat has drawn and placed"))
    return " · ".join(parts)


def truck_card(state: TruckState, seat: int, chosen: int) -> dict[str, Any]:
    truck, name, held = state.trucks[seat], state.names[seat], state.holding[seat]
    if state.result is not None:
        doing = ""
    elif held is not None:
        doing = gettext("holds {tile}").format(tile=tile_name(held))
    elif seat in state.waiting:
        doing = gettext("to draw")
    else:
        doing = gettext("done this turn")
    return {
        "seat": seat,
        "name": name,
        "total": state.totals[seat],
        "svg": truck_svg(truck, label=gettext("{who}'s truck").format(who=name)),
        "dominoes": len(truck.placed),
        "doing": doing,
        "busy": held is not None or seat in state.waiting,
        "chosen": seat == chosen,
    }


def _draw(state: TruckState, seat: int) -> dict[str, Any]:
    """The draw: any tile nobody has named may come from the face-down pool, each face-up
    tile may be taken, and a tile another seat holds may be claimed when two want it
    (``truck.draw``): the referee says whether the claim stands."""
    # A claim is offered only where the referee would grant it: on a tie the coin comes
    # first, and the lower score keeps its tile (issue 28: it was offered, then refused).
    claims = [
        {
            "tile": held,
            "tile_name": tile_name(held),
            "from": state.sources[other],
            "holder": state.names[other],
        }
        for other, held in state.disputable(seat)
        if dump_truck.check(state, Take(seat, held, state.sources[other] or "pool")) is None
    ]
    # A coin is offered only where a tie decides a tile this seat could claim.
    flips = [
        {"other": other, "name": state.names[other]}
        for other, _ in state.disputable(seat)
        if dump_truck.check(state, Flip((seat, other), seat)) is None
    ]
    unseen = state.unseen() if state.face_down else ()
    return {
        "unseen": [{"tile": t, "svg": tile_svg(t)} for t in unseen],
        "face_up": [
            {
                "tile": t,
                "svg": tile_svg(t),
                "ok": dump_truck.check(state, Take(seat, t, "face-up")) is None,
            }
            for t in state.face_up
        ],
        "claims": claims,
        "flips": flips,
    }


def _cell_key(cell: tuple[int, int]) -> str:
    return f"{cell[0]},{cell[1]}"


def _parse_cell(raw: object) -> tuple[int, int] | None:
    if not isinstance(raw, str) or len(raw) != 3 or raw[1] != ",":
        return None
    row, col = raw[0], raw[2]
    if not (row.isdecimal() and col.isdecimal()):
        return None
    return int(row), int(col)


def _load(state: TruckState, seat: int, held: Tile, asked: Mapping[str, Any]) -> dict[str, Any]:
    """Placing the drawn tile: the cells that may take its first half, and for each the
    cells that may take its second (``truck.load``); or, with ``out``, the same in the
    truck without that domino (``truck.replace``)."""
    truck = state.trucks[seat]
    replacing = state.swaps_allowed
    out = None
    if replacing and isinstance(asked.get("out"), str):
        try:
            out = Tile.parse(asked["out"])
        except Exception:  # a tampered query string: no swap chosen
            out = None
        if out is not None and truck.holding(out) is None:
            out = None
    bed = truck.without(out) if out is not None else truck
    pairs = bed.placements()
    firsts = {a for a, _ in pairs}
    first = _parse_cell(asked.get("first"))
    if first not in firsts:
        first = None
    partners = {b for a, b in pairs if a == first}
    cells = []
    for row in range(dump_truck.ROWS):
        for col in range(dump_truck.COLS):
            cell = (row, col)
            kind = (
                "chosen" if cell == first
                else "partner" if cell in partners
                else "first" if cell in firsts
                else "closed"
            )  # fmt: skip
            cells.append(
                {
                    "key": _cell_key(cell),
                    "kind": kind,
                    "words": say(cell_words(cell)),
                    "first": _cell_key(first) if first else "",
                }
            )
    placements_out = []
    if out is not None:
        # Each place once: a double lies the same either way round.
        seen: set[frozenset | tuple] = set()
        for a, b in truck.new_places(out):
            key = frozenset((a, b)) if out.is_double else (a, b)
            if key in seen:
                continue
            seen.add(key)
            if out.is_double:
                words = gettext("{first} and {last}").format(
                    first=say(cell_words(a)), last=say(cell_words(b))
                )
            else:
                words = gettext("{high} in {a}, {low} in {b}").format(
                    high=out.high, a=say(cell_words(a)), low=out.low, b=say(cell_words(b))
                )
            placements_out.append({"value": f"{_cell_key(a)};{_cell_key(b)}", "words": words})
    return {
        "tile": held,
        "tile_name": tile_name(held),
        "svg": tile_svg(held),
        "out": out,
        "out_name": tile_name(out) if out is not None else "",
        "outs": truck.tiles if replacing and truck.placed else (),
        "pairs": " ".join(f"{_cell_key(a)}>{_cell_key(b)}" for a, b in pairs),
        "cells": cells,
        "first": first,
        "to_choices": placements_out,
        "to_chosen": asked.get("to", "pool"),
        "full": truck.is_full,
        "bed_svg": truck_svg(
            bed, label=gettext("{who}'s truck").format(who=state.names[seat]), big=True
        ),
    }


def final_table(state: TruckState, names: tuple[str, ...]) -> dict[str, Any]:
    result = state.result
    assert result is not None
    winner = names[result.winner] if result.winner is not None else None
    if state.stop is not None:
        # Stopped by the table (correct.abandon): the totals decide, and no truck is scored
        # as it stands (that is truck.end's, and the game did not end by it).
        rule, why = state.match_end  # type: ignore[misc]
        return {
            "winner": names[state.champion] if state.champion is not None else None,
            "abandoned": state.stop.abandoned,
            "stopped": True,
            "why": say(why),
            "rule": rule,
            "rows": [
                {
                    "name": name,
                    "svg": truck_svg(truck, (), gettext("{who}'s truck").format(who=name)),
                    "total": total,
                }
                for name, truck, total in zip(names, state.trucks, state.totals, strict=True)
            ],
        }
    why = (
        gettext("The pool and every hand are empty")
        if result.reason == dump_truck.POOL_EMPTY
        else gettext("A whole turn passed with the face-down pool empty and nothing placed")
    )
    return {
        "winner": winner,
        "why": why,
        "rows": [
            {
                "name": name,
                "load": load,
                "svg": truck_svg(
                    truck,
                    load.chains,
                    gettext("{who}'s last truck, scored").format(who=name),
                ),
                "words": say(load.words),
                "total": total,
            }
            for name, truck, load, total in zip(
                names, state.trucks, result.last_loads, state.totals, strict=True
            )
        ],
    }


def board(state: TruckState, step: Step) -> dict[str, Any]:
    """The replay's board of a Dump Truck step: every seat's truck as the table draws it,
    and the pool."""
    names = step.names
    return {
        "board": "trucks",
        "status": say(truck_status(state)),
        "trucks": [truck_card(state, seat, -1) for seat in range(state.seats)],
        "face_down": state.face_down,
        "face_up": [tile_svg(tile) for tile in state.face_up],
        "fresh": [tile_name(tile) for tile in state.fresh],
        "result": final_table(state, names) if state.result is not None else None,
    }


def holds(state: TruckState, seat: int) -> str:
    """What a seat holds, as the replay's scoreboard says it: the tile it drew, if any."""
    held = state.holding[seat]
    return gettext("holds {tile}").format(tile=tile_name(held)) if held is not None else ""
