"""Every game's verdicts, written down: seeded random matches of every preset, played
through the referee's public API, with each step's legal actions, a few refusals (their
rule, template and parameters), every total and the match's export.

The file ``snapshots/verdicts.txt`` is what the referee said the last time it was meant
to: a change that moves code around must leave it byte-identical, and a change that means
to alter a wording or a verdict regenerates it in the same commit
(``BONEYARD_UPDATE_SNAPSHOT=1 pytest tests/referee/test_snapshot.py``), so the diff shows
exactly what changed.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

import pytest

from referee.actions import Abandon, Action, Adjust, Stop, Tally
from referee.document import export, replay
from referee.errors import RefereeError
from referee.games import engine
from referee.rulebook import PRESETS, preset
from referee.said import Said
from referee.tiles import DominoSet, Tile

SNAPSHOT = Path(__file__).parent / "snapshots" / "verdicts.txt"
MATCHES = 2  # per preset
MOST_ROUNDS = 2  # then the table stops the match: the totals decide
MOST_STEPS = 90  # a round's actions before the table abandons it
NAMES = ("Ana", "Ben", "Caro", "Dov", "Eli", "Fay", "Gus", "Hal")


def shown(value: Any) -> Any:
    """A value as plain data, a saying with its template and parameters."""
    if isinstance(value, Said):
        out: dict[str, Any] = {"t": value.template}
        if value.params:
            out["p"] = {k: shown(v) for k, v in sorted(value.params.items())}
        if value.plural:
            out["n"] = list(value.plural)
        return out
    if isinstance(value, Tile):
        return str(value)
    if isinstance(value, tuple | list):
        return [shown(v) for v in value]
    if isinstance(value, dict):
        return {str(k): shown(v) for k, v in value.items()}
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    return repr(value)


def said(error: RefereeError) -> str:
    return json.dumps([type(error).__name__, error.rule, shown(error.message)], sort_keys=True)


def action_text(action: Action) -> str:
    return json.dumps(action.to_dict(), sort_keys=True)


def listed(legal: tuple[Action, ...]) -> str:
    """The legal actions, in full where they are few, else counted and fingerprinted (the
    file stays small; a change still shows, at its step)."""
    texts = sorted(map(action_text, legal))
    if len(texts) <= 8:
        return " ".join(texts)
    return f"{len(texts)} sha1:{hashlib.sha1(chr(10).join(texts).encode()).hexdigest()[:16]}"


def unseen(state: Any) -> tuple[Tile, ...]:
    """The tiles the table has not seen: what the seats' hands and the stock hold."""
    if hasattr(state, "unseen"):
        found = state.unseen
        return tuple(found() if callable(found) else found)
    return tuple(t for t in DominoSet(state.top).tiles if t not in state.layout)


def wrong(state: Any, action: Action, rng: random.Random) -> list[Action]:
    """A few actions like ``action`` that should be refused: from no such seat, from
    another seat, with a tile on the table, with an unseen tile where it may not go."""
    names = {f.name for f in fields(action)}
    out: list[Action] = []
    if "seat" in names:
        out.append(replace(action, seat=state.seats))
        out.append(replace(action, seat=(action.seat + 1) % state.seats))
    if "tile" in names:
        hidden = unseen(state)
        seen = [t for t in DominoSet(getattr(state, "top", 6)).tiles if t not in hidden]
        for pool in (seen, hidden):
            if pool:
                tile = rng.choice(pool)
                lead = {"lead": tile.high} if "lead" in names else {}
                out.append(replace(action, tile=tile, **lead))
    return out


def tally(state: Any, rng: random.Random) -> list[Action]:
    """Tallies a table might send at a round's end: the unseen tiles dealt back to the
    seats as their hand counts say, and the same by pips."""
    counts = getattr(state, "hands", None)
    hidden = list(unseen(state))
    rng.shuffle(hidden)
    if not isinstance(counts, tuple):
        return [Tally(pips=tuple((s, 0) for s in range(state.seats)))]
    hands, at = [], 0
    for seat, n in enumerate(counts):
        hands.append((seat, tuple(hidden[at : at + n])))
        at += n
    pips = tuple((s, sum(t.high + t.low for t in h)) for s, h in hands)
    return [Tally(hands=tuple(hands)), Tally(pips=pips)]


# How often a random table does each kind of thing: mostly it lays tiles, so rounds end.
_SELDOM = {
    "stop": 0,
    "abandon": 0,
    "adjust": 0,
    "undo": 0.2,
    "draw": 2,
    "pass": 1,
    "declare": 2,
    "muggins": 1,
    "challenge": 1,
}


def choose(legal: tuple[Action, ...], rng: random.Random) -> list[Action]:
    """The actions of one kind, picked as a table would: mostly a tile laid, a draw of one
    tile; an undo now and then, and only when nothing else is legal."""
    kinds: dict[str, list[Action]] = {}
    for action in legal:
        if getattr(action, "count", 1) == 1:
            kinds.setdefault(action.kind, []).append(action)
    if set(kinds) <= {"undo"}:  # the round is over: it is tallied (now and then undone)
        return kinds["undo"] if kinds and rng.random() < 0.1 else []
    names = [k for k in sorted(kinds) if _SELDOM.get(k, 10)]
    if not names:
        return []
    kind = rng.choices(names, weights=[_SELDOM.get(k, 10) for k in names])[0]
    return kinds[kind]


