"""Club nights' screens (RULES.md §12): make an event, run it from the organizer's phone
(entrants, seating, the board, time, close), the players' page, the table cards, the TV
page and the series. Thin views: check the phone's link, parse, call the service, render."""

from __future__ import annotations

import json
import time
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from referee import PRESETS, IllegalAction, InvalidAction
from referee import events as referee
from scoring import access, services
from scoring.caches import WeighedCache
from scoring.drawing import qr_svg
from scoring.events import services as events
from scoring.events.documents import export_event
from scoring.events.models import Event, Series
from scoring.events.screens import board_context, cards_context, series_context, tv_context
from scoring.forms import new_match_from_post, parse_version
from scoring.models import Match, Player
from scoring.speech import say

EVENTS = "events"  # the session's links to events: {pk: token}
MOST_EVENTS = 10


def _role(request: HttpRequest, event: Event) -> str | None:
    token = request.session.get(EVENTS, {}).get(str(event.pk))
    return access.role_of(token, event.keep_token, event.watch_token)


def _event(request: HttpRequest, pk: int) -> tuple[Event, str]:
    """The event and this phone's role; 404 for an event it has no link to (or none)."""
    event = get_object_or_404(Event.objects.select_related("series"), pk=pk)
    role = _role(request, event)
    if role is None:
        raise Http404("No event here, or this phone has no link to it.")
    return event, role


def _join(request: HttpRequest, event: Event, token: str) -> None:
    if _role(request, event) == Match.KEEP:
        token = event.keep_token  # the organizer stays the organizer when it scans the QR
    held = {k: v for k, v in request.session.get(EVENTS, {}).items() if k != str(event.pk)}
    request.session[EVENTS] = dict(list({str(event.pk): token, **held}.items())[:MOST_EVENTS])


def held_events(request: HttpRequest) -> list[Event]:
    """The events this phone holds a working link to (the home page lists them)."""
    held = request.session.get(EVENTS, {})
    pks = [int(pk) for pk in held if pk.isascii() and pk.isdecimal() and len(pk) < 19]
    found = Event.objects.filter(pk__in=pks)
    return [e for e in found if access.role_of(held[str(e.pk)], e.keep_token, e.watch_token)]


# -- Making an event -----------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def new_event(request: HttpRequest) -> HttpResponse:
    error = None
    if request.method == "POST":
        try:
            if not access.allowed(request, "create"):
                raise InvalidAction(gettext("Too many tries from this phone; wait a minute."))
            event = events.create_event(**_event_from_post(request.POST))
        except (IllegalAction, InvalidAction) as problem:
            error = say(problem.message)
        else:
            _join(request, event, event.keep_token)  # the organizer runs it
            return redirect("event", pk=event.pk)
    context = {
        "games": events.event_games(),
        "known_names": _known_names(request),
        "chosen": request.POST or None,
        "error": error,
        "time_limits": events.TIME_LIMITS,
        "rows": range(12),
        "pair_rows": range(8),
        "series": Series.objects.order_by("name").values_list("name", flat=True)[:30],
    }
    return render(request, "scoring/events/new.html", context, status=400 if error else 200)


def _known_names(request: HttpRequest) -> list[str]:
    """Names from the matches this phone holds a link to, never a stranger's players (the
    new-match form's suggestions)."""
    return list(
        Player.objects.filter(seats__match__in=access.tables(request))
        .order_by("name")
        .distinct()
        .values_list("name", flat=True)[:60]
    )


