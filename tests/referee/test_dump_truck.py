"""Dump Truck (RULES.md §4): the truck, the draw and its contests, loads, swaps, shifts,
unloads, the chains a load scores, and the end of the game.

Shorthand for actions, read by :func:`act` through ``parse_action(..., "truck")``:
``"0 take 6-6"`` (face down from the pool), ``"0 take 6-6 up"`` (a face-up tile),
``"0 load 6-5 0,0 0,1"`` (the first cell holds the first number as written),
``"0 return 6-6"``, ``"0 replace 2-2 1,0 1,1 out 6-6 pool"`` or ``... out 6-6 2,0 2,1``,
``"0 shift -1 0"``, ``"0 unload"``, ``"0 unload noscore"``, ``"0 unload as 3"``,
``"flip 0 1 first 1"`` and ``"undo"``. Cells are ``row,column`` counted from 0; the
referee's messages count them from 1.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from dataclasses import replace as evolve

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee import DominoSet, IllegalAction, Tile, Undo, export, parse_action, preset, replay
from referee.actions import Action, Flip, Load, Replace, Return, Shift, Take, Unload
from referee.games import dump_truck
from referee.games.dump_truck import (
    COLS,
    POOL_EMPTY,
    ROWS,
    STALLED,
    Score,
    Truck,
    TruckState,
    apply,
    best,
    check,
    legal_actions,
    start,
)  # fmt: skip

T = Tile.parse
NAMES = ("Ana", "Ben", "Caro", "Dan", "Eve", "Fay")
BLANKS = ("normal", "worthless", "double", "wild")
SET = DominoSet(6).tiles
GRID = tuple((r, c) for r in range(ROWS) for c in range(COLS))


def _cells(words: Sequence[str]) -> list[list[int]]:
    return [[int(n) for n in word.split(",")] for word in words]


def act(text: str) -> Action:
    words = text.split()
    if words == ["undo"]:
        return parse_action({"type": "undo"}, "truck")
    if words[0] == "flip":  # flip 0 1 first 1
        return parse_action({"type": "flip", "seats": words[1:3], "first": words[4]}, "truck")
    data: dict = {"seat": words[0], "type": words[1]}
    rest = words[2:]
    if words[1] == "take":
        data.update({"tile": rest[0], "from": "face-up" if rest[1:] == ["up"] else "pool"})
    elif words[1] == "return":
        data["tile"] = rest[0]
    elif words[1] == "load":
        data.update(tile=rest[0], cells=_cells(rest[1:3]))
    elif words[1] == "replace":  # tile a b out tile (pool | a b)
        to = "pool" if rest[5] == "pool" else _cells(rest[5:7])
        data.update(tile=rest[0], cells=_cells(rest[1:3]), out=rest[4], to=to)
    elif words[1] == "shift":
        data.update(rows=int(rest[0]), cols=int(rest[1]))
    elif words[1] == "unload":
        if "noscore" in rest:
            data["score"] = False
        if "as" in rest:
            data["blank_as"] = int(rest[rest.index("as") + 1])
    return parse_action(data, "truck")


def play(state: TruckState, actions: str) -> TruckState:
    for text in filter(None, (a.strip() for a in actions.split(";"))):
        state = apply(state, act(text))
    return state


def new(players: int = 2, actions: str = "", base=None, **options) -> TruckState:
    return play(start("dump-truck", options, NAMES[:players], base=base), actions)


def refused(state: TruckState, text: str) -> IllegalAction:
    action = act(text)
    with pytest.raises(IllegalAction) as caught:
        apply(state, action)
    assert check(state, action) is not None
    return caught.value


def drain(state: TruckState, left: int = 0, score: bool = False) -> TruckState:
    """Whole turns, as long as one leaves at least ``left`` tiles face down: every seat
    takes the highest tile still face down and loads it on the first free place (unloading
    a full truck first, scored or not)."""
    while state.result is None and state.face_down - state.seats >= left:
        for seat in range(state.seats):
            if state.trucks[seat].is_full:
                state = apply(state, Unload(seat, score))
            tile = state.unseen()[0]
            state = apply(state, Take(seat, tile, "pool"))
            state = apply(state, Load(seat, tile, state.trucks[seat].placements()[0]))
    return state


# -- truck.best: RULES.md's worked examples ---------------------------------------------------

EX1 = Truck.of(
    ("1-1", (0, 1), (1, 1)), ("1-3", (0, 0), (1, 0)), ("2-1", (0, 2), (1, 2)),
    ("3-4", (0, 3), (1, 3)), ("3-3", (2, 0), (2, 1)), ("5-6", (2, 2), (2, 3)),
)  # fmt: skip
EX2 = Truck.of(
    ("6-5", (0, 0), (0, 1)), ("4-3", (0, 2), (0, 3)), ("2-2", (1, 2), (1, 3)),
    ("0-2", (1, 0), (1, 1)), ("0-0", (2, 0), (2, 1)), ("6-6", (2, 2), (2, 3)),
)  # fmt: skip


def chains_of(score: Score) -> set[tuple[str, tuple[int, ...], frozenset]]:
    return {(c.kind, c.values, frozenset(c.cells)) for c in score.chains}


def test_the_trucks_of_the_worked_examples_lie_as_drawn():
    assert EX1.values == (1, 1, 2, 3, 3, 1, 1, 4, 3, 3, 5, 6)
    assert EX2.values == (6, 5, 4, 3, 0, 2, 2, 2, 0, 0, 6, 6)


@pytest.mark.parametrize("blanks", BLANKS)
def test_the_first_example_scores_11_under_every_blanks_option(blanks):
    """1-1-1-1 (4) + 1-2-3-4 (4) + 3-3-3 (3): no blanks, so every option scores alike."""
    score = best(EX1, blanks)
    assert score.points == 11 and score.blank_as is None
    ones = frozenset({(0, 0), (0, 1), (1, 1), (1, 2)})
    threes = frozenset({(1, 0), (2, 0), (2, 1)})
    assert {(c.kind, c.values, c.points) for c in score.chains} == {
        ("like", (1, 1, 1, 1), 4),
        ("sequence", (1, 2, 3, 4), 4),
        ("like", (3, 3, 3), 3),
    }
    chains = {c.values: c for c in score.chains}
    assert frozenset(chains[(1, 1, 1, 1)].cells) == ones
    assert frozenset(chains[(3, 3, 3)].cells) == threes
    # Either 1 of the 2-1 or 1 of the 1-1 starts the sequence; 2-3-4 are fixed. The 5 at
    # row 3, column 3 lies diagonally from the 4 at row 2, column 4: it does not join.
    sequence = chains[(1, 2, 3, 4)].cells
    assert sequence[1:] == ((0, 2), (0, 3), (1, 3)) and sequence[0] in {(0, 1), (1, 2)}
    assert (2, 2) not in sequence


@pytest.mark.parametrize(
    ("blanks", "points", "zeros"),
    [("normal", 11, 3), ("worthless", 8, None), ("double", 14, 6)],
)
def test_the_second_example_scores_by_the_blanks_option(blanks, points, zeros):
    """2-2-2 (3) + 2-3-4-5-6 (5) + 0-0-0 (3 normal, nothing worthless, 6 double)."""
    score = best(EX2, blanks)
    assert score.points == points and score.blank_as is None
    expected = {
        ("like", (2, 2, 2), frozenset({(1, 1), (1, 2), (1, 3)})),
        ("sequence", (2, 3, 4, 5, 6), frozenset({(1, 3), (0, 3), (0, 2), (0, 1), (0, 0)})),
    }
    if zeros is not None:
        expected.add(("like", (0, 0, 0), frozenset({(1, 0), (2, 0), (2, 1)})))
        assert next(c for c in score.chains if c.values == (0, 0, 0)).points == zeros
    assert chains_of(score) == expected
    assert next(c for c in score.chains if c.kind == "sequence").cells == (
        (1, 3), (0, 3), (0, 2), (0, 1), (0, 0),
    )  # fmt: skip


def test_the_second_example_with_wild_blanks_takes_the_blanks_as_sixes_for_14():
    """Worked by hand: the three blanks at row 2, column 1 and row 3, columns 1-2 join the
    6 above them and the 6-6 beside them as 6s, a path of six 6s; the 2-3-4-5-6 and the
    2-2-2 still stand (the 6 at row 1, column 1 serves in the sequence and the like
    chain). Blanks as 0 to 5 make 11 each (as 2s they make one like chain of six 2s in
    place of 2-2-2 and 0-0-0), so 6 is the only best choice."""
    score = best(EX2, "wild")
    assert (score.points, score.blank_as) == (14, 6)
    assert chains_of(score) == {
        ("like", (2, 2, 2), frozenset({(1, 1), (1, 2), (1, 3)})),
        ("sequence", (2, 3, 4, 5, 6), frozenset({(1, 3), (0, 3), (0, 2), (0, 1), (0, 0)})),
        ("like", (6,) * 6, frozenset({(0, 0), (1, 0), (2, 0), (2, 1), (2, 2), (2, 3)})),
    }
    sixes = next(c for c in score.chains if c.values == (6,) * 6).cells
    assert sixes in (
        ((0, 0), (1, 0), (2, 0), (2, 1), (2, 2), (2, 3)),
        ((2, 3), (2, 2), (2, 1), (2, 0), (1, 0), (0, 0)),
    )
    assert score.words.endswith("blanks as 6s = 14")
    by_value = {b: best(EX2, "wild", b).points for b in range(7)}
    assert by_value == {0: 11, 1: 11, 2: 11, 3: 11, 4: 11, 5: 11, 6: 14}
    assert best(EX2, "wild", 2).chains[-1].values == (2,) * 6  # one like chain per value


# -- truck.segment, truck.like, truck.sequence: what is a chain ------------------------------

T_OF_ONES = Truck.of(("1-1", (0, 0), (0, 1)), ("1-0", (0, 2), (0, 3)), ("1-5", (1, 1), (2, 1)))
# Two like chains of 3s, three each (column 4, and the corner at row 1, column 1): one counts.
TWO_THREES = Truck.of(
    ("3-3", (0, 0), (0, 1)), ("3-0", (1, 0), (2, 0)), ("3-1", (0, 3), (0, 2)),
    ("3-2", (1, 3), (1, 2)), ("3-4", (2, 3), (2, 2)),
)  # fmt: skip


@pytest.mark.parametrize(
    ("rule", "truck", "blanks", "points", "words"),
    [
        # truck.like: a T of four 1s is no path: 3, not 4
        ("truck.like", T_OF_ONES, "normal", 3, "1-1-1 (3)"),
        # ... but the blank at its end, wild as a 1, makes a path of four
        ("truck.like", T_OF_ONES, "wild", 4, "1-1-1-1 (4), blanks as 1s = 4"),
        ("truck.like", Truck.of(("2-2", (0, 0), (0, 1)), ("2-5", (1, 1), (1, 2))), "normal", 3,
         "2-2-2 (3)"),
        # two like chains of one value: only the longer counts
        ("truck.like", TWO_THREES, "normal", 6, "1-2-3 (3) + 3-3-3 (3) = 6"),
        ("truck.like", Truck.of(("4-4", (0, 0), (0, 1))), "normal", 0, "no chain of 3"),
        # truck.segment: a diagonal does not connect
        ("truck.segment", Truck.of(("5-5", (0, 0), (0, 1)), ("6-5", (1, 0), (2, 0)),
                                   ("5-1", (1, 2), (1, 3))), "normal", 0, "no chain of 3"),
        ("truck.segment", Truck.of(("5-5", (0, 0), (0, 1)), ("1-5", (1, 0), (1, 1)),
                                   ("0-1", (2, 0), (2, 1))), "normal", 3, "5-5-5 (3)"),
        # truck.sequence: rising by 1 either way, never wrapping 6-0, never through a blank
        ("truck.sequence", Truck.of(("4-5", (0, 0), (0, 1)), ("6-0", (0, 2), (0, 3))),
         "normal", 3, "4-5-6 (3)"),
        ("truck.sequence", Truck.of(("5-6", (0, 0), (0, 1)), ("0-1", (0, 2), (0, 3))),
         "normal", 0, "no chain of 3"),
        ("truck.sequence", Truck.of(("5-6", (0, 0), (0, 1)), ("0-1", (0, 2), (0, 3))),
         "wild", 0, "no chain of 3"),
        ("truck.sequence", Truck.of(("0-1", (0, 0), (0, 1)), ("2-6", (0, 2), (0, 3))),
         "normal", 0, "no chain of 3"),
        ("truck.sequence", Truck.of(("6-5", (0, 0), (0, 1)), ("4-3", (0, 2), (0, 3))),
         "normal", 4, "3-4-5-6 (4)"),
        ("truck.sequence", Truck.of(("1-2", (0, 0), (0, 1)), ("3-2", (0, 2), (0, 3))),
         "normal", 3, "1-2-3 (3)"),  # 1-2-3-2 turns back: only three of it
        ("truck.sequence", Truck.of(("1-2", (0, 0), (0, 1)), ("3-4", (0, 2), (0, 3)),
                                    ("5-6", (1, 0), (1, 1))), "normal", 4, "1-2-3-4 (4)"),
        # wild blanks take one value in a sequence too
        ("truck.sequence", Truck.of(("1-0", (0, 0), (0, 1)), ("3-4", (0, 2), (0, 3))),
         "wild", 4, "1-2-3-4 (4), blanks as 2s = 4"),
        ("truck.sequence", Truck.of(("1-0", (0, 0), (0, 1)), ("3-4", (0, 2), (0, 3))),
         "normal", 0, "no chain of 3"),
        # truck.blanks
        ("truck.blanks", Truck.of(("0-0", (0, 0), (0, 1)), ("0-3", (0, 2), (0, 3))),
         "normal", 3, "0-0-0 (3)"),
        ("truck.blanks", Truck.of(("0-0", (0, 0), (0, 1)), ("0-3", (0, 2), (0, 3))),
         "worthless", 0, "no chain of 3"),
        ("truck.blanks", Truck.of(("0-0", (0, 0), (0, 1)), ("0-3", (0, 2), (0, 3))),
         "double", 6, "0-0-0 (6)"),
        ("truck.blanks", Truck.of(("0-0", (0, 0), (0, 1)), ("0-3", (0, 2), (0, 3))),
         "wild", 4, "3-3-3-3 (4), blanks as 3s = 4"),
        # blanks as 5s or as 6s both make a path of five: the lowest of equals
        ("truck.blanks", Truck.of(("0-0", (0, 0), (0, 1)), ("0-5", (0, 2), (0, 3)),
                                  ("0-6", (1, 0), (2, 0))),
         "wild", 5, "5-5-5-5-5 (5), blanks as 5s = 5"),
    ],
)  # fmt: skip
def test_what_a_chain_is(rule, truck, blanks, points, words):
    score = best(truck, blanks)
    assert score.points == points, rule
    assert words in score.words
    chain_is_real(truck, blanks, score)


def test_one_sequence_per_load_and_it_is_the_longest():
    truck = Truck.of(
        ("1-2", (0, 0), (0, 1)), ("3-0", (0, 2), (0, 3)),
        ("3-4", (2, 0), (2, 1)), ("5-6", (2, 2), (2, 3)),
    )  # fmt: skip
    assert best(truck).words == "3-4-5-6 (4)"  # 1-2-3 (3) is a second sequence: it does not count
    assert [c.kind for c in best(truck, "double").chains] == ["sequence"]


def test_a_segment_serves_in_the_sequence_and_in_a_like_chain():
    truck = Truck.of(("1-2", (0, 0), (0, 1)), ("3-3", (0, 2), (1, 2)), ("3-4", (2, 2), (2, 3)))
    assert best(truck).words == "1-2-3 (3) + 3-3-3 (3) = 6"


# -- every chain reported is a real chain -----------------------------------------------------


def chain_is_real(truck: Truck, blanks: str, score: Score) -> None:
    """The chains a score reports are paths of the truck that the rules allow, and add up."""
    values = truck.values
    wild = blanks == "wild" and 0 in values
    if not wild:
        assert score.blank_as is None
    else:
        assert score.blank_as is not None and 0 <= score.blank_as <= 6

    def shown(cell) -> int:
        value = values[cell[0] * COLS + cell[1]]
        assert value is not None, f"{cell} is empty"
        return score.blank_as if wild and value == 0 else value

    kinds = Counter()
    for chain in score.chains:
        cells = chain.cells
        assert len(cells) >= 3 and len(cells) == len(chain.values)
        assert len(set(cells)) == len(cells), "a path never visits a cell twice"
        assert all(0 <= r < ROWS and 0 <= c < COLS for r, c in cells)
        for (r1, c1), (r2, c2) in zip(cells, cells[1:], strict=False):
            assert abs(r1 - r2) + abs(c1 - c2) == 1, "consecutive segments touch edge to edge"
        assert chain.values == tuple(shown(c) for c in cells)
        if chain.kind == "like":
            value = chain.values[0]
            assert set(chain.values) == {value}
            kinds["like", value] += 1
            factor = 1
            if value == 0 and not wild:
                factor = {"normal": 1, "worthless": 0, "double": 2}[blanks]
            assert chain.points == factor * len(cells) > 0
        else:
            assert chain.kind == "sequence"
            steps = {b - a for a, b in zip(chain.values, chain.values[1:], strict=False)}
            assert steps in ({1}, {-1}) and 0 not in chain.values
            kinds["sequence"] += 1
            assert chain.points == len(cells)
    assert all(n == 1 for n in kinds.values()), "one sequence, one like chain per value"
    assert score.points == sum(c.points for c in score.chains)


@pytest.mark.parametrize("blanks", BLANKS)
@pytest.mark.parametrize("truck", [EX1, EX2, T_OF_ONES], ids=["ex1", "ex2", "T"])
def test_the_worked_examples_report_real_chains(truck, blanks):
    chain_is_real(truck, blanks, best(truck, blanks))
    if blanks == "wild":
        for b in range(7):
            chain_is_real(truck, blanks, best(truck, blanks, b))


# -- the brute-force oracle -------------------------------------------------------------------


def every_path(values: Sequence[int | None]) -> list[tuple[int, ...]]:
    """Every simple path of 3 or more occupied cells (cell indexes), each way round."""
    occupied = {i for i, v in enumerate(values) if v is not None}

    def near(i: int) -> list[int]:
        r, c = divmod(i, COLS)
        cells = [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]
        return [x * COLS + y for x, y in cells if 0 <= x < ROWS and 0 <= y < COLS]

    paths: list[tuple[int, ...]] = []

    def extend(path: list[int]) -> None:
        if len(path) >= 3:
            paths.append(tuple(path))
        for j in near(path[-1]):
            if j in occupied and j not in path:
                path.append(j)
                extend(path)
                path.pop()

    for i in sorted(occupied):
        extend([i])
    return paths


def oracle(values: Sequence[int | None], blanks: str, paths=None) -> int:
    """The best total by brute force: every path classified, one sequence and one like
    chain per value; wild blanks tried as every value."""
    paths = every_path(values) if paths is None else paths
    if blanks == "wild" and 0 in values:
        return max(oracle_as(values, b, paths) for b in range(7))
    longest_sequence, like = 0, {}
    for path in paths:
        seen = [values[i] for i in path]
        if len(set(seen)) == 1:
            worth = {"worthless": 0, "double": 2}.get(blanks, 1) if seen[0] == 0 else 1
            like[seen[0]] = max(like.get(seen[0], 0), worth * len(path))
        steps = {b - a for a, b in zip(seen, seen[1:], strict=False)}
        if 0 not in seen and steps in ({1}, {-1}):
            longest_sequence = max(longest_sequence, len(path))
    return longest_sequence + sum(like.values())


def oracle_as(values: Sequence[int | None], blank_as: int, paths=None) -> int:
    """Wild blanks all taken as ``blank_as`` (as 0 they stay blanks, out of sequences)."""
    given = [blank_as if v == 0 else v for v in values]
    return oracle(given, "normal", paths)


@st.composite
def trucks(draw) -> Truck:
    """A legal truck of 1 to 6 dominoes, loaded one by one where a load may go. Now and
    then the tiles come from a few values, so long like chains and many blanks are common."""
    count = draw(st.integers(1, 6), label="dominoes")
    tiles = list(SET)
    if draw(st.booleans(), label="few values"):
        palette = draw(st.sets(st.integers(0, 6), min_size=2, max_size=4), label="palette")
        few = [t for t in SET if t.high in palette and t.low in palette]
        tiles = few if len(few) >= count else tiles
    chosen = draw(st.permutations(tiles), label="tiles")[:count]
    truck = Truck()
    for tile in chosen:
        if not truck.placements():
            break  # the empty cells left touch no domino, or no two touch each other
        cells = draw(st.sampled_from(truck.placements()), label="cells")
        assert truck.refusal(cells, tile) is None
        truck = truck.with_tile(tile, cells)
    return truck


@given(trucks())
def test_best_finds_the_brute_force_best_under_every_blanks_option(truck):
    values = truck.values
    paths = every_path(values)
    for blanks in BLANKS:
        dump_truck._score.cache_clear()
        score = best(truck, blanks)
        assert score.points == oracle(values, blanks, paths), (blanks, truck)
        chain_is_real(truck, blanks, score)
    wild = best(truck, "wild")
    if 0 in values:
        assert oracle_as(values, wild.blank_as, paths) == oracle(values, "wild", paths)
        for b in range(7):
            chosen = best(truck, "wild", b)
            assert chosen.blank_as == b and chosen.points == oracle_as(values, b, paths)
            chain_is_real(truck, "wild", chosen)
    else:
        assert wild.blank_as is None


def test_the_oracle_agrees_with_the_worked_examples():
    assert [oracle(EX1.values, b) for b in BLANKS] == [11, 11, 11, 11]
    assert [oracle(EX2.values, b) for b in BLANKS] == [11, 8, 14, 14]
    assert oracle(T_OF_ONES.values, "normal") == 3


# -- each rule, a legal and a refused action ------------------------------------------------

LOADED = "0 take 1-1; 0 load 1-1 0,0 0,1; 1 take 2-2; 1 load 2-2 1,0 1,1; 0 take 3-3"
RETURNED = "0 take 6-6; 0 return 6-6"  # 6-6 is fresh until the next turn
FACE_UP = RETURNED + "; 1 take 5-5; 1 load 5-5 0,0 0,1"  # turn 2: 6-6 is face up
BEN_HAS_66 = FACE_UP + "; 1 take 6-6 up"
BEN_HAS_66_OF_3 = FACE_UP + "; 2 take 4-4; 2 load 4-4 0,0 0,1; 1 take 6-6 up"
# Ana fills her truck with the doubles while Ben returns what he draws, then draws 6-5.
FULL = ";".join(
    f"0 take {d}-{d}; 0 load {d}-{d} {cells}; 1 take {d}-0; 1 return {d}-0"
    for d, cells in zip(
        range(1, 7), ("0,0 0,1", "0,2 0,3", "1,0 1,1", "1,2 1,3", "2,0 2,1", "2,2 2,3"),
        strict=True,
    )
) + "; 0 take 6-5"  # fmt: skip


def case(script, action, rule=None, words="", base=None, players=2, **options):
    setup = {"actions": script, "base": base, "players": players, **options}
    return pytest.param(setup, action, rule, words, id=f"{rule or 'legal'}: {action}")


RULE_CASES = [
    # set.unique: a tile is in one place only
    case(LOADED, "1 take 1-1", "set.unique", "1-1 cannot come from the face-down pool: it is in "
         "Ana's truck"),
    # set.unique refuses a tile already accounted for, naming where it is, whichever
    # source the take names: a tile in a truck is neither face down nor face up
    case(LOADED, "1 take 1-1 up", "set.unique", "in Ana's truck"),
    case(LOADED, "1 take 3-3", "set.unique", "3-3 is in Ana's hand; draw another tile"),
    case(FACE_UP, "0 take 6-6", "set.unique", "6-6 cannot come from the face-down pool: it is "
         "face up in the pool (take it from the face-up tiles)"),
    case(LOADED + "; 0 load 3-3 0,2 0,3; 0 unload; 1 take 4-4; 1 load 4-4 2,0 2,1",
         "0 take 3-3", "set.unique",
         "it is out of the game (unloaded)"),
    case(LOADED + "; 0 load 3-3 0,2 0,3; 0 unload; 1 take 4-4; 1 load 4-4 2,0 2,1",
         "1 take 3-3 up", "set.unique", "it is out of the game (unloaded)"),
    case(LOADED, "1 take 4-4"),
    # truck.shape
    case("0 take 3-4", "0 load 3-4 0,0 1,0"),
    case("0 take 3-4", "0 load 3-4 2,3 2,2"),
    case("0 take 3-4", "0 load 3-4 0,3 0,4", "truck.shape", "row 1, column 5 is outside the truck:"
         " it has 3 rows and 4 columns"),
    case("0 take 3-4", "0 load 3-4 3,0 2,0", "truck.shape", "row 4, column 1 is outside"),
    case("0 take 3-4", "0 load 4-3 0,0 1,1", "truck.shape", "row 1, column 1 and row 2, column 2 "
         "do not touch"),
    case("0 take 3-4", "0 load 3-4 0,0 0,2", "truck.shape", "do not touch"),
    case("0 take 3-4", "0 load 3-4 1,1 1,1", "truck.shape", "do not touch"),
    case(LOADED, "0 shift 2 2"),
    case(LOADED, "0 shift 2 0", truck_template=False, no_replace=True),
    case(LOADED, "0 shift -1 0", "truck.shape", "must stay inside its 3 rows and 4 columns"),
    case(LOADED, "0 shift 0 3", "truck.shape", "pushes dominoes out of the truck"),
    case(LOADED, "0 shift 0 0", "truck.shape", "moves nothing"),
    case("0 take 3-4", "0 shift 1 0", "truck.shape", "The truck is empty"),
    case(LOADED, "0 shift 1 0", "truck.shape", "House rule: the truck's contents stay where they "
         "were placed", truck_template=True),
    # truck.draw
    case("", "0 take 6-6"),
    case(FACE_UP, "0 take 6-6 up"),
    case(LOADED, "0 take 4-4", "truck.draw", "Ana already holds 3-3: load it or return it"),
    case("0 take 1-1; 0 load 1-1 0,0 0,1", "0 take 2-2", "truck.draw", "Ana has drawn this "
         "turn. The next turn begins when every seat has drawn and placed its domino; still to "
         "draw: Ben."),
    case("0 take 1-1; 0 load 1-1 0,0 0,1; 1 take 2-2", "0 take 3-3", "truck.draw",
         "Ana has drawn this turn. The next turn begins when every seat has placed its domino."),
    case(RETURNED, "1 take 6-6 up", "truck.draw", "6-6 was put back face up this turn, after the "
         "draw: it can be taken next turn."),
    case(RETURNED, "1 take 6-6", "truck.draw", "6-6 was put back face up this turn"),
    case(LOADED + "; 0 replace 3-3 0,0 0,1 out 1-1 pool", "1 take 1-1 up", "truck.draw",
         "1-1 was put back face up this turn"),
    case("", "0 take 6-6 up", "truck.draw", "6-6 is not face up in the pool: it is face down in "
         "the pool. Face up: none."),
    case(FACE_UP, "0 take 5-4 up", "truck.draw", "5-4 is not face up in the pool: it is face down"
         " in the pool. Face up: 6-6."),
    # claims: the lower score chooses first; a tie by the coin
    case(BEN_HAS_66, "0 take 6-6 up", base=(0, 5)),
    case(BEN_HAS_66, "0 take 6-6 up", "truck.draw", "6-6 stays with Ben: when two want one tile, "
         "Ben has the lower score (3 to 5) and chooses first.", base=(5, 3)),
    case(BEN_HAS_66, "0 take 6-6 up", "truck.draw", "Ana and Ben both want 6-6 and are tied on "
         "4: flip the coin to see who chooses first.", base=(4, 4)),
    case(BEN_HAS_66 + "; flip 0 1 first 0", "0 take 6-6 up"),
    case(BEN_HAS_66 + "; flip 1 0 first 0", "0 take 6-6 up"),
    case(BEN_HAS_66 + "; flip 0 1 first 1", "0 take 6-6 up", "truck.draw", "6-6 stays with Ben: "
         "when two want one tile, Ben won the coin and chooses first."),
    case(BEN_HAS_66 + "; flip 0 1 first 1", "flip 0 1 first 0", "truck.draw",
         "The coin has settled it this turn: Ben chooses first."),  # one toss a turn
    case(BEN_HAS_66 + "; flip 0 1 first 0", "0 take 6-6", "set.unique", "6-6 is in Ben's hand"),
    case(BEN_HAS_66 + "; flip 0 1 first 0; 0 take 6-6 up", "1 take 6-6 up", "truck.draw",
         "6-6 stays with Ana: when two want one tile, Ana won the coin"),
    case(BEN_HAS_66_OF_3 + "; flip 0 2 first 0", "0 take 6-6 up", "truck.draw", "flip the coin",
         players=3),
    case(BEN_HAS_66_OF_3, "2 take 6-6 up", players=3, base=(0, 1, 0)),
    case(BEN_HAS_66_OF_3, "0 take 6-6 up", "truck.draw", "Ben has the lower score (1 to 2)",
         players=3, base=(2, 1, 0)),  # a coin between other seats settles nothing
    case("", "flip 0 1 first 1"),
    case("", "flip 0 2 first 2", players=3, base=(1, 2, 1)),
    case("", "flip 0 1 first 1", "truck.draw", "No coin is needed: Ben has the lower score "
         "(2 to 1) and chooses first.", base=(2, 1)),
    case("", "flip 0 1 first 1", "truck.draw", "No coin is needed: Ana has the lower score",
         base=(0, 1)),
    # truck.load
    case(LOADED, "0 load 3-3 0,2 0,3"),
    case(LOADED, "0 load 3-3 1,0 1,1"),
    case(LOADED, "0 return 3-3"),
    case(LOADED, "0 load 3-3 2,2 2,3", "truck.load", "3-3 must lie next to a domino already in "
         "the truck, edge to edge."),
    case(LOADED, "0 load 3-3 2,1 2,2", "truck.load", "3-3 must lie next to a domino"),
    case(LOADED, "0 load 3-3 1,1 2,1"),
    case(LOADED, "0 load 3-3 0,1 0,2", "truck.load", "1-1 already lies on row 1, column 2."),
    case(LOADED, "0 load 3-3 0,0 0,1", "truck.load", "1-1 already lies on row 1, column 1."),
    case(FULL, "0 load 6-5 2,3 2,2", "truck.load",
         "The truck is full with six dominoes; 6-5 does not fit."),
    case(FULL, "0 return 6-5"),
    case(LOADED, "0 load 4-4 0,2 0,3", "truck.load", "Ana holds 3-3, not 4-4."),
    case(LOADED, "1 load 3-3 2,0 2,1", "truck.load", "Ben holds no domino to load: draw one"),
    case(LOADED, "0 return 4-4", "truck.load", "Ana holds 3-3, not 4-4."),
    case(LOADED, "1 return 2-2", "truck.load", "Ben holds no domino to return"),
    # truck.replace
    case(LOADED, "0 replace 3-3 0,0 0,1 out 1-1 pool"),
    case(LOADED, "0 replace 3-3 2,2 2,3 out 1-1 pool"),  # the truck had one domino: anywhere
    case(LOADED, "0 replace 3-3 0,0 0,1 out 1-1 1,0 1,1"),
    case(LOADED, "0 replace 3-3 0,0 0,1 out 1-1 0,3 0,2"),
    case(FULL, "0 replace 6-5 2,3 2,2 out 6-6 pool"),
    case(LOADED, "0 replace 3-3 0,0 0,1 out 1-1 pool", truck_template=True),
    case(LOADED, "0 replace 3-3 0,0 0,1 out 1-1 pool", "truck.replace", "House rule: dominoes "
         "stay where they were loaded; load or return the one held.", no_shift=True),
    case(LOADED, "0 replace 3-3 0,0 0,1 out 1-1 pool", "truck.replace", "House rule",
         no_replace=True),
    case(LOADED, "0 shift 1 0", "truck.replace", "House rule: the truck's contents stay where "
         "they were placed.", no_shift=True),
    case(LOADED, "0 replace 3-3 0,0 0,1 out 2-2 pool", "truck.replace", "2-2 is not in Ana's "
         "truck."),
    case(LOADED, "0 replace 4-4 0,0 0,1 out 1-1 pool", "truck.load", "Ana holds 3-3, not 4-4."),
    case(LOADED, "0 replace 3-3 0,0 0,1 out 1-1 0,0 1,0", "truck.load", "3-3 already lies on "
         "row 1, column 1."),
    case(LOADED, "0 replace 3-3 0,0 0,1 out 1-1 2,0 2,1", "truck.load", "1-1 must lie next to a "
         "domino already in the truck"),
    case(LOADED, "0 replace 3-3 0,0 0,1 out 1-1 0,3 0,4", "truck.shape", "row 1, column 5 is "
         "outside the truck"),
    case(LOADED, "0 replace 3-3 0,0 0,1 out 1-1 1,0 2,1", "truck.shape", "row 2, column 1 and "
         "row 3, column 2 do not touch"),
    case(FULL, "0 replace 6-5 2,3 2,2 out 6-6 0,0 0,1", "truck.load", "The truck is full with "
         "six dominoes; 6-6 does not fit."),
    # truck.unload
    case(LOADED + "; 0 load 3-3 0,2 0,3", "0 unload"),
    case(LOADED + "; 0 load 3-3 0,2 0,3", "0 unload noscore"),
    case(LOADED + "; 0 load 3-3 0,2 0,3", "1 unload"),  # Ben unloads before he draws
    case(LOADED, "0 unload", "truck.unload", "Ana holds 3-3: load it or return it first, then "
         "unload."),
    case(LOADED, "0 unload noscore", "truck.unload", "Ana holds 3-3"),
    case("", "0 unload", "truck.unload", "Ana's truck is empty: there is nothing to unload."),
    # truck.blanks
    case(LOADED + "; 0 load 3-3 0,2 0,3", "0 unload as 3", blanks="wild"),
    case(LOADED + "; 0 load 3-3 0,2 0,3", "0 unload as 3", "truck.blanks", "Blanks are wild only "
         "under the house rule of wild blanks.", blanks="normal"),
    case(LOADED + "; 0 load 3-3 0,2 0,3", "0 unload as 0", "truck.blanks", "wild only",
         blanks="double"),
    # seat.order
    case("", "2 take 6-6", "seat.order", "There is no seat 2 at this table; the seats are 0 to 1."),
    case("", "flip 0 2 first 0", "seat.order", "There is no seat 2"),
    # procedure.misplay
    case("", "undo", "procedure.misplay", "There is nothing to take back yet."),
    case("0 take 6-6", "undo"),
]  # fmt: skip


@pytest.mark.parametrize(("setup", "action", "rule", "words"), RULE_CASES)
def test_each_rule_allows_and_refuses(setup, action, rule, words):
    state = new(**setup)
    if rule is None:
        assert check(state, act(action)) is None
        apply(state, act(action))
        return
    error = refused(state, action)
    assert (error.rule, words in error.message) == (rule, True), error.message


def test_rules_cited_are_the_games_rules():
    cited = {case.values[2] for case in RULE_CASES} - {None}
    assert cited <= set(preset("dump-truck").rules) | {"procedure.misplay"}
    assert {"truck.shape", "truck.draw", "truck.load", "truck.replace", "truck.unload",
            "truck.blanks", "set.unique"} <= cited  # fmt: skip


def test_a_tile_outside_the_double_six_set_is_unreadable_under_set_tiles():
    from referee import InvalidAction

    with pytest.raises(InvalidAction) as caught:
        apply(new(), act("0 take 7-7"))
    assert caught.value.rule == "set.tiles"  # issue 17: a refusal names its rule
    assert str(caught.value) == (
        "set.tiles: 7-7 is not in a double-6 set: its numbers go from 0 (blank) to 6."
    )


# -- truck.draw: the turn, the fresh tiles, the contests ------------------------------------


def test_every_seat_draws_once_a_turn_and_the_next_turn_begins_when_all_have_placed():
    state = new(3, "0 take 6-6; 0 return 6-6; 1 take 5-5")
    assert (state.turn_number, state.drawn, state.waiting) == (1, (True, True, False), (2,))
    assert state.fresh == (T("6-6"),) and state.face_up == () and state.face_down == 26
    state = play(state, "2 take 4-4; 2 load 4-4 0,0 0,1")
    assert state.turn_number == 1, "Ben still holds 5-5"
    state = play(state, "1 load 5-5 1,1 1,2")
    assert (state.turn_number, state.drawn) == (2, (False, False, False))
    assert state.face_up == (T("6-6"),) and state.fresh == () and state.face_down == 25
    state = play(state, "2 take 6-6 up; 2 load 6-6 0,2 0,3")
    assert state.face_up == () and state.trucks[2].values[:4] == (4, 4, 6, 6)


def test_a_claim_takes_the_tile_and_the_claimed_seat_draws_again():
    state = new(2, BEN_HAS_66 + "; 0 take 6-6 up", base=(0, 5))
    assert state.holding == (T("6-6"), None) and state.drawn == (True, False)
    assert state.sources == ("face-up", None) and state.waiting == (1,)
    error = refused(state, "1 take 6-6 up")
    assert error.rule == "truck.draw" and "Ana has the lower score (0 to 5)" in error.message
    state = play(state, "1 take 5-4; 0 load 6-6 0,0 0,1; 1 return 5-4")
    assert state.turn_number == 3 and state.face_up == (T("5-4"),)


def test_a_coin_settles_a_tie_for_this_turn_only():
    state = new(2, BEN_HAS_66 + "; flip 0 1 first 0")
    assert state.ahead(0, 1) is True and state.ahead(1, 0) is False
    state = play(state, "0 take 6-6 up; 1 take 4-4; 0 load 6-6 0,0 0,1; 1 load 4-4 1,0 1,1")
    assert state.turn_number == 3 and state.tosses == () and state.ahead(0, 1) is None


def test_the_last_tile_of_the_pool_goes_to_the_lower_score():
    state = drain(new(3), left=1)  # nine whole turns: 27 tiles taken, one face down
    assert (state.face_down, state.face_up, state.fresh) == (1, (), ())
    last = state.unseen()[0]
    state = evolve(state, base=(3, 1, 2))  # the scores as a table may have them
    state = play(state, f"2 take {last}")
    assert state.takeable == 0 and state.waiting == ()
    error = refused(state, "1 take 6-6")
    assert error.rule == "set.unique" and "out of the game" in error.message
    error = refused(state, f"0 take {last}")
    assert error.rule == "truck.draw" and "Caro has the lower score (2 to 3)" in error.message
    error = refused(state, f"1 take {last} up")
    assert error.rule == "set.unique" and f"{last} is in Caro's hand" in error.message
    state = play(state, f"1 take {last}")  # Ben, lowest, claims it
    assert state.holding == (None, last, None) and state.drawn == (False, True, False)
    error = refused(state, f"2 take {last}")
    assert error.rule == "truck.draw" and "Ben has the lower score (1 to 2)" in error.message
    state = play(state, f"1 load {last} {cells(state.trucks[1].placements()[0])}")
    assert state.result is not None and state.result.reason == POOL_EMPTY


def test_while_the_pool_has_more_a_tile_drawn_face_down_is_nobody_elses():
    state = new(2, "0 take 6-6", base=(5, 0))
    error = refused(state, "1 take 6-6")
    assert error.rule == "set.unique" and "6-6 is in Ana's hand; draw another" in error.message


def history(state: TruckState) -> list[TruckState]:
    """Every state from the first action's to ``state``, in order."""
    states = []
    while state.previous is not None:
        states.append(state)
        state = state.previous
    return states[::-1]


