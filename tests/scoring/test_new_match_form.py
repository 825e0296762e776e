"""The new-match form: names and the game first, then each game's house rules in a fieldset
of its own with its defaults and its rule ids as links; a refused form keeps what was chosen."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest

from referee import PRESETS
from scoring.models import Match

NEW = {"game": "draw", "player-0": "Ana", "player-1": "Ben", "player-2": "Caro"}


class Form(HTMLParser):
    """The new-match page read as a phone would: fields in order, and for every game's
    house-rules fieldset its fields, its labels' text, its links and its selects' choices."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.fields: list[str] = []  # every named field, in document order
        self.games: dict[str, dict] = {}
        self.checked: set[str] = set()  # checked radios and checkboxes, "name=value"
        self.values: dict[str, str] = {}  # text fields' values
        self.selected: dict[str, str] = {}  # each select's selected value
        self.choices: dict[str, list[tuple[str, str]]] = {}  # select: (value, text)
        self._game: str | None = None
        self._label = 0
        self._select: str | None = None
        self._option: str | None = None
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "fieldset" and "game-rules" in (a.get("class") or ""):
            self._game = a["data-game"]
            self.games[self._game] = {"fields": [], "labels": [], "links": []}
        game = self.games.get(self._game or "")
        if tag in ("input", "select") and a.get("name"):
            name = a["name"]
            self.fields.append(name)
            if game is not None:
                game["fields"].append(name)
            if "checked" in a:
                self.checked.add(f"{name}={a.get('value', 'on')}")
            if a.get("type") == "text":
                self.values[name] = a.get("value") or ""
            if tag == "select":
                self._select = name
                self.choices[name] = []
        if tag == "option" and self._select:
            self._option = a["value"] or ""
            self.choices[self._select].append((self._option, ""))
            if "selected" in a:
                self.selected[self._select] = self._option
        if tag == "label" and game is not None:
            self._label += 1
            game["labels"].append("")
        if tag == "a" and game is not None:
            game["links"].append(a["href"])

    def handle_endtag(self, tag: str) -> None:
        if tag == "fieldset":
            self._game = None
        elif tag == "label" and self._label:
            self._label -= 1
        elif tag == "select":
            self._select = None
        elif tag == "option":
            self._option = None

    def handle_data(self, data: str) -> None:
        if self._label and self._game:
            self.games[self._game]["labels"][-1] += data
        if self._select and self._option is not None:
            value, text = self.choices[self._select][-1]
            self.choices[self._select][-1] = (value, text + data)


def form(client, data: dict | None = None) -> Form:
    response = client.post("/matches/new/", data) if data else client.get("/matches/new/")
    assert response.status_code == (400 if data else 200)
    return Form(response.content.decode())


def test_the_player_names_come_before_the_game(scorekeeper, db):
    fields = [f for f in form(scorekeeper).fields if f != "csrfmiddlewaretoken"]
    names = [f"player-{i}" for i in range(8)]
    assert fields[:8] == names
    assert fields.index("game") > fields.index("player-7")
    assert fields.index("game") < min(fields.index(f) for f in fields if "." in f)


@pytest.mark.parametrize("slug", list(PRESETS))
def test_each_game_has_exactly_its_own_house_rules(scorekeeper, db, slug):
    game = form(scorekeeper).games[slug]
    assert game["fields"] == [f"{slug}.{option.name}" for option in PRESETS[slug].options]


def test_no_game_shows_another_games_house_rules(scorekeeper, db):
    page = form(scorekeeper)
    assert set(page.games) == set(PRESETS)
    # Dominards declares one house rule: no set, no spinners, no drawing.
    assert page.games["dominards"]["fields"] == ["dominards.stack_targets"]
    # Draw declares spinners (as a choice, off by default), but nothing of the count games.
    draw = {f.split(".", 1)[1] for f in page.games["draw"]["fields"]}
    assert not draw & {"muggins", "hints", "threes_scoring", "false_claim_penalty"}


