"""The referee's desk: positions from a match or a document, rulings that record nothing,
and links that reproduce a position exactly."""

from __future__ import annotations

import html as htmllib
import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from referee import Play, replay
from scoring import services
from scoring.models import Action, Match, Position
from tests.scoring.conftest import keep, watch

FIVES = {
    "format": "boneyard-match/1",
    "game": "all-fives",
    "players": ["Ana", "Ben"],
    "rounds": [
        {
            "actions": [
                {"type": "play", "seat": 0, "tile": "5-5"},
                {"type": "play", "seat": 1, "tile": "5-0", "on": "5-5"},
            ]
        }
    ],
}


def set_up(client, document=FIVES) -> str:
    response = client.post("/referee/", {"pasted": json.dumps(document)})
    assert response.status_code == 302, response.content.decode()[:500]
    return response["Location"]


def ruling(html: str) -> str:
    """The ruling's words, tags stripped."""
    found = re.search(r'<section class="ruling.*?</section>', html, re.S)
    assert found, "no ruling on the page"
    said = " ".join(htmllib.unescape(re.sub(r"<[^>]+>", " ", found.group(0))).split())
    return said.replace("( ", "(").replace(" )", ")")


def ask(client, url: str, htmx: bool = True, **fields) -> tuple[int, str]:
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = client.post(url, {"version": "0", "key": "k" * 32, **fields}, **headers)
    return response.status_code, response.content.decode()


def test_a_pasted_document_becomes_a_position_named_by_its_content(client, db):
    url = set_up(client)
    assert re.fullmatch(r"/referee/[A-Za-z0-9_-]{22}/", url)
    assert set_up(client) == url  # the same position, the same link
    assert Position.objects.count() == 1
    # Computed fields and spelling do not make another position: the referee's reading does.
    exported = {**FIVES, "totals": {"0": 10, "1": 10}, "options": {}}
    assert set_up(client, exported) == url
    other = {**FIVES, "rounds": [{"actions": FIVES["rounds"][0]["actions"][:1]}]}
    assert set_up(client, other) != url


def test_the_position_page_reproduces_the_position(client, db):
    html = client.get(set_up(client)).content.decode()
    assert "Count <strong>10</strong>" in html
    assert "Ben played 5-0 on 5-5" in html
    assert 'name="tile"' in html  # the table's own tile picker
    assert "/poll/" not in html and "export.json" not in html and "Watching" not in html
    link = re.search(r'readonly value="(http://testserver/referee/[^"]+/)"', html)
    assert link and client.get(link.group(1)).status_code == 200
    assert 'class="house-rules"' in html


def test_an_uploaded_file_works_too(client, db):
    upload = SimpleUploadedFile("match.json", json.dumps(FIVES).encode(), "application/json")
    response = client.post("/referee/", {"document": upload})
    assert response.status_code == 302 and response["Location"].startswith("/referee/")


@pytest.mark.parametrize(
    "pasted, says",
    [
        ("", "Choose a match document (.json) or paste one."),
        ("{not json", "That is not a JSON match document."),
        ("[1, 2]", "match document"),
        (json.dumps({**FIVES, "format": "chess/1"}), "format"),
        (json.dumps({**FIVES, "game": "snap"}), "snap"),
        (
            json.dumps(
                {**FIVES, "rounds": [{"actions": [{"type": "play", "seat": 0, "tile": "7-7"}]}]}
            ),
            "round 1, action 1",
        ),
        (
            json.dumps(
                {
                    **FIVES,
                    "rounds": [
                        {
                            "actions": [
                                *FIVES["rounds"][0]["actions"],
                                {"type": "play", "seat": 1, "tile": "4-4"},
                            ]
                        }
                    ],
                }
            ),
            "turn.order",
        ),
        ("[" * 5000 + "]" * 5000, "not a JSON match document"),
        ("{" + " " * (512 * 1024) + "}", "too large"),
    ],
)
def test_a_bad_document_is_refused_and_nothing_is_kept(client, db, pasted, says):
    response = client.post("/referee/", {"pasted": pasted})
    assert response.status_code == 400
    assert says in htmllib.unescape(response.content.decode())
    assert Position.objects.count() == 0


def test_unknown_and_malformed_keys_are_404(client, db):
    assert client.get("/referee/AAAAAAAAAAAAAAAAAAAAAA/").status_code == 404
    assert client.get("/referee/..%2F..%2Fetc/").status_code == 404
    assert client.get("/referee/" + "A" * 200 + "/").status_code == 404


