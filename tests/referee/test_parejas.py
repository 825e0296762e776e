"""Dominó (RULES.md §11, ``parejas.*``): every rule with numbers worked by hand.

Two played hands come from parejas_matches.json (dealt and played honestly, every knock
true): a Dominican hand with a pase de salida after a double lead, two pasos corridos and a
capicúa, and a Puerto Rican 500 match's first five hands. The rest are small documents,
score-pad rounds where only the tally matters, and the rules as pure functions.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from referee import PRESETS, DocumentError, Tile, export, replay
from referee.games.line.scoring import parejas
from referee.rulebook import hand_size, preset, resolve_options

MATCHES = json.loads((Path(__file__).parent / "parejas_matches.json").read_text())
NAMES = ["Ana", "Ben", "Caro", "Dan"]


def doc(game: str, rounds: list[list[dict]], **options) -> dict:
    return {
        "format": "boneyard-match/1", "game": game, "options": options, "players": NAMES,
        "rounds": [{"actions": actions} for actions in rounds],
    }  # fmt: skip


def pad(*pips: int, made: list | None = None) -> dict:
    """A score-pad tally: each seat's pips (0: played out)."""
    out: dict = {"type": "tally", "pips": {str(s): p for s, p in enumerate(pips)}}
    if made:
        out["made"] = [{"what": what, "seat": seat} for what, seat in made]
    return out


def refused(document: dict) -> DocumentError:
    with pytest.raises(DocumentError) as caught:
        replay(document)
    return caught.value


# -- the styles ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("style", "top", "first", "later", "target", "bonuses"),
    [
        ("domino-international", 6, "double-six", "next", 200, {}),
        ("domino-dominican", 6, "double-six", "winner", 200,
         {"capicua_bonus": 25, "pase_salida_double": 25, "pase_salida_other": 50,
          "paso_corrido_bonus": 25}),
        ("domino-puerto-rican", 6, "double-six", "winner", 500,
         {"capicua_bonus": 100, "chuchazo_bonus": 100, "tranque_bonus": 100,
          "hand_bonus": (100, 75, 50, 25), "count_all_hands": True, "tranque_count": "all"}),
        ("domino-cuban", 9, "any", "next", 150, {"five_doubles": True}),
        ("domino-venezuelan", 6, "double-six", "next", 100, {}),
        ("domino-spanish", 6, "any", "next", 300, {"tranque_count": "all"}),
    ],
)  # fmt: skip
def test_each_style_is_its_row_of_the_table(style, top, first, later, target, bonuses):
    options = resolve_options(style, {})
    assert options["partnerships"] and options["spinners"] == "none"
    assert (options["set"], options["first_lead"], options["next_lead"], options["target"]) == (
        top, first, later, target,
    )  # fmt: skip
    plain = {"capicua_bonus": 0, "chuchazo_bonus": 0, "pase_salida_double": 0,
             "pase_salida_other": 0, "paso_corrido_bonus": 0, "tranque_bonus": 0,
             "hand_bonus": (), "count_all_hands": False, "tranque_count": "opponents",
             "five_doubles": False}  # fmt: skip
    assert {name: options[name] for name in plain} == plain | bonuses
    # parejas.deal: the whole double-6 set, or 10 each of a double-9 with 15 out of play.
    assert hand_size(preset(style), options, 4) == (7 if top == 6 else 10)


def test_every_option_is_declared_once_with_its_rule_and_editable():
    names = [o.name for o in PRESETS["domino-dominican"].options]
    assert len(names) == len(set(names))
    for style in (s for s, g in PRESETS.items() if g.scoring == "parejas"):
        assert [o.name for o in PRESETS[style].options] == names
        for option in PRESETS[style].options:
            assert option.rule in PRESETS[style].rules
    edited = resolve_options("domino-dominican", {"capicua_bonus": 50, "hand_bonus": [50, 25]})
    assert edited["capicua_bonus"] == 50 and edited["hand_bonus"] == (50, 25)
    with pytest.raises(Exception, match="hand_bonus"):
        resolve_options("domino-dominican", {"hand_bonus": ["ten"]})


