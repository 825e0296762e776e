"""The action log in the players' words: "Ben played 6-3 on 6-6"."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from django.utils.translation import gettext, ngettext

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
    Redeal,
    Replace,
    Respond,
    Return,
    Shift,
    Stop,
    Take,
    Time,
    Train,
    TrainPlay,
    Unload,
)  # fmt: skip
from referee.games.dump_truck import cell_words
from referee.games.havoc import direction_of
from referee.games.line.dominards import card_words
from scoring.speech import say, tile_name


def describe(
    action: Action, names: Sequence[str], undone: Action | None = None, family: str = "line"
) -> str:
    table_words = _table_words(action, names, family)
    if table_words:
        return table_words
    if family == "havoc" and not isinstance(action, Undo | Tally):
        return _havoc_words(action, names)
    if isinstance(action, Engine) and family == "foot":  # no hub: the foot grows from it
        return gettext("{who} placed {tile}, the round's double").format(
            who=names[action.seat], tile=tile_name(action.tile)
        )
    if isinstance(action, Engine):
        return gettext("{who} placed {tile} in the hub").format(
            who=names[action.seat], tile=tile_name(action.tile)
        )
    if isinstance(action, TrainPlay):
        who, tile = names[action.seat], tile_name(action.tile)
        if action.train == MEXICAN:
            return gettext("{who} played {tile} on the Mexican Train").format(who=who, tile=tile)
        if action.train == action.seat:
            return gettext("{who} played {tile} on {who}'s own train").format(who=who, tile=tile)
        return gettext("{who} played {tile} on {owner}'s train").format(
            who=who, tile=tile, owner=names[int(action.train)]
        )
    if family in ("train", "foot") and isinstance(action, Pass):
        return gettext("{who} passed").format(who=names[action.seat])
    if isinstance(action, Play):
        return _play_words(action, names)
    if isinstance(action, Roll):
        dice = " + ".join(map(str, action.dice))
        if len(action.dice) == 2:
            said = gettext("{who} rolled {dice}: multiples of {total}")
        else:
            said = gettext("{who} rolled {dice}: a virtual card of {total}")
        return said.format(who=names[action.seat], dice=dice, total=sum(action.dice))
    if isinstance(action, Draw):
        return ngettext("{who} drew a tile", "{who} drew {n} tiles", action.count).format(
            who=names[action.seat], n=action.count
        )
    if isinstance(action, Pass):
        return gettext("{who} knocked").format(who=names[action.seat])
    if isinstance(action, Declare):
        if action.points:
            return gettext("{who} declared {points}").format(
                who=names[action.seat], points=action.points
            )
        return gettext("{who} declared no score").format(who=names[action.seat])
    if isinstance(action, Muggins):
        return gettext("{who} called Muggins!").format(who=names[action.seat])
    if isinstance(action, Challenge):
        return gettext("{who} challenged the claim").format(who=names[action.seat])
    if isinstance(action, Tally):
        return gettext("The hands were tallied")
    if isinstance(action, Time):  # Dominó (parejas.time)
        return gettext("Time was called")
    if isinstance(action, Redeal):  # Dominó (parejas.redeal)
        return gettext("{who} showed {doubles}: the hand is dealt again").format(
            who=names[action.seat], doubles=", ".join(tile_name(t) for t in action.doubles)
        )
    if isinstance(action, Undo):
        if undone:
            return gettext("Taken back: {what}").format(what=describe(undone, names, family=family))
        return gettext("Took back the last action")
    return _truck_words(action, names)


def _play_words(action: Play, names: Sequence[str]) -> str:
    """A line game's play: "Ana played 6-4 on 6-6", with the card Dominards dropped for it."""
    who, tile = names[action.seat], tile_name(action.tile)
    if action.on is None:
        done = gettext("{who} led {tile}").format(who=who, tile=tile)
    elif action.face == "end":
        done = gettext("{who} played {tile} on {on} (its end)").format(
            who=who, tile=tile, on=tile_name(action.on)
        )
    else:
        done = gettext("{who} played {tile} on {on}").format(
            who=who, tile=tile, on=tile_name(action.on)
        )
    if action.card is not None:
        done = gettext("{done}, dropping {card}").format(
            done=done, card=say(card_words(action.card))
        )
    if action.drop is not None:
        if action.card:
            freely = gettext("{done} and dropping {card} freely")
        else:
            freely = gettext("{done}, dropping {card} freely")
        done = freely.format(done=done, card=say(card_words(action.drop)))
    return done


def _table_words(action: Action, names: Sequence[str], family: str) -> str:
    """What the table recorded about its record (RULES.md §7), in every game."""
    because = f" ({action.reason})" if getattr(action, "reason", "") else ""
    if isinstance(action, Adjust):
        return gettext("Score adjusted: {who} {points}{because}").format(
            who=names[action.seat], points=f"{action.points:+d}", because=because
        )
    if isinstance(action, Abandon):
        return gettext("The round was abandoned{because}").format(because=because)
    if isinstance(action, Stop):
        if action.abandoned:
            return gettext("The table abandoned the match: nobody wins{because}").format(
                because=because
            )
        return gettext("The table stopped the match{because}").format(because=because)
    if isinstance(action, Correct):
        entry = action.at + 1
        if action.action is None:
            return gettext("Corrected entry {entry}: removed{because}").format(
                entry=entry, because=because
            )
        done = describe(action.action, names, family=family)
        if action.change == "insert":
            said = gettext("Corrected: missing before entry {entry}, {done}{because}")
        else:
            said = gettext("Corrected entry {entry}: it was {done}{because}")
        return said.format(entry=entry, done=done, because=because)
    return ""


