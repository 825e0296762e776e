"""Partnerships in the record book (RULES.md §8): the score sheet, its CSV and its chart speak
of teams; a team's win is both partners' win, while each seat's own points stay its own; the
leaderboard ranks the pairs as well as the players."""

from __future__ import annotations

import csv
import io
import re
import xml.etree.ElementTree as ET

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring import records, services
from scoring.models import Match, Player
from scoring.screens.summary import summary_context

from .conftest import keep


@pytest.fixture(autouse=True)
def _public_records(settings) -> None:
    """These tests read records as anyone may on a server with public records; who may see
    them when they are private is tests/scoring/test_attacked.py's (issue 28)."""
    settings.BONEYARD_PUBLIC_RECORDS = True


SVG = "{http://www.w3.org/2000/svg}"
NAMES = ["Ana", "Ben", "Caro", "Dan"]


def document(game: str, names: list[str], rounds: list[list[dict]], **options) -> dict:
    return {
        "format": "boneyard-match/1",
        "game": game,
        "options": options,
        "players": names,
        "rounds": [{"actions": actions} for actions in rounds],
    }


def block(winners: list[int], names: list[str] = NAMES, partnerships: bool = True) -> Match:
    """Block of one-tile rounds: each winner dominoes with 6-6 and every other hand holds 10.
    In partnerships the partner's 10 is the team's own (``team.block``), so a round is worth
    20 to the seat that dominoed, and three won rounds (60) reach the target of 50."""

    def round_won_by(seat: int) -> list[dict]:
        pips = {str(s): 0 if s == seat else 10 for s in range(len(names))}
        return [{"type": "play", "seat": seat, "tile": "6-6"}, {"type": "tally", "pips": pips}]

    options = {"hand_size": 1, "target": 50}
    if partnerships:
        options["partnerships"] = True
    rounds = [round_won_by(seat) for seat in winners]
    return services.import_match(document("block", names, rounds, **options))


def player(name: str) -> Player:
    return Player.objects.get(name=name)


def by_game(name: str) -> dict[str, dict]:
    return {g["slug"]: g for g in records.player_context(player(name), [])["games"]}


@pytest.fixture
def tables(db) -> dict[str, Match]:
    """Four finished partnership matches of Block, and one in progress."""
    return {
        # Ana scores every point; Caro, her partner, scores none and wins all the same.
        "ana": block([0, 0, 0]),
        # Dan (seat 3) scores for Ben & Dan: the winner is the team's first seat, Ben's.
        "dan": block([3, 3, 3]),
        # The same pairs in other seats: Caro & Ana at 0 and 2, Dan & Ben at 1 and 3.
        "swapped": block([1, 1, 1], ["Caro", "Dan", "Ana", "Ben"]),
        # Another pairing: Ana & Ben against Caro & Dan, Ana scoring.
        "mixed": block([0, 0, 0], ["Ana", "Caro", "Ben", "Dan"]),
        "playing": block([2]),
    }


# -- the win belongs to the team ----------------------------------------------------------


def test_the_match_winner_is_the_teams_first_seat(tables):
    ana, dan = tables["ana"], tables["dan"]
    assert (ana.status, ana.winner, ana.totals) == (Match.FINISHED, 0, [60, 0, 0, 0])
    assert (dan.status, dan.winner, dan.totals) == (Match.FINISHED, 1, [0, 0, 0, 60])


def test_a_partner_who_scored_nothing_still_won(tables):
    recent = records.player_context(player("Caro"), [tables["ana"].pk])["recent"]
    assert [(m["outcome"], m["total"]) for m in recent] == [("won", 60)]  # the team's 60
    assert (recent[0]["partners"], recent[0]["others"]) == (["Ana"], ["Ben", "Dan"])
    for name in ("Ben", "Dan"):
        recent = records.player_context(player(name), [tables["ana"].pk])["recent"]
        assert recent[0]["outcome"] == "lost", name


def test_the_win_of_the_second_team_counts_for_its_second_seat(tables):
    every = [m.pk for m in tables.values()]
    for name, expected in [("Dan", "won"), ("Ben", "won"), ("Ana", "lost"), ("Caro", "lost")]:
        recent = records.player_context(player(name), every)["recent"]
        assert {m["pk"]: m["outcome"] for m in recent}[tables["dan"].pk] == expected, name


def test_the_counts_per_game_give_each_partner_the_teams_wins(tables):
    # Finished: ana (Ana & Caro won), dan and swapped (Ben & Dan won), mixed (Ana & Ben won).
    counts = {name: by_game(name)["block"] for name in NAMES}
    assert {n: (c["played"], c["won"], c["playing"]) for n, c in counts.items()} == {
        "Ana": (4, 2, 1),
        "Ben": (4, 3, 1),
        "Caro": (4, 1, 1),
        "Dan": (4, 2, 1),
    }


