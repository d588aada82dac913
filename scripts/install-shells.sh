#!/usr/bin/env bash
# Makes the shells pm's completion scripts are tested in available (test/integration/
# cli-completion.test.ts drives `pm completion bash|zsh|fish` in each): bash with Debian's
# bash-completion, zsh and fish. Does nothing when all three are there; otherwise installs the
# missing Debian packages with apt-get, as root or through sudo, and fails loudly when neither
# is possible. Prints `shells: <bash> <zsh> <fish>`.
set -euo pipefail

missing=()
command -v zsh >/dev/null || missing+=(zsh)
command -v fish >/dev/null || missing+=(fish)
[ -r /usr/share/bash-completion/bash_completion ] || missing+=(bash-completion)
if [ "${#missing[@]}" -gt 0 ]; then
  . "$(dirname "$0")/lib/apt-install.sh"
  apt_runner install-shells "run: apt-get update && apt-get install -y ${missing[*]}"
  apt_install "${missing[@]}"
fi
echo "shells: $(command -v bash) $(command -v zsh) $(command -v fish)"
