"""Fixing the record (issue 18, RULES.md §7) through the views: a Fix on a log line, the
table's pickers at that moment, the preview of what moves, and one confirmation; adjusting,
abandoning and stopping; a stale correction, a watcher and a refusal change nothing."""

from __future__ import annotations

import json
import re

import pytest

from scoring import services
from scoring.models import Action, Match, Round

from .conftest import form_fields, keep, snapshot, tap, watch


def _fives(scorekeeper) -> Match:
    match = services.create_match("all-fives", ["Ana", "Ben", "Caro"], {})
    keep(scorekeeper, match)
    for data in (
        {"type": "play", "seat": "0", "tile": "6-6", "target": "lead"},
        {"type": "play", "seat": "1", "tile": "6-5", "target": "6-6"},  # really 6-4
    ):
        assert tap(scorekeeper, match, data).status_code == 200
    return match


def _preview(client, match, number, seq, change, data=None, **extra):
    client.get(f"/matches/{match.pk}/rounds/{number}/fix/{seq}/")  # a Fix starts afresh
    url = f"/matches/{match.pk}/rounds/{number}/fix/{seq}/{change}/"
    page = client.get(url).content.decode() if change != "remove" else ""
    fields = form_fields(page) if page else {}
    return client.post(url, {**fields, **(data or {}), **extra})


def _confirm(client, response):
    html = response.content.decode()
    form = html[html.index('class="confirm-fix"') :]
    fields = dict(re.findall(r'name="([^"]+)" value="([^"]*)"', form[: form.index("</form>")]))
    fields["fixes"] = fields["fixes"].replace("&quot;", '"')
    return client.post(f"/matches/{response.wsgi_request.resolver_match.kwargs['pk']}/fix/",
                       fields)  # fmt: skip


def test_the_log_offers_a_fix_on_every_entry_to_a_keeper_only(scorekeeper, spectator):
    match = _fives(scorekeeper)
    html = scorekeeper.get(f"/matches/{match.pk}/").content.decode()
    assert f'href="/matches/{match.pk}/rounds/1/fix/0/"' in html
    assert f'href="/matches/{match.pk}/rounds/1/fix/1/"' in html
    watch(spectator, match)
    assert "/fix/" not in spectator.get(f"/matches/{match.pk}/").content.decode()
    assert spectator.get(f"/matches/{match.pk}/rounds/1/fix/1/").status_code == 403


def test_ben_65_fixed_one_play_late_shows_the_move_and_then_stands(scorekeeper):
    match = _fives(scorekeeper)
    # Caro played on, on the 5 the wrong tile left open: 5-5 scores 6+10=... the app says.
    tap(scorekeeper, match, {"type": "play", "seat": "2", "tile": "5-5", "target": "6-5"})
    before = snapshot(match)
    # Replacing Ben's tile alone makes Caro's 5-5 illegal: refused, with her entry and rule.
    refused = _preview(scorekeeper, match, 1, 1, "replace",
                       {"type": "play", "seat": "1", "tile": "6-4", "target": "6-6"})  # fmt: skip
    html = refused.content.decode()
    assert refused.status_code == 422
    assert "line." in html and "Round 1, entry 3" in html and "Fix that entry too" in html
    assert snapshot(match) == before
    # Fix Caro's too, in the same go: she played 4-4 on the 4.
    url = f"/matches/{match.pk}/rounds/1/fix/2/replace/"
    scorekeeper.get(f"/matches/{match.pk}/rounds/1/fix/2/?more=1")
    page = scorekeeper.get(url).content.decode()
    assert "6-4" in page  # the pickers show the table as it was with Ben's 6-4
    preview = scorekeeper.post(url, {**form_fields(page), "type": "play", "seat": "2",
                                     "tile": "4-4", "target": "6-4"})  # fmt: skip
    text = preview.content.decode()
    assert preview.status_code == 200, text
    assert "Confirm the correction" in text, text[text.index("<main") :]
    assert snapshot(match) == before  # a preview writes nothing
    assert _confirm(scorekeeper, preview).status_code == 302
    match.refresh_from_db()
    assert match.totals == [0, 0, 20]
    kinds = list(Action.objects.filter(round__match=match).values_list("kind", flat=True))
    assert kinds == ["play", "play", "play", "correct", "correct"]  # nothing erased
    assert services.verify(match) == []
    table = scorekeeper.get(f"/matches/{match.pk}/").content.decode()
    assert "corrected below" in table and "Corrected entry 2: it was Ben played 6-4" in table
    assert "· totals Caro 0 → 20" in table  # how the totals moved (correct.audit)


