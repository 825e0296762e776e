"""ASGI entry point: what `make run` and `make serve` run, under gunicorn's own asyncio worker
(gunicorn config.asgi -k asgi). A live screen's stream is served by scoring.live, holding no
thread; every other request goes to Django's WSGI handler, run in a pool of threads per process
as gunicorn's threaded worker ran it (docs/live.md)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

django_application = get_wsgi_application()

from a2wsgi import WSGIMiddleware  # noqa: E402
from django.conf import settings  # noqa: E402

from scoring.live import Router  # noqa: E402

pages = WSGIMiddleware(django_application, workers=settings.BONEYARD_THREADS)
application = Router(pages, django_application, pages.executor)
