#!/usr/bin/env bash
# Makes Debian's `nginx` package available for the scale-out tests and benchmark (several
# pm-mcp-http instances behind a round-robin balancer: test/integration/scaleout-*.test.ts,
# npm run bench:scale, docs/DEPLOY.md). The tests generate their own configuration and start
# nginx with a prefix and pid file in a temp dir; the package's own service is never started.
# Does nothing when an nginx is already installed (or PM_NGINX names one); otherwise installs
# the package with apt-get, as root or through sudo, and fails loudly when neither is possible.
set -euo pipefail

if [ -n "${PM_NGINX:-}" ]; then
  if [ -x "$PM_NGINX" ]; then echo "nginx: $PM_NGINX (PM_NGINX)"; exit 0; fi
  echo "install-nginx: PM_NGINX=$PM_NGINX is not an executable file" >&2
  exit 1
fi
for path in "$(command -v nginx || true)" /usr/sbin/nginx; do
  if [ -n "$path" ] && [ -x "$path" ]; then echo "nginx: $path"; exit 0; fi
done

. "$(dirname "$0")/lib/apt-install.sh"
apt_runner install-nginx "run: apt-get update && apt-get install -y nginx-light (or nginx, or set PM_NGINX to an nginx binary)"
# Never start the packaged service: the tests run their own nginx on loopback ports.
apt_install_without_services nginx
path=$(command -v nginx || echo /usr/sbin/nginx)
echo "nginx: $path ($("$path" -v 2>&1 || echo 'version unknown'))"
