#!/usr/bin/env bash
# Benchmarks of the core pipeline on a GPU machine (issue: one submission end to end):
#   1. wall time of `cugrade check matmul` on the reference, nvcc excluded (target ≤ 3 s)
#   2. build time of one student file (graders/matmul/solutions/good/lecture_style.cu, the shape
#      of a submission, not the eight files of the reference): compile + symbol check + link
#      (target ≤ 3 s)
#   3. reproducibility: ten checks of the reference; performance ratio within 1.00 ± 0.03
# Usage: scripts/bench-check.sh [BUILD_DIR] [RUNS]   (prints a Markdown table; needs python3)
set -euo pipefail
build=${1:-build}
runs=${2:-10}
cugrade="$build/harness/cugrade"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$cugrade" calibrate >/dev/null  # measured once per GPU and driver, outside the timed checks
for i in $(seq 1 "$runs"); do
  start=$(date +%s.%N)
  "$cugrade" check matmul -s reference/matmul -q --report "json=$work/run-$i.json"
  end=$(date +%s.%N)
  echo "$start $end" > "$work/run-$i.time"
  "$cugrade" check matmul -s graders/matmul/solutions/good/lecture_style.cu --no-performance -q \
    --report "json=$work/student-$i.json" || true  # its build time is what counts here
done

python3 - "$work" "$runs" <<'PY'
import json, statistics, sys
work, runs = sys.argv[1], int(sys.argv[2])
walls, builds, ratios = [], [], {}
for i in range(1, runs + 1):
    report = json.load(open(f"{work}/run-{i}.json"))
    start, end = map(float, open(f"{work}/run-{i}.time").read().split())
    walls.append(end - start - report["build"]["seconds"])
    builds.append(json.load(open(f"{work}/student-{i}.json"))["build"]["seconds"])
    for p in report["performance"]:
        ratios.setdefault(p["step"], []).append(p["ratio"])
    assert report["outcome"] == "passed", report["outcome"]
env = report["environment"]
print(f"GPU: {env['gpu']} · driver CUDA {env['driver']} · nvcc {env['nvcc']} · {runs} runs\n")
print("| quantity | median | min | max | target |")
print("|---|---|---|---|---|")
print(f"| check matmul wall time, nvcc excluded (s) | {statistics.median(walls):.2f} | {min(walls):.2f} | {max(walls):.2f} | ≤ 3 |")
print(f"| build of one student file (s) | {statistics.median(builds):.2f} | {min(builds):.2f} | {max(builds):.2f} | ≤ 3 |")
for step, r in ratios.items():
    print(f"| ratio reference/reference, {step} | {statistics.median(r):.3f} | {min(r):.3f} | {max(r):.3f} | 1.00 ± 0.03 |")
PY
