"""The record book: player pages, leaderboards, the score sheet as CSV and as a chart."""

from __future__ import annotations

import csv
import io
import re
import xml.etree.ElementTree as ET

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring import records, services
from scoring.models import Action, Match, Player, Round

from .conftest import keep


@pytest.fixture(autouse=True)
def _public_records(settings) -> None:
    """These tests read records as anyone may on a server with public records; who may see
    them when they are private is tests/scoring/test_attacked.py's (issue 28)."""
    settings.BONEYARD_PUBLIC_RECORDS = True


SVG = "{http://www.w3.org/2000/svg}"


def document(game: str, names: list[str], rounds: list[list[dict]], **options) -> dict:
    return {
        "format": "boneyard-match/1",
        "game": game,
        "options": options,
        "players": names,
        "rounds": [{"actions": actions} for actions in rounds],
    }


def block(names: list[str], winners: list[int], game: str = "block") -> Match:
    """A match of one-tile rounds: each winner dominoes with 6-6 and scores 10 from every
    other seat; five won rounds (50) win the match."""

    def round_won_by(seat: int) -> list[dict]:
        pips = {str(s): 0 if s == seat else 10 for s in range(len(names))}
        return [{"type": "play", "seat": seat, "tile": "6-6"}, {"type": "tally", "pips": pips}]

    rounds = [round_won_by(seat) for seat in winners]
    return services.import_match(document(game, names, rounds, hand_size=1, target=50))


def beats(winner: str, loser: str, game: str = "block") -> Match:
    return block([winner, loser], [0] * 5, game)


def player(name: str) -> Player:
    return Player.objects.get(name=name)


# A Muggins round of All Fives, Ana against Ben: Ana's 5-5 (10) goes undeclared and Ben takes
# it; Ben declares his 5-0 (10); Ana under-declares her 0-0 (10) at 5, Ben calls Muggins, and
# the call is taken back.
MUGGINS_ROUND = [
    {"type": "play", "seat": 0, "tile": "5-5"},
    {"type": "muggins", "seat": 1},
    {"type": "play", "seat": 1, "tile": "5-0", "on": "5-5"},
    {"type": "declare", "seat": 1, "points": 10},
    {"type": "play", "seat": 0, "tile": "0-0", "on": "5-0"},
    {"type": "declare", "seat": 0, "points": 5},
    {"type": "muggins", "seat": 1},
    {"type": "undo"},
]


@pytest.fixture
def muggins_match(db) -> Match:
    return services.import_match(
        document("all-fives", ["Ana", "Ben"], [MUGGINS_ROUND], muggins=True)
    )


# -- player pages -----------------------------------------------------------------------


def test_a_player_page_counts_matches_played_and_won_per_game(client, muggins_match):
    beats("Ana", "Ben")
    beats("Ben", "Ana")
    beats("Ana", "Ben")
    block(["Ana", "Ben"], [1, 0])  # in progress
    games = {g["slug"]: g for g in records.player_context(player("Ana"), [])["games"]}
    assert list(games) == ["block", "all-fives"]  # the rulebook's order
    assert (games["block"]["played"], games["block"]["won"], games["block"]["playing"]) == (3, 2, 1)
    fives = games["all-fives"]
    assert (fives["played"], fives["won"], fives["playing"]) == (0, 0, 1)
    html = client.get(f"/players/{player('Ana').pk}/").content.decode()
    assert "+1 in progress" in html and "Played and won count finished matches" in html


def test_the_average_counts_points_of_finished_rounds_only(db):
    beats("Ana", "Ben")  # Ana 50 in 5 rounds
    block(["Ana", "Ben"], [1])  # Ben 10 in 1 round, still in progress
    services.import_match(document("all-fives", ["Ana", "Ben"], [MUGGINS_ROUND[:1]]))  # no result
    games = {g["slug"]: g for g in records.player_context(player("Ana"), [])["games"]}
    assert games["block"]["average"] == "8.3" and games["block"]["unit"] == "points"
    assert games["all-fives"]["average"] is None  # no finished round: no average
    ben = {g["slug"]: g for g in records.player_context(player("Ben"), [])["games"]}
    assert ben["block"]["average"] == "1.7"


