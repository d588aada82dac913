#!/usr/bin/env bash
# Makes Debian's PostgreSQL server binaries (initdb, pg_ctl, postgres) available for the tests
# and bench:scale that run pm over a shared PostgreSQL (scripts/lib/postgres-server.mjs starts a
# throw-away server in a temp dir on a loopback port; the package's own cluster is never started).
# Does nothing when they are already there (or PM_TEST_PG_BIN names their directory); otherwise
# installs the package with apt-get, as root or through sudo, and fails loudly when neither is
# possible.
set -euo pipefail
lib="$(cd "$(dirname "$0")" && pwd)/lib/postgres-server.mjs"
bin_dir() { node --input-type=module -e "import('$lib').then((m) => console.log(m.postgresBinDir()), () => {})"; }

found=$(bin_dir 2>/dev/null || true)
if [ -n "$found" ]; then echo "postgresql: $found"; exit 0; fi
if [ -n "${PM_TEST_PG_BIN:-}" ]; then
  echo "install-postgres: PM_TEST_PG_BIN=$PM_TEST_PG_BIN does not hold initdb and pg_ctl" >&2
  exit 1
fi

. "$(dirname "$0")/lib/apt-install.sh"
apt_runner install-postgres "run: apt-get update && apt-get install -y postgresql (or set PM_TEST_PG_BIN to the directory holding initdb, pg_ctl and postgres)"
# Never start the packaged cluster: the tests run their own server on loopback ports.
apt_install_without_services postgresql
found=$(bin_dir)
if [ -z "$found" ]; then echo "install-postgres: installed the postgresql package, but initdb and pg_ctl are still not found" >&2; exit 1; fi
echo "postgresql: $found"
