"""Where text enters the app, checked once: form fields, query strings and match documents.

A NUL character or a lone surrogate is no text a player writes: PostgreSQL refuses to
store either (and SQLite stores what it then cannot give back), so it would surface as a
500 somewhere deep. Control characters have no place in a name or a key either. So every
request's fields are checked before any view (and before the CSRF check, which reads the
form too), and every JSON document as it is read; a refusal says what is wrong in words
and changes nothing.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from typing import Any

from django.core.exceptions import BadRequest, RequestDataTooBig, TooManyFieldsSent
from django.http import HttpRequest, HttpResponse
from django.http.multipartparser import MultiPartParserError
from django.shortcuts import render
from django.utils.translation import gettext, gettext_lazy

from referee import InvalidAction

MAX_DOCUMENT = 512 * 1024  # bytes: a long match's document is a few tens of KB
# C0 controls but tab, line feed and carriage return; DEL; and UTF-16 surrogates, which
# JSON's \ud800 escapes can smuggle into a string but no encoding can write.
NOT_TEXT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ud800-\udfff]")

BROKEN = gettext_lazy(
    "Some of what was sent is not text (a NUL, a control character or a broken character), "
    "so nothing was recorded. Type it again."
)
TOO_LARGE = gettext_lazy(
    "That is too much for one form (2.5 MB at most; a match document may be 512 KB), "
    "so nothing was recorded."
)
UNREADABLE = gettext_lazy(
    "That form could not be read (forms are sent as UTF-8), so nothing was recorded."
)


def problem_in(texts: Iterable[str]) -> bool:
    return any(NOT_TEXT.search(text) for text in texts)


class CheckedText:
    """Middleware: refuse a request whose fields are not text, before anything reads them."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            # The path needs no check: a URL pattern takes only what it names, and a
            # token or key in it is compared, never stored.
            fields = _words(request.GET)
            if request.method == "POST":
                fields += _words(request.POST)
                fields += [upload.name or "" for upload in request.FILES.values()]
        except RequestDataTooBig:
            _drain(request)
            return refusal(request, TOO_LARGE, 413)
        except (BadRequest, TooManyFieldsSent, MultiPartParserError, UnicodeDecodeError):
            return refusal(request, UNREADABLE, 400)
        if problem_in(fields):
            return refusal(request, BROKEN, 400)
        return self.get_response(request)


def _drain(request: HttpRequest, most: int = 32 * 1024 * 1024) -> None:
    """Read what is left of a body too large to parse: a server that answers before the
    client has sent it all closes on unread data, and the phone never sees the answer."""
    left = most
    while left > 0 and (chunk := request.read(min(left, 1 << 16))):
        left -= len(chunk)


def _words(data) -> list[str]:
    return [text for key, values in data.lists() for text in (key, *values)]


def refusal(request: HttpRequest, message: object, status: int) -> HttpResponse:
    """The refusal in place: a tap's answer swaps nothing (the table stays as it was) and
    asks the page to show the message in its connection notice; a page request gets a page
    that says it."""
    message = str(message)  # in the phone's language
    if request.headers.get("HX-Request") == "true":
        response = HttpResponse(status=400)  # htmx handles a 400 (base.html's responseHandling)
        response["HX-Reswap"] = "none"
        response["HX-Trigger"] = json.dumps({"boneyard:refused": {"message": message}})
        return response
    return render(request, "scoring/refused.html", {"message": message}, status=status)


def read_document(raw: bytes | str) -> Any:
    """A JSON match document from what was uploaded, pasted or read from a file; raises
    InvalidAction (too large, not JSON, not text) before the referee reads a word of it."""
    size = len(raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw)
    if size > MAX_DOCUMENT:
        raise InvalidAction(gettext("That is too large for a match document (512 KB at most)."))
    try:
        document = json.loads(raw)
    except (ValueError, RecursionError):
        raise InvalidAction(gettext("That is not a JSON match document.")) from None
    where = _broken_text(document, gettext("the document"))
    if where is not None:
        raise InvalidAction(
            gettext(
                "{where} holds something that is not text (a NUL, a control character or a "
                "broken character); correct it and try again."
            ).format(where=where)
        )
    return document


def _broken_text(value: Any, where: str) -> str | None:
    """Where in a parsed document a string is not text, or None. Iterative: a hostile
    document may nest thousands deep."""
    stack = [(value, where)]
    while stack:
        item, at = stack.pop()
        if isinstance(item, str):
            if NOT_TEXT.search(item):
                return at
        elif isinstance(item, dict):
            for key, inner in item.items():
                if NOT_TEXT.search(key):
                    return gettext("A field name in {where}").format(where=at)
                stack.append((inner, f"{at} → {key[:20]}"))
        elif isinstance(item, list):
            stack.extend((inner, f"{at} → {n}") for n, inner in enumerate(item))
    return None
