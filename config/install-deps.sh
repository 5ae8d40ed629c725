#!/usr/bin/env bash
# Install the Debian packages PipeKSP builds and tests against, only when missing.
# Idempotent and quiet when everything is already there.
set -euo pipefail

# libsimgrid-dev: SimGrid's SMPI, for the whole solve under simulation that make test-petsc-latest runs
PKGS="petsc-dev libpetsc3.18-dev-examples python3-petsc4py libhypre-dev cmake pkg-config make gcc python3-pytest python3-numpy python3-matplotlib python3-venv clang-format libsimgrid-dev"

missing=""
for p in $PKGS; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $p"
  fi
done
[ -z "$missing" ] && exit 0

SUDO=""
if [ "$(id -u)" != "0" ]; then
  command -v sudo >/dev/null 2>&1 || { echo "install-deps: need root or sudo to install:$missing" >&2; exit 1; }
  SUDO="sudo"
fi
echo "install-deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
echo "install-deps: done"
