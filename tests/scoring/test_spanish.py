"""Boneyard in Spanish: a catalogue with every word translated, kept current with the
source, and every screen of every game rendered without an English sentence.

The page check plays a scripted match of each game (by the rules, from shuffled hands, as
the table would record it) and opens, with the phone set to Spanish, every screen a table
sees: the table mid-round (with a refusal rendered in place), the tally, the finished
match, each round's replay, the summary, the score sheet's CSV, a Fix screen, the rules
page, and the home, players, new-match and desk pages. Each English sentence of the
catalogue (each run of two or more words between its placeholders, unless its translation
keeps it, as it keeps "Muggins") must be absent from what the page shows: its text and the
attributes a phone reads aloud or shows (aria-label, title, placeholder, data-why, data-say).
"""

from __future__ import annotations

import html
import os
import random
import re
import shutil
from functools import cache
from pathlib import Path

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client
from django.utils import translation

from referee import DominoSet, Tally
from referee.actions import Engine, Undo
from referee.games.trains import chicken_foot, mexican_train
from referee.rulebook import PRESETS, resolve_options
from referee.said import Said, counted, listed, tiles
from referee.tiles import Tile
from scoring import services
from scoring.management.commands import makemessages
from scoring.models import Match, Player
from scoring.speech import all_of, say, tile_name
from tests.referee import parejas_oracle

from .conftest import keep
from .test_dominards import whole_game
from .test_dump_truck import honest_game
from .test_replay import havoc_match, honest_line_match

CATALOGUE = Path(settings.BASE_DIR) / "locale" / "es" / "LC_MESSAGES" / "django.po"
NAMES = ["Ana", "Ben", "Caro", "Dan"]


# --- The catalogue -----------------------------------------------------------------------


def _unquote(lines: list[str]) -> str:
    return "".join(
        line[1:-1].encode("latin-1", "backslashreplace").decode("unicode_escape") for line in lines
    )


@cache
def entries(path: Path = CATALOGUE) -> tuple[dict, ...]:
    """The catalogue's entries: msgctxt, msgid, msgid_plural, msgstr (a list) and flags."""
    found: list[dict] = []
    entry: dict = {}
    field = None
    for raw in path.read_text(encoding="utf-8").splitlines() + [""]:
        line = raw.strip()
        if not line:
            if entry.get("msgid") is not None:
                found.append(entry)
            entry, field = {}, None
            continue
        if line.startswith("#,"):
            entry["flags"] = {f.strip() for f in line[2:].split(",")}
        elif line.startswith("#"):
            continue
        elif line.startswith('"'):
            entry[field].append(line)
        else:
            key, _, value = line.partition(" ")
            field = key
            entry[field] = [value]
    for item in found:
        for key in list(item):
            if key.startswith("msg"):
                item[key] = _unquote(item[key])
        item["msgstr"] = [item[k] for k in sorted(item) if k.startswith("msgstr")]
    return tuple(e for e in found if e["msgid"])  # the header has an empty msgid


PLACEHOLDER = re.compile(r"\{[a-z_0-9]*\}|%\([a-z_0-9]+\)[sd]|%[sd]")


def test_every_msgid_has_a_spanish_translation():
    missing = [
        e["msgid"] for e in entries() if not all(e["msgstr"]) or "fuzzy" in e.get("flags", ())
    ]
    assert len(entries()) > 1500
    assert missing == [], f"{len(missing)} untranslated or fuzzy, first: {missing[:5]}"


def test_every_translation_keeps_its_placeholders():
    """A translation fills in what its English fills in: it invents no placeholder (that
    would fail at render) and drops none, but for a double's name, whose two halves are
    one number ("doble cinco")."""
    wrong = []
    for entry in entries():
        for number, text in enumerate(entry["msgstr"]):
            source = entry["msgid_plural"] if number and "msgid_plural" in entry else entry["msgid"]
            used, given = set(PLACEHOLDER.findall(text)), set(PLACEHOLDER.findall(source))
            if not used <= given or (used != given and entry.get("msgctxt") != "double tile"):
                wrong.append((entry["msgid"], text))
    assert wrong == []


