"""The referee's messages as data (issue 22's foundation): every sentence for the players
is a ``Said``, English text that also carries its template and parameters, so a
translation can render it in another language from the same data."""

from __future__ import annotations

import pickle

from referee.said import Said, listed, tiles
from referee.tiles import Tile


def test_a_said_is_its_english_text_and_its_data():
    said = Said("{who} drew {n}.", who="Caro", n=tiles(3))
    assert said == "Caro drew 3 tiles." and isinstance(said, str)
    assert said.template == "{who} drew {n}."
    assert said.params["n"].template == "{n} tiles" and said.params["n"].params == {"n": 3}


def test_a_template_without_parameters_is_its_own_text():
    assert Said("Nothing can be drawn.") == "Nothing can be drawn."
    assert Said("100% {sure}").template == "100% {sure}"  # no parameters: not formatted


def test_joined_sayings_stay_data():
    joined = Said("{who} knocks", who="Ana") + "."
    assert joined == "Ana knocks." and joined.template == "{first}{then}"
    assert joined.params["first"].params == {"who": "Ana"}


def test_lists_and_counts():
    assert listed([]) == "" and listed(["Ana"]) == "Ana"
    assert listed(["Ana", "Ben", "Caro", "Dan"]) == "Ana, Ben, Caro and Dan"
    assert listed([Tile(6, 4), Tile(5, 5)], "or") == "6-4 or 5-5"
    assert tiles(1) == "1 tile" and tiles(0) == "0 tiles"


def test_a_said_survives_pickling_with_its_data():
    said = Said("{tile} is not in a double-{top} set.", tile=Tile(9, 9), top=6)
    again = pickle.loads(pickle.dumps(said))
    assert again == said and again.template == said.template and again.params == said.params


def test_the_catalogue_check_finds_what_a_translation_could_not_render():
    """The check every refusal passes (conftest.py) fails on a template the catalogue lacks
    and on English handed over as a plain parameter, and passes a real saying."""
    from .conftest import translated_msgids, untranslatable

    msgids = translated_msgids()
    assert untranslatable(Said("Nobody wrote {this} down.", this="x"), msgids) == [
        "no msgid 'Nobody wrote {this} down.'"
    ]
    template = "{why}, so {who} cannot {doing}."
    english = Said(template, why=Said("pass"), who="Ana", doing="draw again")
    assert untranslatable(english, msgids) == [
        f"English in parameter doing='draw again' of {template!r}"
    ]
    said = Said(template, why=Said("pass"), who="Ana", doing=Said("draw"))
    assert untranslatable(said, msgids) == []
