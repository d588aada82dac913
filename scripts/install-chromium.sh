#!/usr/bin/env bash
# Makes Debian's `chromium` package available for the browser tests of the MCP Apps views
# (npm run test:browser, docs/APPS.md). The tests drive this system browser through
# playwright-core's executablePath: no browser build is ever downloaded. Does nothing when a
# Chromium is already installed (or PM_CHROMIUM names one); otherwise installs the package with
# apt-get, as root or through sudo, and fails loudly when neither is possible.
set -euo pipefail

if [ -n "${PM_CHROMIUM:-}" ]; then
  if [ -x "$PM_CHROMIUM" ]; then echo "chromium: $PM_CHROMIUM (PM_CHROMIUM)"; exit 0; fi
  echo "install-chromium: PM_CHROMIUM=$PM_CHROMIUM is not an executable file" >&2
  exit 1
fi
for name in chromium chromium-browser; do
  if path=$(command -v "$name"); then echo "chromium: $path"; exit 0; fi
done

. "$(dirname "$0")/lib/apt-install.sh"
apt_runner install-chromium "run: apt-get update && apt-get install -y chromium (or install Chromium and set PM_CHROMIUM to its path)"
apt_install chromium
path=$(command -v chromium)
echo "chromium: $path ($("$path" --version 2>/dev/null || echo 'version unknown'))"
