#!/usr/bin/env bash
# End to end: `cugrade similarity` over a generated class of honest code and planted copies (see
# tests.cmake), then `cugrade grade --similarity` on a small class, its summary linking the page.
#   class_similarity.sh CUGRADE SOURCE_ROOT [ASSIGNMENT...]
set -euo pipefail
cugrade=$1 src=$2
shift 2
assignments=("$@")
[ ${#assignments[@]} -gt 0 ] || assignments=(matmul reduction)
work=$(mktemp -d "${TMPDIR:-/tmp}/cugrade-similarity-XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
if ! command -v clang-format > /dev/null; then
  echo "no clang-format (scripts/install-deps.sh --test-tools installs it): the planted copies cannot be made; skipped"
  exit 77
fi
command -v sim_c++ > /dev/null || { echo "FAIL: sim_c++ is not installed (scripts/install-deps.sh installs similarity-tester)" >&2; exit 1; }

# 1. Every planted pair above every honest, independent pair; pairs of one origin (the lecture's
#    code as printed, one NVIDIA sample in other APIs) are neither and only reported.
for assignment in "${assignments[@]}"; do
  "$src/scripts/make-similarity-class.sh" "$assignment" "$work/$assignment" --manifest "$work/$assignment.manifest" > /dev/null
  start=$(date +%s%N)
  rc=0
  "$cugrade" similarity "$assignment" -S "$work/$assignment" -o "$work/$assignment-out" > "$work/$assignment.out" 2>&1 || rc=$?
  milliseconds=$((($(date +%s%N) - start) / 1000000))
  [ "$rc" -eq 0 ] || { cat "$work/$assignment.out" >&2; fail "$assignment: cugrade similarity exited $rc"; continue; }
  csv=$work/$assignment-out/similarity.csv html=$work/$assignment-out/similarity.html
  if [ ! -f "$csv" ] || [ ! -f "$html" ]; then fail "$assignment: no similarity.csv or similarity.html"; continue; fi
  head -1 "$csv" | grep -qx 'rank,student_a,student_b,percent,a_in_b_percent,b_in_a_percent,run_tokens,runs,a_tokens,b_tokens' ||
    fail "$assignment: unexpected header $(head -1 "$csv")"
  # Ranks of the pairs in the CSV (absent: ranked last, share 0), classified by the manifest.
  rc=0
  verdict=$(awk -F, -v assignment="$assignment" '
    FNR == NR { copied[$1] = $2; origin[$1] = $3; students[++n] = $1; next }
    FNR == 1 { next }
    { key = ($2 < $3) ? $2 "," $3 : $3 "," $2; rank[key] = $1; share[key] = $4 }
    END {
      worst_planted = 0; best_honest = 1e9; planted = honest = related = 0; lowest = 101; highest = 0
      for (i = 1; i <= n; ++i) for (j = i + 1; j <= n; ++j) {
        a = students[i]; b = students[j]; key = (a < b) ? a "," b : b "," a
        r = (key in rank) ? rank[key] + 0 : 1e9; s = (key in share) ? share[key] + 0 : 0
        if (copied[a] == copied[b]) {
          ++planted
          if (r > worst_planted) { worst_planted = r; worst = key }
          if (s < lowest) lowest = s
        } else if (origin[a] != origin[b]) {
          ++honest
          if (r < best_honest) { best_honest = r; best = key }
          if (s > highest) highest = s
        } else ++related
      }
      printf "%s: %d planted pairs, lowest share %d %%, worst rank %d (%s); %d honest pairs, highest share %d %%, best rank %s (%s); %d pairs of one origin\n",
             assignment, planted, lowest, worst_planted, worst, honest, highest, (best_honest == 1e9 ? "none" : best_honest), best, related
      exit !(worst_planted < best_honest)
    }' "$work/$assignment.manifest" "$csv") || rc=$?
  echo "$verdict ($milliseconds ms)"
  [ "$rc" -eq 0 ] || fail "$assignment: a planted pair ranks below an honest one"
  # The untouched template twice: the base code taken out, nothing left in common.
  if grep -q 'starter-1,starter-2\|starter-2,starter-1' "$csv"; then fail "$assignment: the two untouched templates are listed as alike"; fi
  grep -q 'never a score' "$html" || fail "$assignment: the page does not say it is evidence, never a score"
  grep -q 'id="pair-1"' "$html" || fail "$assignment: no pair side by side"
  if grep -q '<script' "$html"; then fail "$assignment: a script on the page"; fi
done

# 2. `grade --similarity`: the page beside the grades, linked from summary.html; a student with
#    no .cu file is listed as not compared, not a failure.
mkdir -p "$work/root/assignments" "$work/root/templates" "$work/small"
cp -r "$src/assignments/vecadd" "$work/root/assignments/"
cp "$src/harness/tests/data/batch/vecadd_batch.yaml" "$work/root/assignments/vecadd/assignment.yaml"
cp -r "$src/templates/vecadd" "$work/root/templates/"
for kind in grid_stride lecture_style; do
  mkdir -p "$work/small/$kind"
  cp "$src/graders/vecadd/solutions/good/$kind.cu" "$work/small/$kind/"
done
mkdir -p "$work/small/copy" "$work/small/nothing"
sed 's/\bi\b/index/g; s/^\/\/.*$/\/\/ all mine/' "$src/graders/vecadd/solutions/good/grid_stride.cu" > "$work/small/copy/vecadd.cu"
rc=0
CUGRADE_ROOT=$work/root CUGRADE_NVCC=/nonexistent/nvcc "$cugrade" grade vecadd -S "$work/small" -o "$work/graded" \
  --backend cpu -j 2 --progress none --similarity > "$work/graded.out" 2>&1 || rc=$?
[ "$rc" -eq 0 ] || { cat "$work/graded.out" >&2; fail "grade --similarity exited $rc"; }
grep -q 'href="similarity.html"' "$work/graded/summary.html" 2>/dev/null || fail "summary.html does not link similarity.html"
sed -n 2p "$work/graded/similarity.csv" | grep -q '^1,copy,grid_stride,\|^1,grid_stride,copy,' ||
  fail "the copy is not the first pair: $(sed -n 2p "$work/graded/similarity.csv")"
grep -q 'nothing: ' "$work/graded/similarity.html" || fail "the student with no .cu file is not listed as not compared"
[ -f "$work/graded/gradebook.csv" ] || fail "grade --similarity wrote no gradebook"

# 3. Without sim: a clear message before any grading, exit 1.
rc=0
CUGRADE_SIM=/nonexistent/sim_c++ "$cugrade" similarity vecadd -S "$work/small" -o "$work/nosim" > "$work/nosim.out" 2>&1 || rc=$?
[ "$rc" -eq 1 ] || fail "without sim_c++ the exit code is $rc, not 1"
grep -q 'similarity-tester' "$work/nosim.out" || fail "without sim_c++ the message does not name the package: $(cat "$work/nosim.out")"

if [ "$failures" -gt 0 ]; then echo "$failures failure(s)"; exit 1; fi
echo "ok: planted copies above honest code; grade --similarity linked from the summary"