def test_a_stale_correction_gets_409_and_changes_nothing(scorekeeper):
    match = _fives(scorekeeper)
    preview = _preview(scorekeeper, match, 1, 1, "remove", {"how": "recorded"})
    assert preview.status_code == 200
    tap(scorekeeper, match, {"type": "play", "seat": "2", "tile": "5-0", "target": "6-5"})
    before = snapshot(match)
    lost = _confirm(scorekeeper, preview)
    assert lost.status_code == 409 and "Nothing was corrected" in lost.content.decode()
    assert snapshot(match) == before


def test_a_fix_page_found_again_by_back_after_the_correction_says_it_is_stale(scorekeeper):
    match = _fives(scorekeeper)
    url = f"/matches/{match.pk}/rounds/1/fix/1/replace/"
    really = {"type": "play", "seat": "1", "tile": "6-4", "target": "6-6"}
    preview = _preview(scorekeeper, match, 1, 1, "replace", really)
    # Never kept by the browser as it was: the Back button asks for it again.
    assert "no-store" in preview["Cache-Control"]
    picker = scorekeeper.get(url)
    assert _confirm(scorekeeper, preview).status_code == 302
    before = snapshot(match)
    # The Back button after the correction: the pickers asked for again, their tap sent
    # again (the preview was swapped into the pickers' page). Both say they are stale.
    for response in (
        scorekeeper.get(url),
        scorekeeper.post(url, {**form_fields(picker.content.decode()), **really}),
        scorekeeper.get(f"/matches/{match.pk}/rounds/1/fix/1/?more=1"),
    ):
        html = response.content.decode()
        assert response.status_code == 409 and "This page is out of date" in html
        assert "Confirm the correction" not in html and "Back to the table" in html
    assert snapshot(match) == before
    # A Fix tapped in the log begins a new correction.
    assert scorekeeper.get(f"/matches/{match.pk}/rounds/1/fix/1/").status_code == 200
    assert scorekeeper.get(url).status_code == 200


def test_the_same_confirmation_sent_twice_is_recorded_once(scorekeeper):
    match = _fives(scorekeeper)
    preview = _preview(scorekeeper, match, 1, 1, "remove", {"how": "recorded"})
    assert _confirm(scorekeeper, preview).status_code == 302
    assert _confirm(scorekeeper, preview).status_code == 302
    assert Action.objects.filter(round__match=match, kind="correct").count() == 1


def test_played_wrong_after_its_window_is_refused_with_procedure_misplay(scorekeeper):
    match = _fives(scorekeeper)
    before = snapshot(match)
    url = f"/matches/{match.pk}/rounds/1/fix/0/replace/"
    response = scorekeeper.post(url, {"how": "played"})
    assert response.status_code == 422
    assert "procedure.misplay" in response.content.decode()
    assert snapshot(match) == before
    # The last entry is still in its window: the answer is Undo.
    last = scorekeeper.post(f"/matches/{match.pk}/rounds/1/fix/1/replace/", {"how": "played"})
    assert "tap Undo" in last.content.decode()


def test_a_tampered_correction_is_refused_and_changes_nothing(scorekeeper):
    match = _fives(scorekeeper)
    before = snapshot(match)
    page = scorekeeper.get(f"/matches/{match.pk}/").content.decode()
    for fixes in ("nope", "[]", json.dumps([[1, {"type": "play", "seat": 0, "tile": "1-1"}]]),
                  json.dumps([[9, {"type": "correct", "at": 0, "remove": True}]])):  # fmt: skip
        response = scorekeeper.post(
            f"/matches/{match.pk}/fix/", {**form_fields(page), "fixes": fixes}
        )
        assert response.status_code in (400, 422), fixes
    assert snapshot(match) == before


