"""The action log in the players' words: "Ben played 6-3 on 6-6"."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from referee import Action, Challenge, Declare, Draw, Muggins, Pass, Play, Roll, Tally, Tile, Undo
from referee.actions import (
    BONEYARD,
    MEXICAN,
    Abandon,
    Adjust,
    Correct,
    Discard,
    DrawFrom,
    Engine,
    Flip,
    Load,
    Replace,
    Respond,
    Return,
    Shift,
    Stop,
    Take,
    Train,
    TrainPlay,
    Unload,
)  # fmt: skip
from referee.games.dominards import card_words
from referee.games.dump_truck import cell_words
from referee.games.havoc import direction_of


def describe(
    action: Action, names: Sequence[str], undone: Action | None = None, family: str = "line"
) -> str:
    table_words = _table_words(action, names, family)
    if table_words:
        return table_words
    if family == "havoc" and not isinstance(action, Undo | Tally):
        return _havoc_words(action, names)
    if isinstance(action, Engine):
        return f"{names[action.seat]} placed {action.tile} in the hub"
    if isinstance(action, TrainPlay):
        train = "the Mexican Train" if action.train == MEXICAN else (
            f"{names[int(action.train)]}'s own train" if action.train == action.seat
            else f"{names[int(action.train)]}'s train"
        )  # fmt: skip
        return f"{names[action.seat]} played {action.tile} on {train}"
    if family in ("train", "foot") and isinstance(action, Pass):
        return f"{names[action.seat]} passed"
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
        return (
            f"Taken back: {describe(undone, names, family=family)}"
            if undone
            else "Took back the last action"
        )
    return _truck_words(action, names)


def _table_words(action: Action, names: Sequence[str], family: str) -> str:
    """What the table recorded about its record (RULES.md §7), in every game."""
    because = f" ({action.reason})" if getattr(action, "reason", "") else ""
    if isinstance(action, Adjust):
        return f"Score adjusted: {names[action.seat]} {action.points:+d}{because}"
    if isinstance(action, Abandon):
        return f"The round was abandoned{because}"
    if isinstance(action, Stop):
        if action.abandoned:
            return f"The table abandoned the match: nobody wins{because}"
        return f"The table stopped the match{because}"
    if isinstance(action, Correct):
        entry = f"entry {action.at + 1}"
        if action.action is None:
            return f"Corrected {entry}: removed{because}"
        done = describe(action.action, names, family=family)
        if action.change == "insert":
            return f"Corrected: missing before {entry}, {done}{because}"
        return f"Corrected {entry}: it was {done}{because}"
    return ""


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


def _turns(double: Tile) -> str:
    way = "counter-clockwise" if direction_of(double) < 0 else "clockwise"
    return f"play goes {way} (havoc.direction)"


def _havoc_words(action: Action, names: Sequence[str]) -> str:
    """Double Domino Havoc's actions: "Ben took 7-3 from Ana's discard slot"."""
    who = names[action.seat]  # type: ignore[attr-defined]
    if isinstance(action, DrawFrom):
        if action.source != BONEYARD:
            return f"{who} took {action.tile} from {names[int(action.source)]}'s discard slot"
        if action.tile is not None:
            return f"{who} drew {action.tile} and put it in the discard slot; {_turns(action.tile)}"
        return f"{who} drew from the boneyard"
    if isinstance(action, Train):
        return f"{who} played {action.lead}-{action.free} to the train ({action.free} free)"
    if isinstance(action, Discard):
        double = f"; {_turns(action.tile)}" if action.tile.is_double else ""
        return f"{who} discarded {action.tile}{double}"
    if isinstance(action, Respond):
        if action.take:
            return f"{who} took the double onto the train"
        if action.match is None:
            return f"{who} passed on the double"
        whence = (
            f"took {action.replacement} from {names[int(action.source)]}'s slot"
            if action.source != BONEYARD
            else f"drew {action.replacement}, another double"
            if action.replacement is not None
            else "drew a replacement"
        )
        line = f"{who} put {action.match} in the double's place and {whence}"
        if action.replacement is not None and action.source == BONEYARD:
            line += f"; {_turns(action.replacement)}"
        return line
    if isinstance(action, Pass):
        return f"{who} ended the turn: nothing was left to draw"
    return action.kind


def standing(actions: Sequence[Action]) -> list[int]:
    """The indexes of the actions no undo has taken back: each undo takes back the last
    action still standing (``procedure.misplay``)."""
    kept: list[int] = []
    for index, action in enumerate(actions):
        if isinstance(action, Correct):  # a correction is no action at the table
            continue
        if not isinstance(action, Undo):
            kept.append(index)
        elif kept:
            kept.pop()
    return kept


def describe_log(
    actions: Sequence[Action],
    names: Sequence[str],
    points: Sequence[Sequence[int]] = (),
    worths: Sequence[int | None] = (),
    last_play_open: bool = False,
    family: str = "line",
    corrected: Collection[int] = (),
) -> list[str]:
    """Each action described, an undo naming what it took back, with what it scored; an
    action an undo took back says so where it stands, so it never reads as if it stood.

    In muggins mode a play's worth is written once its window has closed; the last play
    stays silent while ``last_play_open``, since spotting its score is the game. An entry a
    correction replaced or removed (``corrected``) stays in the log, marked: nothing is
    erased (``correct.audit``).
    """
    effective = standing(actions)
    taken_back = {i for i, a in enumerate(actions) if not isinstance(a, Correct)} - set(effective)
    open_play = None
    if last_play_open:
        open_play = next((i for i in reversed(effective) if isinstance(actions[i], Play)), None)
    stack: list[Action] = []
    lines = []
    for index, action in enumerate(actions):
        if isinstance(action, Undo):
            lines.append(describe(action, names, stack.pop() if stack else None, family))
            continue
        if not isinstance(action, Correct):
            stack.append(action)
        line = describe(action, names, family=family)
        worth = worths[index] if index < len(worths) else None
        if worth is not None and index != open_play:
            line += f" · worth {worth}"
        scored = points[index] if index < len(points) else ()
        gains = [f"{names[s]} {p:+d}" for s, p in enumerate(scored) if p]
        if gains and not isinstance(action, Declare):  # a declaration says its points
            line += " · " + ", ".join(gains)
        if index in taken_back:  # it happened, and then it did not: said where it stands
            line += " · taken back"
        if index in corrected:
            line += " · corrected below"
        lines.append(line)
    return lines
