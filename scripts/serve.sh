#!/usr/bin/env bash
# `make serve`: the production command, safe by default (issue 28). Whatever is not set in
# the environment is chosen here:
#
#   DEBUG          0.
#   SECRET_KEY     read from BONEYARD_SECRET_FILE (default .secret_key beside manage.py, never
#                  in git), which is made once, readable by its owner only (mode 600), and
#                  kept: sessions and links' cookies outlive a restart. Never the public
#                  development secret: the server refuses to start with it.
#   ALLOWED_HOSTS  this machine's names and network addresses (hostname, hostname.local,
#                  every address of `hostname -I`), localhost and 127.0.0.1: what a phone on
#                  the same home network types or scans.
#   HTTPS          gunicorn here speaks plain HTTP. Behind a reverse proxy that terminates TLS
#                  (BONEYARD_PROXY_HOPS=1 or more, README: Deploying) the settings' secure
#                  defaults stand: HTTPS redirect, secure cookies, HSTS. With no proxy there
#                  is no HTTPS to redirect to, so unless told otherwise they are off
#                  (BONEYARD_SSL_REDIRECT=0 BONEYARD_SECURE_COOKIES=0 BONEYARD_HSTS_SECONDS=0):
#                  a phone on the home network can play over plain HTTP.
#
# BONEYARD_SERVE_DRY_RUN=1 prints the settings chosen and stops (the tests use it).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
BIN=${BIN:-.venv/bin}
PORT=${PORT:-8000}

export DEBUG=${DEBUG:-0}

if [[ -z ${SECRET_KEY:-} ]]; then
    file=${BONEYARD_SECRET_FILE:-.secret_key}
    if [[ ! -s $file ]]; then
        (umask 077 && "$BIN/python" -c 'import secrets; print(secrets.token_urlsafe(50))' >"$file")
        echo "Made a secret key for this server in $file (keep it: sessions depend on it)."
    fi
    if [[ -n $(find "$file" -perm /077) ]]; then
        chmod 600 "$file" # readable by its owner only, whoever made it
    fi
    SECRET_KEY=$(<"$file")
    export SECRET_KEY
fi

if [[ -z ${ALLOWED_HOSTS+set} ]]; then
    name=$(hostname 2>/dev/null || true)
    addresses=$(hostname -I 2>/dev/null || true)
    hosts="localhost,127.0.0.1,[::1]"
    [[ -n $name ]] && hosts+=",$name,$name.local"
    for address in $addresses; do
        [[ $address == *:* ]] && address="[$address]" # an IPv6 address, as a Host header has it
        hosts+=",$address"
    done
    export ALLOWED_HOSTS=$hosts
fi

if [[ ${BONEYARD_PROXY_HOPS:-0} == 0 ]]; then
    export BONEYARD_SSL_REDIRECT=${BONEYARD_SSL_REDIRECT:-0}
    export BONEYARD_SECURE_COOKIES=${BONEYARD_SECURE_COOKIES:-0}
    export BONEYARD_HSTS_SECONDS=${BONEYARD_HSTS_SECONDS:-0}
fi

if [[ -n ${BONEYARD_SERVE_DRY_RUN:-} ]]; then
    for name in DEBUG ALLOWED_HOSTS BONEYARD_SSL_REDIRECT BONEYARD_SECURE_COOKIES \
        BONEYARD_HSTS_SECONDS; do
        echo "$name=${!name:-}"
    done
    echo "SECRET_KEY_SHA256=$(printf %s "$SECRET_KEY" | sha256sum | cut -c1-16)"
    exit 0
fi

"$BIN/python" manage.py check --fail-level ERROR >/dev/null # a bad setting stops here, said
"$BIN/python" manage.py migrate --noinput
BONEYARD_MANIFEST_STATIC=1 "$BIN/python" manage.py collectstatic --noinput
ip=$(hostname -I 2>/dev/null | awk '{print $1}')
echo
echo "Open http://${ip:-127.0.0.1}:$PORT/ on a phone on the same network"
echo
# gunicorn's own asyncio worker (config.asgi): the pages through Django's WSGI handler in
# BONEYARD_THREADS threads, and each open table's live stream (docs/live.md).
BONEYARD_MANIFEST_STATIC=1 exec "$BIN/gunicorn" config.asgi -k asgi -b "0.0.0.0:$PORT" -w 2 \
    --no-control-socket
