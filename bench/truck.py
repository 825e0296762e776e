"""make bench, Dump Truck: what scoring one load costs, on the worst trucks we can find.

``best()`` keeps the grids it has scored in an lru_cache; every timed call here is made
right after ``dump_truck._score.cache_clear()``, so each figure is a first scoring. A seeded
search loads random full trucks (six dominoes, each placed where a load may go), half of them
from two to four values only (long like chains, many blanks, many same-valued cells), times
``best()`` under every blanks option, then climbs from the slowest trucks by changing one
tile or one placement at a time. The worst truck of each option is timed again, many times,
and its median reported, with the median over every truck searched.

No timing is asserted anywhere: ``bench/run.py`` compares the worst with its budget
(``truck_score_us``, 5 ms). Run alone: ``python bench/truck.py`` prints the figures and the
worst trucks as ``Truck.of`` arguments.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.games import dump_truck  # noqa: E402
from referee.games.dump_truck import MOST_DOMINOES, Truck, best  # noqa: E402
from referee.tiles import DominoSet, Tile  # noqa: E402

BLANKS = ("normal", "worthless", "double", "wild")
SET = DominoSet(dump_truck.TOP).tiles
RANDOM_TRUCKS = int(os.environ.get("TRUCK_BENCH_RANDOM", "500"))  # per blanks option
CLIMB_STEPS = int(os.environ.get("TRUCK_BENCH_CLIMB", "400"))  # per blanks option
Genome = tuple[tuple[Tile, int], ...]  # each tile, and which free place it is loaded on


def load(genome: Genome) -> Truck | None:
    """The truck the genome loads, or None when a tile finds no free place."""
    truck = Truck()
    for tile, choice in genome:
        places = truck.placements()
        if not places:
            return None
        truck = truck.with_tile(tile, places[choice % len(places)])
    return truck


def random_genome(rng: random.Random) -> Genome:
    tiles = list(SET)
    if rng.random() < 0.5:
        palette = rng.sample(range(dump_truck.TOP + 1), rng.randint(2, 4))
        if rng.random() < 0.5 and 0 not in palette:
            palette[0] = 0  # blanks: wild tries every value for them
        few = [t for t in SET if t.high in palette and t.low in palette]
        if len(few) >= MOST_DOMINOES:
            tiles = few
    chosen = rng.sample(tiles, MOST_DOMINOES)
    return tuple((tile, rng.randrange(64)) for tile in chosen)


def mutate(rng: random.Random, genome: Genome) -> Genome:
    genes = list(genome)
    at = rng.randrange(len(genes))
    tile, choice = genes[at]
    if rng.random() < 0.5:
        used = {t for t, _ in genes}
        tile = rng.choice([t for t in SET if t not in used])
    else:
        choice = rng.randrange(64)
    genes[at] = (tile, choice)
    return tuple(genes)


def first_scoring_us(truck: Truck, blanks: str, times: int) -> list[float]:
    """``times`` timings of ``best(truck, blanks)``, each on an empty cache, in µs."""
    spent = []
    for _ in range(times):
        dump_truck._score.cache_clear()
        started = time.perf_counter()
        best(truck, blanks)
        spent.append((time.perf_counter() - started) * 1e6)
    return spent


def cost(truck: Truck, blanks: str) -> float:
    """The least of five first scorings: steady enough to compare trucks while searching."""
    return min(first_scoring_us(truck, blanks, 5))


def search(blanks: str, rng: random.Random) -> tuple[list[Truck], list[float]]:
    """The slowest full trucks found for ``blanks``, and the cost of every truck tried."""
    tried: list[tuple[float, Genome]] = []
    while len(tried) < RANDOM_TRUCKS:
        genome = random_genome(rng)
        truck = load(genome)
        if truck is not None:
            tried.append((cost(truck, blanks), genome))
    costs = [c for c, _ in tried]
    tried.sort(key=lambda pair: pair[0], reverse=True)
    climbers = tried[:3]
    for step in range(CLIMB_STEPS):
        worst, genome = climbers[step % len(climbers)]
        child = mutate(rng, genome)
        truck = load(child)
        if truck is None:
            continue
        spent = cost(truck, blanks)
        costs.append(spent)
        if spent > worst:
            climbers[step % len(climbers)] = (spent, child)
    slowest = sorted(climbers + tried[3:8], key=lambda pair: pair[0], reverse=True)
    return [truck for _, genome in slowest if (truck := load(genome)) is not None], costs


def written(truck: Truck) -> list[list]:
    """The truck as ``Truck.of`` arguments: tile, first cell, second cell."""
    return [[str(p.tile), list(p.cells[0]), list(p.cells[1])] for p in truck.placed]


def figures(seed: int = 4) -> dict:
    """The worst and median first scoring in µs, overall and per blanks option."""
    rng = random.Random(seed)
    out: dict = {"per_option": {}}
    every: list[float] = []
    for blanks in BLANKS:
        trucks, costs = search(blanks, rng)
        # The few slowest, timed again at length: the worst median is the figure.
        timed = {
            i: statistics.median(first_scoring_us(t, blanks, 101)) for i, t in enumerate(trucks)
        }
        at = max(timed, key=timed.__getitem__)
        truck = trucks[at]
        every += costs
        out["per_option"][blanks] = {
            "worst_us": timed[at],
            "median_us": statistics.median(costs),
            "trucks_timed": len(costs),
            "worst_truck": written(truck),
            "worst_points": best(truck, blanks).points,
        }
    worst = max(out["per_option"].values(), key=lambda o: o["worst_us"])
    out["truck_score_us"] = worst["worst_us"]
    out["truck_score_median_us"] = statistics.median(every)
    return out


def main() -> None:
    found = figures()
    for blanks, option in found["per_option"].items():
        print(
            f"{blanks:<10} worst {option['worst_us']:8.0f} us   median "
            f"{option['median_us']:6.0f} us   over {option['trucks_timed']} trucks"
        )
        print(f"           {json.dumps(option['worst_truck'])}")
    print(
        f"\ntruck_score_us (worst) {found['truck_score_us']:.0f} us, median "
        f"{found['truck_score_median_us']:.0f} us; budget 5000 us"
    )


if __name__ == "__main__":
    main()
