"""Dump Truck at the table: the draw, loading by cells, claims and the coin, swaps,
shifts, unloads, refusals that change nothing, and whole games through export and import."""

from __future__ import annotations

import random

import pytest

from referee import DominoSet, Tile, export, replay
from referee.actions import Load, Replace, Return, Take, Unload
from referee.games import dump_truck
from scoring import services
from scoring.models import Action, Match

from .conftest import form_fields, keep, snapshot, tap, watch


@pytest.fixture
def trucks(scorekeeper) -> Match:
    return keep(scorekeeper, services.create_match("dump-truck", ["Ana", "Ben"], {}))


def page(client, match, query: str = "") -> str:
    return client.get(f"/matches/{match.pk}/{query}").content.decode()


def state_of(match: Match) -> dump_truck.TruckState:
    match.refresh_from_db()
    return services.load_table(match).state


def take(client, match, seat: int, tile: str, source: str = "pool"):
    return tap(client, match, {"type": "take", "seat": str(seat), "tile": tile, "from": source})


def load(client, match, seat: int, tile: str, cells: str):
    return tap(client, match, {"type": "load", "seat": str(seat), "tile": tile, "cells": cells})


def test_a_new_game_shows_two_empty_trucks_and_the_whole_pool(scorekeeper, trucks):
    html = page(scorekeeper, trucks)
    assert html.count('<li class="truck-card') == 2
    assert "<strong>28</strong> face down" in html
    assert "Turn 1 · to draw: Ana, Ben" in html
    assert html.count('name="tile" value=') == 28  # every tile may be the one drawn


def test_loading_takes_the_cells_in_the_order_tapped(scorekeeper, trucks):
    assert take(scorekeeper, trucks, 0, "6-4").status_code == 200
    html = page(scorekeeper, trucks, "?seat=0")
    assert 'id="load-form"' in html and "Tap where the 6 goes" in html
    # The first cell tapped takes the 6: here the tile lies 4-6, read left to right.
    assert load(scorekeeper, trucks, 0, "6-4", "1,2;1,1").status_code == 200
    row = Action.objects.filter(round__match=trucks).last()
    assert row.payload == {"type": "load", "seat": 0, "tile": "6-4", "cells": [[1, 2], [1, 1]]}
    state = state_of(trucks)
    assert state.trucks[0].values[4:8] == (None, 4, 6, None)


def test_without_script_the_first_tap_asks_the_server_for_the_second(scorekeeper, trucks):
    take(scorekeeper, trucks, 0, "6-4")
    load(scorekeeper, trucks, 0, "6-4", "0,0;0,1")
    take(scorekeeper, trucks, 1, "5-5")
    load(scorekeeper, trucks, 1, "5-5", "0,0;0,1")
    take(scorekeeper, trucks, 0, "3-2")
    html = page(scorekeeper, trucks, "?seat=0&first=1,0")
    # Below 6-4, the partners of the chosen cell are submit buttons that load.
    assert 'name="cells" value="1,0;1,1"' in html and 'name="cells" value="1,0;2,0"' in html
    assert 'name="cells" value="1,0;0,0"' not in html  # taken
    assert 'value="2,3"' not in html  # not next to anything: never offered


def test_an_illegal_load_is_refused_with_its_rule_and_changes_nothing(scorekeeper, trucks):
    take(scorekeeper, trucks, 0, "6-4")
    load(scorekeeper, trucks, 0, "6-4", "0,0;0,1")
    take(scorekeeper, trucks, 1, "1-1")
    load(scorekeeper, trucks, 1, "1-1", "0,0;0,1")
    take(scorekeeper, trucks, 0, "2-2")
    before = snapshot(trucks)
    response = load(scorekeeper, trucks, 0, "2-2", "2,2;2,3")
    assert response.status_code == 422
    html = response.content.decode()
    assert "truck.load" in html and "2-2 must lie next to a domino already in the truck" in html
    assert 'id="load-form"' in html  # still Ana's to place
    assert snapshot(trucks) == before