def cells(pair) -> str:
    return " ".join(f"{r},{c}" for r, c in pair)


# -- truck.load, truck.replace, truck.shape: what each does ---------------------------------


def test_a_load_puts_the_first_number_as_written_on_the_first_cell():
    state = new(2, "0 take 2-5; 0 load 2-5 0,0 1,0")
    assert state.trucks[0].values[0] == 2 and state.trucks[0].values[COLS] == 5
    assert state.trucks[0].placed[0].cells == ((1, 0), (0, 0))  # high half first
    assert state.face_down == 27 and state.holding == (None, None) and state.placed_any


def test_a_replaced_domino_goes_face_up_next_turn_or_to_empty_cells():
    state = new(2, LOADED + "; 0 replace 3-3 0,1 0,2 out 1-1 pool")
    assert state.trucks[0].tiles == (T("3-3"),) and state.fresh == (T("1-1"),)
    error = refused(state, "1 take 1-1 up")
    assert error.rule == "truck.draw" and "1-1 was put back face up this turn" in error.message
    state = new(2, LOADED + "; 0 replace 3-3 0,0 0,1 out 1-1 1,0 1,1")
    assert state.trucks[0].values[: COLS + 2] == (3, 3, None, None, 1, 1)
    assert state.fresh == () and state.holding == (None, None)


