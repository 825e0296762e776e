"""The new-match form: names and the game first, then each game's house rules in a fieldset
of its own with its defaults and its rule ids as links; a refused form keeps what was chosen.
"Play in pairs" sits with the names, for the games that offer it (RULES.md §8)."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings

from referee import PRESETS
from referee.rulebook import resolve_options
from scoring.models import Match, Seat

NEW = {"game": "draw", "player-0": "Ana", "player-1": "Ben", "player-2": "Caro"}
FOUR = {"player-0": "Ana", "player-1": "Ben", "player-2": "Caro", "player-3": "Dan"}
# team.seats: the games that offer partnerships, and those of them scored as Block (team.block).
DOMINO = {"domino-international", "domino-dominican", "domino-puerto-rican", "domino-cuban",
          "domino-venezuelan", "domino-spanish"}  # fmt: skip
PAIRS = {"block", "draw", "all-fives", "muggins", "fives-and-threes", "cross", "cross-spinners",
         "doubles"} | DOMINO  # fmt: skip
BLOCK_SCORED = {"block", "draw", "cross", "cross-spinners", "doubles"} | DOMINO


def house_rules(slug: str) -> list[str]:
    """The names of a game's house rules in its fieldset: all but Play in pairs, which sits
    with the names."""
    return [option.name for option in PRESETS[slug].options if option.name != "partnerships"]


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
        self.pairs_games: set[str] = set()  # the games whose radio offers Play in pairs
        self.with_pairs: set[str] = set()  # fields of house rules shown only with pairs on
        self._game: str | None = None
        self._option_class = ""
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
        if tag == "div" and "match-option" in (a.get("class") or ""):
            self._option_class = a["class"] or ""
        if tag in ("input", "select") and a.get("name"):
            name = a["name"]
            self.fields.append(name)
            if name == "game" and "data-pairs" in a:
                self.pairs_games.add(a["value"] or "")
            if game is not None and "with-pairs" in self._option_class:
                self.with_pairs.add(name)
            if game is not None:
                game["fields"].append(name)
            if "checked" in a:
                self.checked.add(f"{name}={a.get('value', 'on')}")
            if a.get("type") in ("text", "hidden"):
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


class Pairs(HTMLParser):
    """The Play in pairs box read as text: its switch's label, its error, the legend of the
    partner choice, and for each partner the teams line and the seats, clockwise."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.label = self.error = self.legend = ""
        self.rule_links: dict[str, str] = {}  # game: href of its team.seats link
        self.teams: dict[str, str] = {}  # partner: "Ana & Caro against Ben & Dan"
        self.seats: dict[str, list[str]] = {}  # partner: ["1 Ana", "2 Ben", ...]
        self._depth = 0  # how deep in the box; 0: outside it
        self._into = ""  # where the text goes
        self._partner = ""
        self._game = ""
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        css = a.get("class") or ""
        if tag == "div" and a.get("id") == "pairs":
            self._depth = 1
            return
        if not self._depth:
            return
        if tag == "div":
            self._depth += 1
        if "data-game" in a:
            self._game = a["data-game"] or ""
        if tag == "a" and self._game:
            self.rule_links[self._game] = a["href"] or ""
        if tag == "label" and "choice" in css:
            self._into = "label"
        elif tag == "p" and "pairs-error" in css:
            self._into = "error"
        elif tag == "legend":
            self._into = "legend"
        elif tag == "div" and "pairs-line-up" in css:
            self._partner = a["data-partner"] or ""
        elif tag == "p" and "pairs-teams" in css:
            self._into = "teams"
            self.teams[self._partner] = ""
        elif tag == "li":
            self._into = "seat"
            self.seats.setdefault(self._partner, []).append("")

    def handle_endtag(self, tag: str) -> None:
        if not self._depth:
            return
        if tag == "div":
            self._depth -= 1
        if tag == "span":
            self._game = ""
        if tag in ("label", "p", "legend", "li"):
            self._into = ""

    def handle_data(self, data: str) -> None:
        if self._into in ("label", "error", "legend"):
            setattr(self, self._into, getattr(self, self._into) + data)
        elif self._into == "teams":
            self.teams[self._partner] += data
        elif self._into == "seat":
            self.seats[self._partner][-1] += data


