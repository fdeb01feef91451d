#!/usr/bin/env bash
# The buggy corpus (harness/tests/cpu/data/buggy, docs/measurements.md) on a GPU machine: grades
# all 62 submissions on the CUDA backend and on the CPU backend, and writes, per backend, the
# table of classes named and misleading reports, plus each item's overall outcome on both (for
# the CPU/GPU verdict parity of issue 13; the manifest's gpu column says where a GPU is undefined).
# Usage: scripts/buggy-gpu.sh [BUILD_DIR] [OUT_DIR]   (BUILD_DIR built with the default preset)
set -uo pipefail
build=${1:-build}
out=${2:-$build/buggy-gpu}
here="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p "$out"
for backend in cuda cpu; do
  "$here/harness/tests/cpu/buggy_test.sh" "$build/harness/cugrade" --backend "$backend" --work "$out/$backend" \
    --table "$out/table-$backend.md" >"$out/report-$backend.txt" 2>&1
  echo "$backend: exit $? ($(tail -1 "$out/report-$backend.txt"))"
done
# One row per item: class, the overall outcome on each backend, the manifest's GPU note.
{
  echo "| item | class | cuda | cpu | gpu note |"
  echo "|---|---|---|---|---|"
  grep -v '^#' "$here/harness/tests/cpu/data/buggy/manifest.tsv" | while IFS=$'\t' read -r item cls _ _ _ gpu; do
    cuda_outcome=$(jq -r .outcome "$out/cuda/$item.json" 2>/dev/null || echo "no report")
    cpu_outcome=$(jq -r .outcome "$out/cpu/$item.json" 2>/dev/null || echo "no report")
    echo "| $item | $cls | $cuda_outcome | $cpu_outcome | $gpu |"
  done
} >"$out/parity.md"
# Every case's verdict on the GPU, in the form of harness/tests/cpu/data/buggy/gpu_cases.tsv (the
# CPU backend's test compares its own verdicts with it, case by case: buggy_test.sh --parity).
find "$out/cuda" -name '*.json' | sort | while read -r json; do
  item=${json#"$out/cuda/"}
  jq -r --arg item "${item%.json}" '.cases[]? | "\($item)\t\(.id)\t\(.outcome)"' "$json"
done >"$out/gpu_cases.tsv"
echo "written: $out/table-cuda.md, $out/table-cpu.md, $out/parity.md, $out/gpu_cases.tsv"
