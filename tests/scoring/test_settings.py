"""Settings read the environment: production is locked down, bad values fail loudly."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    # Not the test run's own settings: its database, nor the async escape hatch that the
    # browser tests need (check --deploy rightly refuses it).
    skip = {"DATABASE_URL", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    environment = {k: v for k, v in os.environ.items() if k not in skip} | env
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT, env=environment, capture_output=True, text=True, timeout=60,
    )  # fmt: skip


PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": secrets.token_urlsafe(50),
    "ALLOWED_HOSTS": "dominoes.example",
}


def test_check_deploy_is_clean_with_production_settings():
    result = manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_needs_a_secret_key():
    result = manage("check", **{**PRODUCTION, "SECRET_KEY": ""})
    assert result.returncode != 0 and "SECRET_KEY must be set" in result.stderr


def test_a_bad_boolean_fails_loudly():
    result = manage("check", DEBUG="maybe")
    assert result.returncode != 0 and "is not a boolean" in result.stderr


def test_a_bad_number_fails_loudly():
    result = manage("check", BONEYARD_PROXY_HOPS="two")
    assert result.returncode != 0 and "is not a whole number" in result.stderr
