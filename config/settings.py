"""Django settings for boneyard.

Everything environment-specific is read from environment variables, and a bad
value fails loudly with ImproperlyConfigured rather than silently falling back.

Environment:
    DEBUG                     1/0/true/false/yes/no/on/off (default: true, for dev)
    SECRET_KEY                required when DEBUG is off
    ALLOWED_HOSTS             comma list (default: "*" when DEBUG, else "localhost,127.0.0.1")
    CSRF_TRUSTED_ORIGINS      comma list of scheme://host[:port] (default: empty)
    DATABASE_URL              dj-database-url URL (default: sqlite at BASE_DIR/db.sqlite3)
    BONEYARD_MANIFEST_STATIC  serve hashed static files from STATIC_ROOT (default: off)
    BONEYARD_SECURE_COOKIES   mark session/CSRF cookies Secure (default: on when DEBUG is off)
    BONEYARD_SSL_REDIRECT     redirect plain HTTP to HTTPS (default: on when DEBUG is off)
    BONEYARD_HSTS_SECONDS     Strict-Transport-Security max-age (default: 1 year when DEBUG
                              is off, 0 otherwise)
    BONEYARD_PROXY_HOPS       reverse proxies in front that append X-Forwarded-For (default 0);
                              with 1 or more, X-Forwarded-Proto=https also marks a request secure.
                              Set it only behind that many proxies: without them a client
                              writes X-Forwarded-For itself and picks its own rate-limit address
    REDIS_URL                 Redis for the rate limits' counters and the live tables'
                              announcements (default: the database)
    BONEYARD_THREADS          threads per server process for pages (default 4)
    BONEYARD_LIVE_STREAMS     live screens one server process holds at most (default 400)
    BONEYARD_LIVE_SECONDS     a live stream's lifetime before the phone reconnects (default 3600)
    BONEYARD_PUBLIC_RECORDS   the leaderboard and player pages show every player to every
                              phone (default: off: a phone sees the players of the matches
                              it holds a link to)
"""

import os
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

BASE_DIR = Path(__file__).resolve().parent.parent

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(
        f"{name}={raw!r} is not a boolean; use one of {sorted(_TRUE | _FALSE)}"
    )


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    if not raw.isdecimal():
        raise ImproperlyConfigured(f"{name}={raw!r} is not a whole number")
    return int(raw)


def env_list(name: str, default: str) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        raw = default
    return [item.strip() for item in raw.split(",") if item.strip()]


DEBUG = env_bool("DEBUG", True)

_DEV_SECRET = "django-insecure-boneyard-dev-only-do-not-use-in-production"
SECRET_KEY = os.environ.get("SECRET_KEY", "").strip()
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = _DEV_SECRET
elif SECRET_KEY == _DEV_SECRET and not DEBUG:
    # Published with the code: anyone could sign a session with it (issue 28).
    raise ImproperlyConfigured("SECRET_KEY is the public development secret; make your own")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "*" if DEBUG else "localhost,127.0.0.1")
if not ALLOWED_HOSTS:
    raise ImproperlyConfigured("ALLOWED_HOSTS is set but empty")

CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "scoring",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The phone's language: its remembered choice (a cookie), else Accept-Language.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    # Last, so its refusals get every header above; it still runs before any view and
    # before the CSRF check reads the form (that happens in process_view).
    "scoring.edge.CheckedText",
    "scoring.access.TileFaces",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                # Puts the per-request nonce in templates as {{ csp_nonce }};
                # {% csp_nonce_attr %} renders nonce="..." (or nothing).
                "django.template.context_processors.csp",
            ],
        },
    },
]

# --- Database ---------------------------------------------------------------

_db_url = os.environ.get("DATABASE_URL", "").strip() or f"sqlite:///{BASE_DIR / 'db.sqlite3'}"
try:
    _db = dj_database_url.parse(_db_url)
except Exception as exc:  # dj-database-url raises ValueError/KeyError variants
    raise ImproperlyConfigured(f"DATABASE_URL is invalid: {exc}") from exc

if not _db or not _db.get("ENGINE"):
    raise ImproperlyConfigured("DATABASE_URL did not resolve to a database engine")

