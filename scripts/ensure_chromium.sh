#!/usr/bin/env bash
# Makes sure a Chromium exists for the browser: $CHROME_PATH, else /usr/bin/chromium, else Debian's package is
# installed (apt-get, as root or through sudo). Puppeteer never downloads a browser in this project.
set -euo pipefail
if [ -n "${CHROME_PATH:-}" ] && [ -x "$CHROME_PATH" ]; then exit 0; fi
if [ -x /usr/bin/chromium ]; then exit 0; fi
echo "webmix-eval: /usr/bin/chromium is missing; installing Debian's chromium package" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq >&2
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >&2
