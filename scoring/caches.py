"""A per-process cache bounded by the bytes it holds, not by how many entries it has, and
what a replay weighs in bytes.

A count of entries says nothing about memory: one imported round of thousands of undo pairs
weighed as much as hundreds of ordinary rounds. Weighing in actions was no better (issue
28): a desk position of 200 one-entry rounds weighed 402 "actions" and held 3.4 MB, so the
desk's budget of 16,000 actions let a worker keep about 140 MB. Each entry is now weighed in
bytes, estimated from what a replay holds (``round_bytes``), and the least recently used
entries go once the total passes the budget.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Any

from scoring.games import facts


class WeighedCache[V]:
    """A least-recently-used cache whose entries' weights add up to at most ``budget``.

    >>> kept = WeighedCache(budget=10)
    >>> kept.put("a", "round a", weight=6); kept.put("b", "round b", weight=6)
    >>> kept.get("a"), kept.get("b"), kept.weight
    (None, 'round b', 6)
    >>> kept.put("huge", "too much", weight=11)  # heavier than the whole budget: not kept
    >>> kept.get("huge"), kept.weight
    (None, 6)
    """

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.weight = 0
        self._entries: OrderedDict[Hashable, tuple[V, int]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> V | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            self._entries.move_to_end(key)
            return entry[0]

    def put(self, key: Hashable, value: V, weight: int) -> None:
        if weight > self.budget:
            return
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self.weight -= old[1]
            self._entries[key] = (value, weight)
            self.weight += weight
            while self.weight > self.budget:
                _, (_, dropped) = self._entries.popitem(last=False)
                self.weight -= dropped

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self.weight = 0

    def __contains__(self, key: Hashable) -> bool:
        return key in self._entries

    def __len__(self) -> int:
        return len(self._entries)


# What a replay holds, measured with tracemalloc on this machine (2026-11-26, Python 3.12):
# a round's start (the deal, the options, the replay's own tuples) about 17 KB; each action
# of the log about 220 bytes (the parsed action and the points it made); each state still
# standing at the round's end (not taken back: every state keeps the one before it, so that
# an undo can return to it) about 2 KB in the line and train games (the layout, the hands,
# the trains), under 1 KB in Dump Truck and Havoc; a stored row of the log, which a table's
# replay keeps too, about 1.4 KB. The figures below are rounded up, so that the estimate is
# never less than what a replay really holds (tests/scoring/test_attacked.py checks it
# against tracemalloc for every game); it is at most a few times more.
ROUND_BYTES = 20_000
ENTRY_BYTES = 300
# What one state holds, per game: scoring.games.Facts.state_bytes.
ROW_BYTES = 1_600


def round_bytes(played: Any) -> int:
    """What a round's replay (``referee.document.RoundReplay``) holds, in bytes, estimated."""
    standing, state = 0, played.state
    while state is not None:  # the chain an undo walks back: one state per step kept
        standing += 1
        state = state.previous
    per_state = facts(played.state.game.slug).state_bytes
    return ROUND_BYTES + ENTRY_BYTES * len(played.entries) + per_state * standing