def test_havoc_averages_are_penalty_points(db):
    match = services.create_match("havoc", ["Ana", "Ben"], {})
    Round.objects.create(
        match=match,
        number=1,
        result={"winner": 1, "reason": "train", "pips": {}, "points": {"0": 7}},
    )
    games = records.player_context(player("Ana"), [])["games"]
    assert (games[0]["average"], games[0]["unit"]) == ("7.0", "penalty points")


def test_muggins_calls_made_and_suffered_leave_out_a_call_taken_back(client, muggins_match):
    ana = records.player_context(player("Ana"), [])
    ben = records.player_context(player("Ben"), [])
    assert ana["muggins"] == {"made": 0, "suffered": 1}
    assert ben["muggins"] == {"made": 1, "suffered": 0}
    html = client.get(f"/players/{player('Ben').pk}/").content.decode()
    assert "Muggins! called 1 time, suffered 0 times." in html


def test_a_call_after_a_draw_is_on_the_last_tile_placed(db):
    services.import_match(
        document(
            "muggins",
            ["Ana", "Ben", "Caro"],
            [
                [
                    {"type": "play", "seat": 0, "tile": "5-5"},
                    {"type": "draw", "seat": 1},
                    {"type": "muggins", "seat": 2},
                ]
            ],
        )
    )
    assert records.player_context(player("Ana"), [])["muggins"] == {"made": 0, "suffered": 1}
    assert records.player_context(player("Ben"), [])["muggins"] == {"made": 0, "suffered": 0}
    assert records.player_context(player("Caro"), [])["muggins"] == {"made": 1, "suffered": 0}


def test_muggins_is_not_mentioned_to_a_player_who_never_played_with_it(db):
    beats("Ana", "Ben")
    assert records.player_context(player("Ana"), [])["muggins"] is None


def test_the_best_play_is_what_a_declaration_earned_in_muggins_mode(muggins_match):
    best = records.player_context(player("Ben"), [])["best"]
    assert (best["tile"], best["points"], best["game"]) == ("5-0", 10, "All Fives")
    # Ana's 5-5 was taken by Ben; her 0-0 earned the 5 she declared.
    assert records.player_context(player("Ana"), [])["best"]["tile"] == "0-0"


def test_the_best_play_names_tile_game_and_match_and_skips_an_undone_play(client, db):
    match = services.import_match(
        document(
            "all-fives",
            ["Ana", "Ben"],
            [
                [
                    {"type": "play", "seat": 0, "tile": "6-4"},  # 10
                    {"type": "play", "seat": 1, "tile": "6-1", "on": "6-4"},  # 5, taken back
                    {"type": "undo"},
                    {"type": "play", "seat": 1, "tile": "4-0", "on": "6-4"},
                ]
            ],  # 6: nothing
        )
    )
    assert records.player_context(player("Ben"), [])["best"] is None
    html = client.get(f"/players/{player('Ana').pk}/").content.decode()
    assert re.search(r"<strong>6-4 for 10</strong> in All Fives\s+</li>", html)
    assert f"#{match.pk}" not in html  # the match is named only to a phone with its link


def test_the_best_play_with_a_false_claim_is_what_was_left_after_the_challenge(db):
    services.import_match(
        document(
            "all-fives",
            ["Ana", "Ben"],
            [
                [
                    {"type": "play", "seat": 0, "tile": "5-5"},
                    {"type": "declare", "seat": 0, "points": 20},
                    {"type": "challenge", "seat": 1},
                ]
            ],
            muggins=True,
            false_claim_penalty=True,
        )
    )
    assert records.player_context(player("Ana"), [])["best"]["points"] == 10


def test_the_page_links_only_matches_this_phone_joined(scorekeeper, db):
    joined = keep(scorekeeper, beats("Ana", "Ben"))
    private = beats("Ana", "Caro")
    html = scorekeeper.get(f"/players/{player('Ana').pk}/").content.decode()
    assert f'href="/matches/{joined.pk}/summary/"' in html
    assert f"/matches/{private.pk}/" not in html
    # Who played a match and how it ended belong to its table: not listed at all.
    assert f"Block #{private.pk}" not in html and "Caro" not in html
    assert "with Ben" in html and "won" in html