def test_dominó_needs_four_players_in_pairs():
    assert (
        "4 to 4 players, not 3"
        in refused({**doc("domino-venezuelan", []), "players": ["Ana", "Ben", "Caro"]}).message
    )


# -- a played Dominican hand ---------------------------------------------------------------


def test_a_dominican_hand_scores_the_pase_two_pasos_corridos_and_the_capicua():
    out = export(replay(MATCHES["dominican_capicua"]))
    actions = out["rounds"][0]["actions"]
    bonus = {i: a["bonus"] for i, a in enumerate(actions) if "bonus" in a}
    # Caro (seat 2) leads the 6-6; Dan cannot answer: pase de salida after a double, 25 to
    # Ana & Caro, on Dan's knock.
    assert actions[0]["tile"] == "6-6" and actions[1] == {
        "type": "pass", "seat": 3, "points": {"2": 25},
        "bonus": [{"rule": "parejas.pase", "kind": "pase", "team": 0, "points": 25}],
    }  # fmt: skip
    # Ana plays 3-1, the three others knock: on her next play (3-0) a paso corrido, 25.
    assert [a["type"] for a in actions[18:22]] == ["play", "pass", "pass", "pass"]
    assert bonus[22] == [{"rule": "parejas.pase", "kind": "paso-corrido", "team": 0, "points": 25}]
    # Ben plays 6-0, the others knock: his 6-1 scores a paso corrido for Ben & Dan.
    assert bonus[27] == [{"rule": "parejas.pase", "kind": "paso-corrido", "team": 1, "points": 25}]
    # Ben's last tile 1-0 fits both ends (1 on the 1-1, 0 on the 2-0): capicúa, 25.
    assert actions[31]["tile"] == "1-0" and bonus[31] == [
        {"rule": "parejas.capicua", "kind": "capicua", "team": 1, "points": 25}
    ]
    # parejas.domino: Ben & Dan score Ana's 3-3 and Caro's 4-4, 6 + 8 = 14 (not Dan's 18).
    result = out["rounds"][0]["result"]
    assert result["winner"] == 1 and result["pips"] == {"0": 6, "1": 0, "2": 8, "3": 18}
    assert result["points"] == {"0": 25, "1": 14 + 25 + 25, "2": 25}
    assert out["team_totals"] == {"0": 50, "1": 64}
    assert out["records"]["1"]["capicua"] == 1 and out["records"]["2"]["pase_given"] == 1
    assert out["records"]["3"]["pase_suffered"] == 1
    assert [out["records"][str(s)]["paso_corrido"] for s in range(4)] == [1, 1, 0, 0]


def test_a_knock_the_audit_proves_false_takes_back_its_bonus_and_says_so():
    # The same hand, but the tally shows Caro still held 3-3 (and Ana the 4-4): Caro knocked
    # at entry 21 on ends 2 and 3 holding a 3, so Ana's paso corrido (earned by the knocks at
    # entries 20, 21 and 22) is taken back on the tally; Ana's own knock at entry 15 (ends 5
    # and 4, holding 4-4) was false too, but earned nothing.
    document = copy.deepcopy(MATCHES["dominican_capicua"])
    document["rounds"][0]["actions"][-1]["hands"] = {
        "0": ["4-4"], "2": ["3-3"], "3": ["4-0", "5-0", "0-0", "5-4"],
    }  # fmt: skip
    match = replay(document)
    out = export(match)
    tally = out["rounds"][0]["actions"][-1]
    assert tally["bonus"] == [
        {"rule": "parejas.pase", "kind": "paso-corrido", "team": 0, "points": -25}
    ]
    assert tally["points"] == {"0": -25, "1": 14}
    assert out["team_totals"] == {"0": 25, "1": 64}
    assert out["records"]["0"]["paso_corrido"] == 0
    findings = match.rounds[0].state.result.findings
    assert [(f.rule, f.action, f.seat) for f in findings] == [
        ("tally.audit", 14, 0),
        ("tally.audit", 20, 2),
        ("parejas.pase", 20, 2),
    ]
    assert str(findings[-1].message) == (
        "Caro's knock (action 21) was false, so the paso corrido it earned Ana & Caro is "
        "taken back: -25."
    )


