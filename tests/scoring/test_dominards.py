"""Dominards at the table: the dice panel, rolls by the app or the table's own dice, card
drops, the scoreboard's cards, and whole games through export and import."""

from __future__ import annotations

import random

import pytest
from django.core.management import CommandError, call_command

from referee import export, replay
from scoring import services
from scoring.models import Action, Match, Round
from tests.referee.dominards_play import play_game

from .conftest import keep, snapshot, tap


@pytest.fixture
def dominards(scorekeeper) -> Match:
    return keep(scorekeeper, services.create_match("dominards", ["Ana", "Ben", "Caro"], {}))


def whole_game(seed: int, players: int) -> dict:
    rng = random.Random(seed)

    def shuffle(items):
        rng.shuffle(items)
        return items

    document, _ = play_game(lambda c, label: rng.choice(list(c)), shuffle, players, greedy=True)
    return document


def page(client, match) -> str:
    return client.get(f"/matches/{match.pk}/").content.decode()


def test_the_table_asks_for_the_roll_then_the_lead(scorekeeper, dominards):
    html = page(scorekeeper, dominards)
    assert "The seat that leads rolls the dice first" in html
    assert 'id="play-form"' not in html and "Who holds the highest double?" in html
    assert (
        tap(scorekeeper, dominards, {"type": "roll", "seat": "1", "count": "2"}).status_code == 200
    )
    roll = Action.objects.get(round__match=dominards)
    assert roll.kind == "roll" and roll.payload["seat"] == 1
    assert len(roll.payload["dice"]) == 2 and all(1 <= d <= 6 for d in roll.payload["dice"])
    html = page(scorekeeper, dominards)
    assert "multiples of" in html and "Ben</strong> leads a double" in html
    assert 'id="play-form"' in html


def test_a_play_that_hits_a_card_drops_it_and_scores_the_total(scorekeeper, dominards):
    tap(scorekeeper, dominards, {"type": "roll", "seat": "0", "die-0": "3", "die-1": "3"})
    html = page(scorekeeper, dominards)
    assert "3 + 3" in html and "multiples of 6" in html
    response = tap(
        scorekeeper, dominards, {"type": "play", "seat": "0", "tile": "6-6", "target": "lead",
                                 "card": "Q"},
    )  # fmt: skip
    assert response.status_code == 200
    html = response.content.decode()
    assert "Ana&#x27;s 6-6 made 12: a card and the dice&#x27;s multiple, +12 (Q dropped)" in html
    assert '<span class="cards">4 cards</span>' in html
    dominards.refresh_from_db()
    assert dominards.totals == [12, 0, 0]
    # the picker offers, per end, the total and the card worth it: 6-2 on 6-6 makes 14
    assert 'value="6-2"' in html and "A14" in html and "data-totals=" in html


def test_a_card_the_total_does_not_allow_is_refused_and_changes_nothing(scorekeeper, dominards):
    tap(scorekeeper, dominards, {"type": "roll", "seat": "0", "die-0": "3", "die-1": "4"})
    before = snapshot(dominards)
    response = tap(
        scorekeeper, dominards, {"type": "play", "seat": "0", "tile": "6-6", "target": "lead",
                                 "card": "J"},
    )  # fmt: skip
    assert response.status_code == 422
    html = response.content.decode()
    assert "dominards.card" in html and "the card worth 12 is a Q" in html
    assert snapshot(dominards) == before


def test_the_virtual_card_allows_a_free_drop(scorekeeper, dominards):
    dice = {f"die-{i}": str(d) for i, d in enumerate((1, 2, 3, 4))}
    tap(scorekeeper, dominards, {"type": "roll", "seat": "2", **dice})
    assert "virtual card 10" in page(scorekeeper, dominards)
    tap(
        scorekeeper, dominards, {"type": "play", "seat": "2", "tile": "5-5", "target": "lead",
                                 "card": "10", "drop": "K"},
    )  # fmt: skip
    play = Action.objects.filter(round__match=dominards).order_by("-seq").first()
    assert play.payload["card"] == "10" and play.payload["drop"] == "K"
    html = page(scorekeeper, dominards)
    assert '<span class="cards">3 cards</span>' in html and "(10, K dropped)" in html


def test_the_roll_buttons_roll_whatever_dice_were_typed(scorekeeper, dominards):
    tap(scorekeeper, dominards, {"type": "roll", "seat": "0", "count": "4", "die-0": "3",
                                 "die-1": "3"})  # fmt: skip
    roll = Action.objects.get(round__match=dominards)
    assert len(roll.payload["dice"]) == 4


@pytest.mark.parametrize(
    ("data", "status", "words"),
    [
        ({"type": "roll", "seat": "0", "die-0": "7", "die-1": "1"}, 400, "not a valid die"),
        ({"type": "roll", "seat": "0", "die-0": "3"}, 400, "2 or 4 dice"),
        ({"type": "roll", "seat": "0", "count": "3"}, 400, "2 dice (multiples) or 4"),
        ({"type": "roll", "seat": "9", "count": "2"}, 422, "seat.order"),
        ({"type": "play", "seat": "0", "tile": "6-6", "target": "lead"}, 422, "dominards.dice"),
        ({"type": "play", "seat": "0", "tile": "6-6", "card": "Z"}, 400, "not a card"),
    ],
)
def test_bad_rolls_and_cards_are_refused_and_change_nothing(
    scorekeeper, dominards, data, status, words
):
    before = snapshot(dominards)
    response = tap(scorekeeper, dominards, data)
    assert response.status_code == status and words in response.content.decode()
    assert snapshot(dominards) == before


@pytest.mark.parametrize(("seed", "players"), [(1, 2), (2, 3), (3, 4)])
def test_a_whole_game_imports_and_exports_every_score(scorekeeper, seed, players):
    document = whole_game(seed, players)
    match = services.import_match(document)
    assert match.status == Match.FINISHED
    exported = services.export_match(match)
    assert exported == export(replay(document))
    assert services.verify(match) == []
    again = services.import_match(exported)
    assert services.export_match(again) == exported
    # the cards each round started with are stored, and the last page says who won
    rounds = list(Round.objects.filter(match=match).order_by("number"))
    assert all(sum(r.carry["cards"]) <= 5 * players for r in rounds)
    keep(scorekeeper, match)
    html = page(scorekeeper, match)
    assert "the match is over" in html and ("wins the match" in html or "share the win" in html)
    assert "Last card: bonus" in html or "last-card" in html
    summary = scorekeeper.get(f"/matches/{match.pk}/summary/")
    assert summary.status_code == 200 and str(exported["totals"]["0"]) in summary.content.decode()


def test_a_corrupted_carry_is_named(db, capsys):
    match = services.import_match(whole_game(5, 2))
    Round.objects.filter(match=match, number=2).update(carry={"cards": [9, 9], "dropped": []})
    with pytest.raises(CommandError):
        call_command("verify_matches")
    assert "round 2: stored carry {'cards': [9, 9]" in capsys.readouterr().err


def test_dice_refused_are_shown_again_as_typed(scorekeeper, dominards):
    # "Forgiving": a refusal keeps what the player chose (three dice typed is no roll).
    response = tap(scorekeeper, dominards, {"type": "roll", "seat": "0", "die-0": "3",
                                            "die-1": "4", "die-2": "5"})  # fmt: skip
    assert response.status_code == 400
    html = response.content.decode()
    assert '<details class="own-dice" open>' in html
    for name, value in (("die-0", "3"), ("die-1", "4"), ("die-2", "5"), ("die-3", "")):
        assert f'name="{name}" min="1" max="6" inputmode="numeric" value="{value}"' in html
