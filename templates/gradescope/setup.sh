#!/usr/bin/env bash
# Gradescope runs this once, as root, while it builds the autograder's image (choose the
# Ubuntu 24.04 base image: cugrade needs g++ 12+ and CMake 3.25+). It installs what cugrade needs
# and builds it from the copy of the course's repository in the autograder zip (source/cugrade/).
# docs/autograding.md, "Gradescope", shows how the zip is made.
set -euo pipefail
root="${CUGRADE_AUTOGRADER_ROOT:-/autograder}"
source="$root/source"
# shellcheck source-path=SCRIPTDIR source=autograder.env
. "$source/autograder.env"
apt-get update -qq
targets=(cugrade cpu-runners)
if [ "$BACKEND" = cuda ]; then targets+=(runners); fi
bash "$source/cugrade/scripts/build.sh" --target "${targets[@]}"
