"""What every game's screen shares: buttons greyed with the referee's reason, the round's
log, and what a match is played for."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee import PRESETS, IllegalAction
from referee.actions import INSERT, Correct
from referee.rulebook import rule_text
from scoring.models import Match
from scoring.services import Table, new_key
from scoring.words import describe_log


def basics(table: Table, notice: Any, my_seat: int | None) -> dict[str, Any]:
    """What every table screen carries: the match at the version the forms are drawn from,
    the refusal to show with its rule's text, and the seat this phone has taken."""
    return {
        "match": table.match,
        "table": table,
        "state": table.state,
        "names": table.names,
        "version": table.match.version,
        # Called by the template once per form: every form gets a key of its own.
        "key": new_key,
        "notice": notice,
        "notice_text": rule_text(notice.rule) if isinstance(notice, IllegalAction) else "",
        "my_seat": my_seat,
        "record": record_forms(table),
        "strip": strip(table),
    }


def strip(table: Table) -> list[dict[str, Any]]:
    """The score strip that stays in view while playing: each seat's total, how far it is
    to the target, and whose turn it is (a paper pad shows the totals at a glance)."""
    state, match = table.state, table.match
    totals = match.totals or [0] * len(table.names)
    target = match.options.get("target") or None
    if hasattr(state, "racks"):  # Havoc: the seat that must act, a responder included
        acting = state.acting
    elif hasattr(state, "trucks"):  # Dump Truck: every seat acts at once
        acting = None
    else:
        acting = None if state.is_over else state.turn
    if table.over:
        acting = None
    return [
        {
            "name": name,
            "total": totals[seat],
            "target": target,
            "turn": seat == acting,
            "winner": match.winner == seat,
        }
        for seat, name in enumerate(table.names)
    ]


def record_forms(table: Table) -> dict[str, Any]:
    """What the table may record about its record now (RULES.md §7): an adjustment always,
    abandoning a round under way, stopping a match that goes on; and who the totals would
    make the winner of a stopped match."""
    family = PRESETS[table.match.game].family
    under_way = table.played is not None and not table.between_rounds and not table.over
    totals = table.state.totals
    best = min(totals) if family == "havoc" else max(totals)
    leaders = [table.names[s] for s, t in enumerate(totals) if t == best]
    winner_words = (
        f"{leaders[0]} wins with {best}"
        if len(leaders) == 1
        else f"{' and '.join(leaders)} share the top with {best}"
    )
    return {
        "abandon": under_way and family != "truck",
        "stop": not table.over,
        "winner_words": winner_words,
        "open": False,
        "chosen": {},
    }


@dataclass(frozen=True)
class Button:
    """A button that is either enabled or disabled with the referee's reason."""

    label: str
    reason: IllegalAction | None

    @property
    def enabled(self) -> bool:
        return self.reason is None


LOG_SHOWN = 12  # the table shows the round's latest lines; the phone need not scroll a novel


def log_tail(lines: list[dict[str, Any]]) -> dict[str, Any]:
    shown = lines[-LOG_SHOWN:]
    return {"log": shown[::-1], "log_total": len(lines), "log_earlier": len(lines) - len(shown)}


def log(table: Table, family: str = "line") -> list[dict[str, Any]]:
    """The round's log, one line per entry as recorded, each with what the Fix control
    needs: the round and the entry (a correction is not itself corrected, its entry is)."""
    # Between rounds the new round has no log yet; once the match is over, the last
    # round's log stays on screen.
    if table.played is None or (table.between_rounds and not table.over):
        return []
    played, state = table.played, table.played.state
    lines = describe_log(
        played.entries,
        table.names,
        [r.points for r in table.rows],
        played.entry_worths,
        last_play_open=state.pending is not None and state.result is None,
        family=family,
        corrected=played.corrected(),
    )
    number = table.last_row.number if table.last_row is not None else table.number
    return [
        {
            "text": text + moved_words(row.moved, table.names),
            "round": number,
            "seq": seq,
            # A correction is fixed through the entry it fixed; an insert's action directly.
            "fixable": not isinstance(entry, Correct) or entry.change == INSERT,
        }
        for seq, (text, entry, row) in enumerate(
            zip(lines, played.entries, table.rows, strict=True)
        )
    ]


def moved_words(moved: list, names: tuple[str, ...] | list[str]) -> str:
    """ " · totals Ben 45 → 38": how a confirmed correction moved the totals (correct.audit)."""
    if not moved:
        return ""
    before, after = moved
    moves = [f"{n} {a} → {b}" for n, a, b in zip(names, before, after, strict=True) if a != b]
    return " · totals " + ", ".join(moves) if moves else " · no total moved"


def aim(match: Match) -> str:
    """What the match is played for, in a line."""
    options, family = match.options, PRESETS[match.game].family
    if family == "havoc":
        rounds = options.get("rounds")
        until = f"after {rounds} rounds" if rounds else "when the table stops the match"
        return f"Lowest total wins, {until}."
    if options.get("target"):
        return f"Playing to {options['target']}."
    return "Highest total wins."
