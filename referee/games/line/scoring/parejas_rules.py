"""Dominó's values and rules as pure functions (RULES.md §11, ``parejas.*``): the hand's
facts, the bonuses, who wins a tranque, what a hand scores, the records. Plain values in,
plain values out, so a second judge can check them without a round's state; the family in
:mod:`referee.games.line.scoring.parejas` applies them to a round.

>>> tranque_winner((10, 7, 3, 9), locker=2, mode="teams", tie="none")
((0, 2), 'teams')
>>> capicua(Tile.parse("5-3"), (3, 5)), capicua(Tile.parse("5-3"), (3, 3))
(True, False)
>>> winning_seat((1, 3), (10, 7, 3, 7), locker=2)
1
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.errors import IllegalAction
from referee.frozen import replace
from referee.said import Said
from referee.teams import PAIRS, Team
from referee.tiles import Tile

#: A round's result reason: a seat showed five doubles and the hand was dealt again.
REDEAL = "redeal"
#: A round's result reason: time was called between hands and the match ended there.
TIME = "time"

#: What parejas.records counts for each seat, in the order the score sheet shows it.
RECORDS = (
    "capicua", "chuchazo", "pase_given", "pase_suffered", "paso_corrido", "tranque_made",
    "tranque_won", "pollona",
)  # fmt: skip

#: Each bonus's rule, by what earned it (the export's ``kind``).
RULE = {
    "capicua": "parejas.capicua", "chuchazo": "parejas.chuchazo", "pase": "parejas.pase",
    "paso-corrido": "parejas.pase", "tranque": "parejas.tranque-bonus",
    "hand": "parejas.hand-bonus",
}  # fmt: skip


# -- the values ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Bonus:
    """A bonus scored on the action that earned it (negative: taken back by the audit).
    ``seat`` is credited (its pair scores it); the export names the pair by its first seat."""

    kind: str  # a key of RULE
    seat: int
    points: int

    @property
    def rule(self) -> str:
        return RULE[self.kind]

    @property
    def team(self) -> int:
        return pair_of(self.seat)[0]

    def to_dict(self) -> dict[str, Any]:
        return {"rule": self.rule, "kind": self.kind, "team": self.team, "points": self.points}


@dataclass(frozen=True, slots=True)
class Earned:
    """A bonus earned by knocks, kept so the tally's audit can take it back (``parejas.pase``)."""

    bonus: Bonus
    knocks: tuple[int, ...]  # the log entries of the knocks that earned it
    knocked: tuple[int, ...]  # their seats


@dataclass(frozen=True, slots=True)
class Audit:
    """What the tally's audit found about a Dominó hand (read as the line's findings are)."""

    rule: str
    action: int  # the log entry it concerns
    seat: int
    message: Said


@dataclass(frozen=True)
class Hand:
    """What a Dominó hand knows besides the line's state. ``carry`` is what it started from
    (:meth:`Parejas.carry` hands it on)."""

    number: int = 0  # hands played before this one that count for hand_bonus
    first: bool = True  # led as the first hand (first_lead), not by next_lead
    pair: tuple[int, ...] = ()  # winning-team: the seats that may lead; () anyone
    proposed: int | None = None  # the seat the referee proposes to lead
    extra: bool = False  # this is the one extra hand (parejas.target, parejas.time)
    time: bool = False  # time has been called (parejas.time)
    locker: int | None = None  # the seat of the last play: it locks a tranque
    lead_at: int = 0  # the log entry of the lead (the first hand's audit names it)
    owed: tuple[int, tuple[int, ...], tuple[int, ...]] | None = None  # paso corrido: seat, knocks
    earned: tuple[Earned, ...] = ()
    last_bonus: tuple[Bonus, ...] = ()  # what the last action scored as bonuses
    records: tuple[tuple[int, ...], ...] = ((0,) * len(RECORDS),) * 4  # by seat, RECORDS order
    settled: Said = field(default=Said(""), compare=False)  # how a tranque was settled
    extra_next: bool = False  # the next hand is the one extra hand
    ended_by: str = ""  # how the match ended: target, time or draw

    @classmethod
    def from_carry(cls, carry: Mapping[str, Any] | None) -> Hand:
        if not carry:
            return cls()
        return cls(
            number=int(carry["hand"]), first=bool(carry["first"]), pair=tuple(carry["pair"]),
            proposed=carry["proposed"], extra=bool(carry["extra"]), time=bool(carry["time"]),
        )  # fmt: skip

    def as_carry(self) -> dict[str, Any]:
        return {
            "hand": self.number, "first": self.first, "pair": list(self.pair),
            "proposed": self.proposed, "extra": self.extra, "time": self.time,
        }  # fmt: skip

    def counted(self, key: str, seat: int, n: int = 1) -> Hand:
        """The records with ``n`` more of ``key`` for ``seat``."""
        at = RECORDS.index(key)
        records = tuple(
            tuple(c + n if (s, k) == (seat, at) else c for k, c in enumerate(row))
            for s, row in enumerate(self.records)
        )
        return replace(self, records=records)


# -- the rules, as pure functions ---------------------------------------------------------


def pair_of(seat: int) -> Team:
    """``team.seats``: 0 and 2 against 1 and 3."""
    return PAIRS[seat % 2]


def capicua(tile: Tile, ends: Sequence[int]) -> bool:
    """``parejas.capicua``: the last tile fits both open ends, which show different numbers,
    and is not a double."""
    return (
        len(ends) == 2 and ends[0] != ends[1] and not tile.is_double
        and {tile.high, tile.low} == set(ends)
    )  # fmt: skip


