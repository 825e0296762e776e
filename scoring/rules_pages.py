"""The rules pages and the house rules in force. The text is Boneyard's own rulebook for
players (scoring.rulebook_text), laid out in the order a game is played, with each rule's
id as its anchor; the house rules and their defaults come from the same definitions the
referee enforces (referee.rulebook), so a page never offers a choice the engine lacks."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.text import slugify

from referee import PRESETS, Option, Preset
from scoring.rulebook_text import GAMES, OPTIONS


def _players(game: Preset) -> str:
    return f"{game.players[0]} to {game.players[1]} players"


def rules_index_context() -> dict[str, Any]:
    """Every game with its one line and what a table needs to play it."""
    games = [
        {
            "game": game,
            "line": GAMES[slug]["line"],
            "needs": GAMES[slug]["needs"],
            "players": _players(game),
        }
        for slug, game in PRESETS.items()
    ]
    return {"games": games}


def shown(value: Any) -> str:
    """An option's value as a player says it."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def _lookup(table: Mapping[Any, str], value: Any) -> str | None:
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
    if named is None and "*" in names and type(value) is int:
        named = names["*"].format(n=value, s="" if value == 1 else "s")
    return named or shown(value)


def _named(option: Option, value: Any) -> str:
    return choice_name(option.name, value)


def _span(values: Sequence[Any]) -> str:
    """The values no choice names on its own: a count as a range, else a list."""
    if (
        len(values) > 4
        and all(type(v) is int for v in values)
        and list(values) == list(range(values[0], values[-1] + 1))
    ):
        return f"{values[0]} to {values[-1]}"  # a count, not a menu of 21 numbers
    words = [shown(v) for v in values]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


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
            rows.append({"value": _named(option, value), "words": words})
    if rest:
        rows.append({"value": _span(rest), "words": meaning["*"]})
    return rows


def _default(option: Option, game: Preset) -> str:
    """The game's default, with any other default under another house rule: "on, but off
    when “How a count scores” is face or face-each"."""
    others: dict[tuple[str, Any], list[str]] = {}
    for name, value, default in option.defaults_when:
        others.setdefault((name, default), []).append(shown(value))
    return ", but ".join(
        [_named(option, option.default)]
        + [f"{_named(option, default)} when “{game.option(name).label}” is {' or '.join(values)}"
           for (name, default), values in others.items()]
    )  # fmt: skip


def _option_row(option: Option, game: Preset) -> dict[str, Any]:
    return {
        "name": option.name,
        "label": option.label,
        "rule": option.rule,
        "asks": OPTIONS[option.name]["asks"],
        "default": _default(option, game),
        "choices": _choices(option),
    }


def _blocks(text: str) -> list[dict[str, Any]]:
    """A rule's text as paragraphs and lists: a line is a paragraph, lines starting "- "
    make a list."""
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
                    "blocks": _blocks(words),
                    "example": example[0] if example else "",
                    "options": [o for o in options if o["rule"] == rule],
                }
            )
        sections.append({"title": title, "anchor": f"part-{slugify(title)}", "rules": rules})
    return {
        "game": game,
        "line": text["line"],
        "needs": text["needs"],
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
                "label": option.label,
                "rule": option.rule,
                "value": shown(value),
                "changed": value != default,
            }
        )
    return rows