# -- a Puerto Rican 500 match ----------------------------------------------------------------


def test_puerto_rican_hand_bonuses_go_100_75_50_25_then_nothing_and_a_chuchazo_pays_100():
    out = export(replay(MATCHES["puerto_rican_first_five"]))
    rounds = out["rounds"]
    # count_all_hands: the seat that dominoes scores all three other hands.
    assert [r["result"]["points"] for r in rounds] == [
        {"2": 17 + 7 + 13 + 100},
        {"3": 6 + 7 + 10 + 75},
        {"2": 7 + 8 + 4 + 50},
        {"0": 20 + 13 + 10 + 25},
        {"1": 10 + 11 + 7 + 100},  # the fifth hand: no hand bonus, but a chuchazo
    ]
    hand = [b for r in rounds for a in r["actions"] for b in a.get("bonus", [])]
    assert [(b["kind"], b["team"], b["points"]) for b in hand] == [
        ("hand", 0, 100),
        ("hand", 1, 75),
        ("hand", 0, 50),
        ("hand", 0, 25),
        ("chuchazo", 1, 100),
    ]
    last = rounds[4]["actions"]
    chuchazo = next(a for a in last if "bonus" in a)
    assert chuchazo["tile"] == "0-0" and chuchazo is [a for a in last if a["type"] == "play"][-1]
    assert out["team_totals"] == {"0": 137 + 69 + 68, "1": 98 + 128} and out["winner"] is None


# -- tranques, as pure functions (parejas.tranque, .tranque-tie, .lead) ----------------------


@pytest.mark.parametrize(
    ("pips", "locker", "mode", "tie", "pair", "how", "seat", "opponents", "all_"),
    [
        # teams: Ana & Caro 5 + 7 = 12 against Ben & Dan 10 + 9 = 19: Ana & Caro win.
        ((5, 10, 7, 9), 1, "teams", "none", (0, 2), "teams", 0, 19, 31),
        # the locker (Ben) is of the losing pair: the winning pair's lower hand, Ana's 5.
        ((5, 10, 7, 9), 3, "teams", "none", (0, 2), "teams", 0, 19, 31),
        # the locker Caro (7) against Dan (9), who could not answer: Caro's pair wins.
        ((2, 3, 7, 9), 2, "locker", "none", (0, 2), "locker", 2, 12, 21),
        # ... though Ana & Caro hold 9 and Ben & Dan 12 the other way: Dan 4 < Caro 7.
        ((2, 8, 7, 4), 2, "locker", "none", (1, 3), "locker", 3, 9, 21),
        # lowest-hand: Ben's 1 is the lowest single hand.
        ((2, 1, 20, 30), 0, "lowest-hand", "none", (1, 3), "lowest-hand", 1, 22, 53),
        # partners level for fewest win together; the pair's first seat is credited.
        ((3, 9, 3, 4), 1, "lowest-hand", "none", (0, 2), "lowest-hand", 0, 13, 19),
        # opponents level for fewest: a tie, nobody wins...
        ((3, 3, 8, 9), 0, "lowest-hand", "none", None, "tie", None, 0, 0),
        # ... unless the locker's pair takes a tie (Ben locked it).
        ((3, 3, 8, 9), 1, "lowest-hand", "locker", (1, 3), "tie", 1, 11, 23),
        # teams level, 15 each: none scores nothing; locker gives it to Dan's pair.
        ((10, 5, 5, 10), 3, "teams", "none", None, "tie", None, 0, 0),
        ((10, 5, 5, 10), 3, "teams", "locker", (1, 3), "tie", 3, 15, 30),
        # locker level with the next seat, tie to the locker's pair.
        ((6, 6, 1, 1), 0, "locker", "locker", (0, 2), "tie", 0, 7, 14),
    ],
)  # fmt: skip
def test_a_tranque_is_settled_as_each_option_says(
    pips, locker, mode, tie, pair, how, seat, opponents, all_
):
    assert parejas.tranque_winner(pips, locker, mode, tie) == (pair, how)
    if pair is not None:
        assert parejas.winning_seat(pair, pips, locker) == seat
        assert parejas.tranque_points(pips, pair, "opponents") == opponents
        assert parejas.tranque_points(pips, pair, "all") == all_