def _event_from_post(post: QueryDict) -> dict[str, Any]:
    game = post.get("game", "")
    if game not in {g.slug for g in events.event_games()}:
        raise InvalidAction(gettext("Choose the game the event plays."))
    # The house rules exactly as the new-match form reads them (its fields, its defaults),
    # for a table of four in pairs.
    form = post.copy()
    form.update({"partnerships": "on", "partner": "2"})
    for i, name in enumerate(("1", "2", "3", "4")):
        form[f"player-{i}"] = name
    _, _, options = new_match_from_post(form)
    format = post.get("format", "")
    if format not in referee.FORMATS:
        raise InvalidAction(gettext("Choose fixed pairs or rotating partners."))
    pairing = post.get("pairing", referee.SWISS)
    if pairing not in referee.PAIRINGS:
        raise InvalidAction(gettext("Choose Swiss or round robin."))
    return {
        "name": post.get("name", ""),
        "game": game,
        "options": options,
        "format": format,
        "pairing": pairing if format == referee.PAIRS else referee.SWISS,
        "rounds": _number(post.get("rounds", "")),
        "time_limit": _number(post.get("time_limit", "")),
        "entrants": entrants_from_post(post, format),
        "series": post.get("series", ""),
    }


def _number(raw: str) -> int | None:
    raw = raw.strip()
    return int(raw) if raw.isascii() and raw.isdecimal() and len(raw) < 5 else None


def entrants_from_post(post: QueryDict, format: str) -> list[Any]:
    """The names typed: one a row (a pair's two in a row), and any pasted one a line (a
    pair as ``Ana & Caro``)."""
    found: list[Any] = []
    pairs = format == referee.PAIRS
    for i in range(40):
        if pairs:
            a, b = post.get(f"first-{i}", "").strip(), post.get(f"second-{i}", "").strip()
            if a or b:
                found.append((a, b))
        elif post.get(f"entrant-{i}", "").strip():
            found.append(post[f"entrant-{i}"].strip())
    for line in post.get("pasted", "").splitlines():
        line = line.strip()
        if not line:
            continue
        if pairs:
            a, _, b = line.replace(",", "&").replace("/", "&").partition("&")
            found.append((a.strip(), b.strip()))
        else:
            found.append(line)
    return found


@require_GET
def join(request: HttpRequest, pk: int, token: str) -> HttpResponse:
    """An event's link: this phone runs the event (keep) or follows it (watch)."""
    if not access.allowed(request, "join"):
        return HttpResponse(status=429)
    event = get_object_or_404(Event, pk=pk)
    if access.role_of(token, event.keep_token, event.watch_token) is None:
        raise Http404("This link is not valid.")
    _join(request, event, token)
    return redirect("event", pk=pk)


# -- The event page: the organizer's board, the players' page ------------------------------


@vary_on_headers("HX-Request")
def event_page(request: HttpRequest, pk: int) -> HttpResponse:
    event, role = _event(request, pk)
    if role == Match.KEEP or request.htmx:
        return _render(request, event, role)
    # The players' page: the page around the live part every watcher of this version shares
    # (the standings of every round are the page's cost, paid once a version, not a phone).
    version = events.version_of(event.pk)
    body, follows = _watched(request, event, role, version, tv=False)
    context = {
        "event": event,
        "game": PRESETS[event.game],
        "pairs": event.format == referee.PAIRS,
        "kept": mark_safe(body.decode()),  # our own render of this page's live part
    }
    response = render(request, "scoring/events/event.html", context)
    response["X-Table-Version"], response["X-Live-Follows"] = str(version), follows
    return response


# The watchers' screens as last rendered, by (event, version, screen, language, minute): every
# TV page and every player's phone shows the same render of a version, and an event's render
# reads every table of every round; the organizer's holds its own forms and is never kept.
# Weighed in bytes (a render of a 200-table night is a hundred times one of 2 tables): 8 MB a
# worker, the least recently asked going first.
WATCHED_BUDGET = 8 * 2**20
WATCHED: WeighedCache[tuple[bytes, str]] = WeighedCache(WATCHED_BUDGET)