def test_each_players_own_points_stay_their_own(tables):
    # Rounds sat in: 3 in each finished match and 1 in progress. Ana dominoed 6 of them for
    # 20 each, Dan 6 and Caro 1; Ben none. A partner's points are not the player's.
    averages = {name: by_game(name)["block"]["average"] for name in NAMES}
    assert averages == {"Ana": "9.2", "Ben": "0.0", "Caro": "1.5", "Dan": "9.2"}


def test_a_players_best_play_is_their_own_not_their_partners(db):
    # All Fives in partnerships: Ana's 6-4 scores 10, Ben's 4-0 nothing, Caro's 6-5 five,
    # and Dan's 5-0 ten.
    services.import_match(
        document(
            "all-fives",
            NAMES,
            [
                [
                    {"type": "play", "seat": 0, "tile": "6-4"},
                    {"type": "play", "seat": 1, "tile": "4-0", "on": "6-4"},
                    {"type": "play", "seat": 2, "tile": "6-5", "on": "6-4"},
                    {"type": "play", "seat": 3, "tile": "5-0", "on": "4-0"},
                ]
            ],
            partnerships=True,
        )
    )
    best = {name: records.player_context(player(name), [])["best"] for name in NAMES}
    assert (best["Ana"]["tile"], best["Ana"]["points"]) == ("6-4", 10)
    assert (best["Caro"]["tile"], best["Caro"]["points"]) == ("6-5", 5)
    assert (best["Dan"]["tile"], best["Dan"]["points"]) == ("5-0", 10)
    assert best["Ben"] is None


def test_the_player_page_says_won_with_the_partner_against_the_opponents(scorekeeper, tables):
    keep(scorekeeper, tables["ana"])
    html = scorekeeper.get(f"/players/{player('Caro').pk}/").content.decode()
    assert "with Ana against Ben &amp; Dan" in html
    assert re.search(r"· won · team 60</small>", html)
    html = scorekeeper.get(f"/players/{player('Dan').pk}/").content.decode()
    assert "with Ben against Ana &amp; Caro" in html and "· lost · team 0</small>" in html


def test_a_match_without_partnerships_reads_as_before(scorekeeper, db):
    match = keep(scorekeeper, block([0, 0], partnerships=False))  # 30 a round: Ana has 60
    recent = records.player_context(player("Caro"), [match.pk])["recent"]
    assert [(m["outcome"], m["total"], m["partners"]) for m in recent] == [("lost", 0, [])]
    assert recent[0]["others"] == ["Ana", "Ben", "Dan"]
    assert by_game("Ana")["block"]["won"] == 1 and by_game("Caro")["block"]["won"] == 0
    html = scorekeeper.get(f"/players/{player('Caro').pk}/").content.decode()
    assert "with Ana, Ben, Dan" in html and "· lost · 0</small>" in html


# -- the leaderboard ----------------------------------------------------------------------


def pair_rows(html: str, title: str) -> list[tuple[str, str, str, str, str]]:
    """(rank, pair, won, played, win rate) of the pairs table of one game."""
    section = html.split(f">{title}</h2>")[1].split("</section>")[0]
    table = section.split('<table class="scores leaderboard pairs"')[1].split("</table>")[0]
    rows = re.findall(
        r"<tr><td>(\d+)</td><th scope=\"row\">(.*?)</th><td>(\d+)</td><td>(\d+)</td>"
        r"<td>(\d+%)</td></tr>",
        table,
    )
    return [(rank, re.sub(r"<[^>]+>", "", pair), *rest) for rank, pair, *rest in rows]


def test_the_leaderboard_ranks_the_pairs_whichever_seats_they_took(client, tables):
    beats = block([0] * 5, ["Ana", "Ben"], partnerships=False)  # no pair: Ana alone
    assert beats.status == Match.FINISHED
    html = client.get("/players/").content.decode()
    assert pair_rows(html, "Block") == [
        ("1", "Ben &amp; Dan", "2", "3", "67%"),
        ("2", "Ana &amp; Ben", "1", "1", "100%"),
        ("3", "Ana &amp; Caro", "1", "3", "33%"),
        ("4", "Caro &amp; Dan", "0", "1", "0%"),
    ]
    assert '<h3 id="pairs-block">Partnerships</h3>' in html
    assert f'href="/players/{player("Dan").pk}/">Dan</a>' in html
    pairs = records.leaderboard_context("block")["sections"][0]["pairs"]
    assert [p["name"] for p in pairs] == ["Ben & Dan", "Ana & Ben", "Ana & Caro", "Caro & Dan"]
    assert [p["pk"] for p in pairs[2]["players"]] == [player("Ana").pk, player("Caro").pk]
    # The players' table counts a team's win for both partners.
    players = records.leaderboard_context("block")["sections"][0]["players"]
    assert [(p["rank"], p["name"], p["won"], p["played"]) for p in players] == [
        (1, "Ana", 3, 5), (1, "Ben", 3, 5), (3, "Dan", 2, 4), (4, "Caro", 1, 4),
    ]  # fmt: skip