def test_a_shift_moves_the_whole_load_and_nothing_else():
    state = new(2, LOADED)
    after = play(state, "0 shift 2 1")
    assert after.trucks[0].at((2, 1)).tile == T("1-1") and after.trucks[0].at((0, 0)) is None
    assert after.holding == state.holding and after.scores == state.scores
    assert after.trucks[0].shifts() == tuple(
        (r, c) for r in range(-2, 1) for c in range(-1, 2) if (r, c) != (0, 0)
    )


# -- truck.unload -----------------------------------------------------------------------------


def test_an_unload_scores_the_best_chains_and_the_dominoes_leave_the_game():
    script = "0 take 1-1; 0 load 1-1 0,0 0,1; 1 take 6-6; 1 load 6-6 0,0 0,1;" \
             "0 take 1-2; 0 load 1-2 1,1 1,2; 1 take 6-5; 1 load 6-5 0,2 0,3"  # fmt: skip
    state = new(2, script + "; 0 unload")
    assert state.scores == (3, 0) and state.last_points == (3, 0)
    assert state.last_load.words == "1-1-1 (3)" and state.trucks[0] == Truck()
    assert set(state.out) == {T("1-1"), T("2-1")}
    state = play(state, "1 unload noscore")
    assert state.scores == (3, 0) and state.last_points == (0, 0) and len(state.out) == 4
    error = refused(state, "0 take 1-1")
    assert error.rule == "set.unique" and "out of the game (unloaded)" in error.message