@pytest.mark.parametrize(
    ("data", "says"),
    [
        ({"type": "load", "seat": "0", "tile": "6-4", "cells": "0,0"}, "not two cells"),
        ({"type": "load", "seat": "0", "tile": "6-4", "cells": "a,b;0,1"}, "not a valid row"),
        ({"type": "load", "seat": "0", "tile": "6-x", "cells": "0,0;0,1"}, "not a tile"),
        ({"type": "take", "seat": "0", "tile": "6-4", "from": "sky"}, "from the pool or face-up"),
        ({"type": "shift", "seat": "0", "shift": "down"}, "not a valid shift"),
        ({"type": "load", "seat": "9", "tile": "6-4", "cells": "0,0;0,1"}, "no seat 9"),
        ({"type": "play", "seat": "0", "tile": "6-4"}, "Unknown action type"),
    ],
)
def test_tampered_forms_are_refused_and_change_nothing(scorekeeper, trucks, data, says):
    take(scorekeeper, trucks, 0, "6-4")
    before = snapshot(trucks)
    response = tap(scorekeeper, trucks, data)
    assert response.status_code in (400, 422)
    assert says in response.content.decode()
    assert snapshot(trucks) == before


def test_a_claim_by_the_lower_score_and_a_coin_between_tied_seats(scorekeeper, trucks):
    # Turn 1: Ana returns her tile face up; it can be taken from turn 2.
    take(scorekeeper, trucks, 0, "6-6")
    tap(scorekeeper, trucks, {"type": "return", "seat": "0", "tile": "6-6"})
    take(scorekeeper, trucks, 1, "5-5")
    load(scorekeeper, trucks, 1, "5-5", "0,0;0,1")
    # Turn 2: Ben takes 6-6 face up, and Ana wants it too; they are tied on 0: the coin is
    # offered, not the claim, which the referee would refuse until the coin is tossed.
    take(scorekeeper, trucks, 1, "6-6", "face-up")
    html = page(scorekeeper, trucks, "?seat=0")
    assert "Ana wants 6-6 too" not in html and "Flip a coin: Ana or Ben chooses first" in html
    claim = {"type": "take", "seat": "0", "claim": "face-up/6-6"}
    response = tap(scorekeeper, trucks, claim)  # sent anyway: refused, and why
    assert response.status_code == 422
    assert "tied on 0: flip the coin" in response.content.decode()
    assert tap(scorekeeper, trucks, {"type": "flip", "seat": "0", "other": "1"}).status_code == 200
    flip = Action.objects.filter(round__match=trucks).last()
    assert flip.kind == "flip" and flip.payload["seats"] == [0, 1]
    winner = flip.payload["first"]
    offered = "Ana wants 6-6 too (Ben has it)" in page(scorekeeper, trucks, "?seat=0")
    assert offered == (winner == 0)  # offered only when it stands
    response = tap(scorekeeper, trucks, claim)
    state = state_of(trucks)
    if winner == 0:
        assert response.status_code == 200
        assert state.holding == (Tile.parse("6-6"), None) and not state.drawn[1]
    else:
        assert response.status_code == 422 and "Ben won the coin" in response.content.decode()
        assert state.holding == (None, Tile.parse("6-6"))