def chuchazo(tile: Tile) -> bool:
    """``parejas.chuchazo``: the 0-0 is the last tile of a hand won by domino."""
    return tile == Tile(0, 0)


def tranque_winner(
    pips: Sequence[int], locker: int | None, mode: str, tie: str
) -> tuple[Team | None, str]:
    """``parejas.tranque`` and ``parejas.tranque-tie``: the pair that wins a blocked hand (None:
    nobody) and how it was settled: ``teams``, ``locker``, ``lowest-hand`` or ``tie``."""
    winner: Team | None = None
    if mode == "teams":
        a, b = (sum(pips[s] for s in pair) for pair in PAIRS)
        winner = PAIRS[0] if a < b else PAIRS[1] if b < a else None
    elif mode == "locker" and locker is not None:
        answer = (locker + 1) % 4  # the opponent who could not answer
        if pips[locker] != pips[answer]:
            winner = pair_of(min((locker, answer), key=lambda s: pips[s]))
    elif mode == "lowest-hand":
        least = min(pips)
        pairs = {pair_of(s) for s in range(4) if pips[s] == least}
        winner = pairs.pop() if len(pairs) == 1 else None
    if winner is not None:
        return winner, mode
    if tie == "locker" and locker is not None:
        return pair_of(locker), "tie"
    return None, "tie"


def winning_seat(pair: Team, pips: Sequence[int], locker: int | None) -> int:
    """``parejas.lead``: after a tranque, the locker if its pair won, else the seat of the
    winning pair holding fewer pips (the pair's first seat when they hold as many)."""
    if locker in pair:
        return locker
    return min(pair, key=lambda s: (pips[s], s))


def domino_points(pips: Sequence[int], seat: int, all_hands: bool) -> int:
    """``parejas.domino``: the opponents' pips, or with count_all_hands all three others'."""
    return sum(p for s, p in enumerate(pips) if s != seat and (all_hands or s not in pair_of(seat)))


def tranque_points(pips: Sequence[int], pair: Team, count: str) -> int:
    """``parejas.tranque``: the losers' pips, or with tranque_count ``all`` every pip left."""
    return sum(p for s, p in enumerate(pips) if count == "all" or s not in pair)


def hand_bonus(number: int, bonuses: Sequence[int]) -> int:
    """``parejas.hand-bonus``: what the winners of the hand after ``number`` counted hands
    score on top."""
    return bonuses[number] if number < len(bonuses) else 0


def pase_points(lead: Tile, options: Mapping[str, Any]) -> int:
    """``parejas.pase``: the pase de salida, by whether the lead was a double."""
    return options["pase_salida_double" if lead.is_double else "pase_salida_other"]


def outcome(totals: Sequence[int], target: int, time: bool, extra: bool) -> tuple[str, int | None]:
    """After a hand: ``on``, ``win`` (with the winning pair's index), ``extra`` (one more
    hand) or ``draw``, from the pairs' totals (``parejas.target``, ``parejas.time``)."""
    a, b = totals
    ahead = 0 if a > b else 1 if b > a else None
    if extra:
        return ("draw", None) if ahead is None else ("win", ahead)
    if time or max(a, b) >= target:
        if ahead is not None:
            return "win", ahead
        return ("extra", None) if time or min(a, b) >= target else ("on", None)
    return "on", None


def lead_refusal(
    tile: Tile, top: int, first: str | None, seat_name: str, named: Said
) -> IllegalAction | None:
    """``parejas.lead`` on the first hand's lead tile: with ``double-six`` or
    ``highest-double`` in a double-6 set every tile is dealt, so the 6-6 leads; with a
    double-9 set a double leads (which one the tally's audit checks)."""
    if first not in ("double-six", "highest-double"):
        return None
    if top == 6 and tile != Tile(6, 6):
        return IllegalAction(
            "parejas.lead",
            Said(
                "In {game} the first hand is led with the 6-6, by the seat holding it; "
                "{who} cannot lead {tile}.",
                game=named, who=seat_name, tile=tile,
            ),
        )  # fmt: skip
    if not tile.is_double:
        return IllegalAction(
            "parejas.lead",
            Said(
                "In {game} the first hand is led with the highest double dealt ({top}-{top} if "
                "it was dealt); {who} cannot lead {tile}.",
                game=named, top=top, who=seat_name, tile=tile,
            ),
        )  # fmt: skip
    return None


def higher_double(lead: Tile, seen: Sequence[Tile]) -> Tile | None:
    """The first-hand audit (``parejas.lead``): a double higher than the lead that was dealt
    after all (played later, or left in a hand)."""
    higher = [t for t in seen if t.is_double and t.high > lead.high]
    return max(higher, key=lambda t: t.high) if higher else None


def records(hands: Sequence[Hand], totals: Sequence[int], winner: int | None) -> list[list[int]]:
    """``parejas.records``: each seat's counts over the match's hands, with a pollona for each
    seat of a pair that won while the losers ended with 0."""
    out = [[0] * len(RECORDS) for _ in range(4)]
    for hand in hands:
        for seat, row in enumerate(hand.records):
            for k, n in enumerate(row):
                out[seat][k] += n
    if winner is not None:
        won = pair_of(winner)
        lost = pair_of(won[0] + 1)
        if sum(totals[s] for s in lost) == 0:
            for seat in won:
                out[seat][RECORDS.index("pollona")] += 1
    return out