@pytest.mark.parametrize(
    ("given", "points", "blank_as"),
    [(None, 4, 3), (3, 4, 3), (0, 3, 0), (6, 3, 6), (2, 3, 2)],
)
def test_wild_blanks_take_the_value_the_unload_names_or_the_best(given, points, blank_as):
    state = new(2, "0 take 0-0; 0 load 0-0 0,0 0,1; 1 take 6-6; 1 return 6-6;"
                   "0 take 0-3; 0 load 0-3 0,2 0,3", blanks="wild")  # fmt: skip
    state = play(state, "0 unload" + ("" if given is None else f" as {given}"))
    assert state.scores == (points, 0)
    assert state.last_load.blank_as == blank_as


# -- truck.end ---------------------------------------------------------------------------------


@pytest.mark.parametrize("score", [False, True])
def test_the_game_ends_when_the_pool_and_the_hands_are_empty(score):
    state = drain(new(2), left=2, score=score)
    # the last turn: 1-0 to Ben's 1-1, 0-0 to Ana's 2-0, each loaded where it scores most
    assert state.unseen() == (T("1-0"), T("0-0"))
    for seat, tile in zip((1, 0), state.unseen(), strict=True):
        state = apply(state, Take(seat, tile, "pool"))
        truck = state.trucks[seat]
        where = max(truck.placements(), key=lambda p: best(truck.with_tile(tile, p)).points)
        state = apply(state, Load(seat, tile, where))
    unloaded = [0, 0]
    for step in history(state):
        if isinstance(step.last, Unload):
            unloaded[step.last.seat] += step.last_points[step.last.seat]
    assert any(unloaded) == score
    result = state.result
    assert result.reason == POOL_EMPTY and state.pool == 0 and state.face_down == 0
    assert state.turn_number == 14
    last = tuple(best(truck).points for truck in state.trucks)
    assert result.last_loads == tuple(best(truck) for truck in state.trucks)
    assert any(last), "the trucks as they stand score"
    assert state.scores == tuple(u + p for u, p in zip(unloaded, last, strict=True))
    assert result.points == state.scores == state.totals
    top = max(state.totals)
    assert result.winner == (state.totals.index(top) if state.totals.count(top) == 1 else None)
    assert state.match_over and state.champion == result.winner
    error = refused(state, "0 unload")
    assert error.rule == "truck.end" and "The game is over" in error.message
    assert legal_actions(state) == (Undo(),)