@require_GET
def poll(request: HttpRequest, pk: int) -> HttpResponse:
    """The event's live part if it moved since ``version`` (the event, or any table's
    match), else 204; ``screen=tv`` for the TV page's."""
    event, role = _event(request, pk)
    tv = request.GET.get("screen") == "tv"
    version = events.version_of(event.pk)
    if request.GET.get("version") == str(version):
        response = HttpResponse(status=204)  # what it shows still follows the same tables
        response["X-Table-Version"] = str(version)
        return response
    if role == Match.KEEP and not tv:  # the organizer's board holds its own forms
        night = events.read(event)
        return _render(request, event, role, night=night, fragment=True)
    body, follows = _watched(request, event, role, version, tv)
    response = HttpResponse(body)
    response["X-Table-Version"], response["X-Live-Follows"] = str(version), follows
    # Every live stream of this screen in the language may be handed the one render
    # (scoring.live.Looks): the same bytes WATCHED keeps for every phone.
    response["X-Live-Shared"] = f"{'tv' if tv else 'page'} {request.LANGUAGE_CODE}"
    return response


def _watched(
    request: HttpRequest, event: Event, role: str, version: int, tv: bool
) -> tuple[bytes, str]:
    """The live part every watcher of ``version`` sees (the players' page's, or the TV
    page's), and the matches it follows: rendered by the first to ask, kept for the rest."""
    # The clock's minutes are drawn in the render, so a kept one lasts its minute at most; the
    # event's own token tells it from another event given the same pk (a database restored).
    minute = int(time.time() // 60)
    key = (event.pk, event.watch_token, version, tv, request.LANGUAGE_CODE, minute)
    kept = WATCHED.get(key)
    if kept is not None:
        return kept
    night = events.read(event)
    if tv:
        response = render(request, "scoring/events/tv.html#tv", tv_context(night))
    else:
        response = _render(request, event, role, night=night, fragment=True)
    _follows(response, night)
    made = (response.content, response["X-Live-Follows"])
    if night.version == version:  # read as the version said, not a later one
        WATCHED.put(key, made, weight=len(made[0]))
    return made


def _follows(response: HttpResponse, night: events.Night) -> None:
    """What a live stream of this screen follows besides the event: each table's match
    of the round on screen (scoring.live), and the version it shows."""
    shown = night.current or night.last
    tables = shown.tables if shown is not None else []
    response["X-Table-Version"] = str(night.version)
    response["X-Live-Follows"] = " ".join(f"match:{t.match_id}" for t in tables if t.match_id)


def _render(
    request: HttpRequest,
    event: Event,
    role: str,
    notice: str | None = None,
    status: int = 200,
    night: events.Night | None = None,
    fragment: bool | None = None,
) -> HttpResponse:
    night = night or events.read(event)
    context = board_context(night, organizer=role == Match.KEEP)
    context.update(notice=notice, version=night.version, event_version=event.version)
    context.update(key=services.new_key(), failed=status != 200)
    if role == Match.KEEP:
        context.update(rows=range(4), pair_rows=range(2), known_names=_known_names(request))
        if not request.htmx:
            context["links"] = _links(request, event)
    fragment = request.htmx if fragment is None else fragment
    template = "scoring/events/event.html#event" if fragment else "scoring/events/event.html"
    response = render(request, template, context, status=status)
    _follows(response, night)
    return response


def _links(request: HttpRequest, event: Event) -> list[dict[str, Any]]:
    """The players' link (it only reads) and the organizer's (it runs the event: for a
    second organizer's phone)."""
    links = []
    for token, kind, named in (
        (event.watch_token, "watch", gettext("The event's link for players")),
        (event.keep_token, "keep", gettext("The organizer's link")),
    ):
        url = request.build_absolute_uri(reverse("event_join", args=[event.pk, token]))
        links.append({"url": url, "qr": qr_svg(url, named), "named": named, "kind": kind})
    return links


def _organizing(request: HttpRequest, pk: int, write) -> HttpResponse:
    """An organizer's POST: ``write`` makes the change; a refusal is said in place with its
    status (403 for a watching phone, 409 stale, 422 against a rule, 400 malformed)."""
    event, role = _event(request, pk)
    status, notice = 200, None
    try:
        if role != Match.KEEP:
            status = 403
            notice = gettext("This phone follows the event; only the organizer's link runs it.")
        else:
            notice = write(event, parse_version(request.POST), request.POST.get("key", ""))
    except services.Stale as stale:
        status, notice = 409, say(stale.message)
    except IllegalAction as problem:
        status, notice = 422, f"{say(problem.message)} ({problem.rule})"
    except InvalidAction as problem:
        status, notice = 400, say(problem.message)
    if status == 200 and not request.htmx and not notice:
        return redirect("event", pk=pk)  # post/redirect/get without JavaScript
    event.refresh_from_db()
    return _render(request, event, role, notice, status)


@require_POST
def add_entrants(request: HttpRequest, pk: int) -> HttpResponse:
    def write(event: Event, version: int, key: str) -> None:
        found = entrants_from_post(request.POST, event.format)
        events.add_entrants(event.pk, found, version, key)

    return _organizing(request, pk, write)


@require_POST
def withdraw(request: HttpRequest, pk: int) -> HttpResponse:
    def write(event: Event, version: int, key: str) -> None:
        entrant = _number(request.POST.get("entrant", "")) or 0
        events.withdraw(event.pk, entrant, version, key)

    return _organizing(request, pk, write)


@require_POST
def seat(request: HttpRequest, pk: int) -> HttpResponse:
    return _organizing(request, pk, lambda e, v, k: events.propose(e.pk, v, k) and None)


@require_POST
def swap(request: HttpRequest, pk: int) -> HttpResponse:
    def write(event: Event, version: int, key: str) -> None:
        post = request.POST
        events.swap(event.pk, post.get("one", ""), post.get("other", ""), version, key)

    return _organizing(request, pk, write)


@require_POST
def start(request: HttpRequest, pk: int) -> HttpResponse:
    def write(event: Event, version: int, key: str) -> None:
        events.start(event.pk, version, key, confirmed=request.POST.get("confirm") == "on")

    return _organizing(request, pk, write)


@require_POST
def call_time(request: HttpRequest, pk: int) -> HttpResponse:
    return _organizing(request, pk, lambda e, v, k: events.call_time(e.pk, k))


@require_POST
def close(request: HttpRequest, pk: int) -> HttpResponse:
    return _organizing(request, pk, lambda e, v, k: events.close(e.pk, v, k) and None)


# -- Cards, TV, series, export -------------------------------------------------------------


@require_GET
def cards(request: HttpRequest, pk: int) -> HttpResponse:
    """One printable A4 card per table of the round in play (or seated): its number, the
    round's, the seats by name, and the Keep score QR code of its match."""
    event, role = _event(request, pk)
    if role != Match.KEEP:
        raise Http404("Only the organizer prints the cards.")
    night = events.read(event)

    def keep_url(match_id: int, token: str) -> str:
        return request.build_absolute_uri(reverse("join", args=[match_id, token]))

    return render(request, "scoring/events/cards.html", cards_context(night, keep_url))


@require_GET
def tv(request: HttpRequest, pk: int) -> HttpResponse:
    event, _ = _event(request, pk)
    night = events.read(event)
    context = tv_context(night)
    context["url"] = request.build_absolute_uri(
        reverse("event_join", args=[event.pk, event.watch_token])
    )
    response = render(request, "scoring/events/tv.html", context)
    _follows(response, night)
    return response


@require_GET
def series(request: HttpRequest, pk: int) -> HttpResponse:
    event, _ = _event(request, pk)
    if event.series_id is None:
        raise Http404("This event belongs to no series.")
    return render(request, "scoring/events/series.html", series_context(event.series, event))


@require_GET
def export(request: HttpRequest, pk: int) -> HttpResponse:
    event, _ = _event(request, pk)
    response = HttpResponse(
        json.dumps(export_event(event), indent=2, ensure_ascii=False),
        content_type="application/json; charset=utf-8",
    )
    stamp = timezone.localdate().isoformat()
    response["Content-Disposition"] = f'attachment; filename="event-{event.pk}-{stamp}.json"'
    return response
