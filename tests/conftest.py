"""Shared pytest fixtures: CI detection, Hypothesis profiles, Playwright/Chromium."""

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

# sync_playwright runs an asyncio loop in the main thread; Django would then
# refuse ORM calls from test code ("SynchronousOnlyOperation") next to live_server.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

from hypothesis import Phase  # noqa: E402
from hypothesis import settings as hypothesis_settings  # noqa: E402
from hypothesis.database import DirectoryBasedExampleDatabase  # noqa: E402

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


# Screenshots are for people to look at: BONEYARD_SHOTS=1 keeps each shot() as a full-page
# PNG and draws the pages at a phone's two pixels a CSS pixel. make test takes none and draws
# at one: a full-page PNG at 2x is 1-2 s of Chromium's CPU (about a hundred of them), and
# Chromium drew four times the pixels for every frame, beside the database legs' workers.
# Layout, tap targets and scroll positions are in CSS pixels either way.
SHOTS = os.environ.get("BONEYARD_SHOTS", "").strip() not in ("", "0")
PIXEL_RATIO = 2 if SHOTS else 1


def in_ci() -> bool:
    value = os.environ.get("CI", "").strip().lower()
    return value not in ("", "0", "false", "no", "off")


# Two depths: `make test` runs the quick one (every property at 10 examples, the floor a test
# file sets where it needs more), `make test-deep` the deep one (200). Both keep
# Hypothesis' example database in the repo's .hypothesis/ (ignored by git): a failure found
# once is replayed first by every later run, quick or deep, until it passes. Files that size
# a test's examples do it from settings.default.max_examples, so both depths reach them; the
# load tests (marked `deep`) size their taps by DEEP.
EXAMPLES = DirectoryBasedExampleDatabase(
    Path(__file__).resolve().parents[1] / ".hypothesis" / "examples"
)
DEEP = os.environ.get("HYPOTHESIS_PROFILE") == "deep"
#: A case only make test-deep runs (mark it `deep` too, so its selection finds it).
DEEP_ONLY = [pytest.mark.skipif(not DEEP, reason="make test-deep's size")]
hypothesis_settings.register_profile("quick", max_examples=10, deadline=None, database=EXAMPLES)
hypothesis_settings.register_profile("deep", max_examples=200, deadline=None, database=EXAMPLES)
# HYPOTHESIS_PROFILE=debug: fail fast while developing, without minutes of shrinking.
hypothesis_settings.register_profile(
    "debug",
    max_examples=25,
    deadline=None,
    database=EXAMPLES,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or "quick")


@pytest.fixture(scope="session", autouse=True)
def _database_matches_environment() -> None:
    """A postgres DATABASE_URL must really give a postgres backend (no silent SQLite)."""
    from django.conf import settings

    url = os.environ.get("DATABASE_URL", "")
    engine = settings.DATABASES["default"]["ENGINE"]
    if url.startswith(("postgres://", "postgresql://")) and "postgresql" not in engine:
        pytest.fail(f"DATABASE_URL is postgres but Django is using {engine}")


@pytest.fixture(scope="session")
def django_db_modify_db_settings(
    django_db_modify_db_settings_parallel_suffix: None,
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """On SQLite, a session that serves pages with live_server tests on a file, in WAL mode
    as the settings make every SQLite database, not on Django's default in-memory database.
    That one's shared cache locks whole tables between connections and answers a reader
    at once with "database table is locked", which no timeout retries; and a test holds a
    connection apart from the server's (Playwright runs an event loop in the test's thread,
    and Django keeps that thread's connections apart from those it lent the server). In WAL
    a reader reads the last committed table while a write goes on, and a writer waits its
    turn, as on a real server. The other sessions keep the in-memory database (a tenth
    less CPU). One file per session, and per xdist worker (each has its own temp folder)."""
    from django.conf import settings

    database = settings.DATABASES["default"]
    serves = any("live_server" in item.fixturenames for item in request.session.items)
    if database["ENGINE"] == "django.db.backends.sqlite3" and serves:
        folder = tmp_path_factory.mktemp("database")
        database.setdefault("TEST", {})["NAME"] = str(folder / "test.sqlite3")


def pytest_report_header(config: pytest.Config) -> str:
    engine = os.environ.get("DATABASE_URL", "sqlite (default)").split("://", 1)[0]
    return f"boneyard: CI={in_ci()} database={engine} chromium={CHROMIUM.exists()}"


# --- Browser ----------------------------------------------------------------
# Uses the system Chromium only; never runs `playwright install`, so
# PLAYWRIGHT_BROWSERS_PATH is irrelevant.


@pytest.fixture(scope="session")
def browser():
    if not CHROMIUM.exists():
        message = f"{CHROMIUM} not found (apt-get install chromium)"
        if in_ci():
            pytest.fail(message)
        pytest.skip(message)

    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(
            executable_path=str(CHROMIUM),
            args=CHROMIUM_ARGS,
            headless=True,
        )
        try:
            yield chromium
        finally:
            chromium.close()


PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": PIXEL_RATIO,
    "is_mobile": True,
    "has_touch": True,
}