@pytest.mark.parametrize("slug", list(PRESETS))
def test_rule_ids_are_links_beside_the_labels_not_in_them(scorekeeper, db, slug):
    game = form(scorekeeper).games[slug]
    for option in PRESETS[slug].options:
        assert f"/rules/{slug}/#{option.rule}" in game["links"]
    for label in game["labels"]:
        assert not any(option.rule in label for option in PRESETS[slug].options), label
    assert f"/rules/{slug}/" in game["links"]


@pytest.mark.parametrize("slug", list(PRESETS))
def test_every_house_rule_starts_at_its_default_and_says_so(scorekeeper, db, slug):
    page = form(scorekeeper)
    for option in PRESETS[slug].options:
        field = f"{slug}.{option.name}"
        if option.is_flag and not option.defaults_when:
            assert (f"{field}=on" in page.checked) is option.default
            label = next(t for t in page.games[slug]["labels"] if option.label in t)
            assert f"(default {'on' if option.default else 'off'})" in label
            continue
        marked = [value for value, text in page.choices[field] if "(default)" in text]
        assert marked == [page.selected[field]]
        if not option.defaults_when:
            assert marked == [str(option.default)]


def test_choices_are_in_players_words(scorekeeper, db):
    choices = form(scorekeeper).choices
    assert dict(choices["draw.draw_until"]) == {
        "playable": "until a tile fits (default)",
        "one": "one tile, then play it or pass",
    }
    assert dict(choices["draw.set"])["9"] == "double-9"
    assert dict(choices["draw.hand_size"])["0"] == "as the rulebook deals (default)"
    assert dict(choices["havoc.rounds"])["0"] == "until we stop (default)"
    assert dict(choices["draw.target"])["150"] == "150 points"


def test_the_first_game_is_chosen_on_a_fresh_form(scorekeeper, db):
    assert "game=block" in form(scorekeeper).checked


def test_a_refused_form_keeps_the_names_the_game_and_its_house_rules(scorekeeper, db):
    page = form(
        scorekeeper,
        {
            **NEW,
            "player-1": "ANA",  # the same player twice: refused
            "draw.target": "150",
            "draw.one_end_doubles": "on",
            "draw.draw_until": "one",
            # sides_first is left unticked
        },
    )
    assert Match.objects.count() == 0
    assert [page.values[f"player-{i}"] for i in range(4)] == ["Ana", "ANA", "Caro", ""]
    assert "game=draw" in page.checked and "game=block" not in page.checked
    assert page.selected["draw.target"] == "150"
    assert page.selected["draw.draw_until"] == "one"
    assert page.selected["draw.set"] == "6"  # not sent: the default
    assert "draw.one_end_doubles=on" in page.checked
    assert "draw.sides_first=on" not in page.checked
    # Another game's house rules stay at their defaults.
    assert page.selected["block.target"] == "100"
    assert "block.sides_first=on" in page.checked


def test_a_refused_form_keeps_a_rule_left_to_the_game(scorekeeper, db):
    data = {**NEW, "game": "fives-and-threes", "player-1": "ANA"}
    page = form(scorekeeper, {**data, "fives-and-threes.exact_target": "off"})
    assert page.selected["fives-and-threes.exact_target"] == "off"
    page = form(scorekeeper, {**data, "fives-and-threes.exact_target": ""})
    assert page.selected["fives-and-threes.exact_target"] == ""


def test_only_the_chosen_games_house_rules_are_read(scorekeeper, db):
    """Every game's fields are posted (the page hides the others, it does not disable them):
    the match takes the chosen game's and ignores the rest."""
    response = scorekeeper.post(
        "/matches/new/",
        {**NEW, "draw.target": "150", "block.target": "50", "all-fives.target": "nonsense"},
    )
    assert response.status_code == 302
    assert Match.objects.get().options["target"] == 150
