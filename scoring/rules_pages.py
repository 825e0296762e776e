"""The rules pages and the house rules in force. The text is Boneyard's own rulebook for
players (scoring.rulebook_text), laid out in the order a game is played, with each rule's
id as its anchor; the house rules and their defaults come from the same definitions the
referee enforces (referee.rulebook), so a page never offers a choice the engine lacks."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.functional import Promise
from django.utils.text import slugify
from django.utils.translation import gettext, ngettext, pgettext, pgettext_lazy

from referee import PRESETS, Option, Preset
from referee.said import listed
from scoring.rulebook_text import GAMES, OPTIONS
from scoring.speech import say


def _t(text: str) -> str:
    """A declared text (scoring.declared) in the phone's language; its English is its msgid."""
    return gettext(text) if text else ""


def _players(game: Preset) -> str:
    return gettext("{low} to {high} players").format(low=game.players[0], high=game.players[1])


def rules_index_context() -> dict[str, Any]:
    """Every game with its one line and what a table needs to play it; Dominó's six styles
    share one page (scoring.domino)."""
    games = [
        {
            "game": game,
            "line": _t(GAMES[slug]["line"]),
            "needs": _t(GAMES[slug]["needs"]),
            "players": _players(game),
        }
        for slug, game in PRESETS.items()
        if game.scoring != "parejas"
    ]
    return {"games": games}


# A house rule's value as the engine names it ("playable", "face-each"), which the match page
# shows in English as it is; another language says it in its own words.
_VALUES: dict[tuple[str, str], Promise] = {
    ("opening", "any"): pgettext_lazy("house rule: opening", "any"),
    ("opening", "double"): pgettext_lazy("house rule: opening", "double"),
    ("spinners", "none"): pgettext_lazy("house rule: spinners", "none"),
    ("spinners", "first"): pgettext_lazy("house rule: spinners", "first"),
    ("spinners", "all"): pgettext_lazy("house rule: spinners", "all"),
    ("spinner_count", "while-end"): pgettext_lazy("house rule: spinner_count", "while-end"),
    ("spinner_count", "halves"): pgettext_lazy("house rule: spinner_count", "halves"),
    ("record", "plays"): pgettext_lazy("house rule: record", "plays"),
    ("record", "scores"): pgettext_lazy("house rule: record", "scores"),
    ("draw_until", "playable"): pgettext_lazy("house rule: draw_until", "playable"),
    ("draw_until", "one"): pgettext_lazy("house rule: draw_until", "one"),
    ("threes_scoring", "pub"): pgettext_lazy("house rule: threes_scoring", "pub"),
    ("threes_scoring", "face"): pgettext_lazy("house rule: threes_scoring", "face"),
    ("threes_scoring", "face-each"): pgettext_lazy("house rule: threes_scoring", "face-each"),
    ("blanks", "normal"): pgettext_lazy("house rule: blanks", "normal"),
    ("blanks", "worthless"): pgettext_lazy("house rule: blanks", "worthless"),
    ("blanks", "double"): pgettext_lazy("house rule: blanks", "double"),
    ("blanks", "wild"): pgettext_lazy("house rule: blanks", "wild"),
    ("rounds", "all"): pgettext_lazy("house rule: rounds", "all"),
    ("first_turn", "one"): pgettext_lazy("house rule: first_turn", "one"),
    ("first_turn", "many"): pgettext_lazy("house rule: first_turn", "many"),
}


def shown(value: Any, name: str = "") -> str:
    """An option's value as a player says it; ``name`` is the house rule's, where the same
    value means different things under two house rules."""
    if isinstance(value, bool):
        return pgettext("house rule", "on") if value else pgettext("house rule", "off")
    if isinstance(value, tuple | list):  # a list of points (Dominó's hand_bonus)
        return ", ".join(map(str, value))
    if isinstance(value, str) and (name, value) in _VALUES:
        return str(_VALUES[name, value])
    return str(value)


def _lookup(table: Mapping[Any, Any], value: Any) -> Any:
    """``table[value]``, where True is not 1 and False is not 0."""
    for key, words in table.items():
        if key == value and type(key) is type(value):
            return words
    return None