def give_up(rules: Any, state: Any) -> Action:
    """What a table does with a round that goes nowhere: abandons it, or where a game is
    one round, stops the match."""
    return Abandon("stuck") if rules.check(state, Abandon("stuck")) is None else Stop()


def play_match(slug: str, seed: int) -> list[str]:
    rng = random.Random(f"{slug}/{seed}")
    game = preset(slug)
    rules = engine(slug)
    low, high = game.players
    players = list(NAMES[: rng.randint(low, high)])
    given: dict[str, Any] = {}
    for option in game.options:
        if rng.random() < 0.3:
            given[option.name] = rng.choice(option.choices or (True, False))
    lines = [
        f"== {slug} seed {seed} players {len(players)} given {json.dumps(given, sort_keys=True)}"
    ]
    try:
        options = rules.options_for(slug, given, len(players))
    except RefereeError as error:
        lines.append(f"options refused {said(error)}")
        given = {"set": 12} if slug == "chicken-foot" else {}
        lines.append(f"given {json.dumps(given, sort_keys=True)}")
        options = rules.options_for(slug, given, len(players))
    lines.append(f"options {json.dumps(options, sort_keys=True, default=str)}")
    rounds: list[dict[str, Any]] = []
    leader, base, carry = None, None, None
    for number in range(1, MOST_ROUNDS + 1):
        kwargs: dict[str, Any] = {"leader": leader, "carry": carry}
        if base is not None:
            kwargs["base"] = base
        state = rules.start(slug, options, players, **kwargs)
        log: list[Action] = []
        lines.append(f"-- round {number}")
        for step in range(MOST_STEPS):
            if state.result is not None:
                break
            legal = rules.legal_actions(state)
            lines.append(f"{step} legal {listed(legal)}")
            moves = choose(legal, rng) or tally(state, rng)
            if step == MOST_STEPS - 1:
                moves = [give_up(rules, state)]
            elif rng.random() < 0.01:
                moves = [Adjust(rng.randrange(state.seats), rng.choice((-5, 5)), "a slip")]
            action = rng.choice(moves)
            for probe in wrong(state, action, rng):
                try:
                    rules.apply(state, probe)
                    verdict = "accepted"
                except RefereeError as error:
                    verdict = said(error)
                lines.append(f"  probe {action_text(probe)} {verdict}")
            try:
                after = rules.apply(state, action)
            except RefereeError as error:
                lines.append(f"  refused {action_text(action)} {said(error)}")
                action = give_up(rules, state)
                after = rules.apply(state, action)
            log.append(action)
            state = after
            lines.append(f"  {action_text(action)} totals {list(state.totals)}")
        result = state.result.to_dict() if state.result is not None else None
        lines.append(f"result {json.dumps(result, sort_keys=True)}")
        if state.match_end is not None:
            lines.append(f"match end {json.dumps(shown(state.match_end), sort_keys=True)}")
        rounds.append({"actions": [a.to_dict() for a in log]})
        if state.match_over or state.result is None:
            break
        leader, base, carry = rules.next_leader(state), state.totals, state.carry
    else:
        state = rules.apply(rules.start(slug, options, players, leader=leader, base=base,
                                        carry=carry), Stop())  # fmt: skip
        rounds.append({"actions": [Stop().to_dict()]})
    document = {"format": "boneyard-match/1", "game": slug, "options": given,
                "players": players, "rounds": rounds}  # fmt: skip
    try:
        lines.append(f"export {json.dumps(export(replay(document)), sort_keys=True)}")
    except RefereeError as error:
        lines.append(f"replay refused {said(error)}")
    return lines


def verdicts() -> str:
    lines: list[str] = []
    for slug in sorted(PRESETS):
        for seed in range(MATCHES):
            lines += play_match(slug, seed)
    return "\n".join(lines) + "\n"


def test_every_verdict_is_as_recorded():
    now = verdicts()
    if os.environ.get("BONEYARD_UPDATE_SNAPSHOT"):
        SNAPSHOT.parent.mkdir(exist_ok=True)
        SNAPSHOT.write_text(now, encoding="utf-8")
    if not SNAPSHOT.exists():
        pytest.fail("no snapshot: run with BONEYARD_UPDATE_SNAPSHOT=1 to write one")
    then = SNAPSHOT.read_text(encoding="utf-8")
    if now != then:
        old, new = then.splitlines(), now.splitlines()
        at = next((i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b), None)
        at = min(len(old), len(new)) if at is None else at
        pytest.fail(
            f"the referee's verdicts changed at line {at + 1} of {SNAPSHOT.name}:\n"
            f"was: {old[at][:400] if at < len(old) else '(nothing)'}\n"
            f"now: {new[at][:400] if at < len(new) else '(nothing)'}\n"
            "if on purpose, regenerate with BONEYARD_UPDATE_SNAPSHOT=1 and commit the diff"
        )
