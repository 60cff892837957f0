#!/usr/bin/env bash
# What the tests need besides Deno: Chromium (scripts/ensure_chromium.sh), and `ps` (Debian's procps package), which
# the fault and orphan tests use to find a run's Chromium processes (Deno reads /proc/<pid>/ only with --allow-all).
set -euo pipefail
bash "$(dirname "$0")/ensure_chromium.sh"
if command -v ps >/dev/null 2>&1 && command -v pkill >/dev/null 2>&1; then exit 0; fi
echo "webmix-eval: ps is missing; installing Debian's procps package" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq >&2
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq procps >&2