_BLANK: dict[str, str] = {}  # the page a phone gets on its first visit, fetched once a worker


def page_of(client, data: dict | None = None) -> str:
    # A phone that has never been here (no cookie) gets the same blank form in every test:
    # fetch it once, not once a test (a 160 KB page of every game's house rules).
    blank = not data and not client.cookies
    if blank and "page" in _BLANK:
        return _BLANK["page"]
    response = client.post("/matches/new/", data) if data else client.get("/matches/new/")
    assert response.status_code == (400 if data else 200)
    if blank:
        _BLANK["page"] = response.content.decode()
    return response.content.decode()


def form(client, data: dict | None = None) -> Form:
    return Form(page_of(client, data))


def seated(match: Match) -> list[str]:
    """The match's players by seat number."""
    seats = Seat.objects.filter(match=match).order_by("number")
    return list(seats.values_list("player__name", flat=True))


def test_the_player_names_come_before_the_game(scorekeeper, db):
    fields = [f for f in form(scorekeeper).fields if f != "csrfmiddlewaretoken"]
    names = [f"player-{i}" for i in range(8)]
    assert fields[:8] == names
    assert fields.index("game") > fields.index("player-7")
    assert fields.index("game") < min(fields.index(f) for f in fields if "." in f)


@pytest.mark.parametrize("slug", list(PRESETS))
def test_each_game_has_exactly_its_own_house_rules(scorekeeper, db, slug):
    game = form(scorekeeper).games[slug]
    assert game["fields"] == [f"{slug}.{name}" for name in house_rules(slug)]


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
        if option.name == "partnerships":  # beside the switch, with the names
            assert Pairs(page_of(scorekeeper)).rule_links[slug] == f"/rules/{slug}/#team.seats"
            continue
        assert f"/rules/{slug}/#{option.rule}" in game["links"]
    for label in game["labels"]:
        assert not any(option.rule in label for option in PRESETS[slug].options), label
    assert f"/rules/{slug}/" in game["links"]


@pytest.mark.parametrize("slug", list(PRESETS))
def test_every_house_rule_starts_at_its_default_and_says_so(scorekeeper, db, slug):
    page = form(scorekeeper)
    for option in PRESETS[slug].options:
        field = f"{slug}.{option.name}"
        if option.name == "partnerships":
            assert "partnerships=on" not in page.checked
            continue
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


# --- Play in pairs (team.seats) ---------------------------------------------------------


def test_play_in_pairs_sits_with_the_names_in_the_games_that_offer_it(scorekeeper, db):
    page = form(scorekeeper)
    fields = [f for f in page.fields if f != "csrfmiddlewaretoken"]
    # After the names, before the game: one switch and the partner choice, for every game.
    assert fields[8:12] == ["partnerships", "partner", "partner", "partner"]
    assert fields[12] == "game"
    assert page.pairs_games == PAIRS - DOMINO  # Dominó is always in pairs: no switch to offer
    assert not [f for game in page.games.values() for f in game["fields"] if "partnerships" in f]
    # Off at first; the first name partners with the third (opposite) until told otherwise.
    assert "partnerships=on" not in page.checked and "partner=2" in page.checked
    pairs = Pairs(page_of(scorekeeper))
    assert " ".join(pairs.label.split()) == "Play in pairs (four players)"
    assert pairs.error == ""


