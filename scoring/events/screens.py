"""What each event screen shows, as plain values for its template: the board (the organizer's,
and the players' page), the table cards, the TV page and the series."""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from typing import Any

from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext, pgettext

from referee import PRESETS
from referee import events as referee
from scoring.drawing import qr_svg
from scoring.events import services as events
from scoring.events.models import Event, Series
from scoring.events.services import Night, RoundView, TableView, name_of
from scoring.speech import say


def wins_shown(wins: float) -> str:
    """2.5 as a score sheet writes it: 2½."""
    whole = int(wins)
    return f"{whole}½" if wins != whole else str(whole)


def standings_rows(night: Night) -> list[dict[str, Any]]:
    active = {e.unit for e in night.active}
    return [
        {
            "rank": s.rank, "name": name_of(s.entrant), "wins": wins_shown(s.wins),
            "efectividad": s.efectividad, "points_for": s.points_for,
            "points_against": s.points_against, "played": s.played, "byes": s.byes,
            "withdrawn": s.entrant not in active,
        }
        for s in night.standings()
    ]  # fmt: skip


# A world championship's board lists 800 of each of these: drawn here with f-strings, every
# name escaped, rather than by the template's loop, which took ten times as long (issue 32);
# format_html a row still cost half as much as the template's.


def standings_html(rows: list[dict[str, Any]]) -> SafeString:
    """The standings table's rows, as the template drew them."""
    drawn = []
    for row in rows:
        played = str(row["played"])
        if row["byes"]:
            byes = ngettext("%(n)s bye", "%(n)s byes", row["byes"]) % {"n": row["byes"]}
            played += f" <small>({escape(byes)})</small>"
        sign = "+" if row["efectividad"] > 0 else ""
        muted = ' class="muted"' if row["withdrawn"] else ""
        drawn.append(
            f'<tr{muted}><td>{row["rank"]}</td><th scope="row">{escape(row["name"])}</th>'
            f"<td>{escape(row['wins'])}</td><td>{sign}{row['efectividad']}</td>"
            f"<td>{row['points_for']}</td><td>{played}</td></tr>"
        )
    return mark_safe("".join(drawn))


def lines_html(lines: list[dict[str, str]]) -> SafeString:
    """Where everyone sits, one item a player."""
    return mark_safe(
        "".join(
            f"<li><strong>{escape(line['name'])}</strong>: {escape(line['line'])}</li>"
            for line in lines
        )
    )


def entrants_html(entrants: list[dict[str, Any]]) -> SafeString:
    """The organizer's list of entrants, the withdrawn ones marked."""
    said = gettext("withdrawn")
    withdrawn = f" <small>{escape(said)}</small>"
    return mark_safe(
        "".join(
            f'<li class="muted">{escape(e["name"])}{withdrawn}</li>'
            if e["withdrawn"]
            else f"<li>{escape(e['name'])}</li>"
            for e in entrants
        )
    )


def withdraw_options(entrants: list[dict[str, Any]]) -> SafeString:
    """The entrants who may still withdraw, for the one Withdraw form's choice."""
    return mark_safe(
        "".join(
            f'<option value="{int(e["pk"])}">{escape(e["name"])}</option>'
            for e in entrants
            if not e["withdrawn"]
        )
    )


def places_html(places: list[tuple[str, str]], chosen: int) -> SafeString:
    """The Swap form's choice of places (800 seats at a world championship), the
    ``chosen``-th one selected."""
    return mark_safe(
        "".join(
            f'<option value="{escape(value)}"{" selected" if n == chosen else ""}>'
            f"{escape(label)}</option>"
            for n, (value, label) in enumerate(places)
        )
    )


def tables_html(rows: list[dict[str, Any]], organizer: bool, tv: bool = False) -> SafeString:
    """The board's table cards (200 at a world championship; the TV page shows 12): each
    table's score, and a link into its match, to keep score (the organizer) or to watch."""
    finished = escape(pgettext("a table's match", "finished"))
    half = gettext("A drawn match: half a win each.")  # outside an f-string: makemessages
    drawn = f'<p class="muted">{escape(half)}</p>'
    cards = []
    for t in rows:
        n = t["number"]
        state = (
            finished if t["finished"] else
            escape(gettext("hand %(n)s") % {"n": t["hand"]}) if t["started"] else ""
        )  # fmt: skip
        won = [" winner" if t["winner"] == side else "" for side in (0, 1)]
        named = gettext("Table %(n)s") % {"n": n}
        link = ""
        if t["match"] and not tv:
            if organizer:
                url = reverse("join", args=[t["match"], t["keep_token"]])
                said = gettext("Keep score at table %(n)s") % {"n": n}
            else:
                url = reverse("join", args=[t["match"], t["watch_token"]])
                said = gettext("Watch table %(n)s") % {"n": n}
            link = f'<a class="small-link" href="{escape(url)}">{escape(said)}</a>'
        cards.append(
            f'<li class="table-card{" finished" if t["finished"] else ""}" id="table-{n}">'
            f"<h3>{escape(named)} <small>{state}</small></h3>"
            f'<p class="sides"><span class="side{won[0]}">{escape(t["sides"][0])} '
            f'<strong class="total">{t["totals"][0]}</strong></span> '
            f'<span class="side{won[1]}">{escape(t["sides"][1])} '
            f'<strong class="total">{t["totals"][1]}</strong></span></p>'
            f"{drawn if t['drawn'] else ''}{link}</li>"
        )
    return mark_safe("".join(cards))


