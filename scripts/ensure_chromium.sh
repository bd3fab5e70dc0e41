#!/usr/bin/env bash
# Headless Chromium for the browser tests (/docs, the OAuth consent pages), before any test
# runs: `make test` and `.ci/run` (through make test) both call this, so a fresh machine gets
# the same as CI. Found (CHROMIUM=<binary>, or chromium / chromium-browser on PATH): nothing
# to do. Missing, as root with apt-get: installs Debian's `chromium` (the tests drive it over
# its DevTools pipe, no driver package). Otherwise: one line saying what to install, exit 1.
# ENSURE_CHROMIUM_UID stands in for `id -u` (tests/platform/test_ensure_chromium.py).
set -euo pipefail

found() {
  if [ -n "${CHROMIUM:-}" ]; then [ -x "$CHROMIUM" ]; return; fi
  command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1
}

hint="make test needs headless Chromium for its browser tests: run 'sudo apt-get install -y chromium' (Debian/Ubuntu) or set CHROMIUM=/path/to/chromium"

found && exit 0
if [ -n "${CHROMIUM:-}" ]; then
  echo "CHROMIUM=$CHROMIUM is not an executable file; $hint" >&2
  exit 1
fi
if [ "${ENSURE_CHROMIUM_UID:-$(id -u)}" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "$hint" >&2
  exit 1
fi
echo "Installing Debian's chromium for the browser tests (apt-get)..." >&2
if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } \
    >/dev/null; then
  echo "apt-get could not install chromium; $hint" >&2
  exit 1
fi
found || { echo "chromium installed but not on PATH; $hint" >&2; exit 1; }
