"""The train games and the score pad in the app (RULES.md §9, §10, pad.record): the table
screens from the engine's search to the next round, every refusal in place, a score-pad
match kept round by round and switched to play by play, export, import, the score sheet
and the records, on both databases."""

from __future__ import annotations

import html as html_text
import json
import re

import pytest

from scoring import services
from scoring.models import Action, Match, Round

from .conftest import keep, snapshot, tap

NAMES = ["Ana", "Ben", "Caro", "Dan"]


def page(client, match, path: str = "") -> str:
    return client.get(f"/matches/{match.pk}/{path}").content.decode()


def words(html: str, start: str, length: int = 400) -> str:
    """The text of ``html`` from ``start`` on, tags dropped and spaces squeezed."""
    at = html.index(">", html.index(start)) + 1  # from the end of the tag it is in
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html[at : at + length])).strip()
    return html_text.unescape(text)


def keep_round(client, match, how: str):
    html = page(client, match)
    version = re.search(r'name="version" value="(\d+)"', html).group(1)
    key = re.search(r'name="key" value="(\w+)"', html).group(1)
    form = {"record": how, "version": version, "key": key}
    return client.post(f"/matches/{match.pk}/keep/", form, HTTP_HX_REQUEST="true")


@pytest.fixture
def mexican(scorekeeper) -> Match:
    return keep(scorekeeper, services.create_match("mexican-train", NAMES, {"hand_size": 3}))


def test_the_round_begins_by_asking_who_holds_the_engine(scorekeeper, mexican):
    html = page(scorekeeper, mexican)
    assert "Round 1: 12-12. Who holds it?" in html
    assert all(f"{name} places 12-12" in html for name in NAMES)
    assert all(f"{name} draws a tile" in html for name in NAMES)  # round 1: anyone begins
    assert "Round <strong>1</strong> of 13" in html and "boneyard <strong>79</strong>" in html
    tap(scorekeeper, mexican, {"type": "draw", "seat": "2"})
    html = page(scorekeeper, mexican)
    # Caro drew: only she can have found it, else Dan draws next (train.engine).
    assert "Caro places 12-12" in html and "Ana places 12-12" not in html
    assert "Dan draws a tile" in html and "Ana draws a tile" not in html


def test_the_trains_are_rows_with_markers_hands_and_an_open_double(scorekeeper, mexican):
    for data in (
        {"type": "engine", "seat": "1", "tile": "12-12"},
        {"type": "play", "seat": "2", "tile": "12-5", "target": "2"},
        {"type": "play", "seat": "3", "tile": "12-3", "target": "mexican"},
        {"type": "draw", "seat": "0"},
        {"type": "pass", "seat": "0"},
        {"type": "play", "seat": "1", "tile": "12-6", "target": "0"},
        {"type": "play", "seat": "2", "tile": "5-5", "target": "2"},
        {"type": "draw", "seat": "2"},
        {"type": "pass", "seat": "2"},
    ):
        assert tap(scorekeeper, mexican, data).status_code == 200, data
    html = page(scorekeeper, mexican)
    assert words(html, 'id="banner"').startswith(
        "5-5 is open on Caro's train: it must be covered before anything else. Dan covers it"
    )
    rows = words(html, 'id="trains"', 4000)
    assert "Ana ● marker out 4 in hand ends in 6" in rows
    assert "Caro ● marker out 2 in hand 5-5 open" in rows
    assert "Mexican Train ends in 3" in rows
    assert 'class="train-row open-double" data-train="2"' in html
    # The picker lights only Caro's train for a tile bearing 5; Dan's own train for nothing.
    assert re.search(r'value="5-2" data-fits="2"', html)
    assert re.search(r'value="6-2" data-fits=""', html)


def test_draw_and_pass_are_greyed_with_the_referees_reason(scorekeeper, mexican):
    tap(scorekeeper, mexican, {"type": "engine", "seat": "3", "tile": "12-12"})
    html = page(scorekeeper, mexican)
    passing = html[html.index("Ana passes, marker out") - 120 :]
    assert "disabled" in passing[:200]
    assert "Ana cannot pass yet: draw first." in html and "train.draw" in html


