#!/usr/bin/env bash
# diagnosis_line_test.sh CUGRADE: on a GPU, a slow step's diagnosis names its cause and the line it
# comes from (ncu's source page, read with the one-section folder cugrade gives ncu): transpose's
# bad/coalesced_is_naive.cu, whose coalesced step is the naive kernel (uncoalesced stores).
# Run through run_if_gpu.sh (exit 77 without a GPU); needs jq (exit 77 without it).
set -euo pipefail
cugrade=$1
root=$(cd "$(dirname "$0")/../../.." && pwd)
command -v jq >/dev/null || { echo "SKIPPED: no jq (scripts/install-deps.sh --test-tools installs it)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$cugrade" check transpose -s "$root/graders/transpose/solutions/bad/coalesced_is_naive.cu" --backend cuda -q \
  --report "json=$work/report.json" || true  # a slow step is no failure of the check; the report says
diagnosis=$(jq -c '.performance[] | select(.step == "coalesced") | .diagnosis' "$work/report.json")
echo "coalesced: $diagnosis"
jq -e '.performance[] | select(.step == "coalesced") | .diagnosis
       | .cause == "uncoalesced_stores" and (.location | test("coalesced_is_naive\\.cu:[0-9]+$"))' \
  "$work/report.json" >/dev/null || { echo "FAIL: no cause with its line"; exit 1; }
echo "ok: the cause and its line"
