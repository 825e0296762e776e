"""Words the app shows that are data rather than code: the games' titles, summaries and
house rules (referee.rulebook), the rules pages' text (scoring.rulebook_text) and the
rule statements of RULES.md shown beside a refusal (referee.rule_texts).

Each is shown through the catalogue (``gettext(text)`` where it is rendered, or the
``translated`` filter), its English text the msgid. The rulebook composes some texts from
shared parts and the referee's own numbers, so no xgettext call could find them in the
source: ``words()`` lists every text as shown, and ``make messages`` (our makemessages)
hands them to xgettext. A text changed in English is a new msgid, untranslated until the
catalogue catches up, which tests/scoring/test_spanish.py reports.
"""

from __future__ import annotations

from collections.abc import Iterator

from referee import PRESETS
from referee.rule_texts import RULE_TEXTS
from scoring.rulebook_text import GAMES, OPTIONS


def words() -> Iterator[str | tuple[str, str]]:
    """Every declared text a player may read; a pair is a singular and its plural."""
    for game in PRESETS.values():
        yield game.title
        yield game.summary
        for option in game.options:
            yield option.label
            if option.help:
                yield option.help
    for text in GAMES.values():
        yield text["line"]
        yield text["needs"]
        for title, entries in text["sections"]:
            yield title
            for _rule, *said in entries:
                yield from said
    for _section, text in RULE_TEXTS.values():
        yield text
    for option in OPTIONS.values():
        yield option["asks"]
        yield from option.get("choices", {}).values()
        yield from option.get("names", {}).values()


def source() -> str:
    """``words()`` as Python that xgettext reads (never run, never kept)."""
    lines = ['"""Written by makemessages from scoring.declared.words(); deleted after."""']
    seen: set[str | tuple[str, str]] = set()
    for text in words():
        if not text or text in seen:
            continue
        seen.add(text)
        if isinstance(text, tuple):
            lines.append(f"ngettext({text[0]!r}, {text[1]!r}, 2)")
        else:
            lines.append(f"gettext({text!r})")
    return "\n".join(lines) + "\n"
