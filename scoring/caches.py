"""A per-process cache bounded by what it holds, not by how many entries it has.

A replay's memory grows with the actions it holds: about 1.4 KB per action for a table's
replay (the log's rows dominate) and less for the desk's (bench/memory.py measures both).
A count of entries says nothing about that: one imported round of thousands of undo pairs
weighed as much as hundreds of ordinary rounds. So each entry is weighed in actions, and
the least recently used entries go once the total passes the budget.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable


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
