"""Properties of random legal matches of every line game (Hypothesis).

A real shuffled set is dealt, and each seat plays honestly from the tiles it actually
holds: it chooses among ``line.legal_actions(state)`` filtered by its hand, draws from
the real boneyard only when it holds nothing that fits, and knocks only when
``legal_actions`` allows it. At the end the real hands are tallied. Now and then a seat
takes its last action back (``procedure.misplay``), and a tally is taken back and redone.
In muggins matches players declare their scores (now and then short, or over-claiming
where false claims stand), and opponents call Muggins or challenge.

The example count comes from the profile in tests/conftest.py (dev 50, CI 100).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import (
    PRESETS,
    Challenge,
    Declare,
    DominoSet,
    Draw,
    IllegalAction,
    Muggins,
    Pass,
    Play,
    Tally,
    Tile,
    Undo,
    export,
    line,
    parse_action,
    replay,
)
from referee.actions import Action
from referee.layout import END, SIDE

NAMES = ("Ana", "Ben", "Caro", "Dan")
SLOW = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


#: Dominards adds dice and cards to the line engine: tests/referee/test_dominards_properties.py
#: drives it with the same tables and checks.
#: Dominó's styles score by rules of their own (§11): tests/referee/test_parejas_oracle.py
#: plays every style against a second judge written from them.
LINE_GAMES = sorted(
    slug
    for slug, game in PRESETS.items()
    if game.family == "line" and slug != "dominards" and game.scoring != "parejas"
)


@st.composite
def games(draw, slugs=LINE_GAMES) -> tuple[str, dict, tuple[str, ...]]:
    """A game, its house rules (any the game offers) and its players."""
    slug = draw(st.sampled_from(slugs))
    game = PRESETS[slug]
    options = {}
    players = draw(st.integers(game.players[0], min(game.players[1], 4)))
    for option in game.options:
        if option.name == "hand_size":
            continue  # as the rulebook deals
        if option.name == "partnerships":  # team.seats: four players
            options["partnerships"] = players == 4 and draw(st.booleans())
        elif option.name == "count_all_hands":  # team.block: in partnerships only
            paired = options.get("partnerships") or game.fixed.get("partnerships", False)
            options["count_all_hands"] = paired and draw(st.booleans())
        elif option.name == "record":  # pad.record: score-pad rounds have no plays
            options["record"] = "plays"
        elif option.name == "set":
            options["set"] = draw(st.sampled_from((6, 6, 6, 9)))
        elif option.name == "target":
            options["target"] = option.choices[0]  # the lowest, so matches end
        elif option.is_flag:
            options[option.name] = draw(st.booleans())
        else:
            options[option.name] = draw(st.sampled_from(option.choices))
    return slug, options, NAMES[:players]


@dataclass(frozen=True)
class Table:
    """What the referee never sees: the tiles in each hand, and the boneyard in order
    (in Block, the tiles left out of play)."""

    hands: tuple[tuple[Tile, ...], ...]
    stock: tuple[Tile, ...]

    def after(self, action: Action) -> Table:
        hands = list(self.hands)
        if isinstance(action, Play):
            hands[action.seat] = tuple(t for t in hands[action.seat] if t != action.tile)
            return Table(tuple(hands), self.stock)
        if isinstance(action, Draw):
            hands[action.seat] += self.stock[: action.count]
            return Table(tuple(hands), self.stock[action.count :])
        return self


def deal(data: st.DataObject, state: line.RoundState) -> Table:
    tiles = data.draw(st.permutations(DominoSet(state.top).tiles), label="shuffle")
    size, seats = state.hands[0], state.seats
    hands = [tuple(tiles[seat * size : (seat + 1) * size]) for seat in range(seats)]
    stock = tuple(tiles[seats * size :])
    leader = state.leader or 0
    if state.options["opening"] != "any" and not any(t.is_double for t in hands[leader]):
        # The leader could not lead a double; a table would reshuffle. Swap one in instead.
        double = next(t for t in stock + sum(hands, ()) if t.is_double)
        holder = next((s for s, hand in enumerate(hands) if double in hand), None)
        given_back = hands[leader][0]
        hands[leader] = (double,) + hands[leader][1:]
        if holder is None:
            stock = tuple(given_back if t == double else t for t in stock)
        else:
            hands[holder] = tuple(given_back if t == double else t for t in hands[holder])
    return Table(tuple(hands), stock)


def honest(data: st.DataObject, state: line.RoundState, table: Table, legal) -> Action:
    """What a seat that plays by the rules may do, from the tiles it really holds."""
    if state.turn is None:
        leads = [a for a in legal if isinstance(a, Play) and a.tile in table.hands[a.seat]]
        return data.draw(st.sampled_from(leads), label="lead")
    seat = state.turn
    plays = [a for a in legal if isinstance(a, Play) and a.tile in table.hands[seat]]
    assert all(a.seat == seat for a in legal if isinstance(a, Play | Draw | Pass))
    if plays:
        return data.draw(st.sampled_from(plays), label="play")
    if Draw(seat, 1) in legal:
        if state.options["draw_until"] == "one":
            return Draw(seat, 1)
        drawable = table.stock[: state.drawable]
        fits = [i + 1 for i, t in enumerate(drawable) if state.layout.attachments(t)]
        until = fits[0] if fits else len(drawable)
        return Draw(seat, data.draw(st.sampled_from(sorted({1, until})), label="draw"))
    assert Pass(seat) in legal, "a seat that can neither play nor draw may knock"
    return Pass(seat)


def tally(data: st.DataObject, state: line.RoundState, table: Table) -> Tally:
    """The real hands, by tile or by pips; a seat that played out may say nothing."""
    seats = [
        s for s, hand in enumerate(table.hands) if hand or not data.draw(st.booleans(), "omit")
    ]
    if data.draw(st.booleans(), label="by tiles"):
        return Tally(hands=tuple((s, table.hands[s]) for s in seats))
    halve = state.options["one_end_doubles"]
    return Tally(
        pips=tuple(
            (s, sum(t.high if halve and t.is_double else t.pips for t in table.hands[s]))
            for s in seats
        )
    )


def declaration(data: st.DataObject, state: line.RoundState) -> Declare:
    """The player's declaration: usually the truth, now and then short, or an over-claim
    where false claims stand."""
    pending = state.pending
    choices = {pending.worth, max(0, pending.worth - 5), 0}
    if state.options["false_claim_penalty"]:
        choices.add(pending.worth + 5)
    legal = [Declare(pending.seat, p) for p in sorted(choices)]
    legal = [a for a in legal if line.check(state, a) is None]
    return data.draw(st.sampled_from(legal), label="declaration")


def spotted(state: line.RoundState) -> list[Action]:
    """Muggins calls and challenges an opponent who can count would make."""
    calls = [Muggins(s) for s in range(state.seats)] + [Challenge(s) for s in range(state.seats)]
    return [a for a in calls if line.check(state, a) is None]


@dataclass
class Step:
    before: line.RoundState
    table: Table  # the real tiles in ``before``
    action: Action
    after: line.RoundState


Check = Callable[[Step], None]


def play_round(data: st.DataObject, state: line.RoundState, check: Check) -> list[Step]:
    """One honest round, tallied, with the odd undo; every step passes through ``check``."""
    table = deal(data, state)
    tables: list[Table] = []  # the real tiles before each action the state remembers
    steps: list[Step] = []
    undos = 0
    while True:
        if state.result is not None:
            # (Hypothesis shrinks toward 0, so 0 means "no undo": failures shrink without them.)
            if undos >= 3 or data.draw(st.integers(0, 3), label="undo the tally?") < 3:
                return steps
            action: Action = Undo()
        elif state.declaring is not None and data.draw(st.integers(0, 3), "declare?") > 0:
            action = declaration(data, state)
        elif state.muggins_open and (calls := spotted(state)) and data.draw(st.booleans()):
            action = data.draw(st.sampled_from(calls), label="call")
        elif state.is_over:
            action = tally(data, state, table)
        else:
            legal = line.legal_actions(state)
            if undos < 3 and Undo() in legal and data.draw(st.integers(0, 9), "undo?") == 9:
                action = Undo()
            else:
                action = honest(data, state, table, legal)
        after = line.apply(state, action)
        step = Step(state, table, action, after)
        check(step)
        steps.append(step)
        if isinstance(action, Undo):
            undos += 1
            table = tables.pop()
        else:
            tables.append(table)
            table = table.after(action)
        state = after
        assert len(steps) < 500, "a round that never ends"


def play_match(
    data: st.DataObject, check: Check = lambda step: None, most_rounds: int = 3
) -> tuple[dict, list]:
    """Up to ``most_rounds`` rounds, or until a seat wins the match; the document and
    the rounds."""
    slug, options, names = data.draw(games(), label="game")
    rounds: list[list[Step]] = []
    totals, leader = None, None
    for _ in range(data.draw(st.integers(1, most_rounds), label="rounds")):
        steps = play_round(data, line.start(slug, options, names, leader, totals), check)
        rounds.append(steps)
        last = steps[-1].after
        totals, leader = last.totals, line.next_leader(last)
        if last.champion is not None:
            break
    document = {
        "format": "boneyard-match/1",
        "game": slug,
        "options": options,
        "players": list(names),
        "rounds": [{"actions": [s.action.to_dict() for s in steps]} for steps in rounds],
    }
    return document, rounds


# -- (a) and (e): random legal matches replay, and export → replay → export is identical --------


@SLOW
@given(st.data())
def test_random_legal_matches_replay_and_export_identically(data):
    document, rounds = play_match(data)
    match = replay(document)
    assert len(match.rounds) == len(rounds)
    for replayed, steps in zip(match.rounds, rounds, strict=True):
        assert replayed.state == steps[-1].after
        assert replayed.actions == tuple(s.action for s in steps)
        # an honest table gives the audit nothing to report
        assert replayed.state.result.findings == ()
    seats = range(len(document["players"]))
    totals = tuple(sum(steps[-1].after.result.points[s] for steps in rounds) for s in seats)
    assert match.totals == totals
    first = export(match)
    if match.options.get("partnerships"):  # team.score, MATCH_FORMAT.md (Dominó: always)
        t = match.totals
        assert first["teams"] == [[0, 2], [1, 3]]
        assert first["team_totals"] == {"0": t[0] + t[2], "1": t[1] + t[3]}
        assert first["winner"] in (None, 0, 1)
        assert first["winners"] == (
            None if match.winner is None else [match.winner, match.winner + 2]
        )
    else:
        assert not {"teams", "team_totals", "winners"} & set(first)
    # totals are the sum of the logged points
    logged = [0] * len(seats)
    for action in (a for r in first["rounds"] for a in r["actions"]):
        if action["type"] == "declare":  # its points are the declaration, scored exactly
            logged[action["seat"]] += action["points"]
            continue
        for seat, points in action.get("points", {}).items():
            logged[int(seat)] += points
    assert tuple(logged) == match.totals
    again = replay(first)
    assert export(again) == first
    assert again.totals == match.totals and again.winner == match.winner
    for action in (a for r in document["rounds"] for a in r["actions"]):
        assert parse_action(action).to_dict() == action


# -- (c) and (d): tiles are conserved; the count is never negative -----------------------------


def conserved(step: Step) -> None:
    state, table = step.before, step.table
    on_table = list(state.layout.tiles)
    in_hands = [t for hand in table.hands for t in hand]
    everything = on_table + in_hands + list(table.stock)
    dominoes = DominoSet(state.top).tiles
    assert len(everything) == len(dominoes), "layout + hands + stock = the set"
    assert set(everything) == set(dominoes), "no tile twice, none missing"
    assert state.hands == tuple(len(hand) for hand in table.hands)
    assert state.stock == len(table.stock)
    assert len(state.layout) + sum(state.hands) + state.stock == len(dominoes)
    assert state.layout.count >= 0
    assert all(state.layout.shows(p) >= 0 for p in state.layout.placed)
    assert all(end.shows >= 0 for end in state.layout.open_ends())


@SLOW
@given(st.data())
def test_tiles_are_conserved_and_the_count_is_never_negative(data):
    last: list[Step] = []

    def check(step: Step) -> None:
        conserved(step)
        last[:] = [step]

    play_match(data, check, most_rounds=1)
    assert last and last[0].after.result is not None


# -- (f): undo restores the previous state ---------------------------------------------------------


def shut(state: line.RoundState, undone: object) -> line.RoundState:
    """``state`` as an undo of ``undone`` restores it: taking back a tile leaves the windows
    of the play before it shut (procedure.misplay), all else as it was."""
    return replace(state, pending=None) if isinstance(undone, Play) else state


def undo_restores(step: Step) -> None:
    if isinstance(step.action, Undo):
        assert step.after == shut(step.before.previous, step.before.last)
        return
    taken_back = line.apply(step.after, Undo())
    assert taken_back == shut(step.before, step.action)
    # the fields left out of ==, checked by hand: history and the misplay window
    assert taken_back.previous is step.before.previous
    assert taken_back.actions == step.before.actions
    assert taken_back.settled >= step.before.settled


@SLOW
@given(st.data())
def test_undo_restores_the_previous_state(data):
    play_match(data, undo_restores, most_rounds=1)


# -- (b): legal_actions agrees with apply on every candidate ---------------------------------------


def candidates(state: line.RoundState) -> set[Action]:
    """Far more than is legal: every tile on every placed tile (or leading), every face,
    every seat and one that is not at the table, draws past the boneyard, knocks, undo."""
    seats = range(state.seats + 1)
    tiles = DominoSet(state.top).tiles
    ons = (None, *state.layout.tiles)
    found: set[Action] = {Undo()}
    found.update(
        Play(seat, tile, on, face)
        for seat in seats
        for tile in tiles
        for on in ons
        for face in (None, SIDE, END)
    )
    found.update(Draw(seat, n) for seat in seats for n in range(1, max(3, state.stock + 1) + 1))
    found.update(Pass(seat) for seat in seats)
    found.update(Declare(seat, p) for seat in seats for p in (*range(0, 125, 5), 7))
    found.update(Muggins(seat) for seat in seats)
    found.update(Challenge(seat) for seat in seats)
    return found


def accepted(state: line.RoundState, action: Action) -> bool:
    try:
        line.apply(state, action)
    except IllegalAction:
        return False
    return True


@SLOW
@given(st.data())
def test_legal_actions_agrees_with_apply(data):
    slug, options, names = data.draw(games(), label="game")
    steps = play_round(data, line.start(slug, options, names), lambda step: None)
    index = data.draw(st.integers(0, len(steps)), label="which state")
    state = steps[index].before if index < len(steps) else steps[-1].after
    legal = line.legal_actions(state)
    assert len(legal) == len(set(legal)), "each legal action once"
    everything = candidates(state)
    assert set(legal) <= everything
    assert {a for a in everything if accepted(state, a)} == set(legal)


# -- every score is what the count rule gives ------------------------------------------------------

PUB = {3: 1, 5: 1, 6: 2, 9: 3, 10: 2, 12: 4, 15: 8, 18: 6, 20: 4, 21: 7, 24: 8, 25: 5, 30: 16}


def worth(state: line.RoundState, count: int) -> int:
    """RULES.md fives.score and threes.score, written out again independently."""
    if state.game.scoring == "fives":
        return count if count > 0 and count % 5 == 0 else 0
    if state.game.scoring == "threes":
        mode = state.options["threes_scoring"]
        if mode == "pub":
            return PUB.get(count, (count // 5 if count % 5 == 0 else 0)
                           + (count // 3 if count % 3 == 0 else 0))  # fmt: skip
        divisors = sum(1 for d in (3, 5) if count % d == 0) if count > 0 else 0
        return count * (divisors if mode == "face-each" else min(divisors, 1))
    return 0


def side_total(state: line.RoundState, seat: int) -> int:
    """``team.score``, worked out here: the seat's total, with its partner's opposite."""
    partner = (seat + 2) % 4 if state.options.get("partnerships") else seat
    return state.totals[seat] + (state.totals[partner] if partner != seat else 0)


def scores_follow_the_count(step: Step) -> None:
    before, action, after = step.before, step.action, step.after
    if isinstance(action, Undo):
        return
    assert after.scores == tuple(
        b + p for b, p in zip(before.scores, after.last_points, strict=True)
    ), "the round's scores are the sum of what each action scored"
    if isinstance(action, Play):
        made = worth(before, after.layout.count)
        if before.muggins:
            assert after.pending.worth == made and not any(after.last_points)
            return
        target, threes = before.options.get("target"), before.game.scoring == "threes"
        if threes and before.options["exact_target"]:
            if side_total(before, action.seat) + made > target:
                made = 0  # threes.target: a score past the target (the team's) is not scored
        if threes and before.options["threes_scoring"] == "pub" and after.hands[action.seat] == 0:
            # threes.chip-out: pub rounds are not tallied, the last tile scores 1 more, unless
            # the count already won, and never past an exact target.
            total = side_total(before, action.seat) + made
            if not (made and total >= target):
                made += 0 if before.options["exact_target"] and total + 1 > target else 1
        expected = tuple(made if s == action.seat else 0 for s in range(before.seats))
        assert after.last_points == expected
    elif isinstance(action, Declare):
        assert after.last_points[action.seat] == action.points
    elif isinstance(action, Muggins):
        missed = before.pending.worth - before.pending.said
        assert after.last_points[action.seat] == missed
        # Once declared, a call stands only on points missed; before, it takes what the
        # play made, nothing included (a refusal would tell the count).
        assert missed > 0 or before.pending.declared is None
    elif isinstance(action, Challenge):
        excess = before.pending.declared - before.pending.worth
        assert after.last_points[action.seat] == excess > 0
        assert after.last_points[before.pending.seat] == -excess
    if after.champion is not None and before.champion is None:
        champion_total = side_total(after, after.champion)
        if before.options.get("partnerships"):  # team.score: named by the team's first seat
            assert after.champion in (0, 1)
        assert champion_total >= before.options["target"]
        if before.game.scoring == "threes" and before.options["exact_target"]:
            assert champion_total == before.options["target"]


@SLOW
@given(st.data())
def test_every_score_is_what_the_count_rule_gives(data):
    play_match(data, scores_follow_the_count)


def round_end_is_scored_by_team(step: Step) -> None:
    """``tally.winner``, ``block.score``, ``fives.end-bonus``, ``threes.chip-out`` and, in
    partnerships, ``team.block`` and ``team.fives``, worked out here from the pips."""
    before, action, result = step.before, step.action, step.after.result
    if not isinstance(action, Tally) or result is None:
        return
    options, pips, seats = before.options, result.pips, range(before.seats)
    sides = [(0, 2), (1, 3)] if options.get("partnerships") else [(s,) for s in seats]

    def combined(team: tuple[int, ...]) -> int:
        return sum(pips[s] for s in team)

    domino = before.ended == "domino"
    if domino:
        winner = before.hands.index(0)
    else:
        low = sorted(sides, key=combined)
        tied = len(low) > 1 and combined(low[0]) == combined(low[1])
        winner = None if tied else min(low[0], key=lambda s: pips[s])
    assert result.winner == winner
    if winner is None:
        assert not any(step.after.last_points)
        return
    mine = next(team for team in sides if winner in team)
    scoring, mode = before.game.scoring, options.get("threes_scoring")
    if scoring == "block":
        own = (winner,) if options["count_all_hands"] else mine
        won = sum(pips[s] for s in seats if s not in own)
        if not domino and options["blocked_minus_own"]:
            won -= sum(pips[s] for s in own)
        bonus = max(0, won)
    elif scoring == "fives" or mode != "pub":
        own = 0 if domino else combined(mine)
        differences = [combined(team) - own for team in sides if team != mine]
        if options["round_combined"]:
            bonus = (sum(differences) + 2) // 5 * 5
        else:
            bonus = sum((d + 2) // 5 * 5 for d in differences)
    else:
        bonus = 1 if domino else 0
    if scoring == "threes" and options["exact_target"]:
        if side_total(before, winner) + bonus > options["target"]:
            bonus = 0  # threes.target: past the target, not scored
    assert step.after.last_points == tuple(bonus if s == winner else 0 for s in seats)


@SLOW
@given(st.data())
def test_every_round_end_is_scored_by_team(data):
    play_match(data, round_end_is_scored_by_team)