@pytest.mark.parametrize(
    ("data", "status", "said"),
    [
        (
            {"type": "play", "seat": "0", "tile": "12-5", "target": "x"},
            400,
            "A train is its owner&#x27;s seat number or &quot;mexican&quot;",
        ),
        ({"type": "play", "seat": "0", "tile": "12-5"}, 400, "Tap where the tile goes"),
        ({"type": "play", "seat": "0", "tile": "5-4", "target": "0"}, 422, "train.trains"),
        ({"type": "play", "seat": "1", "tile": "12-5", "target": "1"}, 422, "seat.order"),
        ({"type": "engine", "seat": "0", "tile": "11-11"}, 422, "train.engine"),
    ],
)
def test_a_refused_tap_is_said_in_place_and_changes_nothing(
    scorekeeper, mexican, data, status, said
):
    if data["type"] != "engine":
        tap(scorekeeper, mexican, {"type": "engine", "seat": "3", "tile": "12-12"})
    before = snapshot(mexican)
    response = tap(scorekeeper, mexican, data)
    assert response.status_code == status
    html = response.content.decode()
    assert said in html and 'id="table"' in html and "<html" not in html
    assert snapshot(mexican) == before


def a_round(scorekeeper, match) -> None:
    for data in (
        {"type": "engine", "seat": "1", "tile": "12-12"},
        {"type": "play", "seat": "2", "tile": "12-5", "target": "2"},
        {"type": "play", "seat": "3", "tile": "12-3", "target": "mexican"},
        {"type": "play", "seat": "0", "tile": "12-1", "target": "0"},
        {"type": "play", "seat": "1", "tile": "3-0", "target": "mexican"},
        {"type": "play", "seat": "2", "tile": "5-4", "target": "2"},
        {"type": "play", "seat": "3", "tile": "2-0", "target": "mexican"},
        {"type": "play", "seat": "0", "tile": "1-1", "target": "0"},
        {"type": "play", "seat": "0", "tile": "1-9", "target": "0"},
    ):
        assert tap(scorekeeper, match, data).status_code == 200, data


def test_the_tally_counts_the_double_blank_and_names_the_next_engine(scorekeeper, mexican):
    a_round(scorekeeper, mexican)
    html = page(scorekeeper, mexican)
    assert "Ana played their last tile" in html and "0-0 as 50" in html
    response = tap(
        scorekeeper, mexican,
        {"type": "tally", "hand-1": ["11-10"], "hand-2": ["10-10"], "hand-3": ["11-11"]},
    )  # fmt: skip
    assert response.status_code == 200
    html = page(scorekeeper, mexican)
    assert "Round 1 (12-12): Ana played out" in html
    assert "Round 2: 11-11. Who holds it?" in html
    mexican.refresh_from_db()
    assert mexican.totals == [0, 21, 20, 22]


def test_a_score_pad_match_of_three_rounds(scorekeeper):
    match = keep(
        scorekeeper,
        services.create_match("mexican-train", NAMES, {"record": "scores", "rounds": 3}),
    )
    html = page(scorekeeper, match)
    assert "Round 1 (12-12): what is left in each hand" in html
    assert "Play round 1 tile by tile" in html and 'id="play-form"' not in html
    rounds = [
        {"out-0": "1", "pips-1": "23", "pips-2": "7", "pips-3": "60"},
        {"pips-0": "12", "out-1": "1", "pips-2": "9", "pips-3": "4"},
        {"out-0": "1", "hand-1": ["12-11", "0-0"], "hand-2": ["5-5"], "hand-3": ["1-0"]},
    ]
    for fields in rounds:
        assert tap(scorekeeper, match, {"type": "tally", **fields}).status_code == 200
    match.refresh_from_db()
    assert match.totals == [12, 96, 26, 65]
    assert match.status == Match.FINISHED and match.winner == 0
    assert "Ana wins the match with 12." in page(scorekeeper, match)
    # A pip total no hand could hold is refused, in place.
    other = keep(scorekeeper, services.create_match("mexican-train", NAMES, {"record": "scores"}))
    before = snapshot(other)
    response = tap(scorekeeper, other, {"type": "tally", "out-0": "1", "pips-1": "9999",
                                         "pips-2": "1", "pips-3": "1"})  # fmt: skip
    assert response.status_code in (400, 422) and snapshot(other) == before