def test_a_turn_that_began_with_the_face_down_pool_empty_and_placed_nothing_ends_the_game():
    state = drain(new(2), left=2)
    assert (state.turn_number, state.face_down) == (14, 2)
    one, two = state.unseen()
    place = cells(state.trucks[1].placements()[0])
    state = play(state, f"0 take {one}; 0 return {one}; 1 take {two}; 1 load {two} {place}")
    assert state.turn_number == 15 and state.dry and state.face_up == (one,)
    error = refused(state, f"0 take {one}")
    assert error.rule == "set.unique"
    assert "cannot come from the face-down pool: it is face up in the pool" in error.message
    error = refused(play(state, f"0 take {one} up"), f"1 take {one} up")
    assert error.rule == "truck.draw" and "flip the coin" in error.message
    placed = play(state, f"1 take {one} up; 1 load {one} {cells(state.trucks[1].placements()[0])}")
    assert placed.result.reason == POOL_EMPTY
    state = play(state, f"0 take {one} up; 0 return {one}")
    assert state.result is not None and state.result.reason == STALLED
    assert state.fresh == (one,) and state.pool == 1
    assert state.result.last_loads == tuple(best(t) for t in state.trucks)
    assert state.scores == tuple(best(t).points for t in state.trucks)
    error = refused(state, "0 unload")
    assert error.rule == "truck.end" and "The game is over" in error.message
    # The game stalled with a domino face up in the pool: the refusal must not say otherwise.
    assert "the pool and the hands are empty" not in error.message, error.message


