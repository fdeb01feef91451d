#!/usr/bin/env bash
# Installs the Debian 12 packages cugrade needs (only those missing). The CUDA toolkit itself is
# not a Debian package: without nvcc, cugrade still builds and grades on its CPU backend.
# clang-14 is for the tests only: its CUDA parser checks the CPU backend's pre-pass (the `oracle`
# tests, Skipped without it); cugrade itself never runs it.
set -euo pipefail
packages=(cmake ninja-build g++ pkg-config doctest-dev libyaml-cpp-dev libboost-dev
          libboost-filesystem-dev libboost-context-dev libcli11-dev libfmt-dev nlohmann-json3-dev
          clang-14)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "cugrade: installing ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
  echo "cugrade: nvcc is at /usr/local/cuda/bin; add it to PATH to build the CUDA runner"
fi
