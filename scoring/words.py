"""The action log in the players' words: "Ben played 6-3 on 6-6"."""

from __future__ import annotations

from collections.abc import Sequence

from referee import Action, Draw, Pass, Play, Tally, Undo


def describe(action: Action, names: Sequence[str], undone: Action | None = None) -> str:
    if isinstance(action, Play):
        who = names[action.seat]
        if action.on is None:
            return f"{who} led {action.tile}"
        end = " (its end)" if action.face == "end" else ""
        return f"{who} played {action.tile} on {action.on}{end}"
    if isinstance(action, Draw):
        tiles = "a tile" if action.count == 1 else f"{action.count} tiles"
        return f"{names[action.seat]} drew {tiles}"
    if isinstance(action, Pass):
        return f"{names[action.seat]} knocked"
    if isinstance(action, Tally):
        return "The hands were tallied"
    if isinstance(action, Undo):
        return f"Taken back: {describe(undone, names)}" if undone else "Took back the last action"
    return action.kind


def describe_log(actions: Sequence[Action], names: Sequence[str]) -> list[str]:
    """Each action described, an undo naming what it took back."""
    effective: list[Action] = []
    lines = []
    for action in actions:
        if isinstance(action, Undo):
            undone = effective.pop() if effective else None
            lines.append(describe(action, names, undone))
        else:
            effective.append(action)
            lines.append(describe(action, names))
    return lines
