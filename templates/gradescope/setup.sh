#!/usr/bin/env bash
# Gradescope runs this once, as root, while it builds the autograder's image (choose the
# Ubuntu 24.04 base image: cugrade needs g++ 12+ and CMake 3.25+). It installs the course's
# cugrade package when autograder.env names one (CUGRADE_PACKAGE_URL, checked against
# CUGRADE_PACKAGE_SHA256 before anything of it is installed), and otherwise installs what cugrade
# needs and builds it from the copy of the course's repository in the zip (source/cugrade/).
# docs/autograding.md, "Gradescope", shows how the zip is made.
set -euo pipefail
root="${CUGRADE_AUTOGRADER_ROOT:-/autograder}"
source="$root/source"
# shellcheck source-path=SCRIPTDIR source=autograder.env
. "$source/autograder.env"
if [ -n "${CUGRADE_PACKAGE_URL:-}" ]; then
  if [ -z "${CUGRADE_PACKAGE_SHA256:-}" ]; then
    echo "setup.sh: CUGRADE_PACKAGE_URL is set without CUGRADE_PACKAGE_SHA256: no package is installed unverified" >&2
    exit 1
  fi
  if ! command -v curl >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq curl ca-certificates
  fi
  package="$root/cugrade.deb"
  curl -fsSL --retry 3 -o "$package" "$CUGRADE_PACKAGE_URL"
  echo "$CUGRADE_PACKAGE_SHA256  $package" | sha256sum --check --strict -
  apt-get update -qq
  if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$package"; then
    # Most often a package built for another release (its libraries are not this image's).
    system=$(. /etc/os-release && echo "${PRETTY_NAME:-this system}")
    echo "setup.sh: the package at CUGRADE_PACKAGE_URL does not install on $system (above, what apt" \
      "misses): use the release's package built for it (Ubuntu 24.04: cugrade_<version>_ubuntu24.04_amd64.deb)," \
      "or leave CUGRADE_PACKAGE_URL and CUGRADE_PACKAGE_SHA256 empty to build cugrade from source" >&2
    exit 1
  fi
  rm -f "$package"
  exit 0
fi
apt-get update -qq
targets=(cugrade cpu-runners)
if [ "$BACKEND" = cuda ]; then targets+=(runners); fi
bash "$source/cugrade/scripts/build.sh" --target "${targets[@]}"
