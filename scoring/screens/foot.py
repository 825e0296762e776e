"""What the Chicken Foot table shows: the round's double with its arms, every later
double with its toes, and what is still owed drawn as empty places, so the tiles a foot
still needs are obvious; the turn as two taps (the tile, then the tile it goes on). The
engine, the tally and the score pad are the train games' (``scoring.screens.train``)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, ngettext, pgettext

from referee.actions import Draw, Pass
from referee.games.trains import chicken_foot
from referee.games.trains.chicken_foot import FootState
from referee.tiles import DominoSet
from scoring.drawing import picker_html, tile_svg, train_svg
from scoring.screens.common import Asked, Button, Step
from scoring.screens.train import MOST_SHOWN, round_basics, train_board
from scoring.services import Table
from scoring.speech import all_of, say, tile_name

#: The rules the Chicken Foot screen cites beside its engine (its rounds), rounds and scores.
RULES = {"engine_rule": "foot.rounds", "rounds_rule": "foot.rounds", "score_rule": "foot.score"}


def foot_context(table: Table, asked: Asked) -> dict[str, Any]:
    """Everything the Chicken Foot table shows."""
    state: FootState = table.state  # type: ignore[assignment]
    context = {
        **round_basics(table, asked, state.placed, RULES),
        "banner": say(chicken_foot.instruction(state)),
        **_foot(state),
        "target_word": gettext("the tile it goes on"),
        "choose_words": gettext("It fits more than one place: now tap the tile it goes on."),
    }
    if context["playing"]:
        context["turn"] = _turn(state, asked.tile)
    return context


def board(state: FootState, step: Step) -> dict[str, Any]:
    """The replay's board of a Chicken Foot step: what had to happen next and the foot."""
    return {
        **train_board(state, step.names, step.number),
        "banner": say(chicken_foot.instruction(state)),
        **_foot(state),
    }


def _foot(state: FootState) -> dict[str, Any]:
    """The root and every line as rows: each arm or toe with its newest tiles and its free
    end, and each double still owed tiles with that many empty places (``foot.root``,
    ``foot.toes``)."""
    layout = state.layout
    if layout.root is None:
        return {"foot": {"root": None, "owed": [], "lines": []}}
    owed = {o.double: o for o in layout.owed}
    lines = []
    for line in layout.lines():
        last = line.tiles[-1]
        owing = owed.get(last) if last.is_double else None
        arm = line.kind == chicken_foot.ARM
        what = pgettext("chicken foot", "Arm") if arm else pgettext("chicken foot", "Toe")
        count = len(line.tiles)
        if line.free is not None:
            label = ngettext(
                "{what} of {double}: {n} tile, free end {free}",
                "{what} of {double}: {n} tiles, free end {free}",
                count,
            )
        else:
            label = ngettext(
                "{what} of {double}: {n} tile, ends in {last}",
                "{what} of {double}: {n} tiles, ends in {last}",
                count,
            )
        label = label.format(
            what=what, double=tile_name(line.double), n=count, free=line.free, last=tile_name(last)
        )
        lines.append(
            {
                "what": what,
                "double": line.double,
                "free": line.free,
                "owing": owing,
                "earlier": max(0, len(line.tiles) - MOST_SHOWN),
                "svg": train_svg(
                    line.double.high, line.tiles, label, MOST_SHOWN, owing is not None
                ),
            }
        )
    return {
        "foot": {
            "root": {"svg": tile_svg(layout.root), "owing": owed.get(layout.root)},
            "owed": [
                {
                    "words": say(o.words()),
                    "double": o.double,
                    "places": range(o.owes),
                    "rule": o.rule,
                }
                for o in layout.owed
            ],
            "lines": lines,
        }
    }


def _turn(state: FootState, chosen: str | None) -> dict[str, Any]:
    """The seat to act: the tiles not on the table (tap one, then the tile it goes on; the
    places it fits light up), and the draw and pass buttons with their reasons."""
    seat = state.acting
    assert seat is not None
    who = state.names[seat]
    owed = state.layout.opening
    shows = {end.shows for end in state.layout.free_ends()}
    items = []
    for t in DominoSet(state.top).tiles:
        if t in state.layout:
            continue
        fits = chicken_foot.fits(state, t)
        items.append(
            {
                "tile": t,
                "svg": tile_svg(t),
                "why": None,
                "fits": " ".join(str(on) for on in fits),
                "gains": "",
            }
        )
    return {
        "seat": seat,
        "who": who,
        "picker": picker_html(items, chosen),
        # Said when a tapped tile fits nowhere: what a double still owes, else the free ends.
        "nofit": say(owed.words())
        if owed
        else gettext("This tile fits no free end: they show {numbers}.").format(
            numbers=all_of([str(n) for n in sorted(shows, reverse=True)])
        ),
        "nofit_rule": owed.rule if owed else "foot.toes",
        "targets": _targets(state),
        "buttons": [
            (
                Button(
                    gettext("No play: {who} draws").format(who=who),
                    chicken_foot.check(state, Draw(seat)),
                ),
                "draw",
            ),
            (
                Button(
                    gettext("{who} passes").format(who=who), chicken_foot.check(state, Pass(seat))
                ),
                "pass",
            ),
        ],
    }


def _targets(state: FootState) -> list[dict[str, str]]:
    """Where a tile may go now: the double still owed tiles, else every free end."""
    opening = state.layout.opening
    if opening is not None:
        if opening.what == chicken_foot.ARM:
            name = gettext("on {double} (arm)")
        else:
            name = gettext("on {double} (toe)")
        return [{"key": str(opening.double), "name": name.format(double=opening.double)}]
    return [
        {
            "key": str(end.on),
            "name": (
                gettext("on {tile} · {shows} (dead)")
                if end.dead
                else gettext("on {tile} · {shows}")
            ).format(tile=end.on, shows=end.shows),
        }
        for end in state.layout.free_ends()
    ]