def test_a_wrong_tally_is_fixed_after_the_round_and_the_next_round_follows(scorekeeper):
    match = services.create_match("block", ["Ana", "Ben"], {"hand_size": 2, "target": 100})
    keep(scorekeeper, match)
    for data in (
        {"type": "play", "seat": "0", "tile": "6-6", "target": "lead"},
        {"type": "play", "seat": "1", "tile": "6-5", "target": "6-6"},
        {"type": "play", "seat": "0", "tile": "5-5", "target": "6-5"},
        {"type": "tally", "pips-1": "7"},
    ):
        assert tap(scorekeeper, match, data).status_code == 200, data
    tap(scorekeeper, match, {"type": "play", "seat": "0", "tile": "4-4", "target": "lead"})
    match.refresh_from_db()
    assert match.totals == [7, 0]
    scorekeeper.get(f"/matches/{match.pk}/rounds/1/fix/3/")
    picker = scorekeeper.get(f"/matches/{match.pk}/rounds/1/fix/3/replace/").content.decode()
    assert re.search(r'name="pips-1"[^>]* value="7"', picker)  # as recorded
    preview = _preview(scorekeeper, match, 1, 3, "replace", {"type": "tally", "pips-1": "9"})
    assert preview.status_code == 200, preview.content.decode()
    assert "Ana 7 → 9" in preview.content.decode()
    assert _confirm(scorekeeper, preview).status_code == 302
    match.refresh_from_db()
    assert match.totals == [9, 0]
    assert Round.objects.get(match=match, number=1).result["points"] == {"0": 9}
    assert services.verify(match) == []
    # The next round's tap still works on the corrected totals.
    assert tap(scorekeeper, match, {"type": "draw", "seat": "1", "count": "1"}).status_code in (
        200,
        422,
    )
    assert services.verify(match) == []


def test_a_fix_of_a_tally_opens_with_what_was_recorded(scorekeeper):
    # A score-pad round tallied three ways at once: Ana's tiles tapped, Ben played out,
    # Caro's pips typed (tally.hands: each hand by its tiles or its pips).
    match = services.create_match("mexican-train", ["Ana", "Ben", "Caro"], {"record": "scores"})
    keep(scorekeeper, match)
    tally = {"type": "tally", "hand-0": ["12-11", "0-0"], "out-1": "1", "pips-2": "9"}
    assert tap(scorekeeper, match, tally).status_code == 200
    match.refresh_from_db()
    assert match.totals == [73, 0, 9]
    scorekeeper.get(f"/matches/{match.pk}/rounds/1/fix/0/")
    html = scorekeeper.get(f"/matches/{match.pk}/rounds/1/fix/0/replace/").content.decode()
    ticked = re.findall(r'name="hand-(\d)" value="([\d-]+)" data-pips="\d+" checked', html)
    assert ticked == [("0", "12-11"), ("0", "0-0")]
    assert re.search(r'name="out-1" value="1" checked', html)
    assert re.search(r'name="pips-2"[^>]* value="9"', html)
    assert not re.search(r'name="pips-0"[^>]* value="\d', html)


@pytest.mark.parametrize(
    "data, totals",
    [
        ({"type": "adjust", "seat": "1", "points": "-10", "reason": "overdraw"}, [0, -10, 0]),
        ({"type": "adjust", "seat": "2", "sign": "-", "points": "5", "reason": "agreed"},
         [0, 0, -5]),
        ({"type": "abandon", "reason": "tiles spilled"}, [0, 0, 0]),
    ],
)  # fmt: skip
def test_adjust_and_abandon_through_the_table(scorekeeper, data, totals):
    match = _fives(scorekeeper)
    assert tap(scorekeeper, match, data).status_code == 200
    match.refresh_from_db()
    assert match.totals == totals
    assert services.verify(match) == []


def test_an_adjustment_needs_a_reason_and_a_refusal_changes_nothing(scorekeeper):
    match = _fives(scorekeeper)
    before = snapshot(match)
    response = tap(scorekeeper, match, {"type": "adjust", "seat": "1", "points": "5"})
    assert response.status_code == 400 and "reason" in response.content.decode()
    assert snapshot(match) == before


