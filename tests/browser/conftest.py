"""Each browser test starts with fresh rate limits: the suite creates more matches from one
address within a minute than a phone at a table ever would."""

from __future__ import annotations

import pytest

from scoring import counters


@pytest.fixture(autouse=True)
def _fresh_rate_limits(transactional_db) -> None:
    counters.reset()
