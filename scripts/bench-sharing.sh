#!/usr/bin/env bash
# Side-by-side benchmark, on a GPU machine, of submissions sharing the GPU in `cugrade grade`: each
# assignment's generated class graded once with `--runs-per-gpu 1` (one submission at a time) and
# once with the default (cases and sanitizer passes of several side by side, timing and profiling
# alone, every case that did not pass beside others run again alone), in one run; then whether
# the two gradebooks agree: every student's outcome, case outcomes and correctness points
# identical, performance points within the timing's noise.
#
#   scripts/bench-sharing.sh BUILD_DIR WORK [--classes "matmul reduction ..."] [--size N]
#                            [--hostile] [--warm-up N] [-- GRADE_OPTIONS...]
#
#   --classes   the assignments (default: matmul reduction transpose nbody)
#   --size      students per class (scripts/make-class.sh ID N --mix class; default 40)
#   --hostile   three hostile classmates added to each class: one that takes all the GPU memory its
#               limit allows, one whose kernel never ends, one that floods the GPU with work
#               before each call; the agreement then says whether they changed anyone's grade
#   --warm-up   first grades N of the class's submissions, untimed, so that neither measured grade
#               pays for the first start of nvcc, compute-sanitizer and ncu (default 4; 0: none)
#   GRADE_OPTIONS passed to both grades (e.g. --no-diagnosis)
#
# Prints a Markdown table: submissions per minute each way, their ratio, and the agreement; then
# where each grade's time went (its summary's lines). Classes under WORK/class-ID, gradebooks
# under WORK/grades-ID-1 and WORK/grades-ID-default, logs beside them.
set -euo pipefail

usage() { sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 1; }
[ $# -ge 2 ] || usage
build=$1 work=$2
shift 2
classes="matmul reduction transpose nbody" size=40 hostile=false warm_up=4 grade_options=()
while [ $# -gt 0 ]; do
  case $1 in
    --classes) classes=$2; shift 2 ;;
    --size) size=$2; shift 2 ;;
    --hostile) hostile=true; shift ;;
    --warm-up) warm_up=$2; shift 2 ;;
    --) shift; grade_options=("$@"); break ;;
    *) usage ;;
  esac
done
root=$(cd "$(dirname "$0")/.." && pwd)
cugrade="$build/harness/cugrade"
[ -x "$cugrade" ] || { echo "bench-sharing: no $cugrade (build first)" >&2; exit 1; }
mkdir -p "$work"
work=$(cd "$work" && pwd)