@pytest.mark.parametrize("abandoned, winner", [("", 2), ("1", None)])
def test_a_match_stopped_by_the_totals_or_abandoned(scorekeeper, abandoned, winner):
    match = _fives(scorekeeper)
    agreed = {"type": "adjust", "seat": "2", "points": "15", "reason": "last game's debt"}
    assert tap(scorekeeper, match, agreed).status_code == 200
    stop = {"type": "stop", "abandoned": abandoned, "reason": "closing time"}
    assert tap(scorekeeper, match, stop).status_code == 200
    match.refresh_from_db()
    assert match.status == Match.FINISHED and match.winner == winner
    assert services.verify(match) == []
    # An adjustment after the end goes in before the entry that ended it.
    adjust = {"type": "adjust", "seat": "0", "points": "50", "reason": "house bonus"}
    assert tap(scorekeeper, match, adjust).status_code == 200
    match.refresh_from_db()
    assert match.totals == [50, 0, 15] and match.winner == (None if abandoned else 0)
    assert services.verify(match) == []


def test_export_import_export_of_a_corrected_match_is_identical(scorekeeper):
    match = _fives(scorekeeper)
    preview = _preview(scorekeeper, match, 1, 1, "replace",
                       {"type": "play", "seat": "1", "tile": "6-4", "target": "6-6"})  # fmt: skip
    assert _confirm(scorekeeper, preview).status_code == 302
    exported = services.export_match(match)
    again = services.import_match(exported)
    assert services.export_match(again) == exported
    assert services.verify(again) == []


@pytest.mark.parametrize("seed", [1, 2])
def test_a_correction_of_an_earlier_dominards_round_replays_the_later_ones(db, seed):
    """Round 2 of a whole Dominards game gets an entry inserted: the cards it hands on,
    the later rounds' leaders and carries, and every total follow (verify agrees)."""
    from .test_dominards import whole_game

    match = services.import_match(whole_game(seed, 3))
    rounds = Round.objects.filter(match=match).count()
    assert rounds >= 3
    fix = {"type": "correct", "at": 0, "insert": {"type": "adjust", "seat": 1, "points": 1,
                                                  "reason": "agreed"}}  # fmt: skip
    fixes = services.read_fixes([[2, fix]], "line")
    judged = services.correction(match, fixes)
    assert judged.refusal is None, judged.refusal
    assert judged.checked.first == 2  # the rounds before it are not replayed
    version = match.version
    assert services.correct(match.pk, fixes, version, "k" * 32)
    match.refresh_from_db()
    assert match.version == version + 1
    assert services.verify(match) == []
    assert match.totals[1] == judged.after[1]


def test_the_record_book_reads_a_corrected_round_as_really_played(scorekeeper):
    from scoring import records
    from scoring.models import Player

    match = _fives(scorekeeper)
    tap(scorekeeper, match, {"type": "play", "seat": "2", "tile": "5-5", "target": "6-5"})
    fixes = services.read_fixes(
        [[1, {"type": "correct", "at": 1, "replace": {"type": "play", "seat": 1, "tile": "6-4",
                                                     "on": "6-6"}}],
         [1, {"type": "correct", "at": 2, "replace": {"type": "play", "seat": 2, "tile": "4-4",
                                                     "on": "6-4"}}]],
        "line",
    )  # fmt: skip
    match.refresh_from_db()
    assert services.correct(match.pk, fixes, match.version, "r" * 32)
    caro_plays, _, _ = records._plays_and_calls(Player.objects.get(name="Caro"))
    assert [(p.tile, p.points) for p in caro_plays] == [("4-4", 20)]
    ben_plays, _, _ = records._plays_and_calls(Player.objects.get(name="Ben"))
    assert [p.tile for p in ben_plays] == ["6-4"]
    assert (
        "20" in scorekeeper.get(f"/players/{Player.objects.get(name='Caro').pk}/").content.decode()
    )


