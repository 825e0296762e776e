"""How few repeats any seating must make: a largest matching of the pairings still allowed
(Edmonds' blossoms)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

# -- Matching --------------------------------------------------------------------------------


class _Graph:
    """Who may not sit together again (partners, or pairs that met): how few repeats any
    seating of some of them must make."""

    def __init__(self, forbidden: Mapping) -> None:
        self.forbidden = forbidden
        self.most = max((len(v) for v in forbidden.values()), default=0)

    def fewest_repeats(self, units: Sequence) -> int:
        """The fewest repeated pairings over every way to pair ``units`` off: as many pairs
        as a largest matching of the pairings allowed leaves short."""
        n = len(units)
        # Dirac: where everyone may still pair with at least half the others, the pairings
        # allowed hold a Hamiltonian cycle, so everyone can be paired without a repeat.
        if n == 0 or (n > 2 and self.most <= n // 2 - 1):
            return 0
        present = set(units)
        if n > 2 and all(
            len(present & self.forbidden.get(u, {}).keys()) <= n // 2 - 1 for u in units
        ):
            return 0
        index = {u: i for i, u in enumerate(units)}
        allowed = [
            [index[v] for v in units if v != u and v not in self.forbidden.get(u, ())]
            for u in units
        ]
        return n // 2 - _maximum_matching(allowed)


def _maximum_matching(adjacent: list[list[int]]) -> int:
    """The size of a largest matching of a graph (Edmonds' blossoms, as e-maxx writes it)."""
    n = len(adjacent)
    match = [-1] * n
    for v in range(n):  # a greedy start leaves few paths to find
        if match[v] == -1:
            for u in adjacent[v]:
                if match[u] == -1:
                    match[u], match[v] = v, u
                    break

    def lca(a: int, b: int, base: list[int], parent: list[int]) -> int:
        seen = [False] * n
        while True:
            a = base[a]
            seen[a] = True
            if match[a] == -1:
                break
            a = parent[match[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[match[b]]

    def find_path(root: int) -> tuple[int, list[int]]:
        used = [False] * n
        parent = [-1] * n
        base = list(range(n))
        used[root] = True
        queue = [root]
        head = 0
        while head < len(queue):
            v = queue[head]
            head += 1
            for to in adjacent[v]:
                if base[v] == base[to] or match[v] == to:
                    continue
                if to == root or (match[to] != -1 and parent[match[to]] != -1):
                    current = lca(v, to, base, parent)
                    blossom = [False] * n
                    for start, child in ((v, to), (to, v)):
                        while base[start] != current:
                            blossom[base[start]] = blossom[base[match[start]]] = True
                            parent[start] = child
                            child = match[start]
                            start = parent[match[start]]
                    for i in range(n):
                        if blossom[base[i]]:
                            base[i] = current
                            if not used[i]:
                                used[i] = True
                                queue.append(i)
                elif parent[to] == -1:
                    parent[to] = v
                    if match[to] == -1:
                        return to, parent
                    used[match[to]] = True
                    queue.append(match[to])
        return -1, parent

    for root in range(n):
        if match[root] == -1:
            v, parent = find_path(root)
            while v != -1:
                pv = parent[v]
                ppv = match[pv]
                match[v], match[pv] = pv, v
                v = ppv
    return sum(1 for v in match if v != -1) // 2