def test_the_rulebooks_paragraphs_and_lists_keep_their_shape():
    """A rule's text is split into paragraphs at line breaks and lists at "- "."""
    for entry in entries():
        text = entry["msgstr"][0]
        assert text.count("\n") == entry["msgid"].count("\n"), entry["msgid"][:60]
        assert text.count("\n- ") == entry["msgid"].count("\n- "), entry["msgid"][:60]


class IntoTheCopy(makemessages.Command):
    """``make messages`` writing into the test's copy of the catalogue. Run from the repo,
    makemessages finds the repo's own locale/ beside the sources and writes there: the copy
    never changed (the test could not fail), and the real catalogue was rewritten under
    the tests that read it."""

    def find_files(self, root):
        found = super().find_files(root)
        for translatable in found:
            translatable.locale_dir = self.default_locale_path  # LOCALE_PATHS[0], the copy
        return found


def test_the_catalogue_has_every_msgid_the_source_has(tmp_path, settings, monkeypatch):
    """`make messages` would add nothing: no word in the code, the templates, the referee
    or the declared data is missing from the catalogue (nor one that nothing uses)."""
    # The declared words are written beside the sources while the command runs: a name of
    # this process's own, as the database legs run this test at once.
    declared = makemessages.DECLARED.with_name(f"declared_words_{os.getpid()}.py")
    monkeypatch.setattr(makemessages, "DECLARED", declared)
    (tmp_path / "es" / "LC_MESSAGES").mkdir(parents=True)
    shutil.copy(CATALOGUE, tmp_path / "es" / "LC_MESSAGES" / "django.po")
    settings.LOCALE_PATHS = [tmp_path]
    before = CATALOGUE.read_bytes()
    call_command(
        IntoTheCopy(), locale=["es"], add_location="file", no_obsolete=True, verbosity=0,
        ignore_patterns=[".venv", "staticfiles", "tests", "bench", "scripts", "locale"],
    )  # fmt: skip
    assert CATALOGUE.read_bytes() == before
    fresh = {(e.get("msgctxt"), e["msgid"]) for e in entries(tmp_path / "es/LC_MESSAGES/django.po")}
    kept = {(e.get("msgctxt"), e["msgid"]) for e in entries()}
    assert sorted(fresh - kept, key=str) == [] and sorted(kept - fresh, key=str) == []


# --- The referee's sayings -------------------------------------------------------------


def test_a_saying_is_rendered_in_the_phones_language_with_tiles_in_words():
    said = Said(
        "{who} knocked (action {n}) holding {tile}, which fitted on {on}.",
        who="Ana", n=3, tile=Tile(6, 4), on=Tile(5, 5),
    )  # fmt: skip
    with translation.override("es"):
        assert tile_name(Tile(6, 4)) == "seis-cuatro"
        assert tile_name(Tile(5, 5)) == "doble cinco"
        assert tile_name(Tile(3, 0)) == "tres-blanco"
        assert say(tiles(1)) == "1 ficha" and say(tiles(3)) == "3 fichas"
        assert say(listed(["Ana", "Ben", "Caro"])) == "Ana, Ben y Caro"
        assert all_of(["Ana", "Ben", "Caro"]) == "Ana, Ben y Caro"
        assert say(counted("{n} pip", "{n} pips", 2, n=2)) == "2 puntos"
        spanish = say(said)
    assert "Ana" in spanish and "seis-cuatro" in spanish and "doble cinco" in spanish
    assert "knocked" not in spanish
    with translation.override("en"):
        assert all_of(["Ana", "Ben", "Caro"]) == "Ana, Ben and Caro"
        assert say(said) == str(said) == "Ana knocked (action 3) holding 6-4, which fitted on 5-5."


# --- Every screen of every game, in Spanish ----------------------------------------------


@cache
def english_sentences() -> tuple[str, ...]:
    """Every run of two or more English words the catalogue translates differently."""
    found = set()
    for entry in entries():
        sources = [entry["msgid"], entry.get("msgid_plural", "")]
        translated = " ".join(entry["msgstr"])
        for source in filter(None, sources):
            for piece in re.split(r"\{[^}]*\}|%\([^)]*\)[sd]|%[sd]|<[^>]*>|\n|[“”\"():;]", source):
                piece = piece.strip(" .,!?¡¿-–—·…'")
                words = re.findall(r"[A-Za-z]+", piece)
                if len(words) >= 2 and len(piece) >= 8 and piece not in translated:
                    found.add(piece)
    return tuple(sorted(found, key=len, reverse=True))


