"""The referee's quick ``replace`` gives what ``dataclasses.replace`` gives, and falls back to
it wherever a value is not a plain frozen dataclass."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from functools import cached_property

import pytest

from referee import line
from referee.frozen import replace
from referee.tiles import Tile


@dataclass(frozen=True)
class Plain:
    a: int
    b: tuple[int, ...] = ()


@dataclass(frozen=True)
class Checked:
    a: int

    def __post_init__(self) -> None:
        if self.a < 0:
            raise ValueError("a < 0")


@dataclass(frozen=True)
class Cached:
    a: int

    @cached_property
    def double(self) -> int:
        return 2 * self.a


def test_a_state_replaced_is_the_state_dataclasses_would_make():
    state = line.start("draw", {}, ["Ana", "Ben"])
    quick = replace(state, turn=1, scores=(5, 0))
    slow = dataclasses.replace(state, turn=1, scores=(5, 0))
    assert quick == slow and type(quick) is type(slow) and quick is not state
    assert vars(quick) == vars(slow) and state.turn != 1  # the old state untouched
    with pytest.raises(dataclasses.FrozenInstanceError):
        quick.turn = 0


def test_a_plain_value_is_copied_with_the_changes_laid_over_it():
    assert replace(Plain(1, (2,)), a=3) == Plain(3, (2,))
    assert replace(Plain(1)) == Plain(1)


def test_every_other_value_goes_to_dataclasses_replace():
    with pytest.raises(ValueError):  # its __post_init__ still runs
        replace(Checked(1), a=-1)
    value = Cached(2)
    assert value.double == 4 and replace(value, a=5).double == 10  # not the cached 4
    assert replace(Tile(6, 5), low=6) == Tile(6, 6)  # slotted, and checked
    with pytest.raises(TypeError):  # a change that names no field
        replace(Plain(1), c=2)