def test_a_watcher_can_neither_fix_nor_confirm(scorekeeper, spectator):
    match = _fives(scorekeeper)
    preview = _preview(scorekeeper, match, 1, 1, "remove", {"how": "recorded"})
    html = preview.content.decode()
    watch(spectator, match)
    before = snapshot(match)
    fields = dict(re.findall(r'name="(version|key|fixes)" value="([^"]*)"', html))
    fields["fixes"] = fields["fixes"].replace("&quot;", '"')
    assert spectator.post(f"/matches/{match.pk}/fix/", fields).status_code == 403
    url = f"/matches/{match.pk}/rounds/1/fix/1/remove/"
    assert spectator.post(url, {"how": "recorded"}).status_code == 403
    assert snapshot(match) == before


def test_a_fix_of_an_entry_that_is_not_there_is_404(scorekeeper):
    match = _fives(scorekeeper)
    for url in ("rounds/1/fix/9/", "rounds/4/fix/0/", "rounds/1/fix/0/sideways/"):
        assert scorekeeper.get(f"/matches/{match.pk}/{url}").status_code == 404, url


def test_the_pickers_of_every_game_family_open_at_the_moment_before_the_entry(scorekeeper):
    from .test_havoc import new, turn

    havoc = new(scorekeeper, 2)
    turn(scorekeeper, havoc, 0, train="9-4", discard="5-2")
    html = scorekeeper.get(f"/matches/{havoc.pk}/rounds/1/fix/1/replace/").content.decode()
    assert (
        "Fixing round 1, entry 2" in html and f'action="/matches/{havoc.pk}/rounds/1/fix/1/' in html
    )

    trucks = keep(scorekeeper, services.create_match("dump-truck", ["Ana", "Ben"], {}))
    tap(scorekeeper, trucks, {"type": "take", "seat": "0", "tile": "6-4", "from": "pool"})
    html = scorekeeper.get(f"/matches/{trucks.pk}/rounds/1/fix/0/insert/").content.decode()
    assert "Fixing round 1, entry 1" in html and "tap what is missing before it" in html


def test_an_entry_of_havoc_removed_and_the_match_stopped_abandoned(scorekeeper):
    from .test_havoc import new, turn

    match = new(scorekeeper, 2)
    turn(scorekeeper, match, 0, train="9-4", discard="5-2")
    turn(scorekeeper, match, 1, train="8-1", discard="6-3")
    # Ben's discard was never made: removed, and the round goes on from his train tile.
    preview = _preview(scorekeeper, match, 1, 5, "remove", {"how": "recorded"})
    assert preview.status_code == 200, preview.content.decode()[-2000:]
    assert _confirm(scorekeeper, preview).status_code == 302
    match.refresh_from_db()
    assert services.verify(match) == []
    assert (
        tap(scorekeeper, match, {"type": "discard", "seat": "1", "tile": "6-3"}).status_code == 200
    )
    stop = {"type": "stop", "abandoned": "1", "reason": "bus leaving"}
    assert tap(scorekeeper, match, stop).status_code == 200
    match.refresh_from_db()
    assert match.status == Match.FINISHED and match.winner is None
    html = scorekeeper.get(f"/matches/{match.pk}/").content.decode()
    assert "The table abandoned the match: nobody wins (bus leaving)" in html
    assert services.verify(match) == []


def test_an_inserted_entry_is_fixed_through_its_own_fix(scorekeeper):
    match = _fives(scorekeeper)
    missing = _preview(
        scorekeeper, match, 1, 1, "insert", {"type": "draw", "seat": "1", "count": "1"}
    )
    assert _confirm(scorekeeper, missing).status_code == 302
    html = scorekeeper.get(f"/matches/{match.pk}/").content.decode()
    assert f'href="/matches/{match.pk}/rounds/1/fix/2/"' in html  # the insert's own Fix
    twice = _preview(
        scorekeeper, match, 1, 2, "replace", {"type": "draw", "seat": "1", "count": "2"}
    )
    assert twice.status_code == 200, twice.content.decode()[-1500:]
    assert _confirm(scorekeeper, twice).status_code == 302
    match.refresh_from_db()
    played = services.load_table(match).played
    assert [a.to_dict() for a in played.actions][1] == {"type": "draw", "seat": 1, "count": 2}
    assert services.verify(match) == []
