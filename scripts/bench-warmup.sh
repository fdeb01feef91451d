#!/usr/bin/env bash
# Side-by-side benchmark, on a GPU machine, of the short warm-up of later targets
# (run/lockstep_timing.cpp, later_warmup): a pair of timing runners gives its first target the
# whole warm-up and each later one only a few rounds. CUGRADE_FULL_WARMUP=1 gives every target its
# whole warm-up; the two settings run alternately, so that the GPU's drift hits both alike.
#
#   scripts/bench-warmup.sh BUILD_DIR [PAIRS] [ASSIGNMENT...]
#
#   PAIRS        checks of each reference with each setting (default 3)
#   ASSIGNMENT   whose reference is checked, --no-sanitizer (default: matmul reduction transpose nbody)
#
# Prints a Markdown table: per timed step, the reference's ratio against itself (mean and spread)
# and the student side's median time with each setting, the timing flags raised, and each check's
# seconds, its build left out.
set -euo pipefail

usage() { sed -n '7,11p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 1; }
[ $# -ge 1 ] || usage
build=$1
pairs=${2:-3}
shift $(($# >= 2 ? 2 : 1))
ids=("$@")
[ ${#ids[@]} -gt 0 ] || ids=(matmul reduction transpose nbody)
root=$(cd "$(dirname "$0")/.." && pwd)
cugrade="$build/harness/cugrade"
[ -x "$cugrade" ] || { echo "bench-warmup: no $cugrade (build first)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$cugrade" calibrate > /dev/null  # once per GPU and driver, outside the timed runs
for id in "${ids[@]}"; do
  for i in $(seq 1 "$pairs"); do
    for full in 1 0; do
      start=$EPOCHREALTIME
      CUGRADE_FULL_WARMUP=$full "$cugrade" check "$id" -s "$root/reference/$id" --backend cuda --no-sanitizer \
        -q --report "json=$work/$id-$full-$i.json" || true
      awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f", b - a }' > "$work/$id-$full-$i.wall"
    done
  done
done

python3 - "$work" "$pairs" "${ids[@]}" <<'PY'
import json, statistics, sys
work, pairs, ids = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
print("| step | ratio, whole warm-up | ratio, short | median ms, whole | median ms, short | flags, whole / short |")
print("|---|---|---|---|---|---|")
timing = {}
for id in ids:
    steps = {}
    for full in (1, 0):
        for i in range(1, pairs + 1):
            try:
                report = json.load(open(f"{work}/{id}-{full}-{i}.json"))
            except (OSError, ValueError):
                continue
            timing.setdefault((id, full), []).append(float(open(f"{work}/{id}-{full}-{i}.wall").read()) - report["build"]["seconds"])
            for p in report["performance"]:
                s = steps.setdefault(p["step"], {1: ([], [], 0), 0: ([], [], 0)})
                ratios, medians, flags = s[full]
                if p.get("ratio"): ratios.append(p["ratio"])
                if p.get("student"): medians.append(p["student"]["median_ms"])
                s[full] = (ratios, medians, flags + len(p.get("flags", [])))
    def show(values, digits):
        if not values: return "–"
        spread = f" ± {statistics.stdev(values):.{digits}f}" if len(values) > 1 else ""
        return f"{statistics.mean(values):.{digits}f}{spread}"
    for step, s in steps.items():
        print(f"| {id} {step} | {show(s[1][0], 3)} | {show(s[0][0], 3)} | {show(s[1][1], 4)} | {show(s[0][1], 4)} | {s[1][2]} / {s[0][2]} |")
print()
for id in ids:
    whole, short = timing.get((id, 1), []), timing.get((id, 0), [])
    if whole and short:
        print(f"- {id}: a check took {statistics.mean(whole):.2f} s with the whole warm-up, {statistics.mean(short):.2f} s with the short one (its build left out)")
PY
