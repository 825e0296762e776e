"""Dominó in the app (RULES.md §11): the six styles by country, the one rules page with the
styles side by side, a bonus in the table's words, and the records a Latin table keeps.

The referee scores every bonus (``referee.games.line.scoring.parejas``); this module only says it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy, pgettext_lazy

from referee import PRESETS, IllegalAction
from referee.games.line.scoring.parejas import RECORDS, records, time_refused
from referee.said import Said
from scoring.rulebook_text import GAMES, OPTIONS
from scoring.rules_pages import _blocks, _option_row, _t, choice_name
from scoring.speech import say

#: The styles in RULES.md's order, each by the name its own table gives it.
STYLES: dict[str, Any] = {
    "domino-international": pgettext_lazy("Dominó style", "International"),
    "domino-dominican": pgettext_lazy("Dominó style", "Dominican"),
    "domino-puerto-rican": pgettext_lazy("Dominó style", "Puerto Rican (500)"),
    "domino-cuban": pgettext_lazy("Dominó style", "Cuban"),
    "domino-venezuelan": pgettext_lazy("Dominó style", "Venezuelan"),
    "domino-spanish": pgettext_lazy("Dominó style", "Spanish (FED)"),
}

#: What each bonus is called at the table, by the export's ``kind``.
_NAMED = {
    "capicua": gettext_lazy("Capicúa!"),
    "chuchazo": gettext_lazy("Chuchazo!"),
    "pase": gettext_lazy("Pase de salida:"),
    "paso-corrido": gettext_lazy("Paso corrido:"),
    "tranque": gettext_lazy("Tranque bonus:"),
    "hand": gettext_lazy("Hand bonus:"),
}

#: The bonuses the table cries out ("¡Capicúa! Ana y Caro +25"); the others are said as a
#: label with whom they go to ("Pase de salida: +50 para Ben y Dan").
_CRIED = frozenset({"capicua", "chuchazo"})

#: parejas.records, as the score sheet heads its columns.
RECORD_NAMES = {
    "capicua": gettext_lazy("Capicúas"),
    "chuchazo": gettext_lazy("Chuchazos"),
    "pase_given": gettext_lazy("Pases given"),
    "pase_suffered": gettext_lazy("Pases suffered"),
    "paso_corrido": gettext_lazy("Pasos corridos"),
    "tranque_made": gettext_lazy("Tranques made"),
    "tranque_won": gettext_lazy("Tranques won"),
    "pollona": gettext_lazy("Pollonas"),
}


def is_domino(game: str) -> bool:
    return game in STYLES


def bonus_words(bonus: Any, names: tuple[str, ...] | list[str]) -> dict[str, str]:
    """A bonus as the table says it ("Capicúa! Ana & Caro +25"), with its rule; a bonus
    taken back by the audit says so."""
    pair = [names[s] for s in (bonus.team, bonus.team + 2)]
    team = gettext("{first} & {then}").format(first=pair[0], then=pair[1])
    if bonus.points < 0:
        text = gettext("{bonus} taken back from {team}, {points}").format(
            bonus=_NAMED[bonus.kind], team=team, points=bonus.points
        )
    elif bonus.kind in _CRIED:
        text = gettext("{bonus} {team} +{points}").format(
            bonus=_NAMED[bonus.kind], team=team, points=bonus.points
        )
    else:  # a bonus said as a label, as the table says it: "Pase de salida: +50 for ..."
        text = gettext("{bonus} +{points} for {team}").format(
            bonus=_NAMED[bonus.kind], team=team, points=bonus.points
        )
    return {"text": text, "rule": bonus.rule}


def hand_bonuses(entry_bonuses: Any) -> list[Any]:
    """Every bonus a hand scored, from its log's entries in order: a bonus undone or taken
    back by the audit (the same bonus, negative) is not listed (the audit's finding says
    so); a paso corrido made twice is listed twice."""
    kept: list[Any] = []
    for scored in entry_bonuses:
        for bonus in scored:
            if bonus.points >= 0:
                kept.append(bonus)
                continue
            same = [
                i for i, b in enumerate(kept)
                if (b.kind, b.team, b.points) == (bonus.kind, bonus.team, -bonus.points)
            ]  # fmt: skip
            if same:
                del kept[same[-1]]
    return kept


def result_words(
    state: Any, names: tuple[str, ...] | list[str], bonuses: Any = None
) -> dict[str, Any]:
    """What a Dominó hand's result adds (empty for other games): the bonuses the hand scored
    (``bonuses``, from its log; else those of its last action), and who leads the next hand
    as the style says."""
    if getattr(state, "parejas", None) is None:
        return {}
    hand = state.parejas
    leads = ""
    if not state.match_over:
        seat = state.scoring.next_leader(state)
        won = state.result.winner if state.result is not None else None
        if seat is not None:
            leads = gettext("{who} leads the next hand.").format(who=names[seat])
        elif state.options["next_lead"] == "winning-team" and won is not None:
            leads = gettext("{first} or {then} leads the next hand, as they choose.").format(
                first=names[won], then=names[(won + 2) % 4]
            )
    return {
        "domino": True,
        "settled": _pairs_apart(state.result.bonus) if state.result is not None else "",
        "bonuses": [
            bonus_words(b, names) for b in (hand.last_bonus if bonuses is None else bonuses)
        ],
        "leads": leads,
    }


def draw_words(state: Any) -> str:
    """A Dominó match that ended drawn (``parejas.target``, ``parejas.time``), as the referee
    says it; "" for any other end and any other game."""
    hand = getattr(state, "parejas", None)
    ended = state.match_end if hand is not None and hand.ended_by == "draw" else None
    return say(ended[1]) if ended is not None else ""


def hand_records(state: Any) -> list[list[int]]:
    """What a hand's state counted for each seat (``parejas.records``, RECORDS' order), as a
    round's row stores it; [] for every other game."""
    hand = getattr(state, "parejas", None)
    return [list(row) for row in hand.records] if hand is not None else []