def test_a_game_without_partnerships_has_no_pairs_table(client, db):
    block([0] * 5, ["Ana", "Ben"], partnerships=False)
    html = client.get("/players/").content.decode()
    assert "Partnerships" not in html and "<h3" not in html
    assert records.leaderboard_context(None)["sections"][0]["pairs"] == []


def test_only_finished_partnership_matches_make_a_pair(db):
    block([0, 2])  # in progress
    assert records.leaderboard_context("block")["sections"][0]["pairs"] == []


def test_the_leaderboard_costs_the_same_queries_for_one_partnership_match_or_many(client, db):
    def queries(url: str) -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        return len(captured)

    block([0, 0, 0])
    few = [queries("/players/"), queries("/players/?game=block")]
    for seats in (["Ana", "Eve", "Fay", "Gus"], ["Hal", "Ben", "Ivy", "Dan"]):
        block([1, 1, 1], seats)
        block([2, 0, 0], seats)
    assert [queries("/players/"), queries("/players/?game=block")] == few


# -- the score sheet ----------------------------------------------------------------------


@pytest.fixture
def sheet_match(scorekeeper) -> Match:
    """Rounds won by Ana, Dan, Caro, Ben and Caro: Ana & Caro reach 60 to Ben & Dan's 40."""
    return keep(scorekeeper, block([0, 3, 2, 1, 2]))


def test_the_score_sheet_rows_give_each_teams_points_and_running_total(sheet_match):
    sheet = summary_context(sheet_match)
    assert sheet["winner"] == "Ana & Caro"
    assert [r["winner"] for r in sheet["rounds"]] == [
        "Ana & Caro", "Ben & Dan", "Ana & Caro", "Ben & Dan", "Ana & Caro",
    ]  # fmt: skip
    columns = [[(t["points"], t["running"]) for t in r["teams"]] for r in sheet["rounds"]]
    assert columns == [
        [(20, 20), (0, 0)],
        [(0, 20), (20, 20)],
        [(20, 40), (0, 20)],
        [(0, 40), (20, 40)],
        [(20, 60), (0, 40)],
    ]
    assert [(t["name"], t["total"]) for t in sheet["teams"]] == [
        ("Ana & Caro", 60), ("Ben & Dan", 40),
    ]  # fmt: skip
    assert [(p["name"], p["total"]) for p in sheet["teams"][0]["players"]] == [
        ("Ana", 20), ("Caro", 40),
    ]  # fmt: skip
    assert sheet["rounds"][0]["points"] == [20, 0, 0, 0]  # each seat's own points stay


def test_the_score_sheet_page_speaks_of_teams(scorekeeper, sheet_match):
    html = scorekeeper.get(f"/matches/{sheet_match.pk}/summary/").content.decode()
    assert '<p class="winner">Ana &amp; Caro win the match.</p>' in html
    head = html.split("<thead>")[1].split("</thead>")[0]
    # A column per team, headed by its players (each linked) and its mark from the table.
    assert head.count('<th scope="col" class="team-') == 2
    ana, caro = player("Ana").pk, player("Caro").pk
    assert (
        '<th scope="col" class="team-0"><span class="team-mark" aria-hidden="true">●</span> '
        f'<a class="small-link" href="/players/{ana}/">Ana</a> &amp; '
        f'<a class="small-link" href="/players/{caro}/">Caro</a>'
    ) in head
    body = html.split("<tbody>")[1].split("</tbody>")[0]
    rows = [re.findall(r"<td>(.*?)</td>", row) for row in body.split("</tr>")[:-1]]
    shown = [[re.sub(r"<[^>]+>", "", cell) for cell in row] for row in rows]
    # Each team's points in the round, then (for a screen reader: ", total") its running total.
    assert shown[0] == [
        "Ana &amp; Caro domino",
        "+20&nbsp;→, total&nbsp;20",
        "·&nbsp;→, total&nbsp;0",
    ]
    assert [row[1:] for row in shown[3:]] == [
        ["·&nbsp;→, total&nbsp;40", "+20&nbsp;→, total&nbsp;40"],
        ["+20&nbsp;→, total&nbsp;60", "·&nbsp;→, total&nbsp;40"],
    ]
    assert shown[1][0] == "Ben &amp; Dan domino"
    foot = html.split("<tfoot>")[1].split("</tfoot>")[0]
    assert "<th>60<br><small>Ana 20 · Caro 40</small></th>" in foot
    assert "<th>40<br><small>Ben 20 · Dan 20</small></th>" in foot
    assert html.count("<polyline") == 2


