# Sourced by the install-*.sh scripts: how to run apt-get for a Debian package the tests need.
# `apt_runner NAME HINT` sets the array `run` to the command prefix (empty as root, `sudo -n`
# with password-less sudo) or fails loudly, naming the script and the command to run by hand.
# `apt_install PACKAGE...` updates the package lists and installs without recommends.

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