def test_an_illegal_proposal_names_the_rule_its_text_and_what_is_legal(client, db):
    url = set_up(client)
    status, html = ask(client, url, type="play", seat="0", tile="5-1", target="5-0")
    said = ruling(html)
    assert status == 200
    assert said.startswith("Not legal: Ana played 5-1 on 5-0")
    assert "5-1 does not fit on 5-0, which shows 0. 5-1 fits on 5-5. (line.attach)" in said
    assert "Every later tile is attached to one free face" in said  # the rule's text
    assert '<a class="rule" href="/rules/all-fives/#line.attach">' in html
    assert "Legal now instead: Ana played 5-1 on 5-5" in said
    # A tile that fits nowhere: what the seat could do instead.
    said = ruling(ask(client, url, type="play", seat="0", tile="6-1", target="5-0")[1])
    assert "Legal now instead:" in said and "Ana played 6-0 on 5-0" in said


def test_a_legal_proposal_says_what_it_scores_and_why(client, db):
    url = set_up(client)
    status, html = ask(client, url, type="play", seat="0", tile="5-1", target="5-5/side")
    said = ruling(html)
    assert status == 200
    assert said.startswith("Legal: Ana played 5-1 on 5-5")
    assert "It would score nothing (fives.score)" in said
    status, html = ask(client, url, type="play", seat="0", tile="0-0", target="5-0")
    said = ruling(html)
    assert "It would score: Ana +10 (fives.score)" in said
    assert "The open ends show 10 (5-5) = 10." in said  # a double laid across shows nothing


def test_the_wrong_seat_is_refused_with_turn_order(client, db):
    status, html = ask(client, set_up(client), type="play", seat="1", tile="0-0", target="5-0")
    assert "turn.order" in ruling(html) and "Not legal" in ruling(html)


def test_asking_records_nothing_anywhere(client, scorekeeper, draw_match, db):
    url = set_up(client)
    before = (Action.objects.count(), Match.objects.count(), Position.objects.count())
    ask(client, url, type="play", seat="0", tile="0-0", target="5-0")
    ask(client, url, type="play", seat="0", tile="6-1", target="5-0")
    ask(client, url, htmx=False, type="draw", seat="0")
    assert (Action.objects.count(), Match.objects.count(), Position.objects.count()) == before
    assert Position.objects.get().document == {
        **FIVES,
        "options": Position.objects.get().document["options"],
    }


@pytest.mark.parametrize(
    "fields, status, says",
    [
        ({"type": "play", "seat": "9", "tile": "5-1", "target": "5-5"}, 200, "seat.order"),
        ({"type": "play", "seat": "0", "tile": "5-x", "target": "5-5"}, 400, "5-x"),
        ({"type": "juggle", "seat": "0"}, 400, "does not say what happened"),
        ({"type": "play", "seat": "0"}, 400, "Tap a tile first"),
    ],
)
def test_a_tampered_proposal_gets_a_clear_message(client, db, fields, status, says):
    url = set_up(client)
    got, html = ask(client, url, **fields)
    assert (got, says in htmllib.unescape(html)) == (status, True), html[:2000]


def test_play_it_on_makes_the_next_position_and_keeps_this_one(client, db):
    url = set_up(client)
    _, html = ask(client, url, type="play", seat="0", tile="0-0", target="5-0")
    action = htmllib.unescape(re.search(r'name="action" value="([^"]*)"', html).group(1))
    response = client.post(url, {"then": "play", "action": action})
    assert response.status_code == 302 and response["Location"] != url
    after = client.get(response["Location"]).content.decode()
    assert "Ana played 0-0 on 5-0" in after and "Count <strong>10</strong>" in after
    assert "Count <strong>10</strong>" in client.get(url).content.decode()
    assert Position.objects.count() == 2


@pytest.mark.parametrize(
    "action", ["{", "[]", '{"type": "play", "seat": 1, "tile": "0-0", "on": "5-0"}', "null"]
)
def test_play_it_on_refuses_a_tampered_action(client, db, action):
    url = set_up(client)
    response = client.post(url, {"then": "play", "action": action})
    assert response.status_code in (400, 422)
    assert Position.objects.count() == 1