_READ = re.compile(r'\s(?:aria-label|title|placeholder|alt|data-why|data-say-[a-z-]+)="([^"]*)"')


def shown(page: str) -> str:
    """What a phone shows or reads aloud of a page: its text and its spoken attributes."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    attributes = " · ".join(_READ.findall(page))
    text = re.sub(r"<[^>]+>", " · ", page)
    return re.sub(r"\s+", " ", html.unescape(text + " · " + attributes))


@cache
def _worded() -> tuple[tuple[str, frozenset[str]], ...]:
    return tuple((s, frozenset(re.findall(r"[A-Za-z]+", s))) for s in english_sentences())


def english_in(page: str) -> list[str]:
    # Cheap tests first, each implied by the last (a whole-word match): every word of the
    # sentence is a word of the page, then the plain substring. Compiling a regex for each
    # of the catalogue's ~2,500 sentences on every page (Python caches 512) cost minutes a
    # run, and scanning the page for each of them a third of this file's time.
    text = shown(page)
    words = frozenset(re.findall(r"[A-Za-z]+", text))
    return [
        s
        for s, needs in _worded()
        if needs <= words
        and s in text
        and re.search(rf"(?<![A-Za-z]){re.escape(s)}(?![A-Za-z])", text)
    ]


def honest_train_match(module, slug: str, players: int, seed: int, most_rounds: int = 2) -> dict:
    """A train game played by the rules from shuffled hands: each seat places the engine or
    plays a tile it holds where one fits, else draws, else passes; real hands tallied."""
    rng = random.Random(seed)
    names = NAMES[:players]
    rounds: list[list[dict]] = []
    state = module.start(slug, {}, names)
    while len(rounds) < most_rounds:
        stock = list(DominoSet(state.top).tiles)
        rng.shuffle(stock)
        hands = [[stock.pop() for _ in range(size)] for size in state.hands]
        actions = []
        while state.result is None:
            if state.is_over:
                action = Tally(hands=tuple((s, tuple(hand)) for s, hand in enumerate(hands)))
            else:
                legal = [a for a in module.legal_actions(state) if not isinstance(a, Undo)]
                held = [a for a in legal if getattr(a, "tile", None) in hands[a.seat]]
                engine = [a for a in held if isinstance(a, Engine)]
                draws = [a for a in legal if a.kind == "draw"]
                passes = [a for a in legal if a.kind == "pass"]
                action = engine[0] if engine else rng.choice(held or draws or passes)
                if action in held:
                    hands[action.seat].remove(action.tile)
                elif action.kind == "draw":
                    hands[action.seat].append(stock.pop())
            state = module.apply(state, action)
            actions.append(action.to_dict())
        rounds.append(actions)
        if state.match_over:
            break
        state = module.start(
            slug, state.options, names, module.next_leader(state), state.totals, state.carry
        )
    return {"format": "boneyard-match/1", "game": slug, "players": names,
            "rounds": [{"actions": a} for a in rounds]}  # fmt: skip


def scripted(slug: str) -> dict:
    if slug == "dominards":
        return whole_game(3, 3)
    if slug == "dump-truck":
        return honest_game(3, 3)
    if slug == "havoc":
        return havoc_match(3, 3)
    if slug == "mexican-train":
        return honest_train_match(mexican_train, slug, 4, 3)
    if slug == "chicken-foot":
        return honest_train_match(chicken_foot, slug, 3, 3)
    if slug.startswith("domino-"):  # four seats in two pairs, led by the style's rule
        document, _ = parejas_oracle.generate(slug, resolve_options(slug, {}), 3, most_hands=2)
        return document
    return honest_line_match(slug, 3, 3, most_rounds=2)


def cut(document: dict, keep_actions) -> dict:
    """The document with its last round cut to ``keep_actions(actions)``."""
    rounds = [dict(r) for r in document["rounds"]]
    last = rounds[-1]["actions"]
    rounds[-1] = {**rounds[-1], "actions": keep_actions(last)}
    return {**document, "rounds": rounds}


def spanish(client: Client, url: str, data: dict | None = None, **headers) -> str:
    response = client.post(url, data, **headers) if data is not None else client.get(url)
    assert response.status_code in (200, 400, 409, 422), (url, response.status_code)
    return response.content.decode()


def phone() -> Client:
    return Client(HTTP_ACCEPT_LANGUAGE="es")


@pytest.mark.parametrize("slug", list(PRESETS))
def test_every_screen_of_every_game_is_in_spanish(db, slug):
    whole = scripted(slug)
    pages: dict[str, str] = {}
    # Mid-round: the table with its buttons, banner, log and a refusal in place.
    playing = keep(client := phone(), services.import_match(cut(whole, lambda a: a[: len(a) // 2])))
    table = f"/matches/{playing.pk}/"
    pages["table"] = spanish(client, table)
    assert '<html lang="es">' in pages["table"]
    fields = dict(re.findall(r'name="(version|key)" value="([^"]*)"', pages["table"]))
    pages["refusal"] = spanish(
        client, f"{table}act/", {**fields, "type": "play", "seat": "9", "tile": "6-6"},
        HTTP_HX_REQUEST="true",
    )  # fmt: skip
    pages["stale"] = spanish(
        client, f"{table}act/", {**fields, "version": "0", "type": "pass", "seat": "0"},
        HTTP_HX_REQUEST="true",
    )  # fmt: skip
    pages["fix"] = spanish(client, f"{table}rounds/1/fix/1/")
    # The tally: the last round stopped before its hands are shown.
    tallying = keep(client := phone(), services.import_match(cut(whole, lambda a: a[:-1])))
    pages["tally"] = spanish(client, f"/matches/{tallying.pk}/")
    # The whole match: results, replays, summary, the score sheet.
    done = keep(client := phone(), services.import_match(whole))
    match = f"/matches/{done.pk}/"
    pages["finished"] = spanish(client, match)
    for number in range(1, len(whole["rounds"]) + 1):
        pages[f"replay {number}"] = spanish(client, f"{match}rounds/{number}/")
        pages[f"replay {number} step 2"] = spanish(client, f"{match}rounds/{number}/?step=2")
    pages["summary"] = spanish(client, f"{match}summary/")
    pages["chart"] = spanish(client, f"{match}chart/")
    pages["csv"] = spanish(client, f"{match}scores.csv").splitlines()[0]
    pages["rules"] = spanish(client, f"/rules/{slug}/")
    player = Player.objects.get(name="Ana")
    for url in (
        "/",
        "/rules/",
        "/players/",
        f"/players/{player.pk}/",
        "/matches/new/",
        "/referee/",
    ):
        pages[url] = spanish(client, url)
    leaks = {name: english_in(page) for name, page in pages.items()}
    assert {name: found for name, found in leaks.items() if found} == {}


def test_the_check_finds_english_where_there_is_some(db):
    """The page check above can fail: an English page is full of catalogue sentences."""
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    match = keep(client, services.import_match(honest_line_match("draw", 3, 3, most_rounds=1)))
    assert len(english_in(client.get(f"/matches/{match.pk}/").content.decode())) > 5
    assert len(english_in(client.get("/rules/draw/").content.decode())) > 20


def test_the_phone_keeps_the_language_it_chose(db):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    assert '<html lang="en">' in client.get("/").content.decode()
    response = client.post("/i18n/setlang/", {"language": "es", "next": "/rules/"})
    assert response.status_code == 302 and response["Location"] == "/rules/"
    assert (
        response.cookies[settings.LANGUAGE_COOKIE_NAME]["max-age"] == settings.LANGUAGE_COOKIE_AGE
    )
    page = client.get("/rules/").content.decode()
    assert '<html lang="es">' in page and "Reglas" in page
    # Every page offers the switch back, each language named in its own words.
    assert 'value="en" lang="en"' in page and ">English<" in page and ">Español<" in page


def test_a_phone_without_a_choice_follows_its_accept_language(db):
    assert (
        '<html lang="es">'
        in Client(HTTP_ACCEPT_LANGUAGE="es-DO,es;q=0.9").get("/").content.decode()
    )
    assert '<html lang="en">' in Client(HTTP_ACCEPT_LANGUAGE="fr-FR").get("/").content.decode()


def test_a_match_record_is_the_same_whatever_language_recorded_it(db):
    """The referee's record is data: a refusal in Spanish changes nothing, an export is
    English JSON whatever the phone's language."""
    client = phone()
    match = keep(client, services.create_match("draw", ["Ana", "Ben"], {}))
    page = client.get(f"/matches/{match.pk}/").content.decode()
    fields = dict(re.findall(r'name="(version|key)" value="([^"]*)"', page))
    client.post(f"/matches/{match.pk}/act/", {**fields, "type": "play", "seat": "0", "tile": "6-6"})
    exported = client.get(f"/matches/{match.pk}/export.json").json()
    assert exported["game"] == "draw" and exported["rounds"][0]["actions"][0]["tile"] == "6-6"
    Match.objects.get(pk=match.pk)