def test_the_recent_matches_say_won_lost_or_in_progress(db):
    won, lost, playing = beats("Ana", "Ben"), beats("Ben", "Ana"), block(["Ana", "Ben"], [0])
    every = [won.pk, lost.pk, playing.pk]
    recent = {m["pk"]: m["outcome"] for m in records.player_context(player("Ana"), every)["recent"]}
    assert recent == {won.pk: "won", lost.pk: "lost", playing.pk: "in progress"}


def test_a_player_without_matches_has_a_page(client, db):
    lonely = Player.objects.create(name="Zed")
    html = client.get(f"/players/{lonely.pk}/").content.decode()
    assert "Zed has no match yet" in html
    assert client.get("/players/999999/").status_code == 404


# -- leaderboards -----------------------------------------------------------------------


@pytest.fixture
def league(db) -> None:
    for winner, loser in [
        ("Ana", "Eve"), ("Ana", "Fay"), ("Dan", "Ana"), ("Caro", "Fay"), ("Caro", "Dan"),
        ("Ben", "Gus"),
    ]:  # fmt: skip
        beats(winner, loser)
    block(["Gus", "Eve"], [0, 0, 0])  # in progress: counts for nobody
    beats("Hal", "Ben", game="draw")


def ranking(html: str, title: str) -> list[tuple[str, str]]:
    """(rank, name) of the rows of one game's table."""
    section = html.split(f">{title}</h2>")[1].split("</section>")[0]
    return re.findall(r"<tr><td>(\d+)</td><th scope=\"row\"><a[^>]*>([^<]+)</a>", section)


def test_the_leaderboard_ranks_by_wins_then_win_rate_then_matches_played(client, league):
    html = client.get("/players/").content.decode()
    assert ranking(html, "Block") == [
        ("1", "Caro"), ("2", "Ana"), ("3", "Ben"), ("4", "Dan"), ("5", "Fay"),
        ("6", "Eve"), ("6", "Gus"),
    ]  # fmt: skip
    assert ranking(html, "Draw") == [("1", "Hal"), ("2", "Ben")]
    assert "Only finished matches count" in html
    assert f'href="/players/{player("Caro").pk}/"' in html
    assert 'href="/players/?game=block"' in html and 'href="/players/?game=draw"' in html
    rows = records.leaderboard_context("block")["sections"][0]["players"]
    assert [(r["name"], r["won"], r["played"], r["rate"]) for r in rows[:2]] == [
        ("Caro", 2, 2, "100%"), ("Ana", 2, 3, "67%"),
    ]  # fmt: skip


def test_the_leaderboard_of_one_game(client, league):
    html = client.get("/players/?game=draw").content.decode()
    assert ranking(html, "Draw") == [("1", "Hal"), ("2", "Ben")]
    assert ">Block</h2>" not in html and "Caro" not in html
    assert '<a href="/players/?game=draw" aria-current="page">' in html


def test_a_game_without_a_finished_match_says_so(client, db):
    block(["Ana", "Ben"], [0])
    html = client.get("/players/").content.decode()
    assert "No match of Block has finished yet." in html
    html = client.get("/players/?game=cross").content.decode()
    assert "No match of Cross has finished yet." in html


def test_an_unknown_game_is_not_found(client, db):
    assert client.get("/players/?game=chess").status_code == 404


# -- work per request -------------------------------------------------------------------


def queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def test_the_record_pages_cost_the_same_queries_for_one_match_or_many(scorekeeper, db):
    keep(scorekeeper, beats("Ana", "Ben"))
    services.import_match(document("all-fives", ["Ana", "Ben"], [MUGGINS_ROUND], muggins=True))
    pages = ["/players/", f"/players/{player('Ana').pk}/", "/players/?game=block"]
    few = [queries(scorekeeper, url) for url in pages]
    for _ in range(4):
        keep(scorekeeper, beats("Ben", "Ana"))
        beats("Ana", "Caro", game="draw")
        services.import_match(
            document("muggins", ["Ana", "Ben", "Caro"], [MUGGINS_ROUND[:2] + [{"type": "undo"}]])
        )
    many = [queries(scorekeeper, url) for url in pages]
    assert few == many, (few, many)
    assert max(many) <= 10