def test_a_shift_or_an_unload_is_no_placing_for_the_end():
    state = drain(new(2), left=2)
    one, two = state.unseen()
    state = play(state, f"0 take {one}; 0 return {one}; 1 take {two}; 1 return {two}")
    assert state.turn_number == 15 and state.dry and state.face_up == (one, two)
    state = play(state, f"0 take {one} up; 0 return {one}; 0 shift 1 0; 0 unload")
    assert state.result is None, "Ben has not drawn"
    state = play(state, f"1 take {two} up; 1 return {two}")
    assert state.result.reason == STALLED


# -- procedure.misplay: undo until a later load -----------------------------------------------


def test_undo_takes_back_the_last_action_and_only_it():
    state = new(2, "0 take 6-6")
    undone = play(state, "undo")
    assert undone == new(2) and undone.face_down == 28
    state = new(2, "0 take 1-1; 0 load 1-1 0,0 0,1; 1 take 2-2; 1 load 2-2 1,0 1,1;"
                   "0 take 1-2; 0 load 1-2 0,2 0,3; 0 unload")  # fmt: skip
    assert state.scores == (3, 0) and state.out == (T("1-1"), T("2-1"))
    undone = play(state, "undo")
    assert undone.trucks[0].tiles == (T("1-1"), T("2-1")) and undone.scores == (0, 0)
    assert undone.out == () and undone == state.previous


