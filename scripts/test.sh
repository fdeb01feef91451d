#!/usr/bin/env bash
# The README's second command: install what is missing, build, and run the whole test suite.
# Tests labelled `gpu` report "Skipped" on a machine without a GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
scripts/install-deps.sh
cmake --preset default >/dev/null
cmake --build --preset default
ctest --preset default -j "$(nproc)"
