from __future__ import annotations
import json, re
import pytest
from scoring import services
from scoring.models import Action, Match, Round
from .conftest import form_fields, keep, snapshot, tap, watch


def test_d1(scorekeeper):
    m = keep(scorekeeper, services.create_match("dump-truck", ["Ana", "Ben"], {}))
    r = tap(scorekeeper, m, {"type": "take", "seat": "0", "tile": "6-4", "from": "pool"})
    r = tap(scorekeeper, m, {"type": "stop"})
    print("stop", r.status_code)
    r = scorekeeper.get(f"/matches/{m.pk}/")
    print("table", r.status_code)


def test_d2(scorekeeper):
    m = keep(scorekeeper, services.create_match("block", ["Ana", "Ben"], {}))
    tap(scorekeeper, m, {"type": "play", "seat": "0", "tile": "6-6", "target": "lead"})
    fixes = [[1, {"type": "correct", "at": 0, "remove": True, "seat": 99}]]
    page = scorekeeper.get(f"/matches/{m.pk}/").content.decode()
    r = scorekeeper.post(f"/matches/{m.pk}/fix/", {**form_fields(page), "fixes": json.dumps(fixes)})
    print("confirm", r.status_code)
    r = scorekeeper.get(f"/matches/{m.pk}/rounds/1/")
    print("replay", r.status_code)


def test_threes(scorekeeper):
    m = keep(
        scorekeeper,
        services.create_match("fives-and-threes", ["Ana", "Ben", "Caro"], {"hand_size": 1}),
    )
    r = tap(scorekeeper, m, {"type": "play", "seat": "1", "tile": "6-3", "target": "lead"})
    html = r.content.decode()
    import re

    print(html)


def test_abandon_numbers(scorekeeper):
    import re as _re

    for game, first in (
        ("mexican-train", {"type": "engine", "seat": "0", "tile": "12-12"}),
        ("block", {"type": "play", "seat": "0", "tile": "6-6", "target": "lead"}),
        ("havoc", {"type": "draw", "seat": "0", "from": "boneyard"}),
    ):
        m = keep(scorekeeper, services.create_match(game, ["Ana", "Ben"], {}))
        r = tap(scorekeeper, m, first)
        print(game, r.status_code)
        r = tap(scorekeeper, m, {"type": "abandon"})
        print(r.status_code)
        html = scorekeeper.get(f"/matches/{m.pk}/").content.decode()
        print(game, sorted(set(_re.findall(r"[Rr]ound \d+[^<]{0,40}", html))))
        html = scorekeeper.get(f"/matches/{m.pk}/summary/").content.decode()
        print(game, "SUMMARY", sorted(set(_re.findall(r"[Rr]ound \d+[^<]{0,40}", html))))
        html = scorekeeper.get(f"/matches/{m.pk}/rounds/1/").content.decode()
        print(game, "REPLAY", sorted(set(_re.findall(r"[Rr]ound \d+[^<]{0,40}", html))))


def test_dbg(scorekeeper):
    from tests.scoring.test_attacked import _two_rounds, _confirm

    match = _two_rounds(scorekeeper)
    print(services.document_of(match))
    fix = {"type": "correct", "at": 1, "replace": {"type": "tally", "pips": {"1": 9}}}
    r = _confirm(scorekeeper, match, [[1, fix]], "c" * 32)
    import re as _r

    print(_r.findall(r'role="alert"[^>]*>(.*?)</', r.content.decode(), _r.S))


def test_dbg2(scorekeeper):
    from tests.scoring.test_attacked import _two_rounds, a_round_begins_between_reads

    match = _two_rounds(scorekeeper)
    with a_round_begins_between_reads(scorekeeper, match) as landed:
        d = services.document_of(match)
    print(
        len(d["rounds"]),
        landed,
        list(Action.objects.filter(round__match=match).values_list("round__number", "seq")),
    )


def test_dbg3(scorekeeper):
    from tests.scoring.test_attacked import _rounds

    adjusted = [{"type": "adjust", "seat": 0, "points": p, "reason": "agreed"} for p in (1, -1)]
    match = keep(scorekeeper, services.import_match(_rounds(60, *adjusted)))
    html = scorekeeper.get(f"/matches/{match.pk}/summary/").content.decode()
    i = html.find("more")
    s = html[html.find("record-notes") :]
    print(s[s.find("</ul>") :][:400])


def test_dbg4(scorekeeper):
    from tests.scoring.test_attacked import _rounds
    from scoring.screens.summary import summary_context

    adjusted = [{"type": "adjust", "seat": 0, "points": p, "reason": "agreed"} for p in (1, -1)]
    match = keep(scorekeeper, services.import_match(_rounds(60, *adjusted)))
    c = summary_context(match, 100)
    print(len(c["notes"]), c["notes_more"], Action.objects.filter(kind="adjust").count())


def test_d8(scorekeeper):
    from tests.scoring.test_corrections import _fives

    match = _fives(scorekeeper)
    tap(scorekeeper, match, {"type": "play", "seat": "2", "tile": "5-5", "target": "6-5"})
    print(
        tap(
            scorekeeper, match, {"type": "play", "seat": "0", "tile": "5-0", "target": "5-5"}
        ).status_code
    )
    from tests.scoring.test_corrections import _preview

    refused = _preview(
        scorekeeper,
        match,
        1,
        1,
        "replace",
        {"type": "play", "seat": "1", "tile": "6-4", "target": "6-6"},
    )
    print(refused.status_code)
    for seq in range(4):
        for change in ("replace", "insert", "remove", ""):
            url = f"/matches/{match.pk}/rounds/1/fix/{seq}/{change + '/' if change else ''}?more=1"
            try:
                r = scorekeeper.get(url)
                print(url, r.status_code)
            except Exception as e:
                print(url, "EXC", type(e).__name__, e)


def test_d9(scorekeeper):
    for game in ("block", "mexican-train", "chicken-foot", "draw"):
        match = keep(scorekeeper, services.create_match(game, ["Ana", "Ben"], {"record": "scores"}))
        r = tap(scorekeeper, match, {"type": "tally", "out-0": "1", "pips-1": "13"})
        print(game, r.status_code)
        asked = scorekeeper.post(f"/matches/{match.pk}/ask/")
        try:
            print(game, scorekeeper.get(asked.url).status_code)
        except Exception as e:
            import traceback

            traceback.print_exc(limit=-4)
