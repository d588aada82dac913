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

if ! command -v apt-get >/dev/null; then
  echo "install-chromium: no chromium on PATH and no apt-get to install Debian's chromium package; install Chromium and set PM_CHROMIUM to its path" >&2
  exit 1
fi
if [ "$(id -u)" -eq 0 ]; then
  run=()
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
  run=(sudo -n)
else
  echo "install-chromium: installing Debian's chromium package needs root (or password-less sudo); run: apt-get update && apt-get install -y chromium" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${run[@]}" apt-get update -qq
"${run[@]}" apt-get install -y -qq --no-install-recommends chromium >/dev/null
path=$(command -v chromium)
echo "chromium: $path ($("$path" --version 2>/dev/null || echo 'version unknown'))"
