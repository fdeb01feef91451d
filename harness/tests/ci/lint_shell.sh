#!/usr/bin/env bash
# lint_shell.sh FILE...: shellcheck on each script; exit 77 without shellcheck.
set -euo pipefail
if ! command -v shellcheck >/dev/null; then
  echo "no shellcheck (scripts/install-deps.sh --test-tools installs it): shell lint skipped"
  exit 77
fi
shellcheck -x "$@"
echo "shellcheck: $# scripts clean"
