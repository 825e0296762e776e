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


# --- make serve (issue 28, defect 16) -----------------------------------------------------


def serve(tmp_path: Path, **env: str) -> dict[str, str]:
    """The settings ``make serve`` chooses (its dry run), in a clean environment."""
    keep = {"PATH", "HOME", "LANG"}
    environment = {k: v for k, v in os.environ.items() if k in keep}
    environment |= {"BIN": str(Path(sys.executable).parent), "BONEYARD_SERVE_DRY_RUN": "1",
                    "BONEYARD_SECRET_FILE": str(tmp_path / "secret")} | env  # fmt: skip
    result = subprocess.run(
        [ROOT / "scripts" / "serve.sh"], env=environment, capture_output=True, text=True,
        timeout=60, check=True,
    )  # fmt: skip
    return dict(line.split("=", 1) for line in result.stdout.splitlines() if "=" in line)


def test_make_serve_runs_with_debug_off_and_a_secret_of_its_own_kept(tmp_path):
    chosen = serve(tmp_path)
    assert chosen["DEBUG"] == "0"
    secret = tmp_path / "secret"
    assert secret.stat().st_mode & 0o777 == 0o600 and len(secret.read_text().strip()) >= 50
    assert serve(tmp_path)["SECRET_KEY_SHA256"] == chosen["SECRET_KEY_SHA256"]  # kept
    assert "SECRET_KEY_SHA256" in serve(tmp_path, SECRET_KEY="mine-" + "x" * 50)


def test_make_serve_lets_a_phone_on_the_home_network_in_over_plain_http(tmp_path):
    chosen = serve(tmp_path)
    hosts = chosen["ALLOWED_HOSTS"].split(",")
    assert "localhost" in hosts and "*" not in hosts
    address = subprocess.run(["hostname", "-I"], capture_output=True, text=True).stdout.split()
    assert all(a in hosts or f"[{a}]" in hosts for a in address)
    off = {"BONEYARD_SSL_REDIRECT": "0", "BONEYARD_SECURE_COOKIES": "0",
           "BONEYARD_HSTS_SECONDS": "0"}  # fmt: skip
    assert off.items() <= chosen.items()
    # Behind a proxy that terminates TLS the settings' secure defaults stand.
    proxied = serve(tmp_path, BONEYARD_PROXY_HOPS="1", ALLOWED_HOSTS="dominoes.example")
    assert not off.items() & proxied.items() and proxied["ALLOWED_HOSTS"] == "dominoes.example"


def test_production_refuses_the_public_development_secret():
    known = "django-insecure-boneyard-dev-only-do-not-use-in-production"
    result = manage("check", **{**PRODUCTION, "SECRET_KEY": known})
    assert result.returncode != 0 and "public development secret" in result.stderr
