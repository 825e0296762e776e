"""Thin views: parse the request, call the service, render the screen or its fragment."""

from __future__ import annotations

import json

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from referee import PRESETS, DocumentError, IllegalAction, InvalidAction
from scoring import services
from scoring.forms import action_from_post, new_match_from_post, parse_version
from scoring.models import Match, Player
from scoring.screens import summary_context, table_context

MAX_UPLOAD = 512 * 1024


def home(request: HttpRequest) -> HttpResponse:
    matches = Match.objects.prefetch_related("seats__player").order_by("-updated_at")[:50]
    return render(
        request,
        "scoring/home.html",
        {
            "playing": [m for m in matches if m.status == Match.PLAYING],
            "finished": [m for m in matches if m.status == Match.FINISHED],
        },
    )


@require_http_methods(["GET", "POST"])
def new_match(request: HttpRequest) -> HttpResponse:
    error, chosen = None, request.POST or None
    if request.method == "POST":
        try:
            game, names, options = new_match_from_post(request.POST)
            match = services.create_match(game, names, options)
        except InvalidAction as problem:
            error = problem.message
        else:
            return redirect("table", pk=match.pk)
    names = list(Player.objects.order_by("-created_at").values_list("name", flat=True)[:30])
    return render(
        request,
        "scoring/new_match.html",
        {"games": PRESETS.values(), "known_names": names, "error": error, "chosen": chosen},
        status=400 if error else 200,
    )


@vary_on_headers("HX-Request")
def table(request: HttpRequest, pk: int) -> HttpResponse:
    match = get_object_or_404(Match, pk=pk)
    return _render_table(request, match, request.GET.get("tile"))


@require_POST
def act(request: HttpRequest, pk: int) -> HttpResponse:
    match = get_object_or_404(Match, pk=pk)
    status, notice = 200, None
    try:
        data = action_from_post(request.POST, match.seats.count())
        services.record(pk, data, parse_version(request.POST), request.POST.get("key", ""))
    except services.Stale as stale:
        status, notice = 409, stale.message
    except IllegalAction as error:
        status, notice = 422, error
    except InvalidAction as error:
        status, notice = 400, error.message
    if status == 200 and not request.htmx:
        return redirect("table", pk=pk)  # post/redirect/get without JavaScript
    match.refresh_from_db()
    return _render_table(request, match, None, notice=notice, status=status)


def _render_table(request, match, tile, notice=None, status=200) -> HttpResponse:
    context = table_context(services.load_table(match), tile, notice)
    template = "scoring/table.html#table" if request.htmx else "scoring/table.html"
    return render(request, template, context, status=status)


def summary(request: HttpRequest, pk: int) -> HttpResponse:
    match = get_object_or_404(Match, pk=pk)
    return render(request, "scoring/summary.html", summary_context(match))


def export_download(request: HttpRequest, pk: int) -> HttpResponse:
    match = get_object_or_404(Match, pk=pk)
    response = JsonResponse(services.export_match(match), json_dumps_params={"indent": 2})
    response["Content-Disposition"] = f'attachment; filename="boneyard-match-{pk}.json"'
    return response


@require_POST
def import_upload(request: HttpRequest) -> HttpResponse:
    upload = request.FILES.get("document")
    try:
        if upload is None:
            raise InvalidAction("Choose a match document (.json) to import.")
        if upload.size > MAX_UPLOAD:
            raise InvalidAction("That file is too large for a match document (512 KB at most).")
        try:
            document = json.loads(upload.read())
        except (ValueError, RecursionError):
            raise InvalidAction("That file is not a JSON match document.") from None
        match = services.import_match(document)
    except (InvalidAction, DocumentError) as error:
        messages.error(request, f"Import refused: {error.message}")
        return redirect("home")
    messages.success(request, f"Imported match #{match.pk}.")
    return redirect("table", pk=match.pk)
