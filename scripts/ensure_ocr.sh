#!/usr/bin/env bash
# The receipt tests' system packages, before any test runs (`make test`, so `.ci/run` too):
# - a TrueType font (Debian's fonts-dejavu-core): the tests render receipts with it. Required.
# - Tesseract (tesseract-ocr): the optional scan engine; without it its image tests skip,
#   saying so, and every other engine is still tested.
# As root with apt-get, what is missing is installed; otherwise a missing font is one line
# saying what to install (exit 1), a missing Tesseract one note (exit 0).
# ENSURE_OCR_UID stands in for `id -u`, ENSURE_OCR_FONT for the font's path (tests).
set -euo pipefail

font="${ENSURE_OCR_FONT:-/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf}"
hint="make test needs a TrueType font for its receipt tests: run 'sudo apt-get install -y fonts-dejavu-core'"
missing=()
[ -f "$font" ] || missing+=(fonts-dejavu-core)
command -v tesseract >/dev/null 2>&1 || missing+=(tesseract-ocr)
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "${ENSURE_OCR_UID:-$(id -u)}" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing ${missing[*]} for the receipt tests (apt-get)..." >&2
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"; } \
      >/dev/null || echo "apt-get could not install ${missing[*]}" >&2
fi
if [ ! -f "$font" ]; then
  echo "$hint" >&2
  exit 1
fi
command -v tesseract >/dev/null 2>&1 || \
  echo "note: no tesseract on PATH: the Tesseract engine's image tests will skip ('sudo apt-get install -y tesseract-ocr')" >&2
exit 0