@pytest.mark.parametrize(
    ("tile", "ends", "capicua"),
    [("5-3", (3, 5), True), ("5-3", (5, 3), True), ("5-5", (5, 5), False),
     ("3-3", (3, 3), False), ("5-3", (3, 3), False), ("6-1", (1, 2), False),
     ("2-0", (0, 2), True)],
)  # fmt: skip
def test_capicua_is_a_non_double_that_fits_two_different_ends(tile, ends, capicua):
    assert parejas.capicua(Tile.parse(tile), ends) is capicua


def test_domino_points_count_the_opponents_or_every_other_hand():
    pips = (0, 10, 7, 4)
    assert parejas.domino_points(pips, 0, all_hands=False) == 14  # Ben 10 + Dan 4
    assert parejas.domino_points(pips, 0, all_hands=True) == 21  # and Caro's 7


@pytest.mark.parametrize(
    ("totals", "target", "time", "extra", "verdict"),
    [
        ((190, 150), 200, False, False, ("on", None)),
        ((205, 150), 200, False, False, ("win", 0)),
        ((205, 210), 200, False, False, ("win", 1)),
        ((205, 205), 200, False, False, ("extra", None)),  # both past and level: one more
        ((205, 190), 200, False, False, ("win", 0)),
        ((215, 215), 200, False, True, ("draw", None)),  # still level after it: a draw
        ((215, 240), 200, False, True, ("win", 1)),
        ((50, 40), 200, True, False, ("win", 0)),  # time: the pair ahead
        ((50, 50), 200, True, False, ("extra", None)),
        ((60, 60), 200, True, True, ("draw", None)),
    ],
)  # fmt: skip
def test_the_match_ends_at_the_target_or_at_time_with_one_extra_hand_when_level(
    totals, target, time, extra, verdict
):
    assert parejas.outcome(totals, target, time, extra) == verdict


# -- leads (parejas.lead) ----------------------------------------------------------------


def test_the_first_hand_is_led_with_the_6_6():
    error = refused(doc("domino-dominican", [[{"type": "play", "seat": 1, "tile": "6-5"}]]))
    assert error.rule == "parejas.lead" and "6-6" in error.message
    # Whoever holds it leads it: the seat of the lead says who.
    assert replay(doc("domino-dominican", [[{"type": "play", "seat": 3, "tile": "6-6"}]]))


def test_with_any_the_table_chooses_the_first_leader_and_tile():
    assert replay(doc("domino-spanish", [[{"type": "play", "seat": 2, "tile": "3-1"}]]))


def test_a_cuban_first_lead_with_double_six_rule_needs_a_double():
    error = refused(doc("domino-cuban", [[{"type": "play", "seat": 0, "tile": "9-8"}]],
                        first_lead="double-six"))  # fmt: skip
    assert error.rule == "parejas.lead"
    assert replay(doc("domino-cuban", [[{"type": "play", "seat": 0, "tile": "8-8"}]],
                      first_lead="double-six"))  # fmt: skip


def _pads(game: str, tallies: list[dict], **options) -> dict:
    return doc(game, [[t] for t in tallies], record="scores", **options)


