"""A second judge of Dominó (RULES.md §11), written from the rulebook's words alone, and a
random full-match generator.

It shares nothing with the engine's ``referee.games.line.scoring.parejas``: it keeps its own line
(two open ends: the styles play no spinners), its own hands and its own reading of every
``parejas.*`` rule, so a test can replay the generated document through the engine and ask
both for the same bonuses, results, leaders and totals.

The generator deals a real shuffled set and plays the hands the way a table does: the
leader the rules name leads (the 6-6, the highest double, or the table's choice), every
seat plays a tile that fits or knocks, now and then a seat knocks while holding a tile that
fitted (the tally's audit finds it), a Cuban seat dealt five doubles shows them, and a
keeper calls Time.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

PAIR = {0: (0, 2), 1: (1, 3), 2: (0, 2), 3: (1, 3)}


def tiles_of(top: int) -> list[tuple[int, int]]:
    return [(a, b) for a in range(top + 1) for b in range(a + 1)]


def name(tile: tuple[int, int]) -> str:
    return f"{max(tile)}-{min(tile)}"


def pips(hand) -> int:
    return sum(a + b for a, b in hand)


@dataclass
class Line:
    """The open ends of a plain line: [shows, tile at that end] for each of two ends."""

    top: int
    ends: list = field(default_factory=list)
    down: list = field(default_factory=list)

    def lead(self, tile):
        self.ends = [[tile[0], tile], [tile[1], tile]]
        self.down.append(tile)

    def fits(self, tile) -> list[int]:
        return [i for i, (n, _) in enumerate(self.ends) if n in tile]

    def play(self, tile, end: int):
        n, _ = self.ends[end]
        other = tile[1] if tile[0] == n else tile[0]
        self.ends[end] = [other, tile]
        self.down.append(tile)

    def dead(self) -> bool:
        """Every open end shows a number all of whose tiles are down."""
        return all(sum(1 for t in self.down if n in t) == self.top + 1 for n, _ in self.ends)


@dataclass
class Judged:
    """What the oracle says of one round."""

    bonuses: list  # per action: a list of (kind, team, points)
    winner: int | None  # the winning seat
    points: list  # per seat, everything the round scored
    reason: str
    records: list  # per seat, the oracle's counts
    leader: int | None = None  # who led


RECORD_KEYS = (
    "capicua", "chuchazo", "pase_given", "pase_suffered", "paso_corrido", "tranque_made",
    "tranque_won", "pollona",
)  # fmt: skip


def judge_round(options: dict, actions: list, hands0: list, hand_number: int) -> Judged:
    """Every parejas.* rule of one round, from its actions and the hands really dealt."""
    top = options["set"]
    line = Line(top)
    hands = [list(h) for h in hands0]
    bonuses: list = [[] for _ in actions]
    points = [0] * 4
    records = [[0] * len(RECORD_KEYS) for _ in range(4)]
    knocks_in_row: list = []  # (index, seat) since the last play
    last_player = None
    owed = None  # (seat, [knock indexes])
    earned = []  # (kind, seat, points, [knock indexes], [knock seats])
    false_knocks = set()
    knocked_at: list = []  # (index, seat, the numbers the ends showed)
    leader = None
    ended = None

    def count(key, seat, n=1):
        records[seat][RECORD_KEYS.index(key)] += n

    def give(i, kind, seat, p):
        points[seat] += p
        if p:
            bonuses[i].append((kind, PAIR[seat][0], p))

    for i, a in enumerate(actions):
        kind = a["type"]
        if kind == "redeal":
            return Judged(bonuses, None, points, "redeal", records)
        if kind == "time":
            continue
        if kind == "play":
            seat = a["seat"]
            tile = tuple(int(x) for x in a["tile"].split("-"))
            if not line.down:
                leader = seat
                line.lead(tile)
            else:
                on = tuple(int(x) for x in a["on"].split("-"))
                end = next(j for j in line.fits(tile) if line.ends[j][1] == on)
                ends_before = [n for n, _ in line.ends]
                line.play(tile, end)
            hands[seat].remove(tile)
            if owed is not None and owed[0] == seat:
                count("paso_corrido", seat)
                give(i, "paso-corrido", seat, options["paso_corrido_bonus"])
                earned.append(
                    ("paso-corrido", seat, options["paso_corrido_bonus"], owed[1], owed[2])
                )
            owed = None
            last_player, knocks_in_row = seat, []
            if not hands[seat]:
                ended = "domino"
                a_, b_ = ends_before
                if a_ != b_ and tile[0] != tile[1] and set(tile) == {a_, b_}:
                    count("capicua", seat)
                    give(i, "capicua", seat, options["capicua_bonus"])
                if tile == (0, 0):
                    count("chuchazo", seat)
                    give(i, "chuchazo", seat, options["chuchazo_bonus"])
            elif line.dead():
                ended = "blocked"
        elif kind == "pass":
            seat = a["seat"]
            # tally.audit sees the hands at the end: a tile still held then that fitted now.
            knocked_at.append((i, seat, [n for n, _ in line.ends]))
            knocks_in_row.append((i, seat))
            if len(line.down) == 1 and len(knocks_in_row) == 1:
                count("pase_given", leader)
                count("pase_suffered", seat)
                lead = line.down[0]
                p = options["pase_salida_double" if lead[0] == lead[1] else "pase_salida_other"]
                give(i, "pase", leader, p)
                earned.append(("pase", leader, p, [i], [seat]))
            if len(knocks_in_row) == 3:
                owed = (last_player, [k for k, _ in knocks_in_row], [s for _, s in knocks_in_row])
            if len(knocks_in_row) == 4:
                ended, owed = "blocked", None
        elif kind == "tally":
            held = {int(s): [tuple(int(x) for x in t.split("-")) for t in ts]
                    for s, ts in a["hands"].items()}  # fmt: skip
            for s in range(4):
                held.setdefault(s, [])
            left = [pips(held[s]) for s in range(4)]
            for k, seat, ends in knocked_at:
                if any(n in t for t in held[seat] for n in ends):
                    false_knocks.add(k)
            winner = None
            if ended == "domino":
                winner = next(s for s in range(4) if not held[s])
                others = [s for s in range(4) if s != winner and
                          (options["count_all_hands"] or s not in PAIR[winner])]  # fmt: skip
                points[winner] += sum(left[s] for s in others)
            else:
                locker = last_player
                count("tranque_made", locker)
                pair = None
                mode = options["tranque"]
                if mode == "teams":
                    a0, a1 = left[0] + left[2], left[1] + left[3]
                    pair = (0, 2) if a0 < a1 else (1, 3) if a1 < a0 else None
                elif mode == "locker":
                    nxt = (locker + 1) % 4
                    if left[locker] < left[nxt]:
                        pair = PAIR[locker]
                    elif left[nxt] < left[locker]:
                        pair = PAIR[nxt]
                else:
                    low = min(left)
                    pairs = {PAIR[s] for s in range(4) if left[s] == low}
                    pair = pairs.pop() if len(pairs) == 1 else None
                if pair is None and options["tranque_tie"] == "locker":
                    pair = PAIR[locker]
                if pair is not None:
                    if locker in pair:
                        winner = locker
                    else:
                        winner = pair[0] if left[pair[0]] <= left[pair[1]] else pair[1]
                    count("tranque_won", winner)
                    if options["tranque_count"] == "all":
                        points[winner] += sum(left)
                    else:
                        points[winner] += sum(left[s] for s in range(4) if s not in pair)
                    give(i, "tranque", winner, options["tranque_bonus"])
            if winner is not None:
                hb = options["hand_bonus"]
                give(i, "hand", winner, hb[hand_number] if hand_number < len(hb) else 0)
            for kind_, seat_, p, knocks, knocked in earned:
                bad = [k for k in knocks if k in false_knocks]
                if bad:
                    if kind_ == "pase":
                        count("pase_given", seat_, -1)
                        count("pase_suffered", knocked[0], -1)
                    else:
                        count("paso_corrido", seat_, -1)
                    give(i, kind_, seat_, -p)
            return Judged(bonuses, winner, points, ended, records, leader)
    return Judged(bonuses, None, points, ended or "open", records, leader)


# -- the generator ---------------------------------------------------------------------------


def first_leader(options: dict, hands: list, chance: random.Random) -> tuple[int, tuple | None]:
    """Who leads the first hand, and the tile they must lead (None: any)."""
    top = options["set"]
    rule = options["first_lead"]
    if rule == "any":
        return chance.randrange(4), None
    doubles = [(s, t) for s in range(4) for t in hands[s] if t[0] == t[1]]
    if rule == "double-six" and any(t == (top, top) for _, t in doubles):
        return next(s for s, t in doubles if t == (top, top)), (top, top)
    seat, tile = max(doubles, key=lambda st: st[1][0])
    return seat, tile


def generate(style: str, options: dict, seed: int, most_hands: int = 8) -> tuple[dict, list]:
    """A match document of ``style`` played at random by honest seats (and now and then a
    false knock), and the hands dealt in each round."""
    chance = random.Random(seed)
    top = options["set"]
    each = 7 if top == 6 else 10
    rounds, dealt = [], []
    totals = [0, 0]
    leader = None
    pair = None
    first = True
    time_at = None
    if options["time_limit"] and chance.random() < 0.6:
        time_at = (chance.randrange(most_hands), chance.random() < 0.3)  # hand, between hands
    hand_no = 0
    extra = False
    timed = False
    for number in range(most_hands):
        tiles = tiles_of(top)
        chance.shuffle(tiles)
        hands = [tiles[s * each : (s + 1) * each] for s in range(4)]
        while (
            first
            and options["first_lead"] != "any"
            and not any(t[0] == t[1] for h in hands for t in h)
        ):  # no double dealt to lead: the table shuffles again
            chance.shuffle(tiles)
            hands = [tiles[s * each : (s + 1) * each] for s in range(4)]
        dealt.append([list(h) for h in hands])
        actions: list = []
        if time_at is not None and time_at[0] == number and time_at[1]:
            actions.append({"type": "time"})
            timed = True
            a, b = totals
            if a != b and not extra:
                rounds.append({"actions": actions})
                return _doc(style, options, rounds), dealt
            extra = True
        if options["five_doubles"]:
            showing = [s for s in range(4) if sum(1 for t in hands[s] if t[0] == t[1]) >= 5]
            if showing and chance.random() < 0.7:
                s = showing[0]
                doubles = [name(t) for t in hands[s] if t[0] == t[1]]
                actions.append({"type": "redeal", "seat": s, "doubles": doubles})
                rounds.append({"actions": actions})
                continue
        lead_tile = None
        if first:
            seat, lead_tile = first_leader(options, hands, chance)
        elif pair is not None:
            seat = chance.choice(pair)
        else:
            seat = leader
        line = Line(top)
        held = [list(h) for h in hands]
        tile = lead_tile or chance.choice(held[seat])
        line.lead(tile)
        held[seat].remove(tile)
        actions.append({"type": "play", "seat": seat, "tile": name(tile)})
        led = seat
        turn, in_row, ended = (seat + 1) % 4, 0, None
        call_time = time_at is not None and time_at[0] == number and not time_at[1]
        while ended is None:
            if call_time and chance.random() < 0.1:
                actions.append({"type": "time"})
                call_time, timed = False, True
            fitting = [(t, j) for t in held[turn] for j in line.fits(t)]
            if fitting and chance.random() > 0.03:
                t, j = chance.choice(fitting)
                on = line.ends[j][1]
                line.play(t, j)
                held[turn].remove(t)
                actions.append({"type": "play", "seat": turn, "tile": name(t), "on": name(on)})
                in_row = 0
                if not held[turn]:
                    ended = "domino"
                elif line.dead():
                    ended = "blocked"
            else:
                actions.append({"type": "pass", "seat": turn})
                in_row += 1
                if in_row == 4:
                    ended = "blocked"
            turn = (turn + 1) % 4
        if call_time:
            actions.append({"type": "time"})
            timed = True
        actions.append(
            {"type": "tally", "hands": {str(s): [name(t) for t in held[s]] for s in range(4)}}
        )
        rounds.append({"actions": actions})
        judged = judge_round(options, actions, hands, hand_no)
        hand_no += 1
        first = False
        for s in range(4):
            totals[s % 2] += judged.points[s]
        won = judged.winner
        rule = options["next_lead"]
        pair = None
        if rule == "winner" and won is not None:
            leader = won
        elif rule == "winning-team" and won is not None:
            pair = PAIR[won]
        else:
            leader = (led + 1) % 4
        verdict = match_verdict(totals, options["target"], timed, extra)
        if verdict in ("win", "draw"):
            break
        extra = verdict == "extra"
    return _doc(style, options, rounds), dealt


def match_verdict(totals, target, timed, extra) -> str:
    """parejas.target and parejas.time, as the oracle reads them."""
    a, b = totals
    if extra:
        return "draw" if a == b else "win"
    if timed:
        return "extra" if a == b else "win"
    if max(a, b) >= target:
        if a == b:
            return "extra"
        return "win"
    return "on"


def _doc(style: str, options: dict, rounds: list) -> dict:
    return {
        "format": "boneyard-match/1",
        "game": style,
        "options": {k: (list(v) if isinstance(v, tuple) else v) for k, v in options.items()},
        "players": ["Ana", "Ben", "Caro", "Dan"],
        "rounds": rounds,
    }


def judge_match(options: dict, doc: dict, dealt: list) -> dict[str, Any]:
    """The whole match as the oracle scores it: each round judged, the totals by seat, the
    winner (a pair's first seat), a draw, and the records."""
    totals = [0] * 4
    judged = []
    hand_no = 0
    timed = extra = False
    verdict = "on"
    records = [[0] * len(RECORD_KEYS) for _ in range(4)]
    for r, data in enumerate(doc["rounds"]):
        acts = data["actions"]
        if any(a["type"] == "time" for a in acts):
            timed = True
        played = any(a["type"] == "play" for a in acts)
        if acts and acts[0]["type"] == "time" and not extra:
            pair_totals = [totals[0] + totals[2], totals[1] + totals[3]]
            if pair_totals[0] != pair_totals[1]:
                verdict = "win"
                judged.append(Judged([[]], None, [0] * 4, "time", [[0] * 8 for _ in range(4)]))
                break
            extra = True
        j = judge_round(options, acts, dealt[r], hand_no)
        judged.append(j)
        if j.reason == "redeal":
            continue
        hand_no += 1 if played else 0
        for s in range(4):
            totals[s] += j.points[s]
            for k in range(len(RECORD_KEYS)):
                records[s][k] += j.records[s][k]
        pair_totals = [totals[0] + totals[2], totals[1] + totals[3]]
        verdict = match_verdict(pair_totals, options["target"], timed, extra)
        if verdict in ("win", "draw"):
            break
        extra = verdict == "extra"
    pair_totals = [totals[0] + totals[2], totals[1] + totals[3]]
    winner = None
    if verdict == "win":
        winner = 0 if pair_totals[0] > pair_totals[1] else 1
        loser = 1 - winner
        if pair_totals[loser] == 0:
            for s in PAIR[winner]:
                records[s][RECORD_KEYS.index("pollona")] += 1
    return {
        "rounds": judged,
        "totals": totals,
        "winner": winner,
        "draw": verdict == "draw",
        "records": records,
    }
