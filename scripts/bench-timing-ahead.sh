#!/usr/bin/env bash
# Side-by-side benchmark, on a GPU machine, of starting the timing's work ahead of the timing
# (pipeline/check_submission.cpp): a lone check takes the reference's baselines while the file
# builds, and where no baseline is due both timing runners start, and load the first timed step,
# during the sanitizer's pass. CUGRADE_TIMING_AHEAD=0 turns both off; the two settings run
# alternately in one run, so that the GPU's drift hits both alike.
#
#   scripts/bench-timing-ahead.sh BUILD_DIR WORK [--checks N] [--classes "matmul nbody ..."] [-- GRADE_OPTIONS...]
#
#   --checks N    N pairs of `cugrade check matmul` of the reference, with and without the
#                 sanitizer (default 2; 0 skips them)
#   --classes     the assignments whose generated class (scripts/make-class.sh ID 12 --mix class)
#                 is graded once each way (default: none)
#   GRADE_OPTIONS passed to `cugrade grade` (e.g. --no-sanitizer --no-diagnosis)
#
# Prints a Markdown table per part: wall seconds (or submissions per minute) with the setting off
# and on, and their ratio; then where each class's time went. The classes are made under WORK
# (reused when there), with each grade's output (WORK/grade-ID-0.log, -1.log).
set -euo pipefail

usage() { sed -n '8,16p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 1; }
[ $# -ge 2 ] || usage
build=$1 work=$2
shift 2
checks=2 classes="" grade_options=()
while [ $# -gt 0 ]; do
  case $1 in
    --checks) checks=$2; shift 2 ;;
    --classes) classes=$2; shift 2 ;;
    --) shift; grade_options=("$@"); break ;;
    *) usage ;;
  esac
done
root=$(cd "$(dirname "$0")/.." && pwd)
cugrade="$build/harness/cugrade"
[ -x "$cugrade" ] || { echo "bench-timing-ahead: no $cugrade (build first)" >&2; exit 1; }
mkdir -p "$work"

# Seconds `"$@"` took, with CUGRADE_TIMING_AHEAD=$1; its output goes to $log (else nowhere).
log=/dev/null
seconds_of() {
  local ahead=$1; shift
  local start=$EPOCHREALTIME
  CUGRADE_TIMING_AHEAD=$ahead "$@" > "$log" 2>&1 || true
  awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }'
}

"$cugrade" calibrate > /dev/null  # once per GPU and driver, outside the timed runs

if [ "$checks" -gt 0 ]; then
  echo "| check matmul (the reference) | ahead off (s) | ahead on (s) | on / off |"
  echo "|---|---|---|---|"
  for sanitizer in --no-sanitizer --sanitizer; do
    flag=()
    [ "$sanitizer" = --no-sanitizer ] && flag=(--no-sanitizer)
    for i in $(seq 1 "$checks"); do
      off=$(seconds_of 0 "$cugrade" check matmul -s "$root/reference/matmul" --backend cuda -q "${flag[@]}")
      on=$(seconds_of 1 "$cugrade" check matmul -s "$root/reference/matmul" --backend cuda -q "${flag[@]}")
      awk -v s="$sanitizer" -v off="$off" -v on="$on" 'BEGIN { printf "| %s | %.2f | %.2f | %.2f |\n", s, off, on, on / off }'
    done
  done
  echo
fi

if [ -n "$classes" ]; then
  echo "| class of 12 (grade ${grade_options[*]}) | ahead off (per minute) | ahead on (per minute) | on / off |"
  echo "|---|---|---|---|"
  for id in $classes; do
    class="$work/class-$id"
    [ -d "$class" ] || "$root/scripts/make-class.sh" "$id" 12 "$class" --mix class --backend cuda > /dev/null
    count=$(find "$class" -mindepth 1 -maxdepth 1 | wc -l)
    rates=()
    for ahead in 0 1; do
      rm -rf "$work/grades-$id-$ahead"
      log="$work/grade-$id-$ahead.log"
      wall=$(seconds_of "$ahead" "$cugrade" grade "$id" -S "$class" -o "$work/grades-$id-$ahead" --backend cuda \
        --progress none "${grade_options[@]}")
      rates+=("$(awk -v n="$count" -v w="$wall" 'BEGIN { printf "%.1f", n * 60 / w }')")
    done
    awk -v id="$id" -v off="${rates[0]}" -v on="${rates[1]}" 'BEGIN { printf "| %s | %.1f | %.1f | %.2f |\n", id, off, on, on / off }'
  done
  echo
  # Where each class's time went, as `cugrade grade` summed it.
  for id in $classes; do
    for ahead in 0 1; do
      echo "- $id, ahead $([ $ahead = 1 ] && echo on || echo off): $(grep -hE '^(Time per submission|Throughput)' "$work/grade-$id-$ahead.log" | tr '\n' ' ')"
    done
  done
fi