def test_a_load_closes_the_window_of_everything_before_it():
    state = new(2, "0 take 1-1; 1 take 2-2; 1 return 2-2; 0 load 1-1 0,0 0,1")
    assert state.turn_number == 2
    state = play(state, "undo")  # the load itself may be taken back
    assert state.holding == (T("1-1"), None)
    error = refused(state, "undo")
    assert error.rule == "procedure.misplay"
    assert "a domino was placed in a truck after it" in error.message


def test_actions_after_a_load_may_be_taken_back_down_to_the_load():
    state = new(2, "0 take 1-1; 0 load 1-1 0,0 0,1; 1 take 2-2; 1 return 2-2; 0 take 3-3;"
                   "0 shift 1 0; 1 take 6-6; 1 return 6-6")  # fmt: skip
    for _ in range(6):  # return, take, shift, take, return, take: back to Ana's load
        state = play(state, "undo")
    assert state.trucks[0].tiles == (T("1-1"),) and state.drawn == (True, False)
    state = play(state, "undo")
    assert state.trucks[0] == Truck() and state.holding == (T("1-1"), None)
    assert refused(state, "undo").rule == "procedure.misplay"


def test_a_replace_closes_the_window_too():
    state = new(2, LOADED + "; 0 replace 3-3 0,0 0,1 out 1-1 pool; 1 take 4-4")
    state = play(state, "undo; undo")
    assert state.holding == (T("3-3"), None) and state.trucks[0].tiles == (T("1-1"),)
    assert refused(state, "undo").rule == "procedure.misplay"


def test_undo_of_the_last_placement_reopens_the_game():
    state = drain(new(2), left=2)
    one, two = state.unseen()
    state = play(state, f"0 take {one}; 0 return {one}; 1 take {two}; 1 return {two}")
    state = play(state, f"0 take {one} up; 0 return {one}; 1 take {two} up; 1 return {two}")
    assert state.result.reason == STALLED
    reopened = play(state, "undo")
    assert reopened.result is None and reopened.holding == (None, two)
    assert reopened.scores == (0, 0)


# -- the document: replay and export ----------------------------------------------------------


def document(players, actions: Sequence[Action], **options) -> dict:
    return {
        "format": "boneyard-match/1", "game": "dump-truck", "options": options,
        "players": list(NAMES[:players]),
        "rounds": [{"actions": [a.to_dict() for a in actions]}],
    }  # fmt: skip


def test_a_document_replays_and_exports_the_scores_and_the_end():
    state = drain(new(2), left=0, score=True)
    doc = document(2, [step.last for step in history(state)])
    match = replay(doc)
    assert match.rounds[0].state == state and match.totals == state.totals
    out = export(match)
    assert out["rounds"][0]["result"]["reason"] == POOL_EMPTY
    assert out["winner"] == state.champion
    logged = [0, 0]
    for action in out["rounds"][0]["actions"]:
        for seat, points in action.get("points", {}).items():
            logged[int(seat)] += points
    assert tuple(logged) == state.totals
    assert export(replay(out)) == out


def test_a_document_with_an_illegal_action_names_the_action_and_the_rule():
    from referee import DocumentError

    doc = document(2, [act("0 take 1-1"), act("0 load 1-1 0,0 1,1")])
    with pytest.raises(DocumentError) as caught:
        replay(doc)
    assert caught.value.rule == "truck.shape" and caught.value.action == 2
    assert "round 1, action 2: truck.shape: A domino covers two cells" in str(caught.value)
    doc = document(2, [act("0 take 1-1"), act("0 load 1-1 0,0 0,1"), act("0 unload as 2")])
    with pytest.raises(DocumentError, match="truck.blanks"):
        replay(doc)
    doc["options"] = {"blanks": "wild"}
    assert replay(doc).totals == (0, 0)


# -- Hypothesis: honest random games -----------------------------------------------------------

Pick = Callable[[Sequence, str], object]
LATE = 40  # from this turn on nobody swaps, shifts, claims or takes back: the game must end


@dataclass(frozen=True)
class Step:
    before: TruckState
    hidden: tuple[Tile, ...]  # the face-down pool in its real order, before the action
    action: Action
    after: TruckState


def claims(state: TruckState) -> list[Take]:
    """Takes of a tile another seat holds that the referee allows now."""
    found = []
    for seat in range(state.seats):
        if state.holding[seat] is None and not state.drawn[seat]:
            for other, tile in enumerate(state.holding):
                if tile is not None and other != seat:
                    take = Take(seat, tile, state.sources[other])
                    if check(state, take) is None:
                        found.append(take)
    return found


def honest(pick: Pick, state: TruckState, hidden: tuple[Tile, ...]) -> Action:
    """What one of the seats may do now, playing by the rules with the real pool."""
    late = state.turn_number >= LATE
    options = state.options
    kinds: list[str] = []
    waiting = [s for s in state.waiting if state.holding[s] is None]
    holders = [s for s in range(state.seats) if state.holding[s] is not None]
    loaded = [s for s in range(state.seats) if state.trucks[s].placed]
    idle = [s for s in loaded if state.holding[s] is None]
    found_claims = [] if late else claims(state)
    ties = [
        (a, b)
        for a in range(state.seats)
        for b in range(a + 1, state.seats)
        if state.totals[a] == state.totals[b] and state.ahead(a, b) is None  # one coin a turn
    ]
    kinds += ["take"] * 4 * bool(waiting) + ["place"] * 4 * bool(holders)
    kinds += ["claim"] * bool(found_claims) + ["unload"] * (1 + 2 * any(
        state.trucks[s].is_full for s in idle)) * bool(idle)  # fmt: skip
    if not late:
        kinds += ["flip"] * bool(ties and holders)
        shiftable = [s for s in loaded if state.trucks[s].shifts()]
        kinds += ["shift"] * bool(
            shiftable and not (options["truck_template"] or options["no_shift"])
        )
        kinds += ["undo"] * (check(state, Undo()) is None)
    assert kinds, "a game not over always has something to do"
    kind = pick(kinds, "kind")
    if kind == "take":
        seat = pick(waiting, "taker")
        takes = [Take(seat, t, "face-up") for t in state.face_up]
        if hidden and (late or not takes or pick((True, False), "face down?")):
            return Take(seat, hidden[0], "pool")
        return pick(takes, "face-up tile")
    if kind == "place":
        seat = pick(holders, "placer")
        held, truck = state.holding[seat], state.trucks[seat]
        how = ["return"] + ["load"] * 3 * bool(truck.placements())
        if truck.placed and not late and not (options["no_shift"] or options["no_replace"]):
            how.append("replace")
        how = pick(how, "how")
        if how == "load":
            return Load(seat, held, pick(truck.placements(), "cells"))
        if how == "return":
            return Return(seat, held)
        out = pick(truck.tiles, "out")
        emptied = truck.without(out)
        cells = pick(emptied.placements(), "swap cells")
        after = emptied.with_tile(held, cells)
        # The old domino goes to another place (truck.replace), not back where it lay.
        elsewhere = [c for c in after.placements() if set(c) != set(truck.holding(out).cells)]
        return Replace(seat, held, cells, out, pick((None, *elsewhere), "to"))
    if kind == "claim":
        return pick(found_claims, "claim")
    if kind == "unload":
        seat = pick(idle, "unloader")
        wild = options["blanks"] == "wild"
        blank_as = pick((None, *range(7)), "blank as") if wild else None
        return Unload(seat, pick((True, True, False), "score"), blank_as)
    if kind == "flip":
        pair = pick(ties, "coin")
        return Flip(pair, pick(pair, "heads"))
    if kind == "shift":
        seat = pick(shiftable, "shifter")
        return Shift(seat, *pick(state.trucks[seat].shifts(), "shift"))
    return Undo()


def the_tiles_are_all_there(state: TruckState, hidden: Sequence[Tile]) -> None:
    held = [t for t in state.holding if t is not None]
    in_trucks = [t for truck in state.trucks for t in truck.tiles]
    everywhere = [*hidden, *state.face_up, *state.fresh, *in_trucks, *held, *state.out]
    assert Counter(everywhere) == Counter(SET), "every tile is in exactly one place"
    assert state.face_down == len(hidden)
    assert state.face_down + len(state.face_up) + len(state.fresh) + len(in_trucks) + len(
        held
    ) + len(state.out) == len(SET) == 28  # fmt: skip