def test_a_score_pad_switches_to_play_by_play_at_a_rounds_start(scorekeeper):
    match = keep(scorekeeper, services.create_match("block", NAMES[:3], {"record": "scores"}))
    assert tap(scorekeeper, match, {"type": "tally", "out-0": "1", "pips-1": "13",
                                    "pips-2": "10"}).status_code == 200  # fmt: skip
    assert keep_round(scorekeeper, match, "plays").status_code == 200
    html = page(scorekeeper, match)
    assert 'id="play-form"' in html and "Keep round 2 as a score pad" in html
    assert tap(scorekeeper, match, {"type": "play", "seat": "1", "tile": "6-6",
                                    "target": "lead"}).status_code == 200  # fmt: skip
    # Begun: how it is kept can no longer change.
    response = keep_round(scorekeeper, match, "scores")
    assert response.status_code == 422 and "pad.record" in response.content.decode()
    assert Round.objects.get(match=match, number=2).record == "plays"
    exported = json.loads(page(scorekeeper, match, "export.json"))
    assert "record" not in exported["rounds"][0] and exported["rounds"][1]["record"] == "plays"
    # The export imports as it was kept.
    again = services.import_match(exported)
    assert Round.objects.get(match=again, number=2).record == "plays"
    assert services.export_match(again)["rounds"] == exported["rounds"]


def test_a_match_without_a_score_pad_cannot_switch(scorekeeper, mexican):
    before = snapshot(mexican)
    response = keep_round(scorekeeper, mexican, "plays")
    assert response.status_code == 422 and "has no score pad" in response.content.decode()
    assert snapshot(mexican) == before


def test_the_records_count_lowest_totals_as_penalties(scorekeeper, mexican):
    a_round(scorekeeper, mexican)
    tally = {"type": "tally", "hand-1": ["11-10"], "hand-2": ["10-10"], "hand-3": ["11-11"]}
    tap(scorekeeper, mexican, tally)
    csv = page(scorekeeper, mexican, "scores.csv")
    assert csv.splitlines()[1].startswith("1,Ana,domino,0,21,20,22")
    summary = page(scorekeeper, mexican, "summary/")
    assert "Lowest total wins, after 13 rounds." in summary
    replay = page(scorekeeper, mexican, "rounds/1/?step=3")
    assert 'aria-label="Trains"' in replay and "Mexican Train" in replay
    assert Action.objects.filter(round__match=mexican, kind="engine").count() == 1


@pytest.mark.parametrize("game", ["mexican-train", "chicken-foot"])
def test_the_referees_desk_rules_on_a_train_game(scorekeeper, game):
    match = keep(scorekeeper, services.create_match(game, NAMES[:3], {}))
    first = "12-12" if game == "mexican-train" else "9-9"
    tap(scorekeeper, match, {"type": "engine", "seat": "0", "tile": first})
    position = scorekeeper.post(f"/matches/{match.pk}/ask/")["Location"]
    html = scorekeeper.get(position).content.decode()
    assert "The referee's desk: " in html and 'id="picker"' in html
    target = {"target": "0"} if game == "mexican-train" else {"target": first}
    ruling = scorekeeper.post(
        position, {"type": "play", "seat": "1", "tile": "3-2", **target}, HTTP_HX_REQUEST="true"
    ).content.decode()
    rule = "train.marker" if game == "mexican-train" else "foot.root"
    assert rule in ruling


@pytest.mark.parametrize("game", ["mexican-train", "chicken-foot"])
def test_the_new_match_form_starts_a_train_game(scorekeeper, game):
    response = scorekeeper.post(
        "/matches/new/",
        {"game": game, "player-0": "Ana", "player-1": "Ben", "player-2": "Caro",
         f"{game}.rounds": "3", f"{game}.record": "scores"},
    )  # fmt: skip
    assert response.status_code == 302
    match = Match.objects.get()
    assert match.options["rounds"] == 3 and match.options["record"] == "scores"