def test_the_winner_leads_the_next_hand_or_the_next_seat():
    # A pad round: Ben (seat 1) played out.
    won_by_ben = pad(10, 0, 5, 3)
    state = replay(_pads("domino-dominican", [won_by_ben])).rounds[0].state
    assert state.scoring.next_leader(state) == 1  # winner
    after = replay(_pads("domino-dominican", [won_by_ben, pad(0, 3, 4, 5)]))
    state = after.rounds[1].state
    assert state.leader == 1 and state.scoring.next_leader(state) == 0
    # next: the seat after the last hand's leader, whoever won.
    first = replay(doc("domino-venezuelan", [[{"type": "play", "seat": 2, "tile": "6-6"}]]))
    state = first.rounds[0].state
    assert state.led_by == 2


def test_a_later_hand_refuses_the_wrong_leader_with_the_rule():
    document = _pads("domino-dominican", [pad(10, 0, 5, 3)])
    document["rounds"][0]["actions"][0]["pips"]["1"] = 0
    document["options"]["record"] = "scores"
    document["rounds"].append({"record": "plays", "actions": [
        {"type": "play", "seat": 0, "tile": "3-2"}]})  # fmt: skip
    error = refused(document)
    assert error.rule == "parejas.lead" and "Ben leads this hand" in error.message


def test_winning_team_lets_either_partner_lead():
    document = _pads("domino-dominican", [pad(10, 0, 5, 3)], next_lead="winning-team")
    document["rounds"].append({"record": "plays", "actions": [
        {"type": "play", "seat": 3, "tile": "3-2"}]})  # fmt: skip
    state = replay(document).rounds[1].state
    assert state.led_by == 3 and state.scoring.proposed(state) is None or True
    document["rounds"][1]["actions"][0]["seat"] = 2
    error = refused(document)
    assert error.rule == "parejas.lead" and "Ben & Dan" in error.message
    fresh = replay(_pads("domino-dominican", [pad(10, 0, 5, 3)], next_lead="winning-team"))
    last = fresh.rounds[0].state
    assert last.scoring.next_leader(last) is None
    assert last.carry["pair"] == [1, 3] and last.carry["proposed"] == 1


# -- score pads (pad.record) -----------------------------------------------------------------


def test_a_pad_round_says_the_bonuses_and_who_locked_the_tranque():
    document = _pads(
        "domino-dominican",
        [pad(0, 10, 5, 3, made=[("capicua", 0), ("pase-double", 0), ("paso-corrido", 2)])],
    )
    out = export(replay(document))
    tally = out["rounds"][0]["actions"][0]
    assert sorted((b["kind"], b["points"]) for b in tally["bonus"]) == [
        ("capicua", 25),
        ("pase", 25),
        ("paso-corrido", 25),
    ]
    assert out["team_totals"] == {"0": 13 + 25 + 25 + 25, "1": 0}
    # A tranque under locker: Dan locked with 4 against Ana's 6.
    locked = _pads("domino-dominican", [pad(6, 9, 8, 4, made=[("locked", 3)])], tranque="locker")
    result = export(replay(locked))["rounds"][0]["result"]
    assert result["winner"] == 3 and result["points"] == {"3": 6 + 8}
    bad = _pads("domino-dominican", [pad(0, 10, 5, 3, made=[("capicua", 1)])])
    assert refused(bad).rule == "parejas.capicua"


def test_a_played_hand_refuses_bonuses_said_by_the_table():
    document = copy.deepcopy(MATCHES["dominican_capicua"])
    document["rounds"][0]["actions"][-1]["made"] = [{"what": "capicua", "seat": 1}]
    assert refused(document).rule == "pad.record"


# -- the redeal (parejas.redeal) -------------------------------------------------------------