def test_a_swap_sends_the_old_domino_to_the_pool_or_elsewhere(scorekeeper, trucks):
    take(scorekeeper, trucks, 0, "6-4")
    load(scorekeeper, trucks, 0, "6-4", "0,0;0,1")
    take(scorekeeper, trucks, 1, "1-0")
    load(scorekeeper, trucks, 1, "1-0", "0,0;0,1")
    take(scorekeeper, trucks, 0, "3-3")
    html = page(scorekeeper, trucks, "?seat=0&out=6-4")
    assert "3-3 takes the place of 6-4" in html and "into the truck: 6 in row 1, column 3" in html
    data = {"type": "replace", "seat": "0", "tile": "3-3", "out": "6-4", "cells": "0,0;0,1",
            "to": "0,2;0,3"}  # fmt: skip
    assert tap(scorekeeper, trucks, data).status_code == 200
    state = state_of(trucks)
    assert state.trucks[0].values[:4] == (3, 3, 6, 4)
    assert "Ana swapped 3-3 in for 6-4 (6-4 elsewhere in the truck)" in page(scorekeeper, trucks)


def test_a_house_rule_against_swapping_hides_it_and_refuses_it(scorekeeper):
    match = keep(
        scorekeeper, services.create_match("dump-truck", ["Ana", "Ben"], {"no_replace": True})
    )
    take(scorekeeper, match, 0, "6-4")
    load(scorekeeper, match, 0, "6-4", "0,0;0,1")
    take(scorekeeper, match, 1, "2-2")
    load(scorekeeper, match, 1, "2-2", "0,0;0,1")
    take(scorekeeper, match, 0, "3-3")
    assert "Swap 3-3 for a domino" not in page(scorekeeper, match, "?seat=0")
    data = {"type": "replace", "seat": "0", "tile": "3-3", "out": "6-4", "cells": "0,0;0,1"}
    response = tap(scorekeeper, match, data)
    assert response.status_code == 422 and "truck.replace" in response.content.decode()


def test_a_shift_moves_the_whole_load(scorekeeper, trucks):
    take(scorekeeper, trucks, 0, "6-4")
    load(scorekeeper, trucks, 0, "6-4", "0,0;0,1")
    html = page(scorekeeper, trucks, "?seat=0")
    assert 'name="shift" value="1,0"' in html and 'name="shift" value="-1,0"' not in html
    assert (
        tap(scorekeeper, trucks, {"type": "shift", "seat": "0", "shift": "1,1"}).status_code == 200
    )
    assert state_of(trucks).trucks[0].values[5:7] == (6, 4)


def test_the_unload_shows_its_chains_then_scores_them(scorekeeper, trucks):
    for tile, cells, other in (("1-1", "0,0;0,1", "6-6"), ("2-1", "0,3;0,2", "6-5")):
        take(scorekeeper, trucks, 0, tile)
        load(scorekeeper, trucks, 0, tile, cells)
        take(scorekeeper, trucks, 1, other)
        tap(scorekeeper, trucks, {"type": "return", "seat": "1", "tile": other})
    html = page(scorekeeper, trucks, "?seat=0")
    assert "This load scores <strong>3</strong>: 1-1-1 (3)" in html
    assert html.count('class="chain like"') == 1
    response = tap(scorekeeper, trucks, {"type": "unload", "seat": "0", "score": "1"})
    assert response.status_code == 200
    trucks.refresh_from_db()
    assert trucks.totals == [3, 0]
    assert "Ana unloaded the truck · Ana +3" in response.content.decode()
    state = state_of(trucks)
    assert state.trucks[0].placed == () and len(state.out) == 2


def test_wild_blanks_are_given_the_best_value_and_the_log_says_which(scorekeeper):
    match = keep(
        scorekeeper, services.create_match("dump-truck", ["Ana", "Ben"], {"blanks": "wild"})
    )
    for tile, cells, other in (
        ("3-3", "0,0;0,1", "6-6"), ("3-0", "0,2;0,3", "6-5"), ("1-0", "1,2;1,3", "6-4")
    ):  # fmt: skip
        take(scorekeeper, match, 0, tile)
        load(scorekeeper, match, 0, tile, cells)
        take(scorekeeper, match, 1, other)
        tap(scorekeeper, match, {"type": "return", "seat": "1", "tile": other})
    html = page(scorekeeper, match, "?seat=0")
    # As 3s the blanks make 3-3-3-3-3 (5); as 1s, 1-1-1 beside 3-3-3 (6).
    assert "blanks as 1s" in html and 'name="blank_as" value="1"' in html
    assert (
        tap(
            scorekeeper, match, {"type": "unload", "seat": "0", "score": "1", "blank_as": "1"}
        ).status_code
        == 200
    )
    match.refresh_from_db()
    assert match.totals == [6, 0]
    assert "Ana unloaded the truck, blanks as 1s" in page(scorekeeper, match)