if _db["ENGINE"] == "django.db.backends.sqlite3":
    _db.setdefault("OPTIONS", {}).update(
        {
            # BEGIN IMMEDIATE avoids "database is locked" on read->write upgrades.
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
elif _db["ENGINE"] == "django.db.backends.postgresql":
    _db["CONN_MAX_AGE"] = 60
    _db["CONN_HEALTH_CHECKS"] = True

DATABASES = {"default": _db}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# A phone's session holds only the share links it joined and the seat it took: a signed
# cookie keeps it off the database, so the table's 2-second poll costs one query.
SESSION_ENGINE = "django.contrib.sessions.backends.signed_cookies"
SESSION_COOKIE_AGE = 60 * 60 * 24 * 90

# Rate limits count in Redis when REDIS_URL is set (redis://host:6379/0), else in the
# database; either way atomically, across every process and server (scoring.counters).
REDIS_URL = os.environ.get("REDIS_URL", "").strip()
if REDIS_URL and not REDIS_URL.startswith(("redis://", "rediss://", "unix://")):
    raise ImproperlyConfigured(f"REDIS_URL={REDIS_URL!r} is not a redis:// URL")
# (requests, seconds) per client; "desk" counts every request to a kept position.
BONEYARD_RATE_LIMITS = {"join": (30, 60), "create": (10, 60), "desk": (120, 60)}
BONEYARD_PROXY_HOPS = env_int("BONEYARD_PROXY_HOPS", 0)
# Records are private by default: a phone sees the leaderboard and player pages of the
# players of matches it holds a link to, as the new-match form suggests only their names.
BONEYARD_PUBLIC_RECORDS = env_bool("BONEYARD_PUBLIC_RECORDS", False)

# The live table (scoring.live, docs/live.md): pages run in this many threads per server
# process; a process holds at most this many streams (more are refused: those phones poll),
# and each stream ends after this many seconds (a tenth more at most, drawn per stream),
# when the phone reconnects.
BONEYARD_THREADS = max(1, env_int("BONEYARD_THREADS", 4))
BONEYARD_LIVE_STREAMS = env_int("BONEYARD_LIVE_STREAMS", 400)
BONEYARD_LIVE_SECONDS = max(1, env_int("BONEYARD_LIVE_SECONDS", 3600))

# --- Auth / i18n ------------------------------------------------------------

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
# A language is a catalogue in locale/<code>/LC_MESSAGES/django.po (`make messages`
# writes it, `make run` and `make test` compile it) and a line here.
LANGUAGES = [("en", "English"), ("es", "Español")]
LOCALE_PATHS = [BASE_DIR / "locale"]
# The switch on every page sets this cookie: a phone keeps its language for a year.
LANGUAGE_COOKIE_AGE = 365 * 24 * 60 * 60
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# --- Static files -----------------------------------------------------------
#
# Two modes, chosen by BONEYARD_MANIFEST_STATIC (default off):
#   off (dev, tests, `make run`): plain StaticFilesStorage and WhiteNoise serves
#       straight from the finders (app static/ dirs + STATICFILES_DIRS), so no
#       collectstatic is needed -- this is what pytest and live_server use,
#       whatever DEBUG the test runner forces.
#   on  (`make serve`, production): hashed + compressed files from STATIC_ROOT;
#       requires `manage.py collectstatic` first (make serve does it).

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"

MANIFEST_STATIC = env_bool("BONEYARD_MANIFEST_STATIC", False)

STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if MANIFEST_STATIC
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = not MANIFEST_STATIC
WHITENOISE_AUTOREFRESH = not MANIFEST_STATIC
# WhiteNoise's own type table has no entry for the web app manifest (it would go out as
# application/octet-stream); runserver's static handler asks Python, which knows it.
WHITENOISE_MIMETYPES = {".webmanifest": "application/manifest+json"}

# --- Security ---------------------------------------------------------------

SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# Secure cookies are only sent over HTTPS; a plain-HTTP LAN deployment with
# DEBUG off must set BONEYARD_SECURE_COOKIES=0 or logins/forms will break.
_SECURE_COOKIES = env_bool("BONEYARD_SECURE_COOKIES", not DEBUG)
SESSION_COOKIE_SECURE = _SECURE_COOKIES
CSRF_COOKIE_SECURE = _SECURE_COOKIES
LANGUAGE_COOKIE_SECURE = _SECURE_COOKIES
SECURE_SSL_REDIRECT = env_bool("BONEYARD_SSL_REDIRECT", not DEBUG)
SECURE_HSTS_SECONDS = env_int("BONEYARD_HSTS_SECONDS", 0 if DEBUG else 60 * 60 * 24 * 365)
SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE_HSTS_SECONDS > 0
# Preloading is a promise to browsers that outlives this app; a host opts in by hand.
SILENCED_SYSTEM_CHECKS = ["security.W021"]
if BONEYARD_PROXY_HOPS:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# Django 6.1 built-in CSP (django.middleware.csp.ContentSecurityPolicyMiddleware).
# CSP.NONCE is replaced per response by 'nonce-<value>' -- but only when a
# template/view actually used the nonce; otherwise it is dropped.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "frame-ancestors": [CSP.NONE],
    "form-action": [CSP.SELF],
    "base-uri": [CSP.NONE],
    "object-src": [CSP.NONE],
}

# --- Logging ----------------------------------------------------------------

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "{asctime} {levelname} {name}: {message}", "style": "{"},
    },
    "filters": {"hide_tokens": {"()": "config.logs.HideTokens"}},
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "plain",
            "filters": ["hide_tokens"],
        },
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        "django": {
            "handlers": ["console"],
            "level": os.environ.get("LOG_LEVEL", "INFO"),
            "propagate": False,
        },
        # runserver's request lines: through the same filter, so no token is printed.
        "django.server": {
            "handlers": ["console"],
            "level": os.environ.get("LOG_LEVEL", "INFO"),
            "propagate": False,
        },
    },
}
# A load balancer asks /healthz over plain HTTP.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
