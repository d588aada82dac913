# Sourced by the install-*.sh scripts: how to run apt-get for a Debian package the tests need.
# `apt_runner NAME HINT` sets the array `run` to the command prefix (empty as root, `sudo -n`
# with password-less sudo) or fails loudly, naming the script and the command to run by hand.
# `apt_install PACKAGE...` updates the package lists and installs without recommends;
# `apt_install_without_services PACKAGE...` does so with services kept from starting
# (policy-rc.d answers 101 during the install), for packages whose daemon the tests run themselves.

apt_runner() {
  local name=$1 hint=$2
  if ! command -v apt-get >/dev/null; then
    echo "$name: no apt-get to install the Debian package; $hint" >&2
    exit 1
  fi
  if [ "$(id -u)" -eq 0 ]; then
    run=()
  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    run=(sudo -n)
  else
    echo "$name: installing the Debian package needs root (or password-less sudo); $hint" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
}

apt_install() {
  "${run[@]}" apt-get update -qq
  "${run[@]}" apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

apt_install_without_services() {
  local policy=/usr/sbin/policy-rc.d created=0 status=0
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' | "${run[@]}" tee "$policy" >/dev/null
    "${run[@]}" chmod +x "$policy"
    created=1
  fi
  apt_install "$@" || status=$?
  [ "$created" -eq 1 ] && "${run[@]}" rm -f "$policy"
  return "$status"
}