# -- the score sheet as CSV -------------------------------------------------------------


def sheet_rows(match: Match) -> list[list[str]]:
    return list(csv.reader(io.StringIO(records.score_sheet_csv(match))))


def test_the_csv_has_a_header_a_row_per_round_and_the_totals(scorekeeper, db):
    match = keep(scorekeeper, block(["Ana", "Ben"], [1, 0, 1]))
    rows = sheet_rows(match)
    assert rows[0] == [
        "Round", "Winner", "Reason", "Ana points", "Ben points", "Ana total", "Ben total",
        "Corrections and adjustments",
    ]  # fmt: skip
    assert rows[1:4] == [
        ["1", "Ben", "domino", "0", "10", "0", "10", ""],
        ["2", "Ana", "domino", "10", "0", "10", "10", ""],
        ["3", "Ben", "domino", "0", "10", "10", "20", ""],
    ]
    assert rows[4] == ["Total", "", "in progress", "10", "20", "10", "20", ""]
    response = scorekeeper.get(f"/matches/{match.pk}/scores.csv")
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response.content.decode() == records.score_sheet_csv(match)


def test_the_csv_includes_a_round_in_progress(db):
    match = services.import_match(document("all-fives", ["Ana", "Ben"], [MUGGINS_ROUND[:1]]))
    assert sheet_rows(match)[1] == ["1", "—", "in progress", "10", "0", "10", "0", ""]


def test_the_csv_guards_names_against_formulas_but_not_negative_numbers(db):
    match = beats("=SUM(A1)", "+Ben")
    rows = sheet_rows(match)
    assert rows[0][3:] == [
        "'=SUM(A1) points", "'+Ben points", "'=SUM(A1) total", "'+Ben total",
        "Corrections and adjustments",
    ]  # fmt: skip
    assert rows[1][1] == "'=SUM(A1)" and rows[-1][1] == "'=SUM(A1)"
    Round.objects.filter(match=match, number=5).update(
        result={"winner": None, "reason": "blocked", "pips": {}, "points": {"1": -5}}
    )
    fifth = Action.objects.filter(round__match=match, round__number=5)
    fifth.update(points=[])
    fifth.filter(pk=fifth.last().pk).update(points=[0, -5])
    Match.objects.filter(pk=match.pk).update(totals=[40, -5])
    match.refresh_from_db()
    assert sheet_rows(match)[5] == ["5", "—", "blocked", "0", "-5", "40", "-5", ""]


# -- the score sheet as a chart ---------------------------------------------------------


def test_the_chart_draws_a_line_per_player_with_escaped_names(db):
    match = block(['<b>"Ana"</b> & co', "Ben", "Caro"], [0, 1, 0])
    svg = records.score_chart_svg(match)
    root = ET.fromstring(svg)  # well formed: every name was escaped
    assert root.get("role") == "img" and root.get("viewBox", "").startswith("0 0 360 ")
    label = 'Scores by round: <b>"Ana"</b> & co 40, Ben 20, Caro 0 after 3 rounds'
    assert root.get("aria-label") == label and root.find(f"{SVG}title").text == label
    lines = root.findall(f".//{SVG}polyline")
    assert len(lines) == 3
    assert [len(line.get("points").split()) for line in lines] == [4, 4, 4]  # rounds 0 to 3
    legend = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "legend"]
    assert legend == ['<b>"Ana"</b> & co: 40', "Ben: 20", "Caro: 0"]
    assert "<b>" not in svg


def test_each_line_differs_by_more_than_its_colour(db):
    root = ET.fromstring(records.score_chart_svg(block(["Ana", "Ben", "Caro", "Dan"], [0, 1])))
    series = [g for g in root.iter(f"{SVG}g") if "series" in g.get("class", "")][:4]
    # A line's look: its dash, and its marker's shape wherever the marker stands.
    looks = {
        (g.find(f"{SVG}polyline").get("stroke-dasharray"),
         re.sub(r"M[\d.]+ [\d.]+", "", g.find(f"{SVG}path").get("d")))
        for g in series
    }  # fmt: skip
    assert len(looks) == 4