def test_a_spectator_sees_the_trucks_and_cannot_load(spectator, scorekeeper, trucks):
    take(scorekeeper, trucks, 0, "6-4")
    watch(spectator, trucks)
    html = page(spectator, trucks)
    assert "Ana&#x27;s truck" in html or "Ana's truck" in html
    assert 'id="load-form"' not in html and 'id="seat-panel"' not in html
    before = snapshot(trucks)
    fields = form_fields(page(scorekeeper, trucks))
    data = {**fields, "type": "load", "seat": "0", "tile": "6-4", "cells": "0,0;0,1"}
    response = spectator.post(f"/matches/{trucks.pk}/act/", data, HTTP_HX_REQUEST="true")
    assert response.status_code == 403 and snapshot(trucks) == before


def honest_game(seed: int, players: int, options: dict | None = None) -> dict:
    """A game played by the rules from a shuffled set: each seat draws the next face-down
    tile (or a face-up one once none is left), then loads, swaps or returns it at random,
    and unloads now and then; the document the table would record."""
    rng = random.Random(seed)
    names = ["Ana", "Ben", "Caro", "Dan", "Eve", "Fay"][:players]
    pool = list(DominoSet(6).tiles)
    rng.shuffle(pool)
    state = dump_truck.start("dump-truck", options or {}, names)
    actions = []

    def do(action) -> None:
        nonlocal state
        state = dump_truck.apply(state, action)
        actions.append(action.to_dict())

    while state.result is None:
        for seat in state.waiting:
            if state.face_down:
                tile = next(t for t in pool if t in state.unseen())
                do(Take(seat, tile, "pool"))
            else:
                do(Take(seat, rng.choice(state.face_up), "face-up"))
            held = state.holding[seat]
            choices = [
                a for a in dump_truck.legal_actions(state)
                if isinstance(a, Load | Replace | Return) and a.seat == seat
            ]  # fmt: skip
            loads = [a for a in choices if isinstance(a, Load)]
            do(rng.choice(loads) if loads and rng.random() < 0.85 else rng.choice(choices))
            assert state.holding[seat] is None, held
            if state.result is None and len(state.trucks[seat].placed) >= rng.randint(3, 6):
                do(Unload(seat, rng.random() < 0.95))
            if state.result is not None:
                break
    return {
        "format": "boneyard-match/1",
        "game": "dump-truck",
        "options": options or {},
        "players": names,
        "rounds": [{"actions": actions}],
    }


@pytest.mark.parametrize(
    ("seed", "players", "options"),
    [(1, 2, {}), (2, 3, {"blanks": "wild"}), (3, 6, {"blanks": "double", "truck_template": True})],
)
def test_whole_games_survive_export_and_import(db, seed, players, options):
    document = honest_game(seed, players, options)
    expected = export(replay(document))
    match = services.import_match(document)
    assert match.status == Match.FINISHED
    assert services.export_match(match) == expected
    assert services.verify(match) == []
    again = services.import_match(services.export_match(match))
    assert services.export_match(again) == expected
    assert list(expected["totals"].values()) == match.totals


def test_the_score_sheet_of_a_finished_game(scorekeeper, db):
    match = keep(scorekeeper, services.import_match(honest_game(4, 2)))
    html = scorekeeper.get(f"/matches/{match.pk}/summary/").content.decode()
    assert "pool-empty" in html or "stalled" in html
    for total in match.totals:
        assert f">{total}<" in html
    table = page(scorekeeper, match)
    assert 'id="final"' in table and "every truck was scored as it stood" in table


