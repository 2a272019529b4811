#!/usr/bin/env bash
# Debian's Chromium for the browser tests (`nox -s browser`), installed once.
#
# The browser comes from Debian's packages, never from a download of Playwright's own build:
# the test drives it with Playwright's Python package through `executable_path`. Idempotent:
# a machine that already has it skips the whole thing, so CI can call it on every run.
set -euo pipefail

CHROMIUM="${ATTEND_CHROMIUM:-/usr/bin/chromium}"

if [ -x "$CHROMIUM" ]; then
    echo "install-browser: $CHROMIUM is already here ($("$CHROMIUM" --version 2>/dev/null || echo 'version unknown'))"
    exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
    SUDO=sudo
else
    SUDO=
fi

echo "install-browser: installing Debian's chromium (a few minutes on a fresh machine)"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq chromium fonts-dejavu-core >/dev/null
"$CHROMIUM" --version
