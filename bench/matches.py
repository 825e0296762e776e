"""Match documents for measuring: plain data, no Django (the query-count test uses them too)."""

from __future__ import annotations

import json


def tie_round() -> list[dict]:
    """A blocked round of Draw for four that nobody wins (a tie for lowest): 0 points."""
    return [
        {"type": "play", "seat": 0, "tile": "6-6"}, {"type": "draw", "seat": 1, "count": 12},
        {"type": "pass", "seat": 1}, {"type": "pass", "seat": 2}, {"type": "pass", "seat": 3},
        {"type": "pass", "seat": 0},
        {"type": "tally", "pips": {"0": 15, "1": 106, "2": 15, "3": 20}},
    ]  # fmt: skip


def long_match() -> dict:
    """A Draw match for four: 29 rounds played, and a 30th whose log holds 60 actions. Its
    next legal play is Ben's 6-5 on 6-6."""
    current = [{"type": "play", "seat": 0, "tile": "6-6"}]
    current += [{"type": "draw", "seat": 1, "count": 1}, {"type": "undo"}] * 29
    current += [{"type": "draw", "seat": 1, "count": 1}]
    return {
        "format": "boneyard-match/1", "game": "draw", "options": {"target": 200},
        "players": ["Ana", "Ben", "Caro", "Dan"],
        "rounds": [{"actions": tie_round()} for _ in range(29)] + [{"actions": current}],
    }  # fmt: skip


def havoc_long_match(least: int = 150) -> tuple[dict, dict]:
    """A Double Domino Havoc match for four whose round holds at least ``least`` actions
    (the boneyard long empty, discards taken back and forth), and the table form of a next
    legal tap: taking a discard. Played by a seeded random choice among legal actions."""
    import random

    from referee.actions import DrawFrom, Stop, Train, Undo
    from referee.games import havoc

    names = ["Ana", "Ben", "Caro", "Dan"]
    chance = random.Random(7)
    state = havoc.start("havoc", {}, names)
    actions: list[dict] = []
    while True:
        ready = state.doubles is None and state.step == havoc.DRAW and state.turn is not None
        if len(actions) >= least and ready and state.takeable(state.turn):
            other = state.takeable(state.turn)[0]
            tap = {"type": "draw", "seat": str(state.turn),
                   "from": f"{other}/{state.racks[other].slot}"}  # fmt: skip
            document = {"format": "boneyard-match/1", "game": "havoc", "players": names,
                        "rounds": [{"actions": actions}]}  # fmt: skip
            return document, tap
        legal = [
            a for a in havoc.legal_actions(state)
            if not isinstance(a, Undo | Stop | Train)
            and not (isinstance(a, DrawFrom) and a.tile is not None and a.tile.is_double)
        ]  # fmt: skip
        action = chance.choice(legal)
        state = havoc.apply(state, action)
        actions.append(action.to_dict())


def train_long_match(least: int = 60) -> tuple[dict, dict]:
    """A Mexican Train match for six on a double-12 set whose round holds at least
    ``least`` actions (the trains long, markers out, doubles covered), and the table form of
    a next legal play. Played by a seeded random choice among legal actions, plays first."""
    import random

    from referee.actions import Draw, TrainPlay
    from referee.games.trains import mexican_train

    names = ["Ana", "Ben", "Caro", "Dan", "Eve", "Finn"]
    chance = random.Random(11)
    state = mexican_train.start("mexican-train", {}, names)
    actions: list[dict] = [{"type": "engine", "seat": 0, "tile": "12-12"}]
    state = mexican_train.apply(state, mexican_train.Engine(0, state.engine))
    while True:
        legal = [a for a in mexican_train.legal_actions(state) if a.kind != "undo"]
        plays = [a for a in legal if isinstance(a, TrainPlay)]
        # Keep every hand above one tile, so the round goes on for as long as asked.
        plays = [a for a in plays if state.hands[a.seat] > 2]
        if len(actions) >= least and plays:
            tap = plays[0]
            document = {"format": "boneyard-match/1", "game": "mexican-train",
                        "players": names, "rounds": [{"actions": actions}]}  # fmt: skip
            train = "mexican" if tap.train == "mexican" else str(tap.train)
            return document, {"type": "play", "seat": str(tap.seat), "tile": str(tap.tile),
                              "target": train}  # fmt: skip
        choices = plays or [a for a in legal if isinstance(a, Draw)] or legal
        action = chance.choice(choices)
        state = mexican_train.apply(state, action)
        actions.append(action.to_dict())


def hostile_matches(most_bytes: int = 512 * 1024) -> dict[str, dict]:
    """Legal match documents as large as an import may be (512 KB), shaped to cost the most
    where a match is read whole (issue 28): every round a match may hold, each filled with
    the table's own entries: adjustments (a note each on the score sheet), or corrections
    of its tally (a note each, and the round replayed as corrected)."""
    from referee.document import MOST_ROUNDS

    lead = {"type": "play", "seat": 0, "tile": "6-6"}
    tally = {"type": "tally", "pips": {"1": 0}}  # Ben held the 0-0: nobody scores

    def adjust(i: int) -> dict:  # +1, -1 in turn for each seat: nobody nears the target
        return {"type": "adjust", "seat": i % 2, "points": -1 if i // 2 % 2 else 1,
                "reason": "x"}  # fmt: skip

    def correct(i: int) -> dict:
        return {"type": "correct", "at": 1, "replace": tally}

    def filled(entry, before: bool) -> dict:
        document = {"format": "boneyard-match/1", "game": "block",
                    "options": {"hand_size": 1, "target": 200}, "players": ["Ana", "Ben"],
                    "rounds": [{"actions": [lead, tally]}] * MOST_ROUNDS}  # fmt: skip
        room = (most_bytes - len(json.dumps(document))) // MOST_ROUNDS
        count = room // (len(json.dumps(entry(0))) + 2)
        extra = [entry(i) for i in range(count)]
        log = extra + [lead, tally] if before else [lead, tally] + extra
        return {**document, "rounds": [{"actions": log}] * MOST_ROUNDS}

    return {"adjustments": filled(adjust, before=True), "corrections": filled(correct, False)}