def test_the_screens_around_the_games_are_in_spanish(db):
    """The desk's rulings, a watching phone and its 403, partnerships, a score pad, a
    refused new match and a refused import, and the error pages."""
    pages: dict[str, str] = {}
    client = phone()
    # The referee's desk: a position from a table, a legal and an illegal ruling.
    match = keep(client, services.import_match(cut(scripted("draw"), lambda a: a[: len(a) // 2])))
    desk = client.post(f"/matches/{match.pk}/ask/")["Location"]
    pages["desk"] = spanish(client, desk)
    for fields in (
        {"type": "undo"},
        {"type": "pass", "seat": "0"},
        {"type": "play", "seat": "1", "tile": "6-6"},
    ):
        pages[f"desk {fields['type']}"] = spanish(
            client, desk, {"version": "0", "key": "k" * 32, **fields}, HTTP_HX_REQUEST="true"
        )
    # A phone that only watches: its table, and the refusal of a tap it may not make.
    watcher = phone()
    assert watcher.get(f"/matches/{match.pk}/join/{match.watch_token}/").status_code == 302
    pages["watching"] = spanish(watcher, f"/matches/{match.pk}/")
    refused = watcher.post(
        f"/matches/{match.pk}/act/", {"type": "pass", "seat": "0"}, HTTP_HX_REQUEST="true"
    )
    assert refused.status_code == 403
    pages["watching, refused"] = refused.content.decode()
    # Partnerships and a score pad, each mid-match.
    pairs = keep(client, services.create_match("all-fives", NAMES, {"partnerships": True}))
    pages["pairs"] = spanish(client, f"/matches/{pairs.pk}/")
    pad = keep(client, services.create_match("mexican-train", NAMES[:3], {"record": "scores"}))
    pages["pad"] = spanish(client, f"/matches/{pad.pk}/")
    # Forms refused: a new match with one name, pairs with three, a hostile import.
    pages["new, refused"] = spanish(client, "/matches/new/", {"game": "draw", "player-0": "Ana"})
    three = {f"player-{i}": name for i, name in enumerate(NAMES[:3])}
    pages["pairs, refused"] = spanish(
        client, "/matches/new/", {"game": "block", "partnerships": "on", **three}
    )
    hostile = SimpleUploadedFile("m.json", b'{"format": "boneyard-match/1", "game": "chess"}')
    imported = client.post("/matches/import/", {"document": hostile}, follow=True)
    pages["import, refused"] = imported.content.decode()
    assert "chess" in pages["import, refused"]
    pages["desk, refused"] = spanish(
        client, "/referee/", {"pasted": '{"format": "boneyard-match/1"}'}
    )
    # The error pages, and a form sent without its CSRF token.
    pages["404"] = client.get("/matches/999999/").content.decode()
    strict = Client(HTTP_ACCEPT_LANGUAGE="es", enforce_csrf_checks=True)
    csrf = strict.post("/matches/new/", {"game": "draw"})
    assert csrf.status_code == 403
    pages["csrf"] = csrf.content.decode()
    leaks = {name: english_in(page) for name, page in pages.items()}
    assert {name: found for name, found in leaks.items() if found} == {}
    assert "No encontrado" in pages["404"] and "caducado" in pages["csrf"]
