#!/usr/bin/env bash
# The buggy corpus (harness/tests/cpu/data/buggy, docs/measurements.md) on a GPU machine: grades
# its submissions on the CUDA backend (and on the CPU backend with --backends cuda,cpu), and
# writes, per backend, the table of classes named and misleading reports, each item's overall
# outcome on both (the CPU/GPU verdict parity; the manifest's gpu column says where a GPU is
# undefined) and every case's verdict on the GPU.
#
#   scripts/buggy-gpu.sh [--backends cuda|cpu|cuda,cpu] [--jobs N] [--score-only | --resume] BUILD_DIR OUT_DIR [ITEM...]
#
# ITEM (a glob, "reduction/*") grades part of the corpus: about 6 s an item on an H200, so the
# whole corpus takes two calls of a device's 10 minutes. The reports stay in OUT_DIR/<backend>/;
# --resume grades only the items without a report there (after a call that was cut);
# --score-only grades nothing and scores every report there (the parts of several calls, copied
# into one OUT_DIR), on any machine. Default: --backends cuda, --jobs 8 (the CPU backend:
# nproc). Exits with the CUDA run's exit code (buggy_test.sh's).
set -uo pipefail
backends=cuda jobs=8 score_only=0 resume=()
while (($#)); do
  case "$1" in
    --backends) backends=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --score-only) score_only=1; shift ;;
    --resume) resume=(--resume); shift ;;
    -h | --help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "buggy-gpu.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -ge 2 ] || { echo "usage: scripts/buggy-gpu.sh [options] BUILD_DIR OUT_DIR [ITEM...] (see --help)" >&2; exit 2; }
build=$1 out=$2
shift 2
here="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p "$out"
status=0
IFS=, read -r -a chosen <<<"$backends"
for backend in "${chosen[@]}"; do
  case "$backend" in cuda | cpu) ;; *) echo "buggy-gpu.sh: no backend '$backend' (cuda or cpu)" >&2; exit 2 ;; esac
  options=(--backend "$backend" --work "$out/$backend" --table "$out/table-$backend.md")
  if ((score_only)); then
    options+=(--reuse)
  elif [ "$backend" = cuda ]; then
    options+=("${resume[@]}" --jobs "$jobs")
  else
    options+=("${resume[@]}" --jobs "$(nproc)")
  fi
  "$here/harness/tests/cpu/buggy_test.sh" "$build/harness/cugrade" "${options[@]}" "$@" >"$out/report-$backend.txt" 2>&1
  rc=$?
  [ "$backend" = cuda ] && status=$rc
  echo "$backend: exit $rc ($(tail -1 "$out/report-$backend.txt"))"
done
# One row per item graded: class, the overall outcome on each backend, the manifest's GPU note.
{
  echo "| item | class | cuda | cpu | gpu note |"
  echo "|---|---|---|---|---|"
  grep -v '^#' "$here/harness/tests/cpu/data/buggy/manifest.tsv" | while IFS=$'\t' read -r item cls _ _ _ gpu _; do
    [ -f "$out/cuda/$item.json" ] || [ -f "$out/cpu/$item.json" ] || continue
    cuda_outcome=$(jq -r .outcome "$out/cuda/$item.json" 2>/dev/null || echo "no report")
    cpu_outcome=$(jq -r .outcome "$out/cpu/$item.json" 2>/dev/null || echo "no report")
    echo "| $item | $cls | $cuda_outcome | $cpu_outcome | $gpu |"
  done
} >"$out/parity.md"
# Every case's verdict on the GPU, in the form of harness/tests/cpu/data/buggy/gpu_cases.tsv (the
# CPU backend's test compares its own verdicts with it, case by case: buggy_test.sh --parity).
find "$out/cuda" -name '*.json' 2>/dev/null | sort | while read -r json; do
  item=${json#"$out/cuda/"}
  jq -r --arg item "${item%.json}" '.cases[]? | "\($item)\t\(.id)\t\(.outcome)"' "$json"
done >"$out/gpu_cases.tsv"
echo "written: $out/table-*.md, $out/parity.md, $out/gpu_cases.tsv"
exit "$status"