def test_count_all_hands_only_in_the_block_scored_games_and_only_with_pairs(scorekeeper, db):
    page = form(scorekeeper)
    fields = {f"{slug}.count_all_hands" for slug in BLOCK_SCORED}
    assert {f for game in page.games.values() for f in game["fields"] if "count_all" in f} == fields
    # The stylesheet shows it only with pairs on; every other house rule shows without.
    assert page.with_pairs == fields
    # Off by default, but where a style plays it (parejas.domino: Puerto Rico's 500).
    on = {slug for slug in BLOCK_SCORED if resolve_options(slug, {}).get("count_all_hands")}
    assert {f"{slug}.count_all_hands=on" for slug in on} == {
        "domino-puerto-rican.count_all_hands=on"
    }
    assert {f"{field}=on" for field in fields} & page.checked == {
        f"{slug}.count_all_hands=on" for slug in on
    }


def test_count_all_hands_is_read_only_with_pairs_on(scorekeeper, db):
    data = {**FOUR, "game": "block", "block.count_all_hands": "on"}
    assert scorekeeper.post("/matches/new/", data).status_code == 302
    alone = Match.objects.get()
    assert (alone.options["partnerships"], alone.options["count_all_hands"]) == (False, False)
    alone.delete()
    assert scorekeeper.post("/matches/new/", {**data, "partnerships": "on"}).status_code == 302
    pairs = Match.objects.get()
    assert (pairs.options["partnerships"], pairs.options["count_all_hands"]) == (True, True)


@pytest.mark.parametrize(
    ("partner", "seats", "teams"),
    [
        ("1", ["Ana", "Caro", "Ben", "Dan"], "Ana & Ben against Caro & Dan"),
        ("2", ["Ana", "Ben", "Caro", "Dan"], "Ana & Caro against Ben & Dan"),
        ("3", ["Ana", "Ben", "Dan", "Caro"], "Ana & Dan against Ben & Caro"),
        ("", ["Ana", "Ben", "Caro", "Dan"], "Ana & Caro against Ben & Dan"),  # as typed
    ],
)
def test_the_partner_chosen_sits_opposite(scorekeeper, db, partner, seats, teams):
    """The first name's partner takes the seat opposite (seat 3); the other two keep their
    order in seats 2 and 4. The page says so before Start; the match is seated so."""
    data = {**FOUR, "game": "all-fives", "partnerships": "on", "partner": partner}
    # The page shows the teams and seats each choice makes (here, refused for its target).
    pairs = Pairs(page_of(scorekeeper, {**data, "all-fives.target": "lots"}))
    shown = partner or "2"
    assert pairs.teams[shown] == teams
    assert [" ".join(seat.split()) for seat in pairs.seats[shown]] == [
        f"{n} {name}" for n, name in enumerate(seats, 1)
    ]
    assert " ".join(pairs.legend.split()) == "Ana partners with"
    response = scorekeeper.post("/matches/new/", data)
    assert response.status_code == 302
    match = Match.objects.get()
    assert match.options["partnerships"] is True
    assert seated(match) == seats


def test_the_partner_choice_is_read_only_in_pairs(scorekeeper, db):
    data = {**FOUR, "game": "draw", "partner": "1"}
    assert scorekeeper.post("/matches/new/", data).status_code == 302
    assert seated(Match.objects.get()) == ["Ana", "Ben", "Caro", "Dan"]


def test_names_with_gaps_are_seated_in_their_order(scorekeeper, db):
    data = {"game": "block", "partnerships": "on", "partner": "3", "player-0": "Ana",
            "player-2": "Ben", "player-3": "Caro", "player-6": "Dan"}  # fmt: skip
    assert scorekeeper.post("/matches/new/", data).status_code == 302
    assert seated(Match.objects.get()) == ["Ana", "Ben", "Dan", "Caro"]


@pytest.mark.parametrize("slug", sorted(set(PRESETS) - PAIRS))
def test_a_game_without_pairs_ignores_the_switch(scorekeeper, db, slug):
    data = {**FOUR, "game": slug, "partnerships": "on", "partner": "1"}
    assert scorekeeper.post("/matches/new/", data).status_code == 302
    match = Match.objects.get()
    assert "partnerships" not in match.options
    assert seated(match) == ["Ana", "Ben", "Caro", "Dan"]


