"""Counters that every server process shares, counted atomically: the rate limits.

A read followed by a write lets concurrent requests all read the same count (60 joins at
once all passed a limit of 30). Both counters here count in one atomic step: Redis's INCR
when ``REDIS_URL`` is set, otherwise one SQL upsert that the database serialises. A window
starts with its first request and lasts ``seconds``.
"""

from __future__ import annotations

import logging
import threading
import time

from django.conf import settings
from django.db import connection

from scoring.models import RateCount

log = logging.getLogger(__name__)


def count(key: str, seconds: int) -> int:
    """One more request under ``key``; the number counted in its window so far."""
    if settings.REDIS_URL:
        try:
            return _count_in_redis(key, seconds)
        except Exception as error:  # redis-py's errors, and its ValueError on a dead socket
            # A rate limit is a guard, not the table: Redis down or slow must never turn a
            # tap into a 500. The database counts meanwhile (as atomically).
            log.warning("Redis did not count (%s); the database counts instead", type(error))
    return _count_in_database(key, seconds)


def reset() -> None:
    """Forget every count (tests, and a table that locked itself out in a demo)."""
    if settings.REDIS_URL:
        client = _redis()
        for key in client.scan_iter(match=f"{PREFIX}*", count=1000):
            client.delete(key)
    RateCount.objects.all().delete()


PREFIX = "boneyard:rate:"


_CLIENT: list = []  # the process's one Redis client, made on first use
_CLIENT_LOCK = threading.Lock()


def _redis():
    # Under a lock: two threads each making a client would leave one of them to be
    # collected, and collecting a client closes its connections, one still in use by
    # the thread that made it ("I/O operation on closed file").
    with _CLIENT_LOCK:
        if not _CLIENT:
            import redis  # only a server configured with REDIS_URL needs the package

            _CLIENT.append(redis.Redis.from_url(settings.REDIS_URL, socket_timeout=2))
        return _CLIENT[0]


def _count_in_redis(key: str, seconds: int) -> int:
    pipe = _redis().pipeline(transaction=True)
    pipe.incr(PREFIX + key)
    pipe.expire(PREFIX + key, seconds, nx=True)  # the first request starts the window
    counted, _ = pipe.execute()
    return int(counted)


def _count_in_database(key: str, seconds: int) -> int:
    now = time.time()
    quote = connection.ops.quote_name
    table, k, n, until = (
        quote(name) for name in (RateCount._meta.db_table, "key", "count", "until")
    )
    # One statement: PostgreSQL and SQLite (3.35+) both take INSERT ... ON CONFLICT with
    # RETURNING, and apply it to the row under a lock, so no two requests read one count.
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} ({k}, {n}, {until}) VALUES (%s, 1, %s) "  # noqa: S608
            f"ON CONFLICT ({k}) DO UPDATE SET "
            f"{n} = CASE WHEN {table}.{until} < %s THEN 1 ELSE {table}.{n} + 1 END, "
            f"{until} = CASE WHEN {table}.{until} < %s THEN excluded.{until} "
            f"ELSE {table}.{until} END "
            f"RETURNING {n}",
            [key, now + seconds, now, now],
        )
        counted = cursor.fetchone()[0]
        if counted == 1:  # a new window: a good moment to clear the windows long closed
            cursor.execute(f"DELETE FROM {table} WHERE {until} < %s", [now - 3600])  # noqa: S608
    return counted