def test_the_chart_obeys_the_content_security_policy(db):
    svg = records.score_chart_svg(block(["Ana", "Ben"], [0, 1, 1]))
    assert svg and "style" not in svg.lower()
    assert 'stroke="currentColor"' in svg  # follows the theme's text colour in dark mode


def test_there_is_no_chart_before_a_round_is_finished(client, db):
    match = keep(
        client, services.import_match(document("all-fives", ["Ana", "Ben"], [MUGGINS_ROUND[:1]]))
    )
    assert records.score_chart_svg(match) == ""
    html = client.get(f"/matches/{match.pk}/summary/").content.decode()
    assert "<svg" not in html and "Scores by round" not in html


def test_the_axis_steps_are_round_numbers(db):
    assert records._ticks(0, 50, most=5) == [0, 10, 20, 30, 40, 50]
    assert records._ticks(-5, 61, most=5) == [-20, 0, 20, 40, 60, 80]
    assert records._ticks(0, 0, most=5) == [0, 1]


# -- the score sheet screen -------------------------------------------------------------


def test_the_score_sheet_links_players_rounds_the_csv_and_shows_the_chart(scorekeeper, db):
    match = keep(scorekeeper, block(["Ana", "Ben"], [0, 1]))
    services.record(match.pk, {"type": "play", "seat": 0, "tile": "6-6"}, match.version, "k" * 16)
    html = scorekeeper.get(f"/matches/{match.pk}/summary/").content.decode()
    assert f'href="/players/{player("Ana").pk}/"' in html
    assert f'href="/players/{player("Ben").pk}/"' in html
    assert f'href="/matches/{match.pk}/scores.csv"' in html and "Download scores (CSV)" in html
    assert f'href="/matches/{match.pk}/rounds/1/"' in html
    assert f'href="/matches/{match.pk}/rounds/2/"' in html
    assert f"/matches/{match.pk}/rounds/3/" not in html  # in progress: nothing to replay yet
    assert html.count("<polyline") == 2 and 'aria-label="Scores by round: Ana 10, Ben 10' in html


def test_the_match_page_shows_the_chart_once_a_round_is_finished(scorekeeper, quick_block):
    from scoring import services

    html = scorekeeper.get(f"/matches/{quick_block.pk}/").content.decode()
    assert "/chart/" not in html
    services.record(quick_block.pk, {"type": "play", "seat": 0, "tile": "6-6"}, 0, "chart-lead-0")
    services.record(quick_block.pk, {"type": "tally", "hands": {"1": ["5-4"]}}, 1, "chart-tally-0")
    html = scorekeeper.get(f"/matches/{quick_block.pk}/").content.decode()
    # Fetched when scrolled to, so the table page's work stays flat as rounds add up.
    assert f'hx-get="/matches/{quick_block.pk}/chart/" hx-trigger="intersect once"' in html
    chart = scorekeeper.get(f"/matches/{quick_block.pk}/chart/").content.decode()
    assert '<section class="chart"' in chart and "Scores by round: Ana 9, Ben 0" in chart


def test_the_chart_is_for_phones_at_the_table_only(stranger, quick_block):
    assert stranger.get(f"/matches/{quick_block.pk}/chart/").status_code == 404


def test_a_havoc_round_the_table_stopped_is_not_a_round_played(db):
    from scoring import services

    match = services.create_match("havoc", ["Ana", "Zed"], {})
    Round.objects.create(
        match=match, number=1,
        result={"winner": 0, "reason": "train", "pips": {"0": 0, "1": 10}, "points": {"1": 10}},
    )  # fmt: skip
    Round.objects.create(
        match=match, number=2, result={"winner": None, "reason": "stopped", "points": {}}
    )
    games = records.player_context(player("Zed"), [])["games"]
    assert [(g["slug"], g["average"], g["unit"]) for g in games] == [
        ("havoc", "10.0", "penalty points")
    ]