def _truck_words(action: Action, names: Sequence[str]) -> str:
    """Dump Truck's actions: "Ana loaded 6-4 (6 in row 1, column 1)"."""
    if isinstance(action, Flip):
        a, b = action.seats
        return gettext("Coin between {a} and {b}: {first} chooses first").format(
            a=names[a], b=names[b], first=names[action.first]
        )
    who = names[action.seat]  # type: ignore[attr-defined]
    if isinstance(action, Take):
        if action.source == "face-up":
            said = gettext("{who} took {tile} face up")
        else:
            said = gettext("{who} took {tile} from the pool")
        return said.format(who=who, tile=tile_name(action.tile))
    if isinstance(action, Load):
        return gettext("{who} loaded {tile} ({high} in {cell})").format(
            who=who,
            tile=tile_name(action.tile),
            high=action.tile.high,
            cell=say(cell_words(action.cells[0])),
        )
    if isinstance(action, Return):
        return gettext("{who} put {tile} back face up").format(who=who, tile=tile_name(action.tile))
    if isinstance(action, Replace):
        if action.to is None:
            said = gettext("{who} swapped {tile} in for {out} ({out} to the pool)")
        else:
            said = gettext("{who} swapped {tile} in for {out} ({out} elsewhere in the truck)")
        return said.format(who=who, tile=tile_name(action.tile), out=tile_name(action.out))
    if isinstance(action, Shift):
        rows = (
            ngettext("{n} down", "{n} down", abs(action.rows))
            if action.rows > 0
            else ngettext("{n} up", "{n} up", abs(action.rows))
        ).format(n=abs(action.rows))
        cols = (
            ngettext("{n} right", "{n} right", abs(action.cols))
            if action.cols > 0
            else ngettext("{n} left", "{n} left", abs(action.cols))
        ).format(n=abs(action.cols))
        if action.rows and action.cols:
            return gettext("{who} shifted the load {rows} and {cols}").format(
                who=who, rows=rows, cols=cols
            )
        return gettext("{who} shifted the load {steps}").format(
            who=who, steps=rows if action.rows else cols if action.cols else ""
        )
    if isinstance(action, Unload):
        if action.blank_as is None:
            if action.score:
                return gettext("{who} unloaded the truck").format(who=who)
            return gettext("{who} unloaded the truck without scoring").format(who=who)
        if action.score:
            said = gettext("{who} unloaded the truck, blanks as {n}s")
        else:
            said = gettext("{who} unloaded the truck without scoring, blanks as {n}s")
        return said.format(who=who, n=action.blank_as)
    return action.kind


def _turns(double: Tile) -> str:
    if direction_of(double) < 0:
        return gettext("play goes counter-clockwise (havoc.direction)")
    return gettext("play goes clockwise (havoc.direction)")


def _havoc_words(action: Action, names: Sequence[str]) -> str:
    """Double Domino Havoc's actions: "Ben took 7-3 from Ana's discard slot"."""
    who = names[action.seat]  # type: ignore[attr-defined]
    if isinstance(action, DrawFrom):
        if action.source != BONEYARD:
            return gettext("{who} took {tile} from {owner}'s discard slot").format(
                who=who, tile=tile_name(action.tile), owner=names[int(action.source)]
            )
        if action.tile is not None:
            return gettext("{who} drew {tile} and put it in the discard slot; {turns}").format(
                who=who, tile=tile_name(action.tile), turns=_turns(action.tile)
            )
        return gettext("{who} drew from the boneyard").format(who=who)
    if isinstance(action, Train):
        return gettext("{who} played {lead}-{free} to the train ({free} free)").format(
            who=who, lead=action.lead, free=action.free
        )
    if isinstance(action, Discard):
        if action.tile.is_double:
            return gettext("{who} discarded {tile}; {turns}").format(
                who=who, tile=tile_name(action.tile), turns=_turns(action.tile)
            )
        return gettext("{who} discarded {tile}").format(who=who, tile=tile_name(action.tile))
    if isinstance(action, Respond):
        if action.take:
            return gettext("{who} took the double onto the train").format(who=who)
        if action.match is None:
            return gettext("{who} passed on the double").format(who=who)
        match = tile_name(action.match)
        if action.source != BONEYARD:
            return gettext(
                "{who} put {tile} in the double's place and took {replacement} from {owner}'s slot"
            ).format(
                who=who,
                tile=match,
                replacement=tile_name(action.replacement),
                owner=names[int(action.source)],
            )
        if action.replacement is not None:
            return gettext(
                "{who} put {tile} in the double's place and drew {replacement}, another "
                "double; {turns}"
            ).format(
                who=who,
                tile=match,
                replacement=tile_name(action.replacement),
                turns=_turns(action.replacement),
            )
        return gettext("{who} put {tile} in the double's place and drew a replacement").format(
            who=who, tile=match
        )
    if isinstance(action, Pass):
        return gettext("{who} ended the turn: nothing was left to draw").format(who=who)
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
            # Translators: after an entry of the round's log: " · worth 10".
            line += " · " + gettext("worth {worth}").format(worth=worth)
        scored = points[index] if index < len(points) else ()
        gains = [f"{names[s]} {p:+d}" for s, p in enumerate(scored) if p]
        if gains and not isinstance(action, Declare):  # a declaration says its points
            line += " · " + ", ".join(gains)
        if index in taken_back:  # it happened, and then it did not: said where it stands
            # Translators: after an entry of the round's log that an undo took back.
            line += " · " + gettext("taken back")
        if index in corrected:
            # Translators: after an entry of the round's log that a correction replaced.
            line += " · " + gettext("corrected below")
        lines.append(line)
    return lines