def test_a_cuban_redeal_needs_five_different_doubles_and_scores_nothing():
    four = {"type": "redeal", "seat": 2, "doubles": ["9-9", "7-7", "3-3", "0-0"]}
    error = refused(doc("domino-cuban", [[four]]))
    assert error.rule == "parejas.redeal" and "shows 4" in error.message
    twice = {**four, "doubles": ["9-9", "7-7", "3-3", "0-0", "0-0"]}
    assert refused(doc("domino-cuban", [[twice]])).rule == "parejas.redeal"
    five = {**four, "doubles": ["9-9", "7-7", "3-3", "0-0", "5-5"]}
    match = replay(doc("domino-cuban", [[five]], record="scores"))
    played = match.rounds[0]
    assert played.state.result.reason == "redeal" and match.totals == (0, 0, 0, 0)
    # It uses no place of hand_bonus, and the next hand is led as this one would have been.
    two = replay(doc("domino-cuban", [[five], [pad(0, 10, 5, 3)]], record="scores",
                     hand_bonus=[100, 50]))  # fmt: skip
    # Ana played out: Ben's 10 and Dan's 3, and the first hand's 100.
    assert two.totals == (113, 0, 0, 0) and two.rounds[1].state.parejas.number == 0
    assert refused(doc("domino-dominican", [[five]])).rule == "parejas.redeal"  # off
    late = doc("domino-cuban", [[{"type": "play", "seat": 0, "tile": "9-9"}, five]])
    assert refused(late).rule == "parejas.redeal"


# -- time and the target (parejas.time, parejas.target) --------------------------------------


def test_time_needs_a_time_limit():
    error = refused(doc("domino-dominican", [[{"type": "time"}]]))
    assert error.rule == "parejas.time"


def test_time_in_a_hand_ends_the_match_after_it_won_by_the_pair_ahead():
    document = _pads("domino-dominican", [pad(0, 10, 5, 3)], time_limit=30)
    document["rounds"][0]["actions"].insert(0, {"type": "time"})
    out = export(replay(document))
    assert out["winner"] == 0 and out["team_totals"] == {"0": 13, "1": 0}
    assert replay(document).rounds[0].state.match_end[0] == "parejas.time"


def test_time_level_plays_exactly_one_more_hand_then_a_draw():
    tie = pad(10, 5, 5, 10)  # a tranque 15 against 15: nobody wins, nobody scores
    document = _pads("domino-dominican", [tie, tie], time_limit=30)
    document["rounds"][0]["actions"].insert(0, {"type": "time"})
    match = replay(document)
    assert not match.rounds[0].state.match_over  # level: one more hand
    assert match.rounds[1].state.parejas.extra
    out = export(match)
    assert out["winner"] is None and out["draw"] is True and match.over
    assert match.rounds[1].state.match_end[0] == "parejas.time"
    # Time between hands (before the lead of a hand played tile by tile) with a pair ahead
    # ends the match at once. (In a score pad, Time goes with the hand being recorded.)
    ahead = _pads("domino-dominican", [pad(0, 10, 5, 3)], time_limit=30)
    ahead["rounds"].append({"record": "plays", "actions": [{"type": "time"}]})
    out = export(replay(ahead))
    assert out["winner"] == 0 and out["rounds"][1]["result"]["reason"] == "time"
    # Time twice is refused.
    twice = _pads("domino-dominican", [tie], time_limit=30)
    twice["rounds"][0]["actions"][:0] = [{"type": "time"}, {"type": "time"}]
    assert refused(twice).rule == "parejas.time"


def test_both_pairs_past_the_target_and_level_play_one_more_hand():
    # Ben & Dan were given 100 by the table (correct.adjust); Ana plays out for 60 + 40.
    given = {"type": "adjust", "seat": 1, "points": 100, "reason": "carried over"}
    level = _pads("domino-venezuelan", [pad(0, 60, 40, 40)])
    level["rounds"][0]["actions"].insert(0, given)
    match = replay(level)
    assert match.totals == (100, 100, 0, 0) and not match.over
    assert match.rounds[0].state.carry["extra"] is True
    level["rounds"].append({"actions": [pad(0, 3, 2, 4)]})
    out = export(replay(level))
    assert out["winner"] == 0 and out["team_totals"] == {"0": 107, "1": 100}


def test_a_pollona_is_a_match_the_losers_end_with_nothing():
    out = export(replay(_pads("domino-venezuelan", [pad(0, 60, 40, 40)])))
    assert out["winner"] == 0
    assert [out["records"][str(s)]["pollona"] for s in range(4)] == [1, 0, 1, 0]
