"""The action log in the players' words: "Ben played 6-3 on 6-6"."""

from __future__ import annotations

from collections.abc import Sequence

from referee import Action, Challenge, Declare, Draw, Muggins, Pass, Play, Roll, Tally, Undo
from referee.actions import Flip, Load, Replace, Return, Shift, Take, Unload
from referee.games.dominards import card_words
from referee.games.dump_truck import cell_words


def describe(action: Action, names: Sequence[str], undone: Action | None = None) -> str:
    if isinstance(action, Play):
        who = names[action.seat]
        if action.on is None:
            done = f"{who} led {action.tile}"
        else:
            end = " (its end)" if action.face == "end" else ""
            done = f"{who} played {action.tile} on {action.on}{end}"
        if action.card is not None:
            done += f", dropping {card_words(action.card)}"
        if action.drop is not None:
            done += f"{' and' if action.card else ','} dropping {card_words(action.drop)} freely"
        return done
    if isinstance(action, Roll):
        dice = " + ".join(map(str, action.dice))
        what = "multiples of" if len(action.dice) == 2 else "a virtual card of"
        return f"{names[action.seat]} rolled {dice}: {what} {sum(action.dice)}"
    if isinstance(action, Draw):
        tiles = "a tile" if action.count == 1 else f"{action.count} tiles"
        return f"{names[action.seat]} drew {tiles}"
    if isinstance(action, Pass):
        return f"{names[action.seat]} knocked"
    if isinstance(action, Declare):
        said = f"declared {action.points}" if action.points else "declared no score"
        return f"{names[action.seat]} {said}"
    if isinstance(action, Muggins):
        return f"{names[action.seat]} called Muggins!"
    if isinstance(action, Challenge):
        return f"{names[action.seat]} challenged the claim"
    if isinstance(action, Tally):
        return "The hands were tallied"
    if isinstance(action, Undo):
        return f"Taken back: {describe(undone, names)}" if undone else "Took back the last action"
    return _truck_words(action, names)


def _truck_words(action: Action, names: Sequence[str]) -> str:
    """Dump Truck's actions: "Ana loaded 6-4 (6 in row 1, column 1)"."""
    if isinstance(action, Flip):
        a, b = action.seats
        return f"Coin between {names[a]} and {names[b]}: {names[action.first]} chooses first"
    who = names[action.seat]  # type: ignore[attr-defined]
    if isinstance(action, Take):
        where = "face up" if action.source == "face-up" else "from the pool"
        return f"{who} took {action.tile} {where}"
    if isinstance(action, Load):
        return f"{who} loaded {action.tile} ({action.tile.high} in {cell_words(action.cells[0])})"
    if isinstance(action, Return):
        return f"{who} put {action.tile} back face up"
    if isinstance(action, Replace):
        to = "to the pool" if action.to is None else "elsewhere in the truck"
        return f"{who} swapped {action.tile} in for {action.out} ({action.out} {to})"
    if isinstance(action, Shift):
        steps = [
            f"{abs(n)} {word[n > 0]}"
            for n, word in ((action.rows, ("up", "down")), (action.cols, ("left", "right")))
            if n
        ]
        return f"{who} shifted the load {' and '.join(steps)}"
    if isinstance(action, Unload):
        kept = "" if action.score else " without scoring"
        wild = f", blanks as {action.blank_as}s" if action.blank_as is not None else ""
        return f"{who} unloaded the truck{kept}{wild}"
    return action.kind


def describe_log(
    actions: Sequence[Action],
    names: Sequence[str],
    points: Sequence[Sequence[int]] = (),
    worths: Sequence[int | None] = (),
    last_play_open: bool = False,
) -> list[str]:
    """Each action described, an undo naming what it took back, with what it scored.

    In muggins mode a play's worth is written once its window has closed; the last play
    stays silent while ``last_play_open``, since spotting its score is the game.
    """
    effective: list[int] = []
    for index, action in enumerate(actions):
        if isinstance(action, Undo):
            if effective:
                effective.pop()
        else:
            effective.append(index)
    open_play = None
    if last_play_open:
        open_play = next((i for i in reversed(effective) if isinstance(actions[i], Play)), None)
    stack: list[Action] = []
    lines = []
    for index, action in enumerate(actions):
        if isinstance(action, Undo):
            lines.append(describe(action, names, stack.pop() if stack else None))
            continue
        stack.append(action)
        line = describe(action, names)
        worth = worths[index] if index < len(worths) else None
        if worth is not None and index != open_play:
            line += f" · worth {worth}"
        scored = points[index] if index < len(points) else ()
        gains = [f"{names[s]} {p:+d}" for s, p in enumerate(scored) if p]
        if gains and not isinstance(action, Declare):  # a declaration says its points
            line += " · " + ", ".join(gains)
        lines.append(line)
    return lines
