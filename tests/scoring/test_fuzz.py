"""Bad input of any kind, generated (Hypothesis): never a 500, always a clear answer, and a
refused request changes nothing."""

from __future__ import annotations

import json
import urllib.parse

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from scoring import edge, services
from scoring.models import Action, Match

from .conftest import keep, snapshot, watch

pytestmark = pytest.mark.django_db
FUZZ = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
ANSWERS = {200, 204, 302, 400, 403, 404, 405, 409, 422, 429}

junk = st.one_of(
    st.text(max_size=20),
    st.text(min_size=1000, max_size=20_000),
    st.sampled_from(["", "0", "1", "-1", "99", "1e9", "6-6", "7-x", "9-9", "5|5", "6-6/side",
                     "6-6/end", "lead", "A", "null", "[]", "{}", "true", "\x00", "٣", "0x1"]),
    st.integers(-(10**12), 10**12).map(str),
)  # fmt: skip
fields = st.dictionaries(
    st.sampled_from(["type", "seat", "tile", "target", "count", "points", "version", "key",
                     "pips-0", "pips-1", "hand-0", "hand-1", "face", "extra"]),
    junk, max_size=8,
)  # fmt: skip
kinds = st.sampled_from(
    ["play", "draw", "pass", "undo", "tally", "declare", "muggins", "challenge", "roll", ""]
)


@pytest.fixture
def table(settings) -> tuple[Client, Client, Match]:
    settings.BONEYARD_RATE_LIMITS = {k: (10**6, 60) for k in settings.BONEYARD_RATE_LIMITS}
    match = services.create_match("muggins", ["Ana", "Ben", "Caro"], {})
    keeper, watcher = Client(), Client()
    keep(keeper, match)
    watch(watcher, match)
    return keeper, watcher, match


@FUZZ
@given(data=fields, kind=kinds, htmx=st.booleans())
def test_the_act_endpoint(table, data, kind, htmx):
    keeper, watcher, match = table
    post = {**data, "type": data.get("type", kind)}
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    before = snapshot(match)
    response = keeper.post(f"/matches/{match.pk}/act/", post, **headers)
    assert response.status_code in ANSWERS
    if response.status_code not in (200, 302):
        assert snapshot(match) == before
        # Said on the page: in the table's notice, or (refused at the edge) in the
        # connection notice the page shows on the event it is sent.
        said = response.content.decode() + response.get("HX-Trigger", "")
        assert 'role="alert"' in said or "boneyard:refused" in said
    else:
        assert services.verify(match) == []
    before = snapshot(match)
    # Text that is no text is refused at the edge, before anyone's rights are looked at.
    refused = 400 if edge.problem_in([t for pair in post.items() for t in pair]) else 403
    assert watcher.post(f"/matches/{match.pk}/act/", post, **headers).status_code == refused
    assert snapshot(match) == before


@FUZZ
@given(data=st.dictionaries(st.sampled_from(
    ["game", "player-0", "player-1", "player-2", "player-9", "draw.target", "draw.set",
     "muggins.muggins", "all-fives.reserve", "doubles.hand_size", "cross.opening",
     "partnerships", "partner", "player-3", "draw.count_all_hands"]), junk,
    max_size=8))  # fmt: skip
def test_the_new_match_form(table, data):
    keeper, _, _ = table
    count = Match.objects.count()
    response = keeper.post("/matches/new/", data)
    assert response.status_code in ANSWERS
    assert Match.objects.count() == count + (response.status_code == 302)


@FUZZ
@given(seat=junk, token=junk, version=junk)
def test_seats_links_joins_and_polls(table, seat, token, version):
    keeper, watcher, match = table

    def unless_broken(text: str, answers: set[int]) -> set[int]:
        return {400} if edge.problem_in([text]) else answers  # refused at the edge

    assert keeper.post(f"/matches/{match.pk}/seat/", {"seat": seat}).status_code in ANSWERS
    links = watcher.post(f"/matches/{match.pk}/links/", {"seat": seat})
    assert links.status_code in unless_broken(seat, {403})
    stranger = Client()
    if token.strip():
        path = f"/matches/{match.pk}/join/{urllib.parse.quote(token, safe='')}/"
        assert stranger.get(path).status_code in {404, 429}
    poll = keeper.get(f"/matches/{match.pk}/poll/", {"version": version}, HTTP_HX_REQUEST="true")
    assert poll.status_code in unless_broken(version, {200, 204})
    seen = stranger.get(f"/matches/{match.pk}/poll/", {"version": version})
    assert seen.status_code in unless_broken(version, {404})


documents = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=30), junk),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner,
                                                               max_size=5),
    max_leaves=40,
)  # fmt: skip


@FUZZ
@given(
    body=documents,
    top=st.fixed_dictionaries(
        {"format": st.sampled_from(["boneyard-match/1", "x"]),
         "game": st.sampled_from(["draw", "muggins", "cross", "nope"])},
        optional={"players": documents, "rounds": documents, "options": documents},
    ),
)  # fmt: skip
def test_hostile_import_documents(table, body, top):
    keeper, _, _ = table
    count, actions = Match.objects.count(), Action.objects.count()
    for document in (body, top):
        upload = SimpleUploadedFile("m.json", json.dumps(document).encode(), "application/json")
        response = keeper.post("/matches/import/", {"document": upload})
        assert response.status_code == 302
    assert Match.objects.count() - count <= 1  # only a well-formed, legal document is stored
    if Match.objects.count() == count:
        assert Action.objects.count() == actions


