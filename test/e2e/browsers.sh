#!/usr/bin/env bash
# The browsers the browser tests drive, all Debian's (nothing is ever downloaded): Chromium's headless
# shell, Firefox ESR, WebKitGTK's WebDriver with its MiniBrowser, and the X server WebKit runs under.
# Installs whichever are missing, with one apt-get update for all, when it can (root, with apt-get);
# otherwise stops at once and says the one command to run. Used by `npm run check` (before any test) and
# by .ci/run.
set -euo pipefail

# package → the program the tests start
declare -A programs=(
  [chromium-headless-shell]=/usr/bin/chromium-headless-shell
  [firefox-esr]=/usr/bin/firefox-esr
  [webkit2gtk-driver]=/usr/bin/WebKitWebDriver
  [xvfb]=/usr/bin/xvfb-run
)

missing=()
for package in chromium-headless-shell firefox-esr webkit2gtk-driver xvfb; do
  [[ -x "${programs[$package]}" ]] || missing+=("$package")
done
((${#missing[@]} == 0)) && exit 0

if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's ${missing[*]} for the browser tests (one apt-get update)..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null
  for package in "${missing[@]}"; do
    if [[ ! -x "${programs[$package]}" ]]; then
      echo "Installed $package, but ${programs[$package]} is still missing." >&2
      exit 1
    fi
  done
  exit 0
fi

sudo=''
[[ $(id -u) -eq 0 ]] || sudo='sudo '
echo "The browser tests need Debian's ${missing[*]}, and this script cannot install them here." >&2
echo "Run: ${sudo}apt-get update && ${sudo}apt-get install -y ${missing[*]}" >&2
exit 1
