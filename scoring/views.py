"""Thin views: check the phone's rights, parse the request, call the service, render."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.db import connection
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language, gettext, gettext_lazy, pgettext, pgettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from referee import PRESETS, DocumentError, IllegalAction, InvalidAction, Tally
from scoring import access, domino, edge, records, services
from scoring import desk as referee_desk
from scoring.drawing import qr_svg
from scoring.events.views import held_events
from scoring.forms import (
    PAIRS_GAMES,
    PARTNERS,
    PairsNeedFour,
    action_from_post,
    declaration,
    new_match_from_post,
    parse_version,
    seat_order,
    tally_form,
)
from scoring.games import facts
from scoring.models import Match, Player
from scoring.rules_pages import game_rules, house_rules, rules_index_context
from scoring.screens import screen
from scoring.screens.common import Asked, match_line
from scoring.screens.replay import replay_context
from scoring.screens.summary import MOST_NOTES, summary_context
from scoring.speech import say

WATCHING = gettext_lazy(
    "This phone watches the match and cannot record; ask the scorekeeper for the Keep score link."
)
TOO_MANY = gettext_lazy("Too many tries from this phone; wait a minute and try again.")


class TooMany(InvalidAction):
    """This phone asked too often (access.allowed): refused with 429 rather than 400."""

    def __init__(self) -> None:
        super().__init__(str(TOO_MANY))


def _too_many() -> HttpResponse:
    return HttpResponse(str(TOO_MANY), status=429, content_type="text/plain; charset=utf-8")


def refusal(error: Exception) -> tuple[int, Any]:
    """A refusal's HTTP status and what the screen shows of it, the same on every screen:
    a form drawn from an older table 409, too many tries 429, a rule's refusal 422 (shown
    with its rule's text, so the error itself), what cannot be read 400."""
    if isinstance(error, services.Stale):
        return 409, say(error.message)
    if isinstance(error, IllegalAction):
        return 422, error
    if isinstance(error, InvalidAction):
        return (429 if isinstance(error, TooMany) else 400), say(error.message)
    raise error


def _match(request: HttpRequest, pk: int) -> tuple[Match, str]:
    """The match and this phone's role; 404 for a match it has no link to (or none)."""
    match = get_object_or_404(Match, pk=pk)
    role = access.role(request, match)
    if role is None:
        raise Http404("No match here, or this phone has no link to it.")
    return match, role