def the_rules_hold(step: Step, hidden_after: Sequence[Tile]) -> None:
    before, action, after = step.before, step.action, step.after
    the_tiles_are_all_there(after, hidden_after)
    for truck in after.trucks:
        assert len(truck.placed) <= 6
        covered = [c for p in truck.placed for c in p.cells]
        assert len(set(covered)) == len(covered) and all(c in GRID for c in covered)
        assert all(abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 for a, b in (p.cells for p in
                                                                       truck.placed))  # fmt: skip
    assert all((h is None) == (s is None) for h, s in zip(after.holding, after.sources,
                                                           strict=True))  # fmt: skip
    assert all(d for h, d in zip(after.holding, after.drawn, strict=True) if h is not None)
    if isinstance(action, Undo):
        return
    assert after.scores == tuple(
        b + p for b, p in zip(before.scores, after.last_points, strict=True)
    ), "the scores are the sum of what each action scored"
    if isinstance(action, Unload):
        blanks = before.options["blanks"]
        points = best(before.trucks[action.seat], blanks, action.blank_as).points
        assert after.last_points[action.seat] == (points if action.score else 0)
        assert after.trucks[action.seat] == Truck()
    if after.result is not None:
        assert all(h is None for h in after.holding)
        if after.result.reason == POOL_EMPTY:
            assert after.pool == 0
        else:
            assert after.result.reason == STALLED and before.dry and not after.placed_any
            assert after.face_down == 0
        assert after.result.last_loads == tuple(
            best(t, before.options["blanks"]) for t in after.trucks
        )
        assert after.result.points == after.scores == after.totals
    else:
        assert after.result is None and after.turn_number >= before.turn_number


def honest_game(pick: Pick, shuffle, players: int, options: dict, most: int | None = None):
    """A game played out (or ``most`` actions of it): its steps and its document."""
    state = start("dump-truck", options, NAMES[:players])
    hidden = tuple(shuffle(list(SET)))
    steps: list[Step] = []
    earlier: list[tuple[Tile, ...]] = []
    while state.result is None and (most is None or len(steps) < most):
        action = honest(pick, state, hidden)
        after = apply(state, action)
        if isinstance(action, Undo):
            hidden_after = earlier.pop()
        else:
            earlier.append(hidden)
            drew = isinstance(action, Take) and action.tile not in state.holding
            hidden_after = hidden[1:] if drew and action.source == "pool" else hidden
            assert not drew or action.source == "face-up" or action.tile == hidden[0]
        step = Step(state, hidden, action, after)
        the_rules_hold(step, hidden_after)
        steps.append(step)
        state, hidden = after, hidden_after
        assert len(steps) < 3000, "a game that never ends"
    return steps, document(players, [s.action for s in steps], **options)


@st.composite
def tables(draw) -> tuple[int, dict]:
    players = draw(st.integers(2, 6), label="players")
    options = {
        "blanks": draw(st.sampled_from(BLANKS), label="blanks"),
        **{name: draw(st.booleans(), label=name)
           for name in ("truck_template", "no_shift", "no_replace")},
    }  # fmt: skip
    return players, options


@given(tables(), st.data())
def test_random_honest_games_keep_every_tile_and_every_rule_and_replay_identically(table, data):
    players, options = table

    def pick(choices, label):
        return data.draw(st.sampled_from(list(choices)), label=label)

    def shuffle(items):
        return list(data.draw(st.permutations(items), label="shuffle"))

    steps, doc = honest_game(pick, shuffle, players, options)
    last = steps[-1].after
    assert last.result is not None and last.result.reason in (POOL_EMPTY, STALLED)
    running = [0] * players
    for step in steps:
        if isinstance(step.action, Undo):
            running = [r - p for r, p in zip(running, step.before.last_points, strict=True)]
        else:
            running = [r + p for r, p in zip(running, step.after.last_points, strict=True)]
    assert tuple(running) == last.totals
    match = replay(doc)
    assert match.rounds[0].state == last and match.totals == last.totals
    assert match.winner == last.champion
    first = export(match)
    logged = [0] * players
    for action in first["rounds"][0]["actions"]:
        for seat, points in action.get("points", {}).items():
            logged[int(seat)] += points
    assert tuple(logged) == last.totals
    assert first["rounds"][0]["result"]["reason"] == last.result.reason
    assert export(replay(first)) == first


@pytest.mark.parametrize("seed", range(3))
def test_seeded_games_of_six_end(seed):
    import random

    rng = random.Random(seed)

    def shuffle(items):
        rng.shuffle(items)
        return items

    steps, doc = honest_game(
        lambda choices, label: rng.choice(list(choices)), shuffle, 6, {"blanks": BLANKS[seed]}
    )
    assert steps[-1].after.result is not None
    assert export(replay(export(replay(doc)))) == export(replay(doc))


# -- legal_actions agrees with apply ---------------------------------------------------------


def candidates(state: TruckState, pick: Pick) -> set[Action]:
    """Actions worth asking about: every take of every tile, loads on every pair of cells,
    shifts of every size, unloads with every blank value, coins, and some swaps."""
    found: set[Action] = {Undo()}
    seats = range(state.seats + 1)  # one seat too many
    for seat in seats:
        for tile in SET:
            found |= {Take(seat, tile, "pool"), Take(seat, tile, "face-up")}
        found |= {Shift(seat, r, c) for r in range(-3, 4) for c in range(-4, 5)}
        found |= {Unload(seat, score, b) for score in (True, False) for b in (None, *range(7))}
        found |= {Flip((seat, other), w) for other in seats if other != seat
                  for w in (seat, other)}  # fmt: skip
    for seat in range(state.seats):
        held, truck = state.holding[seat], state.trucks[seat]
        tiles = [t for t in (held, pick(SET, "another tile")) if t is not None]
        pairs = [(a, b) for a in GRID for b in GRID] + [((0, 3), (0, 4)), ((2, 0), (3, 0))]
        for tile in tiles:
            found |= {Load(seat, tile, pair) for pair in pairs}
            found.add(Return(seat, tile))
            outs = (*truck.tiles, pick(SET, "an out"))
            for _ in range(12):
                cells = pick(pairs, "swap cells")
                to = pick((None, pick(pairs, "to")), "to or pool")
                found.add(Replace(seat, tile, cells, pick(outs, "out"), to))
            for p in truck.placed:  # the swaps legal_actions would list, and their neighbours
                emptied = truck.without(p.tile)
                for cells in emptied.placements()[:4]:
                    found.add(Replace(seat, tile, cells, p.tile))
                    after = emptied.with_tile(tile, cells)
                    found |= {Replace(seat, tile, cells, p.tile, to)
                              for to in after.placements()[:4]}  # fmt: skip
    return found


def as_listed(state: TruckState, action: Action) -> Action:
    """The form ``legal_actions`` lists an action in: a coin's seats in order, and, with wild
    blanks, an unload that does not score without a blank value (the value changes nothing)."""
    if isinstance(action, Flip):
        return Flip(tuple(sorted(action.seats)), action.first)
    if isinstance(action, Unload) and not action.score and state.options["blanks"] == "wild":
        return Unload(action.seat, False)
    return action


@settings(max_examples=max(10, settings.default.max_examples // 2))
@given(tables(), st.data())
def test_legal_actions_agrees_with_apply(table, data):
    players, options = table

    def pick(choices, label):
        return data.draw(st.sampled_from(list(choices)), label=label)

    def shuffle(items):
        return list(data.draw(st.permutations(items), label="shuffle"))

    most = data.draw(st.integers(0, 150), label="actions")
    steps, _ = honest_game(pick, shuffle, players, options, most)
    state = steps[-1].after if steps else start("dump-truck", options, NAMES[:players])
    legal = legal_actions(state)
    assert len(set(legal)) == len(legal)
    for action in legal:
        apply(state, action)  # raises if it is not legal after all
    legal = set(legal)
    for action in candidates(state, pick):
        if isinstance(action, Flip) and action.seats[0] == action.seats[1]:
            continue
        assert (as_listed(state, action) in legal) == (check(state, action) is None), action