# add_hostile ID CLASS: three classmates made of the reference, each with a statement first in the
# entry point and a kernel of its own at the top of the entry point's file.
add_hostile() {
  local id=$1 class=$2 spec entry entry_file
  spec=$root/assignments/$id/assignment.yaml
  entry=$(sed -n 's/^ *entry: *\([A-Za-z_0-9]*\).*/\1/p' "$spec" | head -1)
  entry_file=$(grep -l "^void ${entry}(" "$root/reference/$id"/*.cu | head -1)
  local -A kernel=(
    [hog]=''
    [spin]='__global__ void classmate_spin(unsigned long long* flag) { while (atomicAdd(flag, 0ULL) == 0ULL) {} }'
    [flood]='__global__ void classmate_flood(long long cycles) { long long start = clock64(); while (clock64() - start < cycles) {} }'
  )
  local -A statement=(
    [hog]='for (int gib = 0; gib < 256; ++gib) { void* hoard = nullptr; if (cudaMalloc(&hoard, std::size_t(1) << 30) != cudaSuccess) break; }'
    [spin]='{ unsigned long long* flag = nullptr; cudaMalloc(&flag, 8); cudaMemset(flag, 0, 8); classmate_spin<<<4096, 256>>>(flag); }'
    [flood]='classmate_flood<<<4096, 256>>>(20000000LL);'
  )
  local kind dir
  for kind in hog spin flood; do
    dir=$class/zz-hostile-$kind
    mkdir -p "$dir"
    cp "$root/reference/$id"/*.cu "$dir/"
    for header in "$root/reference/$id"/*.cuh; do [ -e "$header" ] && cp "$header" "$dir/"; done
    { printf '#include <cstddef>\n%s\n' "${kernel[$kind]}"
      sed "/^void ${entry}(.*{ *\$/a\\  ${statement[$kind]}" "$entry_file"; } > "$dir/$(basename "$entry_file")"
  done
}

# agreement A B: compares two grade folders' records, student by student.
agreement() {
  python3 - "$1" "$2" <<'EOF'
import json, pathlib, sys
def load(folder):
    out = {}
    for f in sorted(pathlib.Path(folder, "results").glob("*.json")):
        r = json.loads(f.read_text())
        out[r["student"]] = r["report"]
    return out
a, b = load(sys.argv[1]), load(sys.argv[2])
differ, perf_max, perf_noisy, rerun = [], 0.0, 0, 0
for student in sorted(set(a) | set(b)):
    if student not in a or student not in b:
        differ.append(f"{student}: graded one way only"); continue
    ra, rb = a[student], b[student]
    if any("run again with the GPU alone" in n for n in rb.get("notes", [])): rerun += 1
    if ra["outcome"] != rb["outcome"]:
        differ.append(f"{student}: {ra['outcome']} vs {rb['outcome']}")
    ca = [(c["id"], c["outcome"], c["points"]) for c in ra.get("cases", [])]
    cb = [(c["id"], c["outcome"], c["points"]) for c in rb.get("cases", [])]
    if ca != cb:
        n = sum(1 for x, y in zip(ca, cb) if x != y) + abs(len(ca) - len(cb))
        differ.append(f"{student}: {n} case(s) differ")
    pa = {p["step"]: p for p in ra.get("performance", [])}
    pb = {p["step"]: p for p in rb.get("performance", [])}
    for step in set(pa) | set(pb):
        x, y = pa.get(step, {}).get("points", 0.0), pb.get(step, {}).get("points", 0.0)
        most = max(pa.get(step, pb.get(step, {})).get("max_points", 0.0), 1e-9)
        perf_max = max(perf_max, abs(x - y))
        # The timing's noise: a ratio measured twice moves its linear credit by a few percent.
        if abs(x - y) > 0.1 * most: perf_noisy += 1
print(f"{'yes' if not differ else 'NO'}|{len(a)}|{perf_max:.2f}|{perf_noisy}|{rerun}|{'; '.join(differ[:6])}")
EOF
}

"$cugrade" calibrate > /dev/null  # once per GPU and driver, outside the timed runs

rows=()
for id in $classes; do
  class=$work/class-$id
  if [ ! -d "$class" ]; then
    "$root/scripts/make-class.sh" "$id" "$size" "$class" --mix class --backend cuda > /dev/null
    if $hostile; then add_hostile "$id" "$class"; fi
  fi
  count=$(find "$class" -mindepth 1 -maxdepth 1 | wc -l)
  if [ "$warm_up" -gt 0 ]; then
    rm -rf "$work/warm-$id" "$work/warm-grades-$id"
    mkdir -p "$work/warm-$id"
    mapfile -t first < <(find "$class" -mindepth 1 -maxdepth 1 | sort | head -n "$warm_up")
    cp -r "${first[@]}" "$work/warm-$id/"
    "$cugrade" grade "$id" -S "$work/warm-$id" -o "$work/warm-grades-$id" --backend cuda "${grade_options[@]}" \
      > "$work/grade-$id-warm-up.log" 2>&1 || true
  fi
  rates=()
  for runs in 1 default; do
    out=$work/grades-$id-$runs
    rm -rf "$out"
    flag=()
    [ "$runs" = 1 ] && flag=(--runs-per-gpu 1)
    start=$EPOCHREALTIME
    "$cugrade" grade "$id" -S "$class" -o "$out" --backend cuda --progress lines "${flag[@]}" "${grade_options[@]}" \
      > "$work/grade-$id-$runs.log" 2>&1 || true
    rates+=("$(awk -v n="$count" -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", n * 60 / (b - a) }')")
  done
  IFS='|' read -r agree students perf_max perf_noisy rerun differ < <(agreement "$work/grades-$id-1" "$work/grades-$id-default")
  rows+=("| $id | $count | ${rates[0]} | ${rates[1]} | $(awk -v a="${rates[0]}" -v b="${rates[1]}" 'BEGIN { printf "%.2f", b / a }') | $agree ($students students) | $perf_max | $perf_noisy | $rerun | ${differ:-} |")
done

echo "| class | students | per minute, --runs-per-gpu 1 | per minute, default | default / 1 | outcomes and correctness points identical | largest performance difference (points) | steps past 10 % of their points | students with a case run again alone | what differs |"
echo "|---|---|---|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
echo
for id in $classes; do
  for runs in 1 default; do
    echo "- $id, --runs-per-gpu $runs: $(grep -hE '^(Time per submission|Throughput|Graded|GPU time)' "$work/grade-$id-$runs.log" | tr '\n' ' ')"
  done
done