def match_records(
    hands: Iterable[Sequence[Sequence[int]]], totals: Sequence[int], winner: int | None
) -> list[dict[str, int]]:
    """Each seat's records over a match from its rounds' stored counts, added up by the
    referee (``parejas.records``: a pollona too, for the winners of a finished match whose
    losers ended with 0); ``winner`` None while the match is played."""
    counted = records([SimpleNamespace(records=rows) for rows in hands if rows], totals, winner)
    return [dict(zip(RECORDS, row, strict=True)) for row in counted]


def records_table(by_seat: Sequence[dict[str, int]]) -> list[dict[str, Any]]:
    """The records as the score sheet lists them: a row for each kind, a count for each seat."""
    return [
        {"key": key, "name": RECORD_NAMES[key], "counts": [seat[key] for seat in by_seat]}
        for key in RECORDS
    ]


def _pairs_apart(settled: Any) -> Any:
    """How a tranque was settled, with the two pairs' counts set apart by a comma: a pair is
    itself "Ana y Caro", so "Ana y Caro 12 y Ben y Dan 19" would not say which count is
    whose ("Tranque: Ana y Caro 12, Ben y Dan 19: ganan Ana y Caro")."""
    counts = getattr(settled, "params", {}).get("counts")
    if not isinstance(counts, Said) or counts.template != "{first} and {last}":
        return settled
    apart = Said("{first}, {then}", first=counts.params["first"], then=counts.params["last"])
    return Said(settled.template, **{**settled.params, "counts": apart})


def new_match_styles() -> dict[str, Any]:
    """The six styles as the new-match form lists them, each by country with its line."""
    return {
        "slugs": list(STYLES),
        "styles": [
            {"slug": slug, "name": name, "summary": _t(PRESETS[slug].summary)}
            for slug, name in STYLES.items()
        ],
    }


def proposed_leader(state: Any) -> int | None:
    """The seat the referee proposes to lead this hand (parejas.lead), or None."""
    if not state.layout.placed and state.result is None:
        return state.scoring.proposed(state)
    return None


# -- the time limit (parejas.time) ---------------------------------------------------------


def time_limit(match: Any) -> int:
    """The match's time limit in minutes (0: none), as its style and house rules set it."""
    if not is_domino(match.game):
        return 0
    return int(match.options.get("time_limit") or PRESETS[match.game].option("time_limit").default)


def time_ends(match: Any) -> datetime | None:
    """When the time limit falls: counted from when the match began (it was made at the table)."""
    limit = time_limit(match)
    if not limit or match.created_at is None:  # the referee's desk: a match never saved
        return None
    return match.created_at + timedelta(minutes=limit)


def time_refusal(match: Any, now: datetime | None = None) -> IllegalAction | None:
    """The referee's refusal of a phone's ``time`` before the limit has passed by the server's
    clock (``now``, the server's time by default), or None. The referee keeps no clock: the
    app hands it the time passed since the match began."""
    elapsed = ((now or timezone.now()) - match.created_at).total_seconds()
    return time_refused(time_limit(match), elapsed)