def test_ask_about_this_position_takes_the_match_as_it_stands(
    scorekeeper, spectator, stranger, draw_match
):
    services.record(draw_match.pk, {"type": "play", "seat": 0, "tile": "6-6"}, 0, "desk-lead-0")
    draw_match.refresh_from_db()
    page = scorekeeper.get(f"/matches/{draw_match.pk}/").content.decode()
    assert f'action="/matches/{draw_match.pk}/ask/"' in page
    response = scorekeeper.post(f"/matches/{draw_match.pk}/ask/")
    assert response.status_code == 302
    kept = Position.objects.get()
    assert (
        replay(kept.document).rounds[0].actions
        == replay(services.document_of(draw_match)).rounds[0].actions
    )
    watch(spectator, draw_match)
    assert spectator.post(f"/matches/{draw_match.pk}/ask/")["Location"] == response["Location"]
    assert stranger.post(f"/matches/{draw_match.pk}/ask/").status_code == 404
    assert stranger.get(f"/matches/{draw_match.pk}/ask/").status_code in (404, 405)
    # The position is not the match: asking there records nothing in the match.
    ask(scorekeeper, response["Location"], type="play", seat="1", tile="6-3", target="6-6")
    assert Action.objects.filter(round__match=draw_match).count() == 1


def test_a_tally_between_rounds_and_a_new_round(client, db):
    block = {
        "format": "boneyard-match/1", "game": "block", "options": {"hand_size": 1},
        "players": ["Ana", "Ben"],
        "rounds": [{"actions": [{"type": "play", "seat": 0, "tile": "6-6"}]}],
    }  # fmt: skip
    url = set_up(client, block)
    status, html = ask(client, url, type="tally", **{"hand-1": "5-4"})
    said = ruling(html)
    assert said.startswith("Legal: The hands were tallied") and "Ana +9" in said
    action = htmllib.unescape(re.search(r'name="action" value="([^"]*)"', html).group(1))
    nxt = client.post(url, {"then": "play", "action": action})["Location"]
    # Round 2 has no action yet: the next action begins it.
    status, html = ask(client, nxt, type="play", seat="1", tile="3-3", target="lead")
    assert "Legal: Ben led 3-3" in ruling(html)
    action = htmllib.unescape(re.search(r'name="action" value="([^"]*)"', html).group(1))
    third = client.post(nxt, {"then": "play", "action": action})["Location"]
    document = Position.objects.get(key=third.split("/")[2]).document
    assert [len(r["actions"]) for r in document["rounds"]] == [2, 1]


@pytest.mark.parametrize("game", ["dump-truck", "havoc", "dominards", "muggins"])
def test_every_family_has_a_desk(scorekeeper, db, game):
    match = keep(scorekeeper, services.create_match(game, ["Ana", "Ben", "Caro"], {}))
    url = scorekeeper.post(f"/matches/{match.pk}/ask/")["Location"]
    page = scorekeeper.get(url)
    assert page.status_code == 200 and "referee's desk" in page.content.decode()
    status, html = ask(scorekeeper, url, type="undo")
    assert status == 200 and "Not legal: Took back the last action" in ruling(html)
    assert "procedure.misplay" in ruling(html)


def _play_until(game: str, wanted: type, players: int = 2):
    """A document played by the first legal actions until ``wanted`` becomes legal."""
    from referee.actions import Flip, Unload  # noqa: F401
    from referee.document import play_round
    from referee.games import engine

    rules = engine(game)
    state = rules.start(game, {}, ["Ana", "Ben", "Caro"][:players])
    actions = []
    for _ in range(200):
        legal = [a for a in rules.legal_actions(state) if a.kind != "undo"]
        found = [a for a in legal if isinstance(a, wanted)]
        if found and actions:
            return state, actions, found
        action = next((a for a in legal if a.kind in ("load", "take")), legal[0])
        actions.append(action)
        state = play_round(state, [action]).state
    raise AssertionError(f"{wanted.__name__} never became legal")


def test_a_truck_unload_is_ruled_with_its_chains(client, db):
    from referee.actions import Unload

    state, actions, unloads = _play_until("dump-truck", Unload)
    document = {
        "format": "boneyard-match/1", "game": "dump-truck", "players": ["Ana", "Ben"],
        "rounds": [{"actions": [a.to_dict() for a in actions]}],
    }  # fmt: skip
    url = set_up(client, document)
    unload = next(a for a in unloads if a.score)
    status, html = ask(client, url, type="unload", seat=str(unload.seat), score="1")
    said = ruling(html)
    assert status == 200 and said.startswith("Legal:"), said
    assert "The load:" in said and "(truck.best)" in said


