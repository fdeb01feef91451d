#!/usr/bin/env bash
# Installs what is missing and builds cugrade (the shared first half of quickstart.sh and test.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
scripts/install-deps.sh
cmake --preset default >/dev/null
cmake --build --preset default
