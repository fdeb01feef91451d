#!/usr/bin/env bash
# End to end: `cugrade grade` over a generated class on the CPU backend (see tests.cmake).
#   class_end_to_end.sh CUGRADE SOURCE_ROOT [COUNT]
set -euo pipefail
cugrade=$1 src=$2 count=${3:-100}
work=$(mktemp -d "${TMPDIR:-/tmp}/cugrade-class-XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# The test's own copy of vecadd: fewer cases and a 2 s limit (harness/tests/data/batch/vecadd_batch.yaml).
mkdir -p "$work/root/assignments"
cp -r "$src/assignments/vecadd" "$work/root/assignments/"
cp "$src/harness/tests/data/batch/vecadd_batch.yaml" "$work/root/assignments/vecadd/assignment.yaml"
export CUGRADE_ROOT=$work/root
"$src/scripts/make-class.sh" vecadd "$count" "$work/class" --expected "$work/expected.csv"
# The batch is under test here, not nvcc's verdict on what compiles (the CPU backend's own compiler
# says the same for these files): without nvcc's check a submission costs half the time.
export CUGRADE_NVCC=/nonexistent/nvcc
grade=("$cugrade" grade vecadd --submissions "$work/class" --backend cpu -j 2 --progress lines
       --deadline 2099-01-01T00:00Z)
results_in() {  # how many results a batch has written under $1
  local n=0 f
  for f in "$1"/results/*.json; do [ -e "$f" ] && n=$((n + 1)); done
  echo "$n"
}

# 1. The whole class, uninterrupted.
start=$(date +%s)
rc=0
"${grade[@]}" --out "$work/full" >"$work/full.out" 2>"$work/full.log" || rc=$?
echo "uninterrupted: $(($(date +%s) - start)) s, exit $rc"
[ "$rc" -eq 0 ] || fail "the uninterrupted batch exited $rc (want 0: no harness error)"
book=$work/full/gradebook.csv
[ -f "$book" ] || { cat "$work/full.log" >&2; fail "no gradebook"; exit 1; }
rows=$(($(wc -l <"$book") - 1))
[ "$rows" -eq "$count" ] || fail "the gradebook has $rows rows, not $count"
head -1 "$book" | tr -d '\r' | grep -qx 'student,score,max_score,vecadd,outcome,gradable,submitted_at,submitted_from,late,note' ||
  fail "unexpected header: $(head -1 "$book")"
# Each submission's outcome is the one its kind must get.
while IFS=, read -r student kind want; do
  [ "$student" = student ] && continue
  got=$(grep "^$student," "$book" | cut -d, -f5)
  if [ "$want" = any ]; then [ -n "$got" ] || fail "$student ($kind): no row"; continue; fi
  [ "$got" = "$want" ] || fail "$student ($kind): outcome $got, want $want"
done <"$work/expected.csv"
grep -q "^s001-reference,4,4,4,passed,yes,.*,no," "$book" || fail "the reference did not get 4 of 4: $(grep s001 "$book")"
grep -q "Throughput: .* submissions per minute" "$work/full.out" || fail "no throughput in the summary"
[ "$(grep -c '^cugrade: \[' "$work/full.log")" -eq "$count" ] || fail "not one progress line per submission"

# 2. The same class, killed with SIGKILL half-way, then resumed.
half=$((count / 2))
"${grade[@]}" --out "$work/resumed" >/dev/null 2>"$work/killed.log" &
pid=$!
while [ "$(results_in "$work/resumed")" -lt "$half" ]; do
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.2
done
kill -KILL "$pid" 2>/dev/null || true
wait "$pid" 2>/dev/null || true
done_before=$(results_in "$work/resumed")
[ "$done_before" -lt "$count" ] || fail "the batch finished before it could be killed"
# Nothing the killed batch started may go on: its children die with it (a compiler's own
# children finish their file first, and a sandbox's teardown takes seconds on a loaded machine:
# on two cores beside the corpus test one bwrap was still there after 10 s, and once, beside the
# corpus and the buggy tests, after 30 s; give them 60). What is left is shown with its state
# (D: in the kernel, Z: ended, not yet reaped) and where it waits.
for _ in $(seq 300); do pgrep -f "$work/resumed/work" >/dev/null || break; sleep 0.2; done
if pgrep -f "$work/resumed/work" >/dev/null; then
  ps -o pid,ppid,stat,wchan:28,etimes,args -p "$(pgrep -d, -f "$work/resumed/work")" | cut -c1-300 >&2
  fail "processes of the killed batch are still running"
fi
rc=0
"${grade[@]}" --out "$work/resumed" >"$work/resumed.out" 2>"$work/resumed.log" || rc=$?
[ "$rc" -eq 0 ] || fail "the resumed batch exited $rc"
grep -q "grading $((count - done_before)), $done_before already graded and unchanged" "$work/resumed.log" ||
  fail "the resumed batch did not grade exactly the $((count - done_before)) missing: $(head -1 "$work/resumed.log")"
cmp -s "$book" "$work/resumed/gradebook.csv" || {
  diff "$book" "$work/resumed/gradebook.csv" >&2 || true
  fail "the resumed gradebook differs from the uninterrupted one"
}
echo "killed after $done_before of $count results; resumed: identical gradebook"

# 3. Nothing left: a third run grades nothing. A changed submission is graded again, and why.
"${grade[@]}" --out "$work/resumed" >/dev/null 2>"$work/third.log"
grep -q "grading 0, $count already graded" "$work/third.log" || fail "the third run graded something: $(head -1 "$work/third.log")"
echo "// changed" >>"$work/class/s001-reference/vecadd.cu"
"${grade[@]}" --out "$work/resumed" >/dev/null 2>"$work/fourth.log"
grep -q "s001-reference: graded again: its files changed since it was graded" "$work/fourth.log" ||
  fail "a changed submission was not graded again with its reason: $(cat "$work/fourth.log")"

if [ "$failures" -gt 0 ]; then
  echo "--- gradebook" >&2; cat "$book" >&2
  echo "--- log" >&2; tail -40 "$work/full.log" >&2
  exit 1
fi
echo "class_end_to_end: $count submissions graded, killed, resumed: all checks passed"
