#!/usr/bin/env bash
# Installs what is missing and builds cugrade (the shared first half of quickstart.sh and test.sh).
# Arguments go to `cmake --build`: `scripts/build.sh --target cugrade cpu-runners` builds only
# what grading on the CPU backend needs (the students' workflow does that), not the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
scripts/install-deps.sh
cmake --preset default >/dev/null
cmake --build --preset default "$@"