def test_a_score_sheet_without_partnerships_has_no_team_columns(scorekeeper, db):
    match = keep(scorekeeper, block([0, 0], partnerships=False))
    assert summary_context(match)["teams"] is None
    html = scorekeeper.get(f"/matches/{match.pk}/summary/").content.decode()
    assert '<p class="winner">Ana wins the match.</p>' in html
    assert "colgroup" not in html and "&amp;" not in html.split("<table")[1]
    assert html.count("<polyline") == 4


# -- the CSV ------------------------------------------------------------------------------


def sheet_rows(match: Match) -> list[list[str]]:
    return list(csv.reader(io.StringIO(records.score_sheet_csv(match))))


def test_the_csv_has_team_columns_then_each_players(sheet_match):
    rows = sheet_rows(sheet_match)
    assert rows[0] == [
        "Round", "Winner", "Reason",
        "Ana & Caro points", "Ben & Dan points", "Ana & Caro total", "Ben & Dan total",
        "Ana points", "Ben points", "Caro points", "Dan points",
        "Ana total", "Ben total", "Caro total", "Dan total",
        "Corrections and adjustments",
    ]  # fmt: skip
    assert rows[1:] == [
        ["1", "Ana & Caro", "domino", "20", "0", "20", "0",
         "20", "0", "0", "0", "20", "0", "0", "0", ""],
        ["2", "Ben & Dan", "domino", "0", "20", "20", "20",
         "0", "0", "0", "20", "20", "0", "0", "20", ""],
        ["3", "Ana & Caro", "domino", "20", "0", "40", "20",
         "0", "0", "20", "0", "20", "0", "20", "20", ""],
        ["4", "Ben & Dan", "domino", "0", "20", "40", "40",
         "0", "20", "0", "0", "20", "20", "20", "20", ""],
        ["5", "Ana & Caro", "domino", "20", "0", "60", "40",
         "0", "0", "20", "0", "20", "20", "40", "20", ""],
        ["Total", "Ana & Caro", "finished", "60", "40", "60", "40",
         "20", "20", "40", "20", "20", "20", "40", "20", ""],
    ]  # fmt: skip


def test_the_csv_guards_team_names_against_formulas(db):
    match = block([0, 0, 0], ["=Ana", "Ben", "Caro", "Dan"])
    rows = sheet_rows(match)
    assert rows[0][3:7] == [
        "'=Ana & Caro points", "Ben & Dan points", "'=Ana & Caro total", "Ben & Dan total",
    ]  # fmt: skip
    assert rows[1][1] == "'=Ana & Caro" and rows[-1][1] == "'=Ana & Caro"


def test_a_csv_without_partnerships_is_unchanged(db):
    rows = sheet_rows(block([0, 3], partnerships=False))
    assert rows == [
        ["Round", "Winner", "Reason", "Ana points", "Ben points", "Caro points", "Dan points",
         "Ana total", "Ben total", "Caro total", "Dan total", "Corrections and adjustments"],
        ["1", "Ana", "domino", "30", "0", "0", "0", "30", "0", "0", "0", ""],
        ["2", "Dan", "domino", "0", "0", "0", "30", "30", "0", "0", "30", ""],
        ["Total", "", "in progress", "30", "0", "0", "30", "30", "0", "0", "30", ""],
    ]  # fmt: skip


# -- the chart ----------------------------------------------------------------------------


def test_the_chart_draws_a_line_per_team_named_by_its_players(sheet_match):
    svg = records.score_chart_svg(sheet_match)
    root = ET.fromstring(svg)
    label = "Scores by round: Ana & Caro 60, Ben & Dan 40 after 5 rounds"
    assert root.get("aria-label") == label and root.find(f"{SVG}title").text == label
    lines = root.findall(f".//{SVG}polyline")
    assert len(lines) == 2
    assert [len(line.get("points").split()) for line in lines] == [6, 6]  # rounds 0 to 5
    legend = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "legend"]
    assert legend == ["Ana & Caro: 60", "Ben & Dan: 40"]
    # The chart the score sheet page draws is the same.
    sheet = summary_context(sheet_match)
    assert records.score_chart(sheet["names"], sheet["rounds"]) == svg


def test_the_chart_without_partnerships_keeps_a_line_per_player(db):
    root = ET.fromstring(records.score_chart_svg(block([0, 3], partnerships=False)))
    assert len(root.findall(f".//{SVG}polyline")) == 4
    legend = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "legend"]
    assert legend == ["Ana: 30", "Ben: 0", "Caro: 0", "Dan: 30"]
