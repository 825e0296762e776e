"""Dominó's records in the app (``parejas.records``, issue 31): a Dominican hand with a pase de
salida, two pasos corridos and a capicúa, its tally recorded at the table, then the match
stopped; the score sheet, the player pages and the leaderboard show the referee's counts
(the export's ``records``), and other games' pages show none."""

from __future__ import annotations

import json
import re
from pathlib import Path

from scoring import services
from scoring.models import Match, Round

from .conftest import keep, tap

NAMES = ["Ana", "Ben", "Caro", "Dan"]
HAND = json.loads((Path(__file__).parent.parent / "referee" / "parejas_matches.json").read_text())[
    "dominican_capicua"
]["rounds"][0]["actions"]


def played(client) -> Match:
    """The hand imported up to its tally, tallied at the table, then the match stopped."""
    document = {"format": "boneyard-match/1", "game": "domino-dominican", "options": {},
                "players": NAMES, "rounds": [{"actions": HAND[:-1]}]}  # fmt: skip
    match = keep(client, services.import_match(document))
    assert services.record(match.pk, HAND[-1], match.version, services.new_key())
    assert tap(client, match, {"type": "stop"}).status_code == 200
    match.refresh_from_db()
    assert match.status == Match.FINISHED
    return match


def exported(client, match: Match) -> dict:
    return json.loads(client.get(f"/matches/{match.pk}/export.json").content)["records"]


def cells(html: str, row: str) -> list[str]:
    """The cells of the records row headed ``row``."""
    found = re.search(rf"<th scope=\"row\">{row}</th>(.*?)</tr>", html)
    assert found, row
    return re.findall(r"<td>(.*?)</td>", found.group(1))


def test_the_score_sheet_shows_each_player_s_records_as_the_referee_counts_them(scorekeeper):
    match = played(scorekeeper)
    records = exported(scorekeeper, match)
    assert records["1"]["capicua"] == 1 and records["2"]["pase_given"] == 1
    html = scorekeeper.get(f"/matches/{match.pk}/summary/").content.decode()
    sheet = html[html.index('class="domino-records"') :].split("</section>")[0]
    # Columns pair by pair: Ana, Caro, then Ben, Dan.
    assert re.findall(r"</span> (\w+)</th>", sheet) == ["Ana", "Caro", "Ben", "Dan"]
    assert cells(sheet, "Capicúas") == ["·", "·", "1", "·"]
    assert cells(sheet, "Pases given") == ["·", "1", "·", "·"]
    assert cells(sheet, "Pases suffered") == ["·", "·", "·", "1"]
    assert cells(sheet, "Pasos corridos") == ["1", "·", "1", "·"]
    spanish = scorekeeper.get(f"/matches/{match.pk}/summary/", HTTP_ACCEPT_LANGUAGE="es")
    assert "Capicúas" in spanish.content.decode()


def test_a_round_row_keeps_the_hand_s_counts_from_the_table_s_own_tally(scorekeeper):
    match = played(scorekeeper)
    first = Round.objects.get(match=match, number=1)
    records = exported(scorekeeper, match)
    assert first.records == [list(records[str(s)].values()) for s in range(4)]


def test_the_player_page_and_the_leaderboard_show_the_records(scorekeeper):
    match = played(scorekeeper)
    ben = match.seats.get(number=1).player
    page = scorekeeper.get(f"/players/{ben.pk}/").content.decode()
    mine = page[page.index('class="record-facts domino-records"') :].split("</ul>")[0]
    assert "Capicúas: <strong>1</strong>" in mine
    assert "Pasos corridos: <strong>1</strong>" in mine
    assert "Pollonas: <strong>0</strong>" in mine
    board = scorekeeper.get("/players/?game=domino-dominican").content.decode()
    table = board[board.index('class="scores leaderboard records"') :].split("</table>")[0]
    rows = re.findall(r'href="/players/\d+/">(\w+)</a></th>(.*?)</tr>', table)
    # Most capicúas first, then chuchazos, pases given... in the columns' order.
    assert [name for name, _ in rows] == ["Ben", "Caro", "Dan", "Ana"]
    assert re.findall(r"<td>(.*?)</td>", rows[0][1]) == ["1", "·", "·", "·", "1", "·", "·", "·"]


def test_other_games_pages_show_no_records(scorekeeper, quick_block):
    assert tap(scorekeeper, quick_block, {"type": "play", "seat": "0", "tile": "0-0"})
    html = scorekeeper.get(f"/matches/{quick_block.pk}/summary/").content.decode()
    assert "domino-records" not in html
    board = scorekeeper.get("/players/").content.decode()
    assert "leaderboard records" not in board


def test_the_record_pages_cost_the_same_queries_for_one_dominó_match_or_many(scorekeeper):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def queries(url: str) -> int:
        with CaptureQueriesContext(connection) as seen:
            assert scorekeeper.get(url).status_code == 200
        return len(seen)

    ben = played(scorekeeper).seats.get(number=1).player
    pages = ["/players/", f"/players/{ben.pk}/", "/players/?game=domino-dominican"]
    few = [queries(url) for url in pages]
    for _ in range(3):
        played(scorekeeper)
    assert [queries(url) for url in pages] == few
    page = scorekeeper.get(f"/players/{ben.pk}/").content.decode()
    assert "Capicúas: <strong>4</strong>" in page


def test_verify_finds_a_round_s_stored_records_that_the_replay_does_not_make(scorekeeper):
    match = played(scorekeeper)
    assert services.verify(match) == []
    first = Round.objects.get(match=match, number=1)
    Round.objects.filter(pk=first.pk).update(records=[[9] * 8] * 4)
    assert any("stored records" in problem for problem in services.verify(match))


def test_a_phone_s_own_leaderboard_names_each_pair_once(scorekeeper):
    played(scorekeeper)  # this phone holds the match's link: its leaderboard is its players'
    board = scorekeeper.get("/players/?game=domino-dominican").content.decode()
    table = board[board.index('class="scores leaderboard pairs"') :].split("</table>")[0]
    pairs = re.findall(r'<th scope="row">(.*?)</th>', table)
    names = [re.findall(r'">(\w+)</a>', row) for row in pairs]
    assert names == [["Ben", "Dan"], ["Ana", "Caro"]]
