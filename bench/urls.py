"""The app's URLs plus the floor: a bare Django view rendering a tiny template, the yardstick
every ratio in bench/results.json is measured against in the same run."""

from django.http import HttpRequest, HttpResponse
from django.template import engines
from django.urls import include, path

TINY = engines["django"].from_string("<!doctype html><title>floor</title><p>{{ n }}</p>")


def floor(request: HttpRequest) -> HttpResponse:
    return HttpResponse(TINY.render({"n": 1}, request))


# The app exactly as served (config.urls: the language switch every page links to, too).
urlpatterns = [path("bench/floor/", floor), path("", include("config.urls"))]
