#!/usr/bin/env bash
# Side-by-side benchmark, on a GPU machine, of one of cugrade's speed settings, off and on,
# alternately in one run, so that the GPU's drift hits both alike:
#   timing-ahead  starting the timing's work ahead of the timing (pipeline/check_submission.cpp):
#                 a lone check takes the reference's baselines while the file builds, and where no
#                 baseline is due both timing runners start, and load the first timed step, during
#                 the sanitizer's pass; off: CUGRADE_TIMING_AHEAD=0
#   one-queue     the untimed runners' CUDA contexts with one hardware queue
#                 (pipeline/run_requests.hpp); off: CUGRADE_ONE_QUEUE=0
#
#   scripts/bench-setting.sh SETTING BUILD_DIR WORK [--checks N] [--classes "matmul nbody ..."]
#                            [--selftest "reduction vecadd ..."] [-- GRADE_OPTIONS...]
#
#   --checks N    N pairs of `cugrade check matmul` of the reference, with and without the
#                 sanitizer (default 2; 0 skips them)
#   --classes     the assignments whose generated class (scripts/make-class.sh ID 12 --mix class,
#                 CLASS_SIZE=N for another size) is graded once each way (default: none)
#   --selftest    `cugrade selftest` of these assignments once each way (default: not run)
#   GRADE_OPTIONS passed to `cugrade grade` (e.g. --no-sanitizer --no-diagnosis)
#
# Prints a Markdown table per part: wall seconds (or submissions per minute) with the setting off
# and on, and their ratio; then where each class's time went. The classes are made under WORK
# (reused when there), with each grade's output (WORK/grade-ID-0.log, -1.log) and each
# self-test's (WORK/selftest-0.log, -1.log).
set -euo pipefail

usage() { sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 1; }
[ $# -ge 3 ] || usage
case $1 in
  timing-ahead) variable=CUGRADE_TIMING_AHEAD ;;
  one-queue) variable=CUGRADE_ONE_QUEUE ;;
  *) echo "bench-setting: unknown setting '$1' (timing-ahead or one-queue)" >&2; usage ;;
esac
setting=$1 build=$2 work=$3
shift 3
checks=2 classes="" selftests="" grade_options=()
size=${CLASS_SIZE:-12}
while [ $# -gt 0 ]; do
  case $1 in
    --checks) checks=$2; shift 2 ;;
    --classes) classes=$2; shift 2 ;;
    --selftest) selftests=$2; shift 2 ;;
    --) shift; grade_options=("$@"); break ;;
    *) usage ;;
  esac
done
root=$(cd "$(dirname "$0")/.." && pwd)
cugrade="$build/harness/cugrade"
[ -x "$cugrade" ] || { echo "bench-setting: no $cugrade (build first)" >&2; exit 1; }
mkdir -p "$work"

# Seconds `"$@"` took, with the setting's variable set to $1; its output goes to $log (else nowhere).
log=/dev/null
seconds_of() {
  local value=$1; shift
  local start=$EPOCHREALTIME
  env "$variable=$value" "$@" > "$log" 2>&1 || true
  awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }'
}

"$cugrade" calibrate > /dev/null  # once per GPU and driver, outside the timed runs

if [ "$checks" -gt 0 ]; then
  echo "| check matmul (the reference) | $setting off (s) | $setting on (s) | on / off |"
  echo "|---|---|---|---|"
  for sanitizer in --no-sanitizer --sanitizer; do
    flag=()
    [ "$sanitizer" = --no-sanitizer ] && flag=(--no-sanitizer)
    for _ in $(seq 1 "$checks"); do
      off=$(seconds_of 0 "$cugrade" check matmul -s "$root/reference/matmul" --backend cuda -q "${flag[@]}")
      on=$(seconds_of 1 "$cugrade" check matmul -s "$root/reference/matmul" --backend cuda -q "${flag[@]}")
      awk -v s="$sanitizer" -v off="$off" -v on="$on" 'BEGIN { printf "| %s | %.2f | %.2f | %.2f |\n", s, off, on, on / off }'
    done
  done
  echo
fi

if [ -n "$classes" ]; then
  echo "| class of $size (grade ${grade_options[*]}) | $setting off (per minute) | $setting on (per minute) | on / off |"
  echo "|---|---|---|---|"
  for id in $classes; do
    class="$work/class-$id"
    [ -d "$class" ] || "$root/scripts/make-class.sh" "$id" "$size" "$class" --mix class --backend cuda > /dev/null
    count=$(find "$class" -mindepth 1 -maxdepth 1 | wc -l)
    rates=()
    for value in 0 1; do
      rm -rf "$work/grades-$id-$value"
      log="$work/grade-$id-$value.log"
      wall=$(seconds_of "$value" "$cugrade" grade "$id" -S "$class" -o "$work/grades-$id-$value" --backend cuda \
        --progress none "${grade_options[@]}")
      rates+=("$(awk -v n="$count" -v w="$wall" 'BEGIN { printf "%.1f", n * 60 / w }')")
    done
    awk -v id="$id" -v off="${rates[0]}" -v on="${rates[1]}" 'BEGIN { printf "| %s | %.1f | %.1f | %.2f |\n", id, off, on, on / off }'
  done
  echo
  # Where each class's time went, as `cugrade grade` summed it.
  for id in $classes; do
    for value in 0 1; do
      echo "- $id, $setting $([ $value = 1 ] && echo on || echo off): $(grep -hE '^(Time per submission|Throughput)' "$work/grade-$id-$value.log" | tr '\n' ' ')"
    done
  done
fi

if [ -n "$selftests" ]; then
  echo
  echo "| selftest $selftests | $setting off (s) | $setting on (s) | on / off |"
  echo "|---|---|---|---|"
  walls=()
  for value in 0 1; do
    log="$work/selftest-$value.log"
    # shellcheck disable=SC2086  # the assignments, one word each
    walls+=("$(seconds_of "$value" "$cugrade" selftest $selftests --backend cuda)")
  done
  awk -v off="${walls[0]}" -v on="${walls[1]}" 'BEGIN { printf "| wall | %.1f | %.1f | %.2f |\n", off, on, on / off }'
  for value in 0 1; do
    echo "- $setting $([ $value = 1 ] && echo on || echo off): $(grep -h '^selftest:' "$work/selftest-$value.log" | tail -1)"
  done
fi
