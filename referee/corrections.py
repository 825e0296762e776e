"""The table's own entries about its record (RULES.md §7): corrections, adjustments, an
abandoned round, a stopped match.

A correction never edits the log: it is one more entry, and the round as played is the log
with every correction applied in order (``correct.replay``). Only that round as played is
judged, so a table may fix a later entry in the same go as the one that made it illegal;
a round that does not replay is refused whole, naming the entry that fails and its rule.

>>> from referee.actions import Correct, Play, Draw, REPLACE, REMOVE
>>> from referee.tiles import Tile
>>> log = (Play(0, Tile.parse("6-5")), Draw(1), Correct(0, REPLACE, Play(0, Tile.parse("6-4"))))
>>> played, origins = as_played(log)
>>> [str(a.tile) if isinstance(a, Play) else a.kind for a in played], origins
(['6-4', 'draw'], (2, 1))
>>> as_played((Draw(1), Correct(0, REMOVE), Correct(0, REMOVE)))  # doctest: +ELLIPSIS
Traceback (most recent call last):
referee.errors.IllegalAction: correct.record: Entry 1 was removed by an earlier correction; ...
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from referee.actions import INSERT, REMOVE, Abandon, Action, Adjust, Correct, Stop
from referee.errors import IllegalAction
from referee.frozen import replace
from referee.round.refusals import check_seat, match_over
from referee.round.result import ABANDONED, STOPPED  # noqa: F401 (the app reads them here too)
from referee.said import Said
from referee.teams import team_totals, teams


@dataclass
class _Slot:
    """An action as played in the making: what is there now (None: removed), the log entry
    that put it there, and the correction that inserted it (None: the entry's own)."""

    action: Action | None
    origin: int
    inserted_by: int | None = None


def as_played(
    log: Sequence[Action], until: int | None = None
) -> tuple[tuple[Action, ...], tuple[int, ...]]:
    """The round as played: the log with its corrections applied in order, and for each
    action the index of the log entry that brought it (the entry itself, or the correction
    that put it there). Refuses a correction of an entry that is not there to correct.

    A correction may name an entry of the log, or a correction that inserted an action: it
    then corrects that action. With ``until``, only what was played before entry ``until``
    (or before the action it inserted): the moment a correction of it starts from."""
    before: list[list[_Slot]] = [[] for _ in log]
    own: list[_Slot | None] = [
        None if isinstance(entry, Correct) else _Slot(entry, index)
        for index, entry in enumerate(log)
    ]
    inserted: dict[int, tuple[int, _Slot]] = {}  # an insert's index → (entry it precedes, slot)
    for index, entry in enumerate(log):
        if not isinstance(entry, Correct):
            continue
        where, slot = _target(log, own, inserted, index, entry)
        if entry.change == INSERT:
            assert entry.action is not None
            new = _Slot(entry.action, index, inserted_by=index)
            queue = before[where]
            queue.insert(queue.index(slot) if slot in queue else len(queue), new)
            inserted[index] = (where, new)
        elif entry.change == REMOVE:
            slot.action = None
        else:
            slot.action, slot.origin = entry.action, index
    actions: list[Action] = []
    origins: list[int] = []
    for index, slot in enumerate(own):
        for item in before[index]:
            if until is not None and item.inserted_by == until:
                return tuple(actions), tuple(origins)
            if item.action is not None:
                actions.append(item.action)
                origins.append(item.origin)
        if index == until:
            break
        if slot is not None and slot.action is not None:
            actions.append(slot.action)
            origins.append(slot.origin)
    return tuple(actions), tuple(origins)


def _target(
    log: Sequence[Action],
    own: Sequence[_Slot | None],
    inserted: dict[int, tuple[int, _Slot]],
    index: int,
    entry: Correct,
) -> tuple[int, _Slot]:
    """Where ``entry`` (at ``index``) corrects: the log entry its action stands before or at,
    and the slot it changes; refuses an entry that is not there to correct."""
    at = entry.at
    if at >= index:
        raise _refusal(
            index,
            Said(
                "A correction fixes an entry recorded before it; this round had {count} entries "
                "when it was recorded, so entry {entry} is not one of them.",
                count=index,
                entry=at + 1,
            ),
        )
    named = log[at]
    if isinstance(named, Correct):
        if named.change != INSERT:
            raise _refusal(
                index,
                Said(
                    "Entry {entry} is itself a correction; correct the entry it fixed "
                    "(entry {fixed}) instead.",
                    entry=at + 1,
                    fixed=named.at + 1,
                ),
            )
        where, slot = inserted[at]
    else:
        where, slot = at, own[at]  # type: ignore[assignment]
    if slot.action is None and entry.change != INSERT:
        raise _refusal(
            index,
            Said(
                "Entry {entry} was removed by an earlier correction; there is nothing left "
                "there to correct.",
                entry=at + 1,
            ),
        )
    return where, slot


def _refusal(index: int, message: Said) -> IllegalAction:
    error = IllegalAction("correct.record", message)
    error.index = index  # type: ignore[attr-defined]
    return error


def corrects(log: Sequence[Action]) -> bool:
    return any(isinstance(entry, Correct) for entry in log)


def misplay(at: int, undoable: bool) -> IllegalAction:
    """The refusal of a correction the table says was really played wrong: a misplay is
    taken back only in its window, by Undo (``procedure.misplay``); ``undoable`` says whether
    entry ``at`` still is in it."""
    if undoable:
        return IllegalAction(
            "procedure.misplay",
            Said(
                "Entry {entry} was played wrong and nothing has been placed since, so it goes "
                "back to hand: tap Undo, then record the legal play.",
                entry=at + 1,
            ),
        )
    return IllegalAction(
        "procedure.misplay",
        Said(
            "A tile really played wrong stands once the next tile is placed, with any score made "
            "on it, so entry {entry} stays. Only an entry the app was told wrongly is corrected: "
            "if that is what happened, choose 'It was recorded wrong'.",
            entry=at + 1,
        ),
    )


# -- what the table records about the record, in every game ------------------------------


def on_the_record(state: Any, action: Action, stop_winner: str = "high") -> Any:
    """The state after an adjustment, an abandoned round or a stopped match; every game's
    state answers ``base``, ``scores``, ``result``, ``champion`` and ``match_end`` alike.
    ``stop_winner``: whether the highest or the lowest total wins a stopped match."""
    if state.match_end is not None:
        raise match_over(state.match_end)
    if isinstance(action, Adjust):
        after = _adjust(state, action)
    elif isinstance(action, Abandon):
        after = _abandon(state)
    else:
        assert isinstance(action, Stop)
        after = _stop(state, action, stop_winner)
    return replace(
        after, actions=state.actions + 1, logged=state.logged + 1, last=action, previous=state
    )


def _adjust(state: Any, action: Adjust) -> Any:
    check_seat(state.seats, action.seat, "correct.adjust")
    if state.result is not None:
        raise IllegalAction(
            "correct.adjust",
            Said(
                "This round is over: adjust the score in the next round, or fix this round "
                "(Fix → something is missing)."
            ),
        )
    # Whom the points belong to is the seat's: an adjustment is what the table agreed, so no
    # target refuses it, and the match ends only where the game judges it (a play, a tally).
    points = tuple(action.points if s == action.seat else 0 for s in range(state.seats))
    scores = tuple(s + p for s, p in zip(state.scores, points, strict=True))
    return replace(state, scores=scores, last_points=points)


def _round_start(state: Any) -> Any:
    while state.previous is not None:
        state = state.previous
    return state


def _abandon(state: Any) -> Any:
    if state.result is not None:
        raise IllegalAction(
            "correct.abandon",
            Said("This round is already over; fix it instead (Fix on its entries)."),
        )
    if not state.actions:
        raise IllegalAction("correct.abandon", Said("Nothing has been played in this round yet."))
    start = _round_start(state)
    # What the table agreed stands (correct.adjust): the adjustments made in the round are
    # kept, everything else it scored is taken back.
    kept = _adjusted(state)
    lost = tuple(k - s for k, s in zip(kept, state.scores, strict=True))
    # Who led it stays known (the next round's leader follows it: threes.target, havoc),
    # and so does what the misplay window has settled: undoing the abandon reopens nothing.
    known = {name: getattr(state, name) for name in ("led_by", "first") if hasattr(state, name)}
    return replace(
        start,
        result=replace(state.abandoned_result(), points=kept),
        ended=start.ended if start.ended is not None else ABANDONED,
        turn=None,
        last_points=lost,
        scores=kept,
        settled=state.settled,
        **known,
    )


def _adjusted(state: Any) -> tuple[int, ...]:
    """What the adjustments standing in the round (not taken back) gave each seat."""
    kept = [0] * state.seats
    while state.previous is not None:
        if isinstance(state.last, Adjust):
            kept = [k + p for k, p in zip(kept, state.last_points, strict=True)]
        state = state.previous
    return tuple(kept)


def _stop(state: Any, action: Stop, winner: str) -> Any:
    result = state.result if state.result is not None else state.stopped_result()
    after = replace(state, stop=action, result=result, last_points=(0,) * state.seats)
    if action.abandoned:
        return replace(after, champion=None, shared=())
    # The totals decide, by team in partnerships (team.score); a team is named by its
    # first seat, and a tie shares the win between the tied teams' seats.
    sides = teams(state.seats, state.options)
    by_team = team_totals(after.totals, sides)
    best = max(by_team) if winner == "high" else min(by_team)
    top = [team for team, total in zip(sides, by_team, strict=True) if total == best]
    if len(top) == 1:
        return replace(after, champion=top[0][0], shared=())
    return replace(after, champion=None, shared=tuple(sorted(s for team in top for s in team)))


def stopped_words(stop: Stop) -> Said:
    if stop.abandoned:
        return Said("the table abandoned it, with no winner")
    return Said("the table stopped it")
