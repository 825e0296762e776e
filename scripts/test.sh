#!/usr/bin/env bash
# The `make test` pipeline. Expects .venv to be installed with the [test] extra
# (the Makefile does that). Runs every leg, then prints a one-line summary and
# exits non-zero if any leg failed.
#
#   scripts/test.sh         make test: static checks, then the SQLite, PostgreSQL and
#                           browser legs, Hypothesis at its quick profile
#   scripts/test.sh --deep  make test-deep: only the Hypothesis tests, at the deep
#                           profile, and the load tests at full size, on SQLite and on
#                           PostgreSQL
#
#   CI      set (non-empty, not 0/false) -> missing Chromium/PostgreSQL and
#           "no tests collected" (pytest exit 5) are failures, not warnings.
#   PG_URL  PostgreSQL URL for the postgres leg
#           (default postgres://postgres@127.0.0.1:5432/boneyard)
#   BONEYARD_TEST_REDIS_URL, BONEYARD_TEST_REDIS_URL_PG  the Redis databases the SQLite and
#           PostgreSQL legs use (default redis://127.0.0.1:6379/15 and /14)
#   BONEYARD_TEST_WORKERS  pytest-xdist workers per leg (default 2, one a core of the
#           2-core machine the budget is for; 0 runs each leg in one process)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PATH="$PWD/.venv/bin:$PATH"
# Bytecode is written (and ignored by git): pytest keeps each test module's rewritten
# asserts beside it, so only the first of the six workers of the three legs spends the
# 12-17 s of CPU that rewriting the suite's 4,000 asserts costs; each other reuses them.
unset PYTHONDONTWRITEBYTECODE

CHROMIUM=/usr/bin/chromium
PG_URL=${PG_URL:-postgres://postgres@127.0.0.1:5432/boneyard}
# Each leg picks its own database; an exported DATABASE_URL must not leak in.
unset DATABASE_URL

deep=false
case "${1:-}" in
    "") ;;
    --deep) deep=true ;;
    *)
        echo "usage: scripts/test.sh [--deep]" >&2
        exit 2
        ;;
esac
if $deep; then
    export HYPOTHESIS_PROFILE=deep
    only=(-m "(hypothesis or deep) and not browser")
else
    export HYPOTHESIS_PROFILE=${HYPOTHESIS_PROFILE:-quick}
    only=(-m "not browser")
fi

# Each leg's test files shared out between workers, a file at a time: a file's tests run
# in one process, in order, so what a file holds for itself (a module fixture, the attack
# tests' Redis database) is never used by two workers at once.
workers=${BONEYARD_TEST_WORKERS:-2}
parallel=()
if ((workers > 0)); then
    parallel=(-n "$workers" --dist loadfile)
fi

ci=false
case "${CI:-}" in "" | 0 | false | False | FALSE | no | off) ;; *) ci=true ;; esac

summary=()
failed=0

bold() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }
warn() { printf '\n\033[1;33m!!! %s\033[0m\n' "$*" >&2; }
ok() { summary+=("$1 ok"); }
fail() {
    summary+=("$1 FAILED")
    failed=1
}
skipped() {
    warn "SKIPPED $1: $2"
    summary+=("$1 SKIPPED")
}

# Missing prerequisite: fatal in CI, a loud skip elsewhere.
missing() {
    if $ci; then
        warn "$1: $2 (CI is set, so this is a failure)"
        fail "$1"
    else
        skipped "$1" "$2"
    fi
}

# step NAME CMD... -- run a command, record ok/FAILED, never abort the script.
step() {
    local name=$1
    shift
    bold "$name: $*"
    if "$@"; then ok "$name"; else fail "$name"; fi
}

# pytest_step NAME ARGS... -- like step, but exit 5 (nothing collected) fails in CI.
# The leg's time in its summary: wall, and CPU (user + sys, of every process it ran), which
# says more than the wall on a machine other work shares. Timed in a subshell of its own:
# bash's `time` counts every child the shell reaps meanwhile, and the legs beside this one
# end while it runs (the SQLite leg was said to take 1,058 s of CPU, 420 s its own).
pytest_step() {
    local name=$1 rc=0 spent wall user sys TIMEFORMAT='%0R %0U %0S'
    shift
    bold "$name: pytest $*"
    spent=$(mktemp)
    (time pytest "$@" 2>&3) 3>&2 2>"$spent" || rc=$?
    read -r wall user sys <"$spent"
    rm -f "$spent"
    name="$name (${wall} s, CPU $((user + sys)) s)"
    case $rc in
        0) ok "$name" ;;
        5)
            if $ci; then
                warn "$name: pytest collected no tests (exit 5)"
                fail "$name"
            else
                skipped "$name" "pytest collected no tests (exit 5)"
            fi
            ;;
        *) fail "$name" ;;
    esac
}

# (a) Chromium for the browser tests.
if [[ ! -x $CHROMIUM ]] && [[ $EUID -eq 0 ]] && command -v apt-get >/dev/null; then
    bold "installing chromium with apt-get"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium ||
        warn "apt-get install chromium failed"