def choice_name(name: str, value: Any) -> str:
    """A house rule's value by its short name, the one the new-match form and the rules
    page both show ("as the rulebook deals" for a hand size of 0, "7 tiles" for 7)."""
    names = OPTIONS.get(name, {}).get("names", {})
    named = _lookup(names, value)
    if named:
        return gettext(named)
    if "*" in names and type(value) is int:
        singular, plural = names["*"]  # a count: its name's singular and plural
        return ngettext(singular, plural, value).format(n=value)
    return shown(value, name)


def _named(option: Option, value: Any) -> str:
    return choice_name(option.name, value)


def _span(values: Sequence[Any], name: str) -> str:
    """The values no choice names on its own: a count as a range, else a list."""
    if (
        len(values) > 4
        and all(type(v) is int for v in values)
        and list(values) == list(range(values[0], values[-1] + 1))
    ):
        # a count, not a menu of 21 numbers
        return gettext("{first} to {last}").format(first=values[0], last=values[-1])
    return say(listed([shown(v, name) for v in values], "or"))


def _choices(option: Option) -> list[dict[str, str]]:
    """Each choice in players' words, the values that share one meaning together."""
    meaning = OPTIONS[option.name]["choices"]
    values = [True, False] if option.is_flag else list(option.choices)
    rows, rest = [], []
    for value in values:
        words = _lookup(meaning, value)
        if words is None:
            rest.append(value)
        else:
            rows.append({"value": _named(option, value), "words": _t(words)})
    if rest:
        rows.append({"value": _span(rest, option.name), "words": _t(meaning["*"])})
    return rows


def _default(option: Option, game: Preset) -> str:
    """The game's default, with any other default under another house rule: "on, but off
    when “How a count scores” is face or face-each"."""
    others: dict[tuple[str, Any], list[str]] = {}
    for name, value, default in option.defaults_when:
        others.setdefault((name, default), []).append(shown(value, name))
    said = _named(option, option.default)
    for (name, default), values in others.items():
        said = gettext("{default}, but {other} when “{rule}” is {values}").format(
            default=said,
            other=_named(option, default),
            rule=_t(game.option(name).label),
            values=say(listed(values, "or")),
        )
    return said


def _option_row(option: Option, game: Preset) -> dict[str, Any]:
    return {
        "name": option.name,
        "label": _t(option.label),
        "rule": option.rule,
        "asks": _t(OPTIONS[option.name]["asks"]),
        "default": _default(option, game),
        "choices": _choices(option),
    }


def _blocks(text: str) -> list[dict[str, Any]]:
    """A rule's text as paragraphs and lists: a line is a paragraph, lines starting "- "
    make a list. ``text`` is already in the phone's language: a translation is of the whole
    text, its line breaks and "- " in the same places."""
    blocks: list[dict[str, Any]] = []
    for line in text.split("\n"):
        if line.startswith("- "):
            if not blocks or blocks[-1]["kind"] != "list":
                blocks.append({"kind": "list", "items": []})
            blocks[-1]["items"].append(line[2:])
        else:
            blocks.append({"kind": "paragraph", "text": line})
    return blocks


def game_rules(game: Preset) -> dict[str, Any]:
    """The game's rulebook in the order of play: sections of rules, each rule with its id
    (its anchor), its text, an example where one helps, and the house rules that change it."""
    text = GAMES[game.slug]
    options = [_option_row(o, game) for o in game.options]
    sections = []
    for title, entries in text["sections"]:
        rules = []
        for rule, words, *example in entries:
            rules.append(
                {
                    "id": rule,
                    "blocks": _blocks(_t(words)),
                    "example": _t(example[0]) if example else "",
                    "options": [o for o in options if o["rule"] == rule],
                }
            )
        # The anchor is the English title's, whatever the language: links keep working.
        sections.append({"title": _t(title), "anchor": f"part-{slugify(title)}", "rules": rules})
    return {
        "game": game,
        "line": _t(text["line"]),
        "needs": _t(text["needs"]),
        "sections": sections,
        "options": options,
        "players": _players(game),
    }


def house_rules(game: str, options: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The house rules a match is played with, each marked when it is not the default (the
    default under the match's other house rules: exact_target off is no change in face mode)."""
    rows = []
    for option in PRESETS[game].options:
        default = option.default_for(options)
        value = options.get(option.name, default)
        rows.append(
            {
                "label": _t(option.label),
                "rule": option.rule,
                "value": choice_name(option.name, value),  # as the new-match form says it
                "changed": value != default,
            }
        )
    return rows
