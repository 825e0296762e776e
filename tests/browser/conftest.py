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