fi

# (a') GNU gettext's msgfmt, to compile the translation catalogues the tests read.
if ! command -v msgfmt >/dev/null && [[ $EUID -eq 0 ]] && command -v apt-get >/dev/null; then
    bold "installing gettext with apt-get"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gettext ||
        warn "apt-get install gettext failed"
fi

# (b) PostgreSQL reachable? Try to start a local cluster if it is not.
pg_up() { command -v pg_isready >/dev/null && pg_isready -q -h 127.0.0.1 -t 3; }
if ! pg_up && command -v pg_ctlcluster >/dev/null && [[ -d /etc/postgresql ]]; then
    for version in $(ls /etc/postgresql); do
        bold "starting PostgreSQL $version/main"
        pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
    done
    for _ in 1 2 3 4 5; do pg_up && break || sleep 1; done
fi

# (c) The catalogues compiled from their sources (never committed as binaries): every
# leg below reads them, so a catalogue that does not compile stops here.
if ! command -v msgfmt >/dev/null; then
    warn "msgfmt not found: install GNU gettext (apt-get install gettext)"
    printf '\n\033[1;31mFAILED\033[0m\n'
    exit 1
fi
bold "catalogues: manage.py compilemessages"
python manage.py compilemessages --ignore=.venv --ignore=staticfiles -v 0

# The suite's bytecode, asserts rewritten, written once while the static checks run: the six
# workers of the legs below then each collect in 4.5 s of CPU rather than 17 (a fresh clone
# has none, and six workers starting at once would each rewrite it all).
bold "bytecode: pytest --collect-only -q (beside the static checks)"
pytest --collect-only -q >/dev/null 2>&1 &
warming=$!

# (c) + (d) static checks (make test-deep leaves them to make test).
if ! $deep; then
    step "ruff-check" ruff check .
    step "ruff-format" ruff format --check .
    step "import-contracts" lint-imports
fi

wait "$warming" || true  # a collection error is the legs' to report

# (e)–(g) The three legs run at once, each on its workers. Measured from fresh clones on the
# quiet 2-core machine: all at once 11 min 26 s; the database legs one after the other with the
# browser leg beside them 12 min 44 s (Chromium's rendering slowed the SQLite leg from 204 s
# alone to 511 s); all in turn longer still. The machine is oversubscribed either way (the
# SQLite leg: 369 s of CPU alone, 942 s beside the others), so the suite's own size decides the
# rest. A leg beside the SQLite leg holds its output back and prints it whole when it ends.
held=$(mktemp -d)
pids=()
# The legs running at once each count in their own Redis database (the attack tests' rate
# limits, the live table's announcements: its channel names the database).
REDIS_SQLITE=${BONEYARD_TEST_REDIS_URL:-redis://127.0.0.1:6379/15}
REDIS_PG=${BONEYARD_TEST_REDIS_URL_PG:-redis://127.0.0.1:6379/14}

# beside NAME PYTEST-ARGS... -- a pytest_step in the background, its output held back.
beside() {
    local name=$1
    shift
    bold "$name: pytest $* (beside the SQLite leg; its output follows it)"
    (
        trap '' INT
        summary=()
        pytest_step "$name" "$@" >"$held/$name.out" 2>&1
        printf '%s\n' "${summary[@]}" >"$held/$name.summary"
    ) &
    pids+=("$!:$name")
}

# (e) The browser tests against live_server with the system Chromium, each worker its own
# live server (on a SQLite file in WAL mode) and its own Chromium.
if $deep; then
    :
elif [[ -x $CHROMIUM ]]; then
    DJANGO_ALLOW_ASYNC_UNSAFE=true beside "browser" tests/browser -m browser "${parallel[@]}"
else
    missing "browser" "$CHROMIUM not found"
fi

# (f) The scoring tests again on PostgreSQL.
if pg_up; then
    DATABASE_URL=$PG_URL BONEYARD_TEST_REDIS_URL=$REDIS_PG \
        beside "postgres" tests/scoring "${only[@]}" "${parallel[@]}"
else
    missing "postgres" "PostgreSQL not reachable at 127.0.0.1:5432"
fi

# (g) Whole suite (tests + referee doctests) on SQLite.
BONEYARD_TEST_REDIS_URL=$REDIS_SQLITE pytest_step "sqlite" "${only[@]}" "${parallel[@]}"

for entry in "${pids[@]}"; do
    name=${entry#*:}
    wait "${entry%%:*}" || true
    cat "$held/$name.out" 2>/dev/null || true
    if [[ -s $held/$name.summary ]]; then
        while IFS= read -r line; do
            summary+=("$line")
            [[ $line == *FAILED ]] && failed=1
        done <"$held/$name.summary"
    else
        fail "$name (no result)"
    fi
done
rm -rf "$held"

printf '\n\033[1mSUMMARY:\033[0m %s; %s s\n' "${summary[*]}" "$SECONDS"
if ((failed)); then
    printf '\033[1;31mFAILED\033[0m\n'
    exit 1
fi
printf '\033[1;32mPASSED\033[0m\n'