def keepers_only(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """For the views that change the record: the view gets the match instead of its pk; a
    phone that only watches gets the table with the reason it cannot (403), the top of the
    turn shown as after any refused tap; one with no link, 404."""

    @wraps(view)
    def checked(request: HttpRequest, pk: int, **kwargs: Any) -> HttpResponse:
        match, role = _match(request, pk)
        if role != Match.KEEP:
            watching = _render_table(request, match, role, None, str(WATCHING), 403)
            return _showing_the_turn(watching)
        return view(request, match, **kwargs)

    return checked


def home(request: HttpRequest) -> HttpResponse:
    joined = access.tables(request)
    matches = Match.objects.filter(pk__in=joined).prefetch_related("seats__player")
    matches = sorted(matches, key=lambda m: m.updated_at, reverse=True)
    for match in matches:
        match.line = match_line(match)
    return render(
        request,
        "scoring/home.html",
        {
            "playing": [m for m in matches if m.status == Match.PLAYING],
            "finished": [m for m in matches if m.status == Match.FINISHED],
            "events": held_events(request),
        },
    )


STARTED = "started"  # the match this phone last started, and the form that started it


@require_http_methods(["GET", "POST"])
def new_match(request: HttpRequest) -> HttpResponse:
    error, pairs_error, chosen, status = None, None, request.POST or None, 200
    error_rule = None  # the rule a refused house rule breaks, linked beside the refusal
    started = _started(request)
    if request.method == "POST":
        if started is not None and request.POST.get("key") == started["key"]:
            # The form sent again (a double tap, a page the Back button restored): it
            # started its match already; one form starts one match.
            return redirect("table", pk=started["match"].pk)
        try:
            if not access.allowed(request, "create"):
                raise TooMany()
            game, names, options = new_match_from_post(request.POST)
            match = services.create_match(game, names, options)
        except PairsNeedFour as problem:
            pairs_error, status = say(problem.message), 400  # said beside the switch
        except InvalidAction as problem:
            (status, error), error_rule = refusal(problem), problem.rule
        else:
            access.join(request, match, match.keep_token)  # the creator keeps score
            request.session[STARTED] = {
                "match": match.pk,
                "key": request.POST.get("key", ""),
                "form": _as_chosen(request.POST, game),
            }
            return redirect("table", pk=match.pk)
    elif started is not None:
        # Back from the table (or New match again): the form as it was sent, beside the
        # way to the match it started, rather than an empty form.
        chosen = QueryDict(mutable=True)
        for name, values in started["form"].items():
            chosen.setlist(name, values)
    # Names from the matches this phone holds a link to, never a stranger's players.
    names = list(
        Player.objects.filter(seats__match__in=access.tables(request))
        .order_by("name")
        .distinct()
        .values_list("name", flat=True)[:30]
    )
    return render(
        request,
        "scoring/new_match.html",
        {
            "games": PRESETS.values(),
            "domino_styles": domino.new_match_styles(),
            "known_names": names,
            "error": error,
            "error_rule": error_rule if chosen and chosen.get("game") in PRESETS else None,
            "chosen": chosen,
            "pairs": _pairs(chosen, pairs_error),
            "started": started["match"] if started is not None and status == 200 else None,
            "key": services.new_key(),
        },
        status=status,
    )


def _started(request: HttpRequest) -> dict[str, Any] | None:
    """The match this phone last started, while it is played and the phone holds its link,
    with the key and the fields of the form that started it."""
    started = request.session.get(STARTED)
    if not isinstance(started, dict):
        return None
    match = Match.objects.filter(pk=started.get("match"), status=Match.PLAYING).first()
    if match is None or access.role(request, match) is None:
        return None
    return {**started, "match": match}


def _as_chosen(post: QueryDict, game: str) -> dict[str, list[str]]:
    """The fields of a new-match form worth keeping: the names, the game, the pairs and the
    chosen game's house rules (the session is a small signed cookie)."""
    kept = ("game", "partnerships", "partner")
    return {
        name: post.getlist(name)
        for name in post
        if name in kept or name.startswith(("player-", f"{game}."))
    }


def _pairs(chosen: QueryDict | None, error: str | None) -> dict[str, Any]:
    """The "Play in pairs" switch of the new-match form: the games that offer it, whether it
    is on, the partner chosen and, for each partner the first name may choose, the teams and
    the seats it makes (the stylesheet shows the chosen one's). The names are those typed
    when four are, else "1st name" to "4th name" (not "Player 1", the name fields' labels);
    the page's script writes them in as they are typed."""
    post = chosen or QueryDict()
    switch = next(o for g in PRESETS.values() for o in g.options if o.name == "partnerships")
    typed = [n for n in (post.get(f"player-{i}", "").strip() for i in range(8)) if n]
    ordinal = [gettext("1st name"), gettext("2nd name"), gettext("3rd name"), gettext("4th name")]
    names = typed if len(typed) == 4 else ordinal
    people = list(enumerate(names))
    line_ups = []
    for partner in PARTNERS:
        seats = seat_order(people, partner)
        teams = ((seats[0], seats[2]), (seats[1], seats[3]))
        line_ups.append({"partner": partner, "seats": seats, "teams": teams})
    return {
        "games": PAIRS_GAMES,
        "label": gettext(switch.label),
        "help": gettext(switch.help),
        "on": "partnerships" in post,
        "partner": post.get("partner") if post.get("partner") in PARTNERS else "2",
        "people": people,
        "line_ups": line_ups,
        "error": error,
    }


@require_GET
def join(request: HttpRequest, pk: int, token: str) -> HttpResponse:
    """A share link: this phone keeps score or watches from now on."""
    if not access.allowed(request, "join"):
        return _too_many()
    match = get_object_or_404(Match, pk=pk)
    if access.role_of(token, match.keep_token, match.watch_token) is None:
        raise Http404("This link is not valid (any more): ask the table for a new one.")
    access.join(request, match, token)
    return redirect("table", pk=pk)


@vary_on_headers("HX-Request")
def table(request: HttpRequest, pk: int) -> HttpResponse:
    match, role = _match(request, pk)
    return _render_table(request, match, role, request.GET.get("tile"))


@require_GET
def poll(request: HttpRequest, pk: int) -> HttpResponse:
    """The table fragment if it changed since ``version``, else 204 with no body: the
    phones at a table ask every 2 seconds, so the unchanged answer is one indexed query."""
    row = services.poll_row(pk)
    token = request.session.get(access.TABLES, {}).get(str(pk))
    if row is None or access.role_of(token, row[1], row[2]) is None:
        raise Http404("No match here, or this phone has no link to it.")
    if request.GET.get("version") == str(row[0]):
        return HttpResponse(status=204)
    match = get_object_or_404(Match, pk=pk)
    return _render_table(request, match, access.role(request, match), None)


@require_POST
@keepers_only
def act(request: HttpRequest, match: Match) -> HttpResponse:
    entries = [1]  # said back: the play and its declaration when a tap holds both

    def write(match: Match) -> HttpResponse | None:
        family = PRESETS[match.game].family
        names = services.load_table(match).names if request.POST.get("type") == "tally" else ()
        data = action_from_post(request.POST, len(match.totals), family, names)
        if data.get("type") == "time":  # parejas.time: refused before the server's clock says
            refused = domino.time_refusal(match)
            if refused is not None:
                raise refused
        confirm = _someone_elses_turn(request, match, data)
        if confirm is not None:  # asked before anything is recorded
            return _render_table(request, match, Match.KEEP, None, confirm=confirm)
        then = declaration(request.POST, data)
        version, key = parse_version(request.POST), request.POST.get("key", "")
        services.record(match.pk, data, version, key, then=then)
        entries[0] = 1 if then is None else 2
        return None

    return _keeping(request, match, write, said_back=True, entries=entries)


@require_POST
@keepers_only
def keep_round(request: HttpRequest, match: Match) -> HttpResponse:
    """``pad.record``: keep the round about to begin tile by tile, or as a score pad."""

    def write(match: Match) -> None:
        post = request.POST
        services.keep_round(
            match.pk, post.get("record", ""), parse_version(post), post.get("key", "")
        )

    return _keeping(request, match, write, said_back=False)


def _keeping(
    request: HttpRequest, match: Match, write, said_back: bool, entries: list[int] | None = None
) -> HttpResponse:
    """A keeper's POST to the table: ``write`` records it (or answers first); a refusal is
    rendered in place with its status (409, 422, 400), keeping what was chosen."""
    status, notice = 200, None
    try:
        answer = write(match)
        if answer is not None:
            return _showing_the_turn(answer)
    except (services.Stale, InvalidAction, IllegalAction) as error:
        status, notice = refusal(error)
    if status == 200 and not request.htmx:
        return redirect("table", pk=match.pk)  # post/redirect/get without JavaScript
    match.refresh_from_db()
    refused = request.POST if status in (400, 422) and said_back else None
    done = (entries or [1])[0] if status == 200 and said_back else 0
    response = _render_table(request, match, Match.KEEP, None, notice, status, refused, done=done)
    return _showing_the_turn(response)


# After a tap, the page shows what the next player needs: the top of the turn (what was
# just recorded or refused, then the banner) just below the sticky score strip, wherever
# the tap was made (boneyard.css gives .turn-top its margin). Updates from other phones
# keep the player's view where it is (table.js).
SHOW_THE_TURN = "outerHTML show:.turn-top:top"


def _showing_the_turn(response: HttpResponse) -> HttpResponse:
    response["HX-Reswap"] = SHOW_THE_TURN
    return response


def _someone_elses_turn(request: HttpRequest, match: Match, data: dict) -> dict | None:
    """The question to ask when a phone that said whose it is records a turn for another
    seat ("This phone is Ben", and the tap is Ana's play), or None: asked once per tap,
    inline, so a tile is never entered into someone else's turn unnoticed."""
    mine = access.seat(request, match)
    seat = str(data.get("seat", ""))
    if (
        mine is None
        or data.get("type") not in facts(match.game).turn_taps
        or not (seat.isascii() and seat.isdecimal() and len(seat) < 3)
        or int(seat) >= len(match.totals)
        or int(seat) == mine
        or request.POST.get("for_seat") == seat
    ):
        return None
    fields = [
        (name, value)
        for name, values in request.POST.lists()
        if name not in ("csrfmiddlewaretoken", "for_seat")
        for value in values
    ]
    return {"seat": int(seat), "mine": mine, "fields": fields}


@require_POST
def take_seat(request: HttpRequest, pk: int) -> HttpResponse:
    """ "I am Ben": this phone's screen speaks to Ben (or to nobody, with seat empty)."""
    match, role = _match(request, pk)
    raw = request.POST.get("seat", "")
    number = int(raw) if raw.isascii() and raw.isdecimal() and len(raw) < 3 else None
    if raw and (number is None or number >= len(match.totals)):
        return _render_table(request, match, role, None, gettext("There is no such seat."), 400)
    access.take_seat(request, match, number)
    if not request.htmx:
        return redirect("table", pk=pk)
    return _render_table(request, match, role, None)


FACE_CHOICES = (
    ("", pgettext_lazy("tile faces", "as the set suggests")),
    ("pips", pgettext_lazy("tile faces", "pips")),
    ("numerals", pgettext_lazy("tile faces", "numbers")),
)


@require_POST
def choose_faces(request: HttpRequest, pk: int) -> HttpResponse:
    """Pips or numbers on this phone's tiles (every match it shows)."""
    match, role = _match(request, pk)
    access.choose_faces(request, request.POST.get("faces", ""))
    if not request.htmx:
        return redirect("table", pk=pk)
    return _render_table(request, match, role, None)


@require_POST
@keepers_only
def new_links(request: HttpRequest, match: Match) -> HttpResponse:
    """Replace both share links: every phone that joined with the old ones is shut out."""
    made = services.new_links(match, match.keep_token)
    if made is None:
        messages.error(
            request,
            gettext(
                "Another phone made new links a moment ago, so this phone's link no longer "
                "works: ask that phone for the new Keep score link."
            ),
        )
        return redirect("home")
    access.join(request, made, made.keep_token)
    messages.success(request, gettext("New links made: the old ones no longer work."))
    return redirect("table", pk=match.pk)


@require_POST
@keepers_only
def play_again(request: HttpRequest, match: Match) -> HttpResponse:
    """The same players, game and house rules in a new match, in one tap from a finished
    one; this phone keeps score of the new match."""
    if match.status != Match.FINISHED:
        still = gettext("This match is still being played.")
        return _render_table(request, match, Match.KEEP, None, still, 409)
    if not access.allowed(request, "create"):
        return _render_table(request, match, Match.KEEP, None, str(TOO_MANY), 429)
    again = services.play_again(match)
    access.join(request, again, again.keep_token)
    messages.success(request, gettext("A new match with the same players and house rules."))
    return redirect("table", pk=again.pk)  # a plain form: a whole new page


def _render_table(
    request, match, role, tile, notice=None, status=200, refused=None, confirm=None, done=0
) -> HttpResponse:
    table = services.load_table(match)
    access.draw_faces(request, match)
    context, screen = _screen(
        request, table, tile, notice, access.seat(request, match), status, refused
    )
    context["faces"] = access.faces(request)
    context["face_choices"] = FACE_CHOICES
    if done:  # what was just recorded, said back, so a tap is never recorded unseen
        context["done"] = services.recorded_words(table, done)
    if refused is not None and refused.get("type") in ("adjust", "abandon", "stop"):
        context["record"] |= {"open": True, "chosen": refused}  # refused: kept as chosen
    if confirm is not None:
        confirm |= {"name": table.names[confirm["seat"]], "mine_name": table.names[confirm["mine"]]}
        context["confirm"] = confirm
    context.update(_sharing(request, match, role))
    context.update(act=reverse("act", args=[match.pk]), here=reverse("table", args=[match.pk]))
    if not request.htmx:  # the parts below the table, on the full page only
        context["house_rules"] = house_rules(match.game, match.options)
        context["rounds_finished"] = table.number > 1 or table.between_rounds
        context["replay_round"] = table.last_row.number if table.last_row else None
    template = f"{screen}#table" if request.htmx else screen
    response = render(request, template, context, status=status)
    # A poll sent before this phone's own tap may answer after it: the page swaps a table
    # in only if it is newer than the one it shows (a tapped tile would be lost otherwise).
    response["X-Table-Version"] = str(match.version)
    return response


def _screen(request, table, tile, notice, my_seat, status, refused) -> tuple[dict, str]:
    """The context and template of the game's table screen."""
    posted = request.method == "POST"
    asked = Asked(
        query=request.GET,
        tile=tile,
        notice=notice,
        my_seat=my_seat,
        refused=refused,
        posted=request.POST if posted else None,
        recorded=posted and status == 200,
    )
    game_screen = screen(table.match.game)
    return game_screen.context(table, asked), game_screen.template


def _sharing(request: HttpRequest, match: Match, role: str) -> dict:
    keeping = role == Match.KEEP
    links = []
    if keeping and not request.htmx:  # the share panel is on the full page only
        shared = (
            (pgettext("share link", "Keep score"), gettext("Keep score link"), match.keep_token),
            (pgettext("share link", "Watch"), gettext("Watch link"), match.watch_token),
        )
        for label, named, token in shared:
            url = request.build_absolute_uri(reverse("join", args=[match.pk, token]))
            links.append({"label": label, "named": named, "url": url, "qr": qr_svg(url, named)})
    # A link to localhost works on this machine only; other phones need its network address.
    local = request.get_host().rsplit(":", 1)[0] in ("localhost", "127.0.0.1", "[::1]")
    return {"keeping": keeping, "links": links, "local_links": bool(links) and local}


def summary(request: HttpRequest, pk: int) -> HttpResponse:
    match, _ = _match(request, pk)
    context = summary_context(match, most_notes=MOST_NOTES)
    context["chart"] = records.score_chart(context["names"], context["rounds"])
    return render(request, "scoring/summary.html", context)


@require_GET
def chart(request: HttpRequest, pk: int) -> HttpResponse:
    """The chart of the running totals, for the match page to fetch when it is in view."""
    match, _ = _match(request, pk)
    return render(request, "scoring/summary.html#chart", {"chart": records.score_chart_svg(match)})


def scores_csv(request: HttpRequest, pk: int) -> HttpResponse:
    match, _ = _match(request, pk)
    response = HttpResponse(records.score_sheet_csv(match), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="boneyard-match-{pk}-scores.csv"'
    return response


@require_GET
def replay_round(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """One round stepped through action by action; ``?step=`` is the actions applied."""
    match, role = _match(request, pk)
    access.draw_faces(request, match)
    context = replay_context(match, number, request.GET.get("step"))
    if context is None:
        raise Http404("This match has no such round.")
    context["keeping"] = role == Match.KEEP
    return render(request, "scoring/replay.html", context)


@require_GET
def rules_index(request: HttpRequest) -> HttpResponse:
    return render(request, "scoring/rules.html", rules_index_context())


@require_GET
def rules_game(request: HttpRequest, game: str) -> HttpResponse:
    if game == "domino" or domino.is_domino(game):  # parejas.*: one page for the six styles
        return render(request, "scoring/rules_domino.html", domino.rules_context())
    if game not in PRESETS:
        raise Http404("No such game.")
    return render(request, "scoring/rules_game.html", game_rules(PRESETS[game]))


def _known(request: HttpRequest) -> list[int] | None:
    """The matches whose players this phone may see the records of: those it holds a
    link to, or None (every player) when the server keeps public records."""
    return None if settings.BONEYARD_PUBLIC_RECORDS else access.tables(request)


@require_GET
def players(request: HttpRequest) -> HttpResponse:
    """The leaderboard of every game, or of ``?game=``."""
    game = request.GET.get("game")
    if game is not None and game not in PRESETS:
        raise Http404("No such game.")
    context = records.leaderboard_context(game, _known(request))
    return render(request, "scoring/players.html", context)


@require_GET
def player(request: HttpRequest, pk: int) -> HttpResponse:
    joined = access.tables(request)
    public = settings.BONEYARD_PUBLIC_RECORDS
    found = get_object_or_404(Player.objects.all() if public else records.players_of(joined), pk=pk)
    return render(request, "scoring/player.html", records.player_context(found, joined))


@require_http_methods(["GET", "POST"])
def desk(request: HttpRequest) -> HttpResponse:
    """The referee's desk: a pasted or uploaded match document becomes a position."""
    error, status = None, 200
    if request.method == "POST":
        try:
            if not access.allowed(request, "create"):
                raise TooMany()
            document = _posted_document(request, "document", "pasted")
            kept = referee_desk.keep(document)
        except InvalidAction as problem:  # a DocumentError among them
            status, error = refusal(problem)
        else:
            return redirect("position", key=kept.key)
    return render(
        request,
        "scoring/desk.html",
        {"error": error, "pasted": request.POST.get("pasted", "")},
        status=status,
    )


@require_POST
def ask_about_match(request: HttpRequest, pk: int) -> HttpResponse:
    """ "Ask about this position": the match as it stands, on the referee's desk."""
    match, _ = _match(request, pk)
    if not access.allowed(request, "create"):
        return _too_many()
    return redirect("position", key=referee_desk.keep(services.document_of(match)).key)


@require_http_methods(["GET", "POST"])
def position(request: HttpRequest, key: str) -> HttpResponse:
    """A position on the desk; a POST proposes an action and gets the referee's ruling,
    and records nothing."""
    if not access.allowed(request, "desk"):  # a position not in memory costs a replay
        return _too_many()
    kept = referee_desk.find(key)
    if kept is None:
        raise Http404("No such position: the link may be mistyped, or it expired.")
    try:
        table = referee_desk.table_of(kept)
    except DocumentError as error:  # kept under older rules than the referee's now
        message = gettext("This position no longer replays under the rules: {why}").format(
            why=say(error.message)
        )
        return HttpResponse(message, status=410, content_type="text/plain; charset=utf-8")
    access.draw_faces(request, table.match)
    ruling, notice, status = None, None, 200
    if request.method == "POST":
        try:
            if request.POST.get("then") == "play":  # "Play it on": the position after it
                if not access.allowed(request, "create"):  # it keeps a new position
                    raise TooMany()
                after = referee_desk.played_on(kept, table, request.POST.get("action", ""))
                return redirect("position", key=after.key)
            ruling = referee_desk.rule(table, request.POST)
        except (IllegalAction, InvalidAction) as error:
            status, notice = refusal(error)
    tile = request.GET.get("tile") if request.method == "GET" else None
    context, screen = _screen(request, table, tile, notice, None, status, None)
    here = reverse("position", args=[kept.key])
    context.update(
        desk=True,
        keeping=True,  # the table's buttons propose actions here; nothing is recorded
        act=here,
        here=here,
        ruling=ruling,
        ruling_json=json.dumps(ruling.action) if ruling and ruling.legal else "",
        share_url=request.build_absolute_uri(here),
        house_rules=house_rules(table.match.game, table.match.options),
    )
    template = f"{screen}#table" if request.htmx else screen
    response = render(request, template, context, status=status)
    return _showing_the_turn(response) if request.method == "POST" else response


def export_download(request: HttpRequest, pk: int) -> HttpResponse:
    match, _ = _match(request, pk)
    response = JsonResponse(services.export_match(match), json_dumps_params={"indent": 2})
    response["Content-Disposition"] = f'attachment; filename="boneyard-match-{pk}.json"'
    return response


def _posted_document(request: HttpRequest, upload_field: str, text_field: str | None = None):
    """The JSON match document a form sent, as an uploaded file or pasted text."""
    upload = request.FILES.get(upload_field)
    pasted = request.POST.get(text_field, "").strip() if text_field else ""
    if upload is None and not pasted:
        raise InvalidAction(
            gettext("Choose a match document (.json) or paste one.")
            if text_field
            else gettext("Choose a match document (.json) to import.")
        )
    if upload is not None and upload.size > edge.MAX_DOCUMENT:  # not read into memory
        raise InvalidAction(gettext("That is too large for a match document (512 KB at most)."))
    return edge.read_document(upload.read() if upload is not None else pasted)


@require_POST
def import_upload(request: HttpRequest) -> HttpResponse:
    try:
        if not access.allowed(request, "create"):
            raise TooMany()
        document = _posted_document(request, "document")
        match = services.import_match(document)
    except (InvalidAction, DocumentError) as error:
        messages.error(request, gettext("Import refused: {why}").format(why=say(error.message)))
        return redirect("home")
    access.join(request, match, match.keep_token)
    messages.success(request, gettext("Imported match #{number}.").format(number=match.pk))
    return redirect("table", pk=match.pk)


@require_GET
def manifest(request: HttpRequest) -> HttpResponse:
    """The web app manifest in the phone's language: its name and description are words a
    phone shows when the app is installed on its home screen."""
    icons = [
        ("icons/icon-192.png", "192x192", "image/png", "any"),
        ("icons/icon-512.png", "512x512", "image/png", "any"),
        ("icons/maskable-512.png", "512x512", "image/png", "maskable"),
        ("icons/icon.svg", "any", "image/svg+xml", "any"),
    ]
    body = {
        "name": "Boneyard",
        "short_name": "Boneyard",
        "description": gettext(
            "Scoring companion and referee for dominoes played at a real table."
        ),
        "lang": get_language(),
        "id": "/",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#f6f3ee",
        "theme_color": "#ffffff",
        "icons": [
            {"src": static(src), "sizes": sizes, "type": kind, "purpose": purpose}
            for src, sizes, kind, purpose in icons
        ],
    }
    return JsonResponse(
        body, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False}
    )


def healthz(request: HttpRequest) -> HttpResponse:
    """200 when the database answers, 503 when it does not."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception:  # any failure to reach the database is "not healthy"
        return HttpResponse("database unreachable\n", status=503, content_type="text/plain")
    return HttpResponse("ok\n", content_type="text/plain")


# -- fixing the record (RULES.md §7) ------------------------------------------------------

FIXING = "fixing"  # the session's corrections in progress, per match, until confirmed
CHANGES = ("replace", "insert", "remove")


def _fixes_held(request: HttpRequest, match: Match) -> tuple[services.Fix, ...]:
    held = request.session.get(FIXING, {}).get(str(match.pk), [])
    if held == FIXED:
        return ()
    try:
        return services.read_fixes(held, PRESETS[match.game].family) if held else ()
    except InvalidAction:
        return ()  # written by this app: unreadable only under older rules, so dropped


def _hold_fixes(request: HttpRequest, match: Match, fixes: tuple[services.Fix, ...]) -> None:
    # Only the latest match's fixing is kept: the session is a small signed cookie.
    request.session[FIXING] = {str(match.pk): [list(fix) for fix in fixes]} if fixes else {}


FIXED = "confirmed"  # what the session holds for a match once its correction is recorded


def _confirmed(request: HttpRequest, match: Match) -> bool:
    """This phone confirmed a correction of ``match`` and has begun no fixing since: a fix
    page asked for now is one the Back button found again."""
    return request.session.get(FIXING, {}).get(str(match.pk)) == FIXED


STALE_FIX = gettext_lazy(
    "This page is out of date: the correction it was part of has been recorded (or another "
    "was begun since), so nothing here is recorded. The table shows what stands now."
)


# A fix page is one step of a correction under way: never kept for the Back button to show
# again as it was; asked for again, it says when it is out of date.
@never_cache
@require_http_methods(["GET", "POST"])
@keepers_only
def fix(
    request: HttpRequest, match: Match, number: int, seq: int, change: str = ""
) -> HttpResponse:
    """Fix entry ``seq`` of round ``number``: what went wrong (GET), the table's pickers at
    that moment (``change`` replace or insert), and a POST previews the correction."""
    if change and change not in CHANGES:
        raise Http404("No such correction.")
    if request.method == "GET" and not change and "more" not in request.GET:
        _hold_fixes(request, match, ())  # a Fix tapped in a log starts afresh
    elif _confirmed(request, match):
        # Reached by the Back button after the correction was confirmed: say so, rather
        # than offer to record it a second time.
        context = {"match": match, "notice": str(STALE_FIX), "lost": True}
        template = "scoring/fix.html#table" if request.htmx else "scoring/fix.html"
        return render(request, template, context, status=409)
    fixes = _fixes_held(request, match)
    try:
        entry = services.entry_words(match, fixes, number, seq)
    except InvalidAction as error:
        raise Http404(error.message) from None
    notice, status = None, 200
    if request.method == "POST":
        try:
            if request.POST.get("how") == "played":
                change = ""  # the question is answered where it was asked
                raise services.misplay(match, number, seq)
            judged = services.correction(
                match, fixes + (_fix_posted(request, match, seq, change, number),)
            )
        except (services.Stale, IllegalAction, InvalidAction) as error:
            status, notice = refusal(error)
        else:
            _hold_fixes(request, match, judged.fixes)
            return _preview(request, match, judged)
    context = {"match": match, "number": number, "seq": seq, "entry": entry, "fixes": fixes}
    if change in ("replace", "insert"):
        try:
            return _fix_pickers(request, match, context, change, notice, status)
        except IllegalAction as error:  # no position to show: an earlier entry fails
            status, notice = refusal(error)
    context.update(notice=notice, notice_text=_rule_text(notice))
    template = "scoring/fix.html#table" if request.htmx else "scoring/fix.html"
    return render(request, template, context, status=status)


def _rule_text(notice: object) -> str:
    from referee.rulebook import rule_text

    return gettext(rule_text(notice.rule)) if isinstance(notice, IllegalAction) else ""


def _fix_posted(request: HttpRequest, match: Match, seq: int, change: str, number: int):
    """The correction a Fix form describes: the entry removed, or what really happened."""
    fixed: dict = {"type": "correct", "at": seq}
    if change == "remove":
        fixed["remove"] = True
    elif change in ("replace", "insert"):
        seats, family = len(match.totals), PRESETS[match.game].family
        fixed[change] = action_from_post(request.POST, seats, family)
    else:
        raise InvalidAction(gettext("Choose what went wrong first."))
    reason = request.POST.get("reason", "").strip()
    if reason:
        fixed["reason"] = reason
    mine = access.seat(request, match)
    if mine is not None:
        fixed["seat"] = mine
    return services.read_fixes([[number, fixed]], PRESETS[match.game].family)[0]


def _fix_pickers(request, match, context, change, notice, status) -> HttpResponse:
    """The game's own table screen at the moment before the entry, its buttons recording
    what really happened into the correction instead of the table."""
    number, seq = context["number"], context["seq"]
    table = services.fix_table(match, context["fixes"], number, seq)
    access.draw_faces(request, match)
    if change == "replace":
        fixing = gettext(
            "Fixing round {number}, entry {entry}: “{words}”. The table is shown as it was "
            "before it: tap what really happened."
        )
    else:
        fixing = gettext(
            "Fixing round {number}, entry {entry}: “{words}”. The table is shown as it was "
            "before it: tap what is missing before it."
        )
    words = say(context["entry"])
    banner = notice or fixing.format(number=number, entry=seq + 1, words=words)
    shown = request.POST if notice else None
    if shown is None and change == "replace":
        # A tally fixed opens as it was recorded: its hands ticked, its pips typed.
        recorded = services.entry(match, context["fixes"], number, seq)
        if isinstance(recorded, Tally):
            shown = tally_form(recorded, getattr(table.state, "pad", False))
    screen_context, screen = _screen(request, table, request.GET.get("tile"), banner, None,
                                     status, shown)  # fmt: skip
    here = reverse("fix_change", args=[match.pk, number, seq, change])
    screen_context.update(
        desk=True,  # every button can be tapped: the referee rules on the correction
        keeping=True,
        fixing=context,
        act=here,
        here=here,
        back=reverse("fix", args=[match.pk, number, seq]) + "?more=1",
    )
    template = f"{screen}#table" if request.htmx else screen
    return render(request, template, screen_context, status=status)


def _preview(request: HttpRequest, match: Match, judged: services.Correction) -> HttpResponse:
    """What the corrections change, or why the referee refuses them, before confirming."""
    context = {
        "match": match,
        "judged": judged,
        "said": services.fixes_words(match, judged.fixes),
        "fixes_json": json.dumps([list(fix) for fix in judged.fixes]),
        "version": match.version,
        "key": services.new_key(),
        "notice": judged.refusal,
        "notice_text": _rule_text(judged.refusal),
    }
    if judged.failing is not None:
        number, seq = judged.failing
        if seq < services.entries_in(match, number):  # an entry of the log, not a new fix
            context["failing"] = {
                "number": number,
                "seq": seq,
                "words": services.entry_words(match, judged.fixes, number, seq),
            }
    template = "scoring/fix.html#table" if request.htmx else "scoring/fix.html"
    return render(request, template, context, status=422 if judged.refusal else 200)


@require_POST
@keepers_only
def fix_confirm(request: HttpRequest, match: Match) -> HttpResponse:
    """Record the corrections the preview showed, in one go (409 when the table moved on)."""
    pk = match.pk
    family = PRESETS[match.game].family
    notice, status = None, 200
    try:
        try:
            posted = json.loads(request.POST.get("fixes", ""))
        except (ValueError, RecursionError):
            raise InvalidAction(
                gettext("This form does not say what to correct; reload the page.")
            ) from None
        fixes = services.read_fixes(posted, family)
        services.correct(pk, fixes, parse_version(request.POST), request.POST.get("key", ""))
    except (services.Stale, IllegalAction, InvalidAction) as error:
        status, notice = refusal(error)
        if status == 409:
            lost = gettext("{why} Nothing was corrected: fix it again if needed.")
            notice = lost.format(why=notice)
    if status != 200:
        context = {"match": match, "notice": notice, "notice_text": _rule_text(notice),
                   "lost": True}  # fmt: skip
        return render(request, "scoring/fix.html", context, status=status)
    request.session[FIXING] = {str(pk): FIXED}  # a fix page the Back button finds is stale
    messages.success(
        request, gettext("Corrected. The log keeps the original entry and the correction.")
    )
    return redirect("table", pk=pk)
