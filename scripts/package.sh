#!/usr/bin/env bash
# Builds the Debian package (cmake/package.cmake): build/cugrade_<version>_amd64.deb, holding the
# program, its runners (CUDA ones only where nvcc is found) and the course's data, installed under
# /usr. Only what the package holds is built, not the tests. Install it with
#   sudo apt-get install ./build/cugrade_<version>_amd64.deb
# `cmake --build --preset default --target package` makes the same file after building everything.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
scripts/install-deps.sh
# dpkg-shlibdeps (dpkg-dev) finds the package's dependencies from the libraries it links.
if ! command -v dpkg-shlibdeps >/dev/null; then
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends dpkg-dev
fi
cmake --preset default >/dev/null
cmake --build --preset default --target grading
(cd build && cpack -G DEB)
ls -l build/cugrade_*_amd64.deb
