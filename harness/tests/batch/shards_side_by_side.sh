#!/usr/bin/env bash
# Parts of one class side by side (CTest label cpu): `cugrade grade --shard I/3`, three processes
# at once into one OUT, as machines sharing a folder run them; each grades only its part and
# writes no gradebook; `--collect` then writes the gradebook of the whole class, each outcome the
# one its kind must get. A student's result removed lists them as not graded (exit 3) with the
# command that grades them, and that command grades exactly them.
#   shards_side_by_side.sh CUGRADE SOURCE_ROOT [COUNT]
set -euo pipefail
cugrade=$1 src=$2 count=${3:-12}
work=$(mktemp -d "${TMPDIR:-/tmp}/cugrade-shards-XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

mkdir -p "$work/root/assignments"
cp -r "$src/assignments/vecadd" "$work/root/assignments/"
cp "$src/harness/tests/data/batch/vecadd_batch.yaml" "$work/root/assignments/vecadd/assignment.yaml"
export CUGRADE_ROOT=$work/root CUGRADE_NVCC=/nonexistent/nvcc
"$src/scripts/make-class.sh" vecadd "$count" "$work/class" --expected "$work/expected.csv" >/dev/null
sealing=()
if "$cugrade" grade vecadd -S "$work/class" -o "$work/probe" --backend cpu --shard 1/1000 -q 2>&1 |
  grep -q "the sandbox does not work here"; then
  echo "note: the sandbox does not work here: --allow-unsealed"
  sealing=(--allow-unsealed)
fi
grade=("$cugrade" grade vecadd -S "$work/class" -o "$work/out" --backend cpu -j 1 --progress lines "${sealing[@]}")

start=$(date +%s)
pids=()
for part in 1 2 3; do
  "${grade[@]}" --shard "$part/3" >"$work/part$part.out" 2>"$work/part$part.log" &
  pids+=($!)
done
for part in 1 2 3; do
  rc=0
  wait "${pids[$((part - 1))]}" || rc=$?
  [ "$rc" -eq 0 ] || { cat "$work/part$part.log" >&2; fail "shard $part/3 exited $rc"; }
  grep -q "Gradebook: not written by one shard" "$work/part$part.out" || fail "shard $part/3 did not say it writes no gradebook"
done
echo "three shards side by side: $(($(date +%s) - start)) s"
[ -f "$work/out/gradebook.csv" ] && fail "a shard wrote the gradebook"
graded=0
for part in 1 2 3; do
  n=$(grep -c '^cugrade: \[' "$work/part$part.log" || true)
  [ "$n" -gt 0 ] || fail "shard $part/3 graded no one"
  graded=$((graded + n))
done
[ "$graded" -eq "$count" ] || fail "the shards graded $graded submissions together, not each of the $count once"

rc=0
"$cugrade" grade vecadd -S "$work/class" -o "$work/out" --collect >"$work/collect.out" 2>&1 || rc=$?
[ "$rc" -eq 0 ] || { cat "$work/collect.out" >&2; fail "--collect exited $rc"; }
book=$work/out/gradebook.csv
[ "$(($(wc -l <"$book") - 1))" -eq "$count" ] || fail "the collected gradebook has not $count rows"
while IFS=, read -r student kind want; do
  [ "$student" = student ] && continue
  got=$(grep "^$student," "$book" | cut -d, -f5)
  if [ "$want" = any ]; then [ -n "$got" ] || fail "$student ($kind): no row"; continue; fi
  [ "$got" = "$want" ] || fail "$student ($kind): outcome $got, want $want"
done <"$work/expected.csv"

# A result lost: listed, exit 3, and the command it prints grades exactly that student.
rm "$work/out/results/s002-"*.json
rc=0
"$cugrade" grade vecadd -S "$work/class" -o "$work/out" --collect >"$work/lost.out" 2>&1 || rc=$?
[ "$rc" -eq 3 ] || fail "--collect with a result missing exited $rc, not 3"
grep -q "^  s002-.*: not graded: no result was written" "$work/lost.out" || fail "the student without a result is not listed"
again=$(grep -A1 '^Grade the 1 not graded again' "$work/lost.out" | tail -n 1)
[ -n "$again" ] || fail "no command to grade them again"
rc=0
bash -c "$again --progress lines -j 1 ${sealing[*]}" >/dev/null 2>"$work/again.log" || rc=$?
[ "$rc" -eq 0 ] || fail "the printed command exited $rc"
grep -q "grading 1, $((count - 1)) already graded and unchanged" "$work/again.log" ||
  fail "the printed command did not grade exactly the one: $(head -1 "$work/again.log")"

[ "$failures" -eq 0 ] || exit 1
echo "shards_side_by_side: $count submissions in three parts side by side, collected: all checks passed"