@pytest.fixture(scope="session")
def _phone(browser) -> Iterator[dict]:
    """The phone a worker's tests share (see ``page``): its context and its page, made again
    after a test that failed or broke it."""
    held: dict = {}
    yield held
    if "context" in held:
        held["context"].close()


@pytest.fixture
def page(request: pytest.FixtureRequest, browser, _phone: dict):
    """A phone-sized page, as a phone that has just opened its browser: no cookies, no route,
    no listener, no colour scheme asked for, about:blank. Each worker's tests share one page
    and clear it between them: a new context's first page costs Chromium a second of CPU
    more than a navigation in one already open (its renderer started, the app's scripts and
    styles parsed cold): a tenth of the browser leg's CPU. Only its history and its HTTP
    cache carry over, which no test reaches (a test goes back only over its own pages)."""
    if "page" not in _phone or _phone["page"].is_closed():
        if "context" in _phone:
            _phone["context"].close()
        _phone["context"] = browser.new_context(**PHONE)
        _phone["page"] = _phone["context"].new_page()
    context, page = _phone["context"], _phone["page"]
    listeners: list[tuple[str, Callable]] = []

    def on(event: str, handler: Callable) -> None:
        listeners.append((event, handler))
        type(page).on(page, event, handler)

    page.on = on  # the test's listeners, to take off after it
    yield page
    del page.on
    try:
        for event, handler in listeners:
            page.remove_listener(event, handler)
        page.unroute_all(behavior="ignoreErrors")
        if page.url.startswith("http"):  # htmx keeps its history in the tab's storage
            page.evaluate("() => { sessionStorage.clear(); localStorage.clear(); }")
        # Off the app before the test's data is flushed: its polls would ask for a match that
        # no longer exists while the next test sets up.
        page.goto("about:blank")
        page.emulate_media(color_scheme="null")
        page.set_viewport_size(PHONE["viewport"])
        context.clear_cookies()
        for other in context.pages:
            if other._impl_obj is not page._impl_obj:
                other.close()
        fresh = getattr(request.node, "failed_call", False)
    except Exception:  # the page is broken: the next test gets a new phone
        fresh = True
    if fresh:
        context.close()
        _phone.clear()


@pytest.fixture(scope="session")
def _screens_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("screens")


@pytest.fixture
def shot(page, _screens_dir: Path) -> Iterator[Callable[[str], Path]]:
    """shot("name") saves a full-page PNG of `page` (with BONEYARD_SHOTS=1) and returns its
    path."""

    def take(name: str) -> Path:
        path = _screens_dir / f"{name}.png"
        if SHOTS:
            page.screenshot(path=str(path), full_page=True)
            print(f"screenshot: {path}")
        return path

    yield take


@pytest.fixture(autouse=True)
def _english_unless_asked() -> Iterator[None]:
    """A request in Spanish leaves Spanish active in its thread (LocaleMiddleware activates
    a language for each request and never takes it back): each test starts, and leaves, in
    the default language, as every request starts in its phone's own."""
    from django.utils import translation

    translation.activate("en")
    yield
    translation.activate("en")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    """A test that failed says so to its fixtures' teardown (the shared page is then made
    again, whatever state the failure left it in)."""
    outcome = yield
    report = outcome.get_result()
    if report.when == "call" and report.failed:
        item.failed_call = True  # type: ignore[attr-defined]
