"""The rules pages and the house rules in force, generated from the rulebook the referee
enforces (referee.rulebook): what a player reads is what the engine applies."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee import PRESETS, Option, Preset
from referee.rulebook import RULE_TEXTS


def rules_index_context() -> dict[str, Any]:
    return {"games": list(PRESETS.values())}


def _section_order(section: str) -> tuple[int, ...]:
    """RULES.md's numbering ("2.3 Turns, ..." before "2.5 ..."; "3. Dominards" after both)."""
    number = section.split(" ", 1)[0].rstrip(".")
    return tuple(int(part) for part in number.split(".") if part.isdecimal())


def shown(value: Any) -> str:
    """An option's value as a player says it."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def _choices(option: Option) -> list[str]:
    if option.is_flag:
        return ["on", "off"]
    values = list(option.choices)
    if (
        len(values) > 4
        and all(isinstance(v, int) for v in values)
        and values == list(range(values[0], values[-1] + 1))
    ):
        return [f"{values[0]} to {values[-1]}"]  # a count, not a menu of 22 numbers
    return [shown(v) for v in values]


def _default(option: Option) -> str:
    """The default as the rulebook gives it, with any other default under another house
    rule: "on; off when threes_scoring is face or face-each"."""
    others: dict[tuple[str, Any], list[str]] = {}
    for name, value, default in option.defaults_when:
        others.setdefault((name, default), []).append(shown(value))
    return "; ".join(
        [shown(option.default)]
        + [f"{shown(default)} when {name} is {' or '.join(values)}"
           for (name, default), values in others.items()]
    )  # fmt: skip


def _option_row(option: Option) -> dict[str, Any]:
    return {
        "name": option.name,
        "label": option.label,
        "rule": option.rule,
        "default": _default(option),
        "choices": _choices(option),
        "help": option.help,
    }


def game_rules(game: Preset) -> dict[str, Any]:
    """Every rule id of the game under its RULES.md section, in the rulebook's order, with
    the house rules that change it; then every house rule with its default and choices."""
    options = [_option_row(o) for o in game.options]
    sections: dict[str, list[dict[str, Any]]] = {}
    for rule in sorted(game.rules, key=lambda r: (_section_order(RULE_TEXTS[r][0]), r)):
        section, text = RULE_TEXTS[rule]
        sections.setdefault(section, []).append(
            {"id": rule, "text": text, "options": [o for o in options if o["rule"] == rule]}
        )
    return {
        "game": game,
        "sections": [{"title": title, "rules": rules} for title, rules in sections.items()],
        "options": options,
        "fixed": [{"name": name, "value": shown(v)} for name, v in game.fixed.items()],
        "players": f"{game.players[0]} to {game.players[1]} players",
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
