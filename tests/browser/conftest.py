"""Each browser test starts with fresh rate limits: the suite creates more matches from one
address within a minute than a phone at a table ever would."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring import counters

# The browser leg runs beside the database legs (scripts/test.sh), so a page can take longer
# to settle than on an idle machine: an assertion waits up to 15 s, not Playwright's 5 s.
# A wrong page still fails; a right one is only given the time to arrive.
expect.set_options(timeout=15_000)


@pytest.fixture(autouse=True)
def _fresh_rate_limits(transactional_db) -> None:
    counters.reset()


# What a browser test that fails leaves in its report, for a flake seen once in CI and never
# again at hand (issue 28: a Dump Truck table drawn with its score strip alone): every htmx
# request and swap of the test's page, with the table's version and whether a load form was
# on screen, and the table as it was. A listener a page and a short list: nothing measurable.
HTMX_LOG = """() => { if (window.__htmx) return; window.__htmx = []; const t0 = performance.now();
  for (const name of ["htmx:beforeRequest", "htmx:beforeSwap", "htmx:afterSwap",
                      "htmx:afterRequest", "htmx:sendError", "htmx:swapError",
                      "htmx:onLoadError", "htmx:targetError"]) {
    document.addEventListener(name, (event) => {
      const d = event.detail || {}, c = d.requestConfig || {}, t = document.getElementById("table");
      const done = d.xhr && d.xhr.readyState === 4;
      window.__htmx.push([Math.round(performance.now() - t0), name.slice(5), c.verb, c.path,
        d.elt && d.elt.id, done ? d.xhr.status : null,
        done ? d.xhr.getResponseHeader("X-Table-Version") : null, t && t.dataset.version,
        !!document.getElementById("load-form"), d.shouldSwap, d.retargeted]);
      if (window.__htmx.length > 60) window.__htmx.shift();
    }, true);
  } }"""


@pytest.fixture(autouse=True)
def _htmx_log(request: pytest.FixtureRequest) -> None:
    if "page" in request.fixturenames:
        page = request.getfixturevalue("page")
        if not getattr(page, "htmx_logged", False):  # once a page: tests share one
            page.add_init_script("(" + HTMX_LOG + ")()")
            page.htmx_logged = True


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    outcome = yield
    report = outcome.get_result()
    page = getattr(item, "funcargs", {}).get("page")
    if report.when != "call" or not report.failed or page is None:
        return
    try:
        log = page.evaluate("() => window.__htmx || []")
        table = page.evaluate(
            "() => { const t = document.getElementById('table'); return t ? t.outerHTML : ''; }"
        )
    except Exception as error:  # the page is gone: say so rather than hide the failure
        report.sections.append(("page at failure", f"not read: {error!r}"))
        return
    lines = [
        f"{page.url}",
        "ms, event, verb, path, elt, status, answer's version, table's "
        "version, load form, shouldSwap, retargeted:",
    ] + [str(entry) for entry in log]
    report.sections.append(("htmx at failure", "\n".join(lines)))
    report.sections.append(("#table at failure", table[:4000]))