def clock(table: Any, now: datetime | None = None) -> dict[str, Any]:
    """The clock on a timed Dominó match's strip (empty for every other match): when the limit
    falls, the minutes left at this render (a script counts them down), whether Time may be
    recorded, and the hand time was called in, announced in the table's words."""
    ends = time_ends(table.match)
    if ends is None:
        return {}
    state = table.state
    hand = getattr(state, "parejas", None)
    left = (ends - (now or timezone.now())).total_seconds()
    over = table.match.status != "playing"
    called = bool(hand is not None and hand.time)
    announced = ""
    if called and not over:
        extra = hand.extra or hand.extra_next
        announced = (
            gettext(
                "Time: one more hand. The pairs are level; if they still are after it, "
                "the match is a draw."
            )
            if extra
            else gettext("Time: this hand is the last. The match ends when it does.")
        )
    return {
        "clock": {
            "ends": ends,
            "iso": ends.astimezone(UTC).isoformat().replace("+00:00", "Z"),
            "left": max(0, -(-int(left) // 60)),
            "up": left <= 0,
            "called": called,
            "over": over,
            "announced": announced,
            "can_call": not called and not over,
        }
    }


def may_lead(state: Any) -> list[int]:
    """The seats that may lead this hand (``parejas.lead``): the one the style names, the pair
    that won the last hand (``winning-team``), or anyone."""
    if state.leader is not None:
        return [state.leader]
    return list(state.parejas.pair) or list(range(state.seats))


def lead_note(state: Any, names: tuple[str, ...] | list[str]) -> str:
    """Who leads this hand and why, as the style says (``parejas.lead``); "" for other games
    and once the hand has begun."""
    if getattr(state, "parejas", None) is None or state.layout.placed or state.result is not None:
        return ""
    hand, options = state.parejas, state.options
    if hand.first and state.leader is None:
        first = options["first_lead"]
        if first == "any":
            return gettext("The table chooses who leads the first hand, by lot or agreement.")
        if first == "double-six" and state.top == 6:
            return gettext("The seat holding the 6-6 leads it.")
        return gettext("The seat holding the highest double leads it.")
    if state.leader is not None:
        if options["next_lead"] == "winner":
            return gettext(
                "{who} leads: the winner of the last hand leads (after a hand nobody won, the "
                "seat after its leader)."
            ).format(who=names[state.leader])
        return gettext("{who} leads: the seat after the last hand's leader.").format(
            who=names[state.leader]
        )
    if hand.pair:
        first, then = hand.pair
        return gettext("{first} or {then} leads: the pair that won the last hand leads.").format(
            first=names[first], then=names[then]
        )
    return gettext("The table chooses who leads this hand.")


# -- the score pad (pad.record) --------------------------------------------------------------

#: The bonuses a score-pad hand may say it made (``Tally.made``), each with the option that
#: prices it: a style that prices one at 0 is not asked about it.
PAD_BONUSES = (
    ("capicua", "capicua_bonus"),
    ("chuchazo", "chuchazo_bonus"),
    ("pase", "pase_salida_other"),
    ("paso-corrido", "paso_corrido_bonus"),
)


def pad_made(state: Any, names: tuple[str, ...] | list[str], refused: Any) -> dict[str, Any]:
    """``pad.record`` for Dominó: what a score-pad hand's form asks besides each hand's pips
    (who played out says a domino and its pair; nobody out, a tranque): the bonuses the style
    prices, who made them, and who locked a tranque. The referee adds the tranque and hand
    bonuses itself. A refused form comes back as it was ticked."""
    if getattr(state, "parejas", None) is None or not state.pad:
        return {}
    options = state.options

    def got(name: str) -> str:
        return refused.get(name, "") if refused is not None else ""

    priced = {
        kind: options[key] or (kind == "pase" and options["pase_salida_double"])
        for kind, key in PAD_BONUSES
    }
    seats = list(enumerate(names))
    paso = [{"seat": seat, "name": name, "value": got(f"made-paso-{seat}")} for seat, name in seats]
    automatic = []
    if options["tranque_bonus"]:
        text = gettext("a tranque's winners +{points}").format(points=options["tranque_bonus"])
        automatic.append({"text": text, "rule": "parejas.tranque-bonus"})
    if options["hand_bonus"]:
        text = gettext("the hand bonus ({points})").format(
            points=", ".join(str(p) for p in options["hand_bonus"])
        )
        automatic.append({"text": text, "rule": "parejas.hand-bonus"})
    return {
        "pad_domino": {
            "capicua": {"on": bool(priced["capicua"]), "ticked": got("made-capicua") == "1",
                        "points": options["capicua_bonus"]},
            "chuchazo": {"on": bool(priced["chuchazo"]), "ticked": got("made-chuchazo") == "1",
                         "points": options["chuchazo_bonus"]},
            "pase": {
                "on": bool(priced["pase"]),
                "seats": [{"seat": s, "name": n, "ticked": got("made-pase") == str(s)}
                          for s, n in seats],
                "none": got("made-pase") == "",
                # Asked only where a double lead changes the price (parejas.pase).
                "double": options["pase_salida_double"] != options["pase_salida_other"],
                "double_ticked": got("made-pase-double") == "1",
                "points": options["pase_salida_other"],
                "points_double": options["pase_salida_double"],
            },
            "paso": {"on": bool(priced["paso-corrido"]), "seats": paso,
                     "points": options["paso_corrido_bonus"]},
            "locked": {
                "seats": [{"seat": s, "name": n, "ticked": got("made-locked") == str(s)}
                          for s, n in seats],
                "none": got("made-locked") == "",
            },
            "automatic": automatic,
        }
    }  # fmt: skip


# -- the rules page ------------------------------------------------------------------------

_SECTIONS = (
    (gettext_lazy("What you need"), ("set.tiles", "set.unique", "info.public")),
    (gettext_lazy("Four players in two pairs"),
     ("seat.order", "team.seats", "parejas.deal", "parejas.redeal")),
    (gettext_lazy("Who starts"), ("round.lead", "parejas.lead", "line.lead")),
    (gettext_lazy("A turn"),
     ("turn.order", "line.attach", "line.crosswise", "line.spinner", "block.no-draw",
      "parejas.pase")),
    (gettext_lazy("The end of a hand"),
     ("hand.count", "end.domino", "parejas.capicua", "parejas.chuchazo", "end.blocked",
      "line.dead-end", "parejas.tranque", "parejas.tranque-tie", "parejas.tranque-bonus",
      "tally.hands", "tally.audit", "tally.winner", "team.tally")),
    (gettext_lazy("Scoring and the end of the match"),
     ("parejas.domino", "team.score", "parejas.hand-bonus", "parejas.target", "parejas.time",
      "parejas.records")),
    (gettext_lazy("Keeping only the score"), ("pad.record",)),
    (gettext_lazy("When something goes wrong at the table"),
     ("procedure.misplay", "procedure.out-of-turn", "procedure.exposed")),
    (gettext_lazy("When the record is wrong"),
     ("correct.record", "correct.replay", "correct.audit", "correct.adjust", "correct.abandon")),
)  # fmt: skip

#: Rules whose words on the Dominó page are its own (rules_domino_text.html); the others are
#: said as the Block page says them.
OWN_WORDS = frozenset(
    rule for _, rules in _SECTIONS for rule in rules if rule.startswith("parejas.")
) | {"hand.count", "round.lead", "tally.winner", "end.blocked", "team.seats", "line.spinner"}


def _block_words() -> dict[str, tuple[str, str]]:
    """Block's words for each rule it shares with Dominó: (text, example)."""
    words = {}
    for _, entries in GAMES["block"]["sections"]:
        for rule, text, *example in entries:
            words[rule] = (text, example[0] if example else "")
    return words


def rules_context() -> dict[str, Any]:
    """The one Dominó page: every rule of the styles in the order of play, each with the
    house rules that change it and each style's default side by side."""
    styles = [PRESETS[slug] for slug in STYLES]
    block = _block_words()
    options = []
    for option in styles[0].options:
        row = _option_row(option, styles[0])
        row["styles"] = [
            choice_name(option.name, style.option(option.name).default) for style in styles
        ]
        options.append(row)
    sections = []
    for title, rules in _SECTIONS:
        entries = []
        for rule in rules:
            text, example = block.get(rule, ("", ""))
            entries.append(
                {
                    "id": rule,
                    "own": rule in OWN_WORDS,
                    "blocks": [] if rule in OWN_WORDS else _blocks(_t(text)),
                    "example": "" if rule in OWN_WORDS else _t(example),
                    "options": [o for o in options if o["rule"] == rule],
                }
            )
        sections.append({"title": str(title), "anchor": f"part-{rules[0]}", "rules": entries})
    return {
        "styles": [
            {"slug": s.slug, "name": STYLES[s.slug], "summary": _t(s.summary)} for s in styles
        ],
        "sections": sections,
        "options": options,
        "side_by_side": [o for o in options if o["name"] != "record"],
        "asks": {name: _t(OPTIONS[name]["asks"]) for name in OPTIONS},
    }