def table_row(table: TableView, pairs: bool) -> dict[str, Any]:
    (a, c), (b, d) = table.sides
    winner = table.result.winner if table.result is not None else None
    return {
        "number": table.number,
        "seats": table.seats,
        "sides": [name_of((a, c)), name_of((b, d))],
        "totals": table.totals,
        "hand": max(table.hand, 1),  # the hand being played, the first before its first entry
        "finished": table.finished,
        "started": table.match_id is not None,
        "winner": winner,
        "drawn": table.finished and winner is None,
        "match": table.match_id,
        "keep_token": table.keep_token,
        "watch_token": table.watch_token,
    }


def seating_lines(played: RoundView, pairs: bool) -> list[dict[str, str]]:
    """Each player's seat this round, in players' words ("Round 3: table 2, with Caro,
    against Ben and Dan"), by name."""
    lines = []
    for table in played.tables:
        seats = table.seats
        for seat, who in enumerate(seats):
            partner = seats[(seat + 2) % 4]
            first, second = seats[(seat + 1) % 4], seats[(seat + 3) % 4]
            said = gettext(
                "Round {round}: table {table}, with {partner}, against {first} and {second}"
            ).format(
                round=played.number, table=table.number, partner=partner, first=first,
                second=second,
            )  # fmt: skip
            lines.append({"name": who, "line": said})
    for bye in played.row.byes:
        for who in bye if isinstance(bye, list) else [bye]:
            said = gettext("Round {round}: a bye (a win, 0 points for and against)").format(
                round=played.number
            )
            lines.append({"name": who, "line": said})
    return sorted(lines, key=lambda line: line["name"].casefold())


def board_context(night: Night, organizer: bool, tv: bool = False) -> dict[str, Any]:
    """The organizer's board (``organizer``), the players' page, or (``tv``) what the TV page
    draws of them: only what the screen shows is made."""
    event = night.event
    pairs = event.format == referee.PAIRS
    current, draft = night.current, night.draft
    shown = current or night.last
    context: dict[str, Any] = {
        "event": event,
        "game": PRESETS[event.game],
        "organizer": organizer,
        "pairs": pairs,
        "standings": standings_rows(night),
        "tv": tv,
        "rounds_played": len(night.played),
        "rounds_total": night.rounds_total,
        "round": shown,
        "current": current,
        "tables": [table_row(t, pairs) for t in shown.tables] if shown else [],
        "byes": [name_of(b) for b in shown.row.byes] if shown else [],
        "lines": seating_lines(shown, pairs) if shown and not organizer and not tv else [],
        "can_seat": organizer and night.can_seat and draft is None,
        "can_close": organizer and current is not None and current.all_finished,
        "over": night.over,
        "entrants": [
            {"pk": e.pk, "name": name_of(e.unit), "withdrawn": e.withdrawn} for e in night.entrants
        ],
        "between_rounds": current is None and not night.over,  # entrants come and go
        "time_rule": events.supports_time(event.game),
    }
    shown_tables = context["tables"][:12] if tv else context["tables"]
    context["tables_html"] = tables_html(shown_tables, organizer, tv)
    if not tv:
        context["standings_html"] = standings_html(context["standings"])
        context["lines_html"] = lines_html(context["lines"])
    if organizer and context["between_rounds"]:
        context["entrants_html"] = entrants_html(context["entrants"])
        context["withdraw_options"] = withdraw_options(context["entrants"])
    if current is not None:
        ends = current.ends_at(event)
        if ends is not None:
            left = (ends - timezone.now()).total_seconds()
            context["ends_at"] = ends
            context["minutes_left"] = max(0, int(left // 60))
            context["time_up"] = left <= 0
    if organizer and draft is not None:
        judged = events.judge(night)
        places = events.places(night)
        context["draft"] = {
            "number": draft.number,
            "tables": [table_row(t, pairs) for t in draft.tables],
            "byes": [name_of(b) for b in draft.row.byes],
            "one": places_html(places, -1),
            "other": places_html(places, 1),  # another place than the first, at the start
            "warnings": [say(w) for w in judged.warnings] if judged else [],
            "refusal": say(judged.refusal.message) if judged and judged.refusal else "",
            "rule": judged.refusal.rule if judged and judged.refusal else "",
        }
    return context


def tv_context(night: Night) -> dict[str, Any]:
    context = board_context(night, organizer=False, tv=True)
    context.update(version=night.version)  # without it the TV's poll never got 204
    return context


def cards_context(night: Night, keep_url: Callable[[int, str], str]) -> dict[str, Any]:
    """A card for each table of the round in play (or the last one started)."""
    shown = night.current or night.last
    cards = []
    for table in shown.tables if shown else []:
        if table.match_id is None:
            continue
        url = keep_url(table.match_id, table.keep_token)
        named = gettext("Keep score at table {table}").format(table=table.number)
        row = table_row(table, night.event.format == referee.PAIRS)
        cards.append({**row, "qr": qr_svg(url, named, scale=7), "url": url})
    return {"event": night.event, "round": shown, "cards": cards}


def series_context(series: Series, event: Event) -> dict[str, Any]:
    """Every player of the series ranked by ``event.series`` over its events."""
    nights = [events.read(e) for e in series.events.order_by("created_at")]
    rows = [
        {
            "rank": s.rank, "name": s.player, "wins": wins_shown(s.wins),
            "efectividad": s.efectividad, "points_for": s.points_for, "played": s.played,
            "events": s.events,
        }
        for s in referee.series(n.referee_event() for n in nights)
    ]  # fmt: skip
    return {"series": series, "event": event, "rows": rows, "events": [n.event for n in nights]}