def test_a_shift_up_or_left_is_read_from_the_form(scorekeeper, trucks):
    take(scorekeeper, trucks, 0, "6-4")
    load(scorekeeper, trucks, 0, "6-4", "1,1;1,2")
    for shift, high in (("-1,0", (0, 1)), ("0,-1", (0, 0))):
        response = tap(scorekeeper, trucks, {"type": "shift", "seat": "0", "shift": shift})
        assert response.status_code == 200
        assert state_of(trucks).trucks[0].placed[0].cells[0] == high


def test_a_tap_for_another_seat_made_on_an_older_screen_still_counts(scorekeeper, trucks):
    """Seats draw at once: Ben's phone taps on a screen Ana's tap has since changed."""
    html = page(scorekeeper, trucks)
    take(scorekeeper, trucks, 0, "6-4")
    stale = {**form_fields(html), "type": "take", "seat": "1", "tile": "5-5", "from": "pool"}
    response = scorekeeper.post(f"/matches/{trucks.pk}/act/", stale, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert state_of(trucks).holding == (Tile.parse("6-4"), Tile.parse("5-5"))
    # Still refused when the table has made it illegal, and an undo is never re-aimed.
    again = {**form_fields(html), "key": services.new_key(), "type": "take", "seat": "1",
             "tile": "4-4", "from": "pool"}  # fmt: skip
    response = scorekeeper.post(f"/matches/{trucks.pk}/act/", again, HTTP_HX_REQUEST="true")
    assert response.status_code == 422 and "Ben already holds 5-5" in response.content.decode()
    undo = {**form_fields(html), "key": services.new_key(), "type": "undo"}
    assert scorekeeper.post(f"/matches/{trucks.pk}/act/", undo).status_code == 409


def test_the_swap_offers_other_places_for_the_old_domino(scorekeeper, trucks):
    take(scorekeeper, trucks, 0, "6-4")
    load(scorekeeper, trucks, 0, "6-4", "0,0;0,1")
    take(scorekeeper, trucks, 1, "5-5")
    load(scorekeeper, trucks, 1, "5-5", "0,0;0,1")
    take(scorekeeper, trucks, 0, "3-3")
    html = page(scorekeeper, trucks, "?seat=0&out=6-4")
    assert 'value="0,0;0,1"' not in html and 'value="0,1;0,0"' not in html  # where it lay
    assert "First choose where 6-4 goes" in html


def test_a_coin_is_offered_only_for_a_tile_in_dispute(scorekeeper, trucks):
    assert "Flip a coin" not in page(scorekeeper, trucks, "?seat=0")
    take(scorekeeper, trucks, 0, "6-6")
    tap(scorekeeper, trucks, {"type": "return", "seat": "0", "tile": "6-6"})
    take(scorekeeper, trucks, 1, "5-5")
    load(scorekeeper, trucks, 1, "5-5", "0,0;0,1")
    take(scorekeeper, trucks, 1, "6-6", "face-up")
    assert "Flip a coin: Ana or Ben chooses first" in page(scorekeeper, trucks, "?seat=0")


def test_after_a_seat_places_its_tile_the_screen_moves_on(scorekeeper, trucks):
    take(scorekeeper, trucks, 0, "6-4")
    response = load(scorekeeper, trucks, 0, "6-4", "0,0;0,1")
    assert "<h2>Ben" in response.content.decode()
    # A phone that says it is Ana stays with Ana.
    scorekeeper.post(f"/matches/{trucks.pk}/seat/", {"seat": "0"})
    take(scorekeeper, trucks, 1, "5-5")
    response = load(scorekeeper, trucks, 1, "5-5", "0,0;0,1")
    assert "<h2>Ben" in response.content.decode()