@pytest.mark.parametrize("count", [2, 3, 5])
def test_pairs_with_other_than_four_names_is_refused_beside_the_switch(scorekeeper, db, count):
    names = ["Ana", "Ben", "Caro", "Dan", "Eve"][:count]
    data = {
        "game": "draw",
        "partnerships": "on",
        "partner": "3",
        "draw.count_all_hands": "on",
        "draw.target": "150",
        **{f"player-{i}": name for i, name in enumerate(names)},
    }
    html = page_of(scorekeeper, data)
    assert Match.objects.count() == 0
    pairs = Pairs(html)
    assert pairs.error == (
        f"Playing in pairs takes four players, two teams of two; {count} names are filled in. "
        "Name four players, or switch “Play in pairs” off."
    )
    assert 'role="alert"' in html.split('id="pairs"', 1)[1].split("</p>", 1)[0]
    assert 'aria-describedby="pairs-help pairs-error"' in html
    assert html.count("notice error") == 1  # said once, in place
    # Everything typed and chosen is kept.
    page = Form(html)
    assert [page.values[f"player-{i}"] for i in range(count)] == names
    assert "game=draw" in page.checked
    assert {"partnerships=on", "partner=3", "draw.count_all_hands=on"} <= page.checked
    assert page.selected["draw.target"] == "150"


def test_a_partner_that_is_no_choice_is_refused(scorekeeper, db):
    html = page_of(scorekeeper, {**FOUR, "game": "block", "partnerships": "on", "partner": "4"})
    assert "Choose who partners with the first player" in html
    assert Match.objects.count() == 0


def test_the_stylesheet_shows_only_the_chosen_games_house_rules_for_every_game():
    """The new-match form hides other games' house rules by a rule per game (CSS has no
    loop): a game added without its rule would show every game's house rules at once."""
    css = (Path(settings.BASE_DIR) / "static" / "css" / "boneyard.css").read_text()
    for slug in PRESETS:
        assert (
            f'#new-match:has(input[name="game"][value="{slug}"]:checked) '
            f'[data-game]:not([data-game="{slug}"])'
        ) in css, slug


def test_back_from_the_table_finds_the_form_as_it_was_sent(scorekeeper, db):
    # The Back button from a new table used to land on an emptied form (issue 28).
    key = Form(page_of(scorekeeper)).values["key"]
    sent = {**NEW, "key": key, "draw.target": "150", "draw.one_end_doubles": "on"}
    response = scorekeeper.post("/matches/new/", sent)
    match = Match.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/matches/{match.pk}/"
    html = page_of(scorekeeper)
    page = Form(html)
    assert [page.values[f"player-{i}"] for i in range(4)] == ["Ana", "Ben", "Caro", ""]
    assert "game=draw" in page.checked and page.selected["draw.target"] == "150"
    assert "draw.one_end_doubles=on" in page.checked
    assert f"You started Draw #{match.pk} with this form." in html
    assert f'href="/matches/{match.pk}/">Back to its table' in html
    # Started again from the same form (a double tap, a page the Back button kept), it
    # leads to its match: one form starts one match.
    again = scorekeeper.post("/matches/new/", sent)
    assert again["Location"] == f"/matches/{match.pk}/" and Match.objects.count() == 1
    # The form shown again is a new one: Start there starts another match.
    assert page.values["key"] != key
    assert scorekeeper.post("/matches/new/", {**sent, "key": page.values["key"]}).status_code == 302
    assert Match.objects.count() == 2


def test_a_finished_or_foreign_match_is_not_offered_again(scorekeeper, client, db):
    scorekeeper.post("/matches/new/", {**NEW, "key": "k" * 32})
    Match.objects.update(status=Match.FINISHED)
    html = page_of(scorekeeper)
    assert "You started" not in html and Form(html).values["player-0"] == ""
    assert "You started" not in page_of(client)  # another phone's session knows nothing
