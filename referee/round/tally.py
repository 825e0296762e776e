"""The tally's shared checks, and settling a match where the lowest total wins."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from referee.frozen import replace
from referee.said import Said, counted, listed, tiles
from referee.tiles import Tile


def lowest(pips: Sequence[int]) -> int | None:
    """The seat with the fewest pips, None on a tie (``train.score``, ``havoc.win``).

    >>> lowest((12, 3, 7)), lowest((3, 3, 7))
    (1, None)
    """
    low = min(pips)
    seats = [s for s, p in enumerate(pips) if p == low]
    return seats[0] if len(seats) == 1 else None


def settle_lowest(state: Any) -> Any:
    """Once the match is over, the lowest total wins it; a tie at the bottom is shared."""
    if not state.match_over:
        return state
    totals = state.totals
    low = min(totals)
    leaders = tuple(s for s, t in enumerate(totals) if t == low)
    winner = leaders[0] if len(leaders) == 1 else None
    return replace(state, champion=winner, shared=leaders if winner is None else ())


def lowest_wins(state: Any, how: Said) -> Said:
    """How a match the lowest total wins ended, in the players' words: ``how`` it ended,
    and who has the lowest total (or shares it)."""
    if state.champion is not None:
        how = Said(
            "{how}, and {who} has the lowest total ({total})",
            how=how,
            who=state.names[state.champion],
            total=state.totals[state.champion],
        )
    elif state.shared:
        how = Said(
            "{how}, and {who} share the lowest total ({total})",
            how=how,
            who=listed([state.names[s] for s in state.shared]),
            total=state.totals[state.shared[0]],
        )
    return Said("The match is over: {how}", how=how)


def agreed_rounds(rounds: int) -> Said:
    """How a match of an agreed number of rounds ended, in the players' words."""
    if rounds == 1:
        return Said("the one agreed round is played")
    return Said("all {rounds} agreed rounds are played", rounds=rounds)


def say_what(missing: Sequence[str]) -> Said:
    """``tally.hands``: the seats that have not said what they hold; the verb agrees with
    how many they are."""
    return counted(
        "Say what {who} still holds.", "Say what {who} still hold.", len(missing),
        who=listed(missing),
    )  # fmt: skip


def not_in_set(tile: Tile, top: int) -> Said:
    """``set.tiles``: a declared tile the match's set does not have."""
    return Said("{tile} is not in a double-{top} set.", tile=tile, top=top)


def on_the_table(tile: Tile, who: str) -> Said:
    """``set.unique``: a tile declared in a hand that lies on the table."""
    return Said("{tile} is on the table, not in {who}'s hand.", tile=tile, who=who)


def declared_twice(tile: Tile, who: str) -> Said:
    """``set.unique``: a tile declared twice in one hand."""
    return Said(
        "{tile} is declared twice in {who}'s hand; each tile exists once.", tile=tile, who=who
    )


def wrong_count(who: str, should: int, held: int) -> Said:
    """``hand.count``, ``tally.hands``: a hand declared with more or fewer tiles than its seat
    holds, in every game's tally the same words."""
    return Said(
        "{who} should hold {should}, not {held}.", who=who, should=tiles(should), held=tiles(held)
    )
