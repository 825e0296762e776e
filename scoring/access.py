"""Who may do what at a table: the share links a phone has joined with.

A phone's session remembers, per match, the token of the link it joined with (the
creator's phone joins as a scorekeeper by itself) and the seat it has taken. Rights are
checked against the match's current tokens on every request, in constant time, so "new
links" revokes every phone that joined with the old ones.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress

from django.conf import settings
from django.http import HttpRequest

from scoring import counters
from scoring.drawing import NUMERALS
from scoring.models import Match

TABLES, SEATS = "tables", "seats"
# This phone's choice of tile faces: "pips", "numerals", or "" (as the set suggests).
FACES, FACE_CHOICES = "faces", ("", "pips", "numerals")
MOST_TABLES = 30  # the session is a signed cookie: keep it small


def role(request: HttpRequest, match: Match) -> str | None:
    """Match.KEEP, Match.WATCH or None for this phone."""
    token = request.session.get(TABLES, {}).get(str(match.pk))
    return role_of(token, match.keep_token, match.watch_token)


def role_of(token: object, keep_token: str, watch_token: str) -> str | None:
    if not isinstance(token, str) or not token:
        return None
    if hmac.compare_digest(token.encode(), keep_token.encode()):
        return Match.KEEP
    if hmac.compare_digest(token.encode(), watch_token.encode()):
        return Match.WATCH
    return None


def join(request: HttpRequest, match: Match, token: str) -> None:
    """Remember the link this phone joined with (the newest tables first). A phone that
    keeps score stays a scorekeeper when it opens the Watch link too (say, by scanning its
    own QR code): losing the right to record by looking would be a trap."""
    if role(request, match) == Match.KEEP:
        token = match.keep_token
    tables = {k: v for k, v in request.session.get(TABLES, {}).items() if k != str(match.pk)}
    tables = dict(list({str(match.pk): token, **tables}.items())[:MOST_TABLES])
    request.session[TABLES] = tables


def tables(request: HttpRequest) -> list[int]:
    """The matches this phone holds a link to that still works, newest joined first: a
    phone shut out by new links must not see the match listed, scored or named anywhere."""
    held = {
        int(pk): token
        for pk, token in request.session.get(TABLES, {}).items()
        if pk.isascii() and pk.isdecimal() and len(pk) < 19
    }
    current = Match.objects.filter(pk__in=held).values_list("pk", "keep_token", "watch_token")
    working = {pk for pk, keep, watch in current if role_of(held[pk], keep, watch) is not None}
    return [pk for pk in held if pk in working]


def seat(request: HttpRequest, match: Match) -> int | None:
    value = request.session.get(SEATS, {}).get(str(match.pk))
    return value if isinstance(value, int) and 0 <= value < len(match.totals) else None


def take_seat(request: HttpRequest, match: Match, number: int | None) -> None:
    seats = dict(request.session.get(SEATS, {}))
    if number is None:
        seats.pop(str(match.pk), None)
    else:
        seats[str(match.pk)] = number
    joined = request.session.get(TABLES, {})
    request.session[SEATS] = {k: v for k, v in seats.items() if k in joined}


def client(request: HttpRequest) -> str:
    """The client's address; behind N trusted proxies, the one the first proxy saw. Anything
    there that is not an address (a header written by the client, when fewer proxies stand
    in front than the setting says) is counted under a short digest of it: a rate limit's
    key is stored, and a header may be kilobytes long (issue 28)."""
    hops = settings.BONEYARD_PROXY_HOPS
    forwarded = [a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    if hops and len(forwarded) >= hops:
        return _address(forwarded[-hops])
    return _address(request.META.get("REMOTE_ADDR", ""))


def _address(text: str) -> str:
    try:
        return str(ipaddress.ip_address(text))
    except ValueError:
        return "not an address " + hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()[:24]


def allowed(request: HttpRequest, what: str) -> bool:
    """Rate limit per client (``BONEYARD_RATE_LIMITS[what]`` = (requests, seconds)), counted
    atomically where every server process counts (scoring.counters)."""
    most, seconds = settings.BONEYARD_RATE_LIMITS[what]
    return counters.count(f"{what}:{client(request)}", seconds) <= most


def faces(request: HttpRequest) -> str:
    value = request.session.get(FACES, "")
    return value if value in FACE_CHOICES else ""


def choose_faces(request: HttpRequest, value: str) -> None:
    request.session[FACES] = value if value in FACE_CHOICES else ""


def draw_faces(request: HttpRequest, match: Match) -> None:
    """Tiles drawn for this request as this phone chose: numerals by default on sets above
    double-6, where 9-8 and 8-8 in pips are hard to tell apart."""
    choice = faces(request)
    big = match.options.get("set", 6) > 6
    NUMERALS.set(choice == "numerals" or (choice == "" and big))


class TileFaces:
    """Middleware: every request starts drawing pips; a view with a match in hand chooses
    (``draw_faces``). A thread serves many requests: no choice may outlive its own."""

    def __init__(self, get_response):  # noqa: ANN001
        self.get_response = get_response

    def __call__(self, request: HttpRequest):  # noqa: ANN204
        token = NUMERALS.set(False)
        try:
            return self.get_response(request)
        finally:
            NUMERALS.reset(token)