def test_buttons_the_table_disables_can_be_asked_about(client, db):
    url = set_up(client)
    page = client.get(url).content.decode()
    knock = re.search(r"<button[^>]*>Ana knocks</button>", page).group(0)
    assert "disabled" not in knock and "data-desk" in page
    said = ruling(ask(client, url, type="pass", seat="0")[1])
    assert said.startswith("Not legal: Ana knocked") and "draw.must-draw" in said


def test_keeping_positions_is_rate_limited(client, db, settings):
    settings.BONEYARD_RATE_LIMITS = {**settings.BONEYARD_RATE_LIMITS, "create": (2, 60)}
    url = set_up(client)
    _, html = ask(client, url, type="play", seat="0", tile="0-0", target="5-0")  # not limited
    action = htmllib.unescape(re.search(r'name="action" value="([^"]*)"', html).group(1))
    assert client.post(url, {"then": "play", "action": action}).status_code == 302
    response = client.post(url, {"then": "play", "action": action})
    assert response.status_code == 429 and "Too many tries" in response.content.decode()
    assert client.post("/referee/", {"pasted": json.dumps(FIVES)}).status_code == 429
    assert Position.objects.count() == 2


def test_a_dominards_play_is_ruled_with_the_targets_it_meets(client, db):
    """Played by the first legal actions until a play scores; the desk then names what it
    met, as the table would."""
    from referee.document import play_round
    from referee.games import engine

    rules = engine("dominards")
    state = rules.start("dominards", {}, ["Ana", "Ben"])
    actions = []
    for _ in range(300):
        legal = [a for a in rules.legal_actions(state) if a.kind != "undo"]
        scoring = [
            a for a in legal if isinstance(a, Play) and any(play_round(state, [a]).points[-1])
        ]
        if scoring:
            break
        actions.append(legal[0])
        state = play_round(state, [legal[0]]).state
    else:
        raise AssertionError("no play ever scored")
    play = scoring[0]
    document = {
        "format": "boneyard-match/1", "game": "dominards", "players": ["Ana", "Ben"],
        "rounds": [{"actions": [a.to_dict() for a in actions]}],
    }  # fmt: skip
    url = set_up(client, document)
    target = "lead" if play.on is None else f"{play.on}/{play.face}" if play.face else str(play.on)
    fields = {"type": "play", "seat": str(play.seat), "tile": str(play.tile), "target": target}
    if play.card:
        fields["card"] = play.card
    if play.drop:
        fields["drop"] = play.drop
    said = ruling(ask(client, url, **fields)[1])
    assert said.startswith("Legal:") and "It would score:" in said, said
    assert f"made {play_round(state, [play]).state.last_hits.total}" in said
    assert "(dominards.total)" in said


def test_an_undo_is_described_by_what_it_would_take_back(client, db):
    document = {
        "format": "boneyard-match/1", "game": "draw", "players": ["Ana", "Ben"],
        "rounds": [{"actions": [
            {"type": "play", "seat": 0, "tile": "6-6"}, {"type": "draw", "seat": 1, "count": 1},
            {"type": "draw", "seat": 1, "count": 1}, {"type": "undo"},
        ]}],
    }  # fmt: skip
    said = ruling(ask(client, set_up(client, document), type="undo")[1])
    assert said.startswith("Legal: Taken back: Ben drew a tile"), said
    # A round without an action has nothing to take back, and says so.
    empty = {**document, "rounds": [{"actions": []}]}
    status, html = ask(client, set_up(client, empty), type="undo")
    assert status == 200 and "Not legal" in ruling(html)


def test_a_deeply_nested_action_to_play_on_is_refused(client, db):
    url = set_up(client)
    response = client.post(url, {"then": "play", "action": "[" * 100_000 + "]" * 100_000})
    assert response.status_code == 400


def test_a_kept_position_the_referee_no_longer_accepts_is_gone_not_an_error(client, db):
    set_up(client)
    kept = Position.objects.get()
    broken = {
        **kept.document,
        "rounds": [{"actions": [{"type": "play", "seat": 0, "tile": "9-9"}]}],
    }
    Position.objects.filter(pk=kept.pk).update(key="B" * 22, document=broken)
    response = client.get("/referee/" + "B" * 22 + "/")
    assert response.status_code == 410 and "no longer replays" in response.content.decode()
