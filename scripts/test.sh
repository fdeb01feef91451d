#!/usr/bin/env bash
# The README's second command: install what is missing, build, and run the whole test suite.
# Tests labelled `gpu` report "Skipped" on a machine without a GPU; the test tools (Chromium for
# `browser`, the linters for `lint`) are installed first, so those run everywhere.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --test-tools
# Without a GPU nothing runs the CUDA code: one architecture is enough to check that it builds
# (a build folder configured before keeps its own choice).
if ! nvidia-smi -L >/dev/null 2>&1; then export CUGRADE_CUDA_ARCHITECTURES="${CUGRADE_CUDA_ARCHITECTURES:-75-real}"; fi
scripts/build.sh
status=0
PATH="$PATH:/usr/local/cuda/bin" ctest --preset default -j "$(nproc)" || status=$?
if [ "$status" -ne 0 ]; then
  # The output of a failed test is buried among hundreds of lines: run the failed ones again, one
  # at a time, so that the end of the log shows what they said (and whether they fail twice).
  echo "== the failed tests again, one at a time =="
  PATH="$PATH:/usr/local/cuda/bin" ctest --preset default --rerun-failed --output-on-failure || true
fi
exit "$status"