# --- Fixing the record (issue 28): every field of the fix endpoints tampered -------------------


@pytest.fixture
def fixable(settings) -> tuple[Client, Match]:
    """A Draw match of two rounds (the second begun again), kept by one phone."""
    from tests.referee.test_corrections import DRAW_TWO_ROUNDS

    settings.BONEYARD_RATE_LIMITS = {k: (10**6, 60) for k in settings.BONEYARD_RATE_LIMITS}
    document = json.loads(json.dumps(DRAW_TWO_ROUNDS))
    document["rounds"].append({"actions": [{"type": "play", "seat": 0, "tile": "6-6"}]})
    match = services.import_match(document)
    keeper = Client()
    keep(keeper, match)
    return keeper, match


# Round 1's tally: Ana held 2-2, not 2-1 (legal: Ben scores 4, not 3, and round 2 follows).
FIX = {"type": "correct", "at": 7, "replace": {"type": "tally", "hands": {"0": ["2-2"]}},
       "reason": "it was 2-2", "seat": 1}  # fmt: skip
AUTO = st.just("auto")  # the value the page's form carries; three times as likely as junk
anything = st.one_of(junk, st.integers(-5, 12), st.none(), st.booleans(), documents)


def _paths(value: object, at: tuple = ()) -> list[tuple]:
    """The path to every part of ``value``: itself, each field and item, at any depth."""
    inner: list[tuple] = []
    if isinstance(value, dict):
        inner = [p for key in value for p in _paths(value[key], (*at, key))]
    elif isinstance(value, list):
        inner = [p for n, item in enumerate(value) for p in _paths(item, (*at, n))]
    return [at, *inner]


def _changed(value: object, path: tuple, how: str, new: object) -> object:
    """``value`` with the part at ``path`` replaced by ``new``, dropped, or ``new`` added
    beside it (a field or item more)."""
    if not path:
        return new
    copy = json.loads(json.dumps(value))
    *above, last = path
    parent = copy
    for step in above:
        parent = parent[step]
    if how == "drop":
        del parent[last]
    elif how == "add" and isinstance(parent, list):
        parent.insert(last, new)
    elif how == "add":
        parent[f"{last}_"] = new
    else:
        parent[last] = new
    return copy


def tampered(value: object) -> st.SearchStrategy:
    """``value`` with any one part of it (the whole, a field, an item, at any depth, each
    as likely) replaced by anything, dropped, or added to."""
    return st.builds(
        _changed, st.just(value), st.sampled_from(_paths(value)),
        st.sampled_from(["replace", "drop", "add"]), anything,
    )  # fmt: skip


@FUZZ
@given(
    fixes=tampered([[1, FIX], [3, {"type": "correct", "at": 0, "remove": True}]]),
    version=st.one_of(AUTO, AUTO, AUTO, junk),
    key=st.one_of(AUTO, AUTO, AUTO, junk),
)
def test_the_fix_confirmation(fixable, fixes, version, key):
    keeper, match = fixable
    before = snapshot(match)  # read afresh: an earlier example may have corrected it
    form = {"fixes": json.dumps(fixes),
            "version": str(match.version) if version == "auto" else version,
            "key": services.new_key() if key == "auto" else key}  # fmt: skip
    if edge.problem_in([form["fixes"]]):
        form["fixes"] = json.dumps(fixes, ensure_ascii=True)  # JSON's escapes: read later
    response = keeper.post(f"/matches/{match.pk}/fix/", form)
    assert response.status_code in ANSWERS
    event(f"answered {response.status_code}")
    if response.status_code == 302:
        match.refresh_from_db()
        assert services.verify(match) == []
        for number in (1, 2, 3):  # every page of the corrected rounds still answers
            assert keeper.get(f"/matches/{match.pk}/rounds/{number}/").status_code == 200
        assert keeper.get(f"/matches/{match.pk}/summary/").status_code == 200
    else:
        assert snapshot(match) == before


@FUZZ
@given(
    number=st.integers(0, 5) | st.integers(10**9, 10**30),
    seq=st.integers(0, 12) | st.integers(10**9, 10**30),
    change=st.sampled_from(["", "replace/", "insert/", "remove/", "nope/"]),
    data=st.dictionaries(st.sampled_from(
        ["how", "reason", "type", "seat", "tile", "target", "count", "points", "sign", "die-0",
         "die-1", "card", "drop", "pips-0", "pips-1", "hand-0", "out-0", "version", "key",
         "abandoned"]), junk, max_size=8),
    more=st.booleans(),
)  # fmt: skip
def test_the_fix_pages_and_previews(fixable, number, seq, change, data, more):
    keeper, match = fixable
    before = snapshot(match)
    url = f"/matches/{match.pk}/rounds/{number}/fix/{seq}/{change}"
    query = "?more=1" if more else ""
    for response in (keeper.get(url + query), keeper.post(url + query, data)):
        assert response.status_code in ANSWERS
    # A preview refused or not, every picker of the round still answers after it.
    for entry in range(4):
        picker = keeper.get(f"/matches/{match.pk}/rounds/2/fix/{entry}/replace/?more=1")
        assert picker.status_code in ANSWERS
    assert snapshot(match) == before  # nothing is recorded before a confirmation
