#!/usr/bin/env bash
# Installs what is missing and builds cugrade (the shared first half of quickstart.sh and test.sh).
# Arguments go to `cmake --build`: `scripts/build.sh --target grading` builds what grading needs
# (cugrade, its runners, the probe: quickstart.sh), `--target cugrade cpu-runners` only what the
# CPU backend needs (the students' workflow), neither the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
scripts/install-deps.sh
cmake --preset default >/dev/null
cmake --build --preset default "$@"
