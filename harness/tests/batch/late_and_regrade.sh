#!/usr/bin/env bash
# A late policy, extensions and a regrade, end to end (see tests.cmake): the real cugrade on the
# CPU backend over a class made by scripts/make-class.sh, each student's hand-in time set where
# the batch reads it (an archive's entries, a git commit), never by the files' own times.
#  1. Bad input is exit 1 before anything is graded or written: a malformed policy, a policy
#     without --deadline, an extension for a student with no submission, an extension's bad date.
#  2. --deadline 2026-01-15T00:00Z --late-policy grace=15m,per-day=10%,max-days=3 --extensions:
#     on time, exactly at the end of the grace, one second after it, the last second of max-days,
#     one second past it, a git commit a day late, a folder whose only time is its files', and a
#     student inside their extension: raw_score, penalty, score (final) and late_outcome each as
#     the policy says; summary.html and the late student's report show the penalty; the console
#     names the student whose time is unknown.
#  3. Graded again: an unchanged class writes no regrade.csv; points changed in the spec and one
#     student's files changed list every student with the old and new score and what changed; a
#     spec edit that changes no score removes regrade.csv and says so; results of another cugrade
#     (made up in results/) graded again, regrade.csv naming the version.
#  4. The class in two parts (--shard 1/2, 2/2) and --collect: the policy applied by the collect,
#     and, graded again in parts after the spec changed, one regrade.csv of both parts.
#   late_and_regrade.sh CUGRADE SOURCE_ROOT
set -euo pipefail
cugrade=$(realpath "$1") src=$(realpath "$2")
work=$(mktemp -d "${TMPDIR:-/tmp}/cugrade-late-XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# The batch test's copy of vecadd (4 cases of 1 point, 2 s per case).
mkdir -p "$work/root/assignments"
cp -r "$src/assignments/vecadd" "$work/root/assignments/"
spec=$work/root/assignments/vecadd/assignment.yaml
cp "$src/harness/tests/data/batch/vecadd_batch.yaml" "$spec"
export CUGRADE_ROOT=$work/root CUGRADE_NVCC=/nonexistent/nvcc
unsealed=()
if "$cugrade" grade --help 2>/dev/null | grep -q -- --allow-unsealed; then unsealed=(--allow-unsealed); fi

# The class: the first 8 of make-class's "class" mix are correct solutions, each a folder.
"$src/scripts/make-class.sh" vecadd 8 "$work/gen" --mix class >/dev/null
mkdir -p "$work/class"
deadline=2026-01-15T00:00:00Z
# handed_in ID SECONDS_AFTER_DEADLINE: the student's folder as an archive whose entries carry that time.
handed_in() {
  local id=$1 after=$2 when
  when=$(date -u -d "@$(($(date -u -d "$deadline" +%s) + after))" +%Y-%m-%dT%H:%M:%SZ)
  find "$work/gen/$id" -exec touch -d "$when" {} +
  tar -czf "$work/class/$id.tar.gz" -C "$work/gen" "$id"
}
ids=()
for d in "$work/gen"/*/; do ids+=("$(basename "$d")"); done
[ "${#ids[@]}" -eq 8 ] || { fail "make-class made ${#ids[@]} folders, not 8"; exit 1; }
day=86400
handed_in "${ids[0]}" -3600                  # on time
handed_in "${ids[1]}" 900                    # exactly at the end of the grace
handed_in "${ids[2]}" 901                    # one second after it: 1 day, 10 %
handed_in "${ids[3]}" $((900 + 3 * day))     # the last second of max-days: 3 days, 30 %
handed_in "${ids[4]}" $((900 + 3 * day + 1)) # one second past: not accepted
cp -r "$work/gen/${ids[5]}" "$work/class/"   # copied now: only the files' times
handed_in "${ids[6]}" $((2 * day))           # late by the class's deadline, on time by the extension
have_git=0
if git --version >/dev/null 2>&1; then
  have_git=1
  mkdir -p "$work/class/${ids[7]}"
  cp "$work/gen/${ids[7]}"/* "$work/class/${ids[7]}/"
  (cd "$work/class/${ids[7]}" && git init -q . && git add . &&
    GIT_COMMITTER_DATE=2026-01-16T00:00:00Z GIT_AUTHOR_DATE=2026-01-16T00:00:00Z \
      git -c user.name=s -c user.email=s@example.org -c commit.gpgsign=false commit -q -m hw)
else
  handed_in "${ids[7]}" "$day"
fi
printf 'student,deadline,reason\n%s,2026-01-18T00:00:00Z,flu\n' "${ids[6]}" >"$work/extensions.csv"

grade=("$cugrade" grade vecadd -S "$work/class" --backend cpu -j 2 --progress none "${unsealed[@]}")
policy=(--deadline "$deadline" --late-policy "grace=15m,per-day=10%,max-days=3" --extensions "$work/extensions.csv")

# 1. Bad input: exit 1, a message, and no --out written.
refused() {  # refused WHAT PATTERN ARGS...: exit 1, PATTERN on stderr, nothing written
  local what=$1 pattern=$2 rc=0
  shift 2
  "${grade[@]}" -o "$work/refused" "$@" >"$work/refused.out" 2>"$work/refused.err" || rc=$?
  [ "$rc" -eq 1 ] || { cat "$work/refused.err" >&2; fail "$what exited $rc (want 1)"; }
  grep -q -- "$pattern" "$work/refused.err" || { cat "$work/refused.err" >&2; fail "$what did not say: $pattern"; }
  [ ! -e "$work/refused" ] || fail "$what wrote its --out before refusing"
  rm -rf "$work/refused"
}
refused "a grace without its unit" "grace=15: give a whole number and its unit" \
  --deadline "$deadline" --late-policy "grace=15,per-day=10%"
refused "per-day without its percent sign" "write the percent sign" --deadline "$deadline" --late-policy "per-day=10"
refused "a policy without --deadline" "give --deadline too" --late-policy "per-day=10%"
printf 'student,deadline\n%sx,2026-01-18T00:00:00Z\n' "${ids[0]}" >"$work/unknown.csv"
refused "an extension of a student with no submission" "no submission in this class: '${ids[0]}x'; did you mean '${ids[0]}'?" \
  --deadline "$deadline" --extensions "$work/unknown.csv"
printf 'student,deadline\n%s,2026-01-32\n' "${ids[0]}" >"$work/baddate.csv"
refused "an extension's bad date" "baddate.csv:2: the deadline of '${ids[0]}'" \
  --deadline "$deadline" --extensions "$work/baddate.csv"

# 2. The policy.
rc=0
"${grade[@]}" -o "$work/out" "${policy[@]}" >"$work/first.out" 2>"$work/first.err" || rc=$?
[ "$rc" -eq 0 ] || { cat "$work/first.err" >&2; fail "grade with a late policy exited $rc (want 0)"; }
book=$work/out/gradebook.csv
head -1 "$book" | tr -d '\r' |
  grep -qx 'student,score,max_score,vecadd,outcome,gradable,submitted_at,submitted_from,late,due,days_late,raw_score,penalty,late_outcome,note' ||
  fail "unexpected header: $(head -1 "$book")"
row_is() {  # row_is ID SCORE SOURCE DUE DAYS RAW PENALTY OUTCOME
  local got
  got=$(grep "^$1," "$book" | tr -d '\r' | cut -d, -f2,8,10-14)
  [ "$got" = "$2,$3,$4,$5,$6,$7,$8" ] || fail "$1: want score,from,due,days,raw,penalty,outcome $2,$3,$4,$5,$6,$7,$8; got $got"
}
row_is "${ids[0]}" 4 archive "$deadline" 0 4 0 on_time
row_is "${ids[1]}" 4 archive "$deadline" 0 4 0 in_grace
row_is "${ids[2]}" 3.6 archive "$deadline" 1 4 0.4 late
row_is "${ids[3]}" 2.8 archive "$deadline" 3 4 1.2 late
row_is "${ids[4]}" 0 archive "$deadline" 4 4 4 too_late
row_is "${ids[5]}" 4 files "$deadline" "" 4 0 time_unknown
row_is "${ids[6]}" 4 archive 2026-01-18T00:00:00Z 0 4 0 on_time
if [ "$have_git" -eq 1 ]; then row_is "${ids[7]}" 3.6 git "$deadline" 1 4 0.4 late; fi
grep -q "Late policy: 15 min grace, then 10 % per started day, not accepted after 3 days; 1 extension" "$work/first.out" ||
  { cat "$work/first.out" >&2; fail "the console did not give the policy"; }
grep -q "Hand-in time unknown for 1 .*: ${ids[5]}$" "$work/first.out" || fail "the console did not name the student of unknown time"
grep -q "late (1 d): −0.4 (10 %) → 3.6" "$work/out/summary.html" || fail "summary.html does not show the penalty"
grep -q "final score 3.6 of 4" "$work/out/students/${ids[2]}/report.md" || fail "the late student's report has no note"
grep -q "Not accepted" "$work/out/students/${ids[4]}/report.html" || fail "the too-late student's report does not say so"
grep -q "no late penalty was applied" "$work/out/students/${ids[5]}/report.md" || fail "the unknown time is not in the report"
[ ! -e "$work/out/regrade.csv" ] || fail "a first grading wrote regrade.csv"
grep -q "^Regrade:" "$work/first.out" && fail "a first grading printed a regrade line"

# 3. Graded again.
rc=0
"${grade[@]}" -o "$work/out" "${policy[@]}" >"$work/same.out" 2>&1 || rc=$?
[ "$rc" -eq 0 ] || fail "the second run exited $rc"
[ ! -e "$work/out/regrade.csv" ] || fail "an unchanged class wrote regrade.csv"
grep -q "^Regrade:" "$work/same.out" && fail "an unchanged class printed a regrade line"
# Each case worth 2 points, and one student's file replaced by the template (which fails).
sed -i 's/^    points: 1$/    points: 2/' "$spec"
grep -q '^    points: 2$' "$spec" || { fail "the spec edit did not apply"; exit 1; }
broken=${ids[0]}
mkdir -p "$work/tmp/$broken"
cp "$src/templates/vecadd"/*.cu "$work/tmp/$broken/"
rm "$work/class/$broken.tar.gz"
tar -czf "$work/class/$broken.tar.gz" -C "$work/tmp" "$broken"
rc=0
"${grade[@]}" -o "$work/out" "${policy[@]}" >"$work/again.out" 2>"$work/again.err" || rc=$?
[ "$rc" -eq 0 ] || { cat "$work/again.err" >&2; fail "the regrade exited $rc"; }
diff=$work/out/regrade.csv
[ -f "$diff" ] || { cat "$work/again.out" >&2; fail "no regrade.csv after the spec changed"; exit 1; }
head -1 "$diff" | tr -d '\r' | grep -qx 'student,old_score,new_score,difference,max_score,steps,outcome,what_changed' ||
  fail "unexpected regrade.csv header: $(head -1 "$diff")"
[ "$(($(wc -l <"$diff") - 1))" -eq 8 ] || fail "regrade.csv has $(($(wc -l <"$diff") - 1)) rows, not 8"
grep -q "^${ids[2]},4,8,4,8,vecadd: 4 → 8,,the assignment's spec (assignment.yaml has changed)" "$diff" ||
  fail "${ids[2]}: $(grep "^${ids[2]}," "$diff")"
grep "^$broken," "$diff" | grep -q ",4,0,-4,8,vecadd: 4 → 0,passed → [a-z_]*,the submission's files; the assignment's spec" ||
  fail "$broken: $(grep "^$broken," "$diff")"
grep -q "^Regrade: 8 of 8 students graded again got a new score: $diff (old, new and what changed).$" "$work/again.out" ||
  { cat "$work/again.out" >&2; fail "no console line for the regrade"; }
row_is "${ids[2]}" 7.2 archive "$deadline" 1 8 0.8 late  # the policy on the new raw score
# A spec edit that changes no score: no regrade.csv left to mislead.
printf '# a comment\n' >>"$spec"
rc=0
"${grade[@]}" -o "$work/out" "${policy[@]}" >"$work/comment.out" 2>&1 || rc=$?
[ "$rc" -eq 0 ] || fail "the third run exited $rc"
[ ! -e "$diff" ] || fail "regrade.csv is still there though no score changed"
grep -q "^Regrade: 8 students graded again, no score changed (no regrade.csv).$" "$work/comment.out" ||
  { cat "$work/comment.out" >&2; fail "no console line saying no score changed"; }
# Another build of cugrade, made up in the stored results as the spec edits above were made in
# the spec: one student graded by an older version (whose grader gave 0 points), one by another
# build of this version (the same score). Both are graded again, the others kept; regrade.csv has
# the one whose score changed, and says cugrade changed.
fake_build() {  # fake_build ID BUILD [zero]: results/ID.json as if graded by BUILD (and, with zero, scored 0)
  python3 - "$work/out/results/$1.json" "$2" "${3:-}" <<'PY'
import json, sys
path, build, zero = sys.argv[1:]
record = json.load(open(path, encoding="utf-8"))
now = record["graded_with"]["cugrade"]
record["graded_with"]["cugrade"] = build.replace("VERSION", now.split(" #")[0])
if zero:
    record["report"]["score"] = 0
    for case in record["report"]["cases"]:
        case["points"] = 0
json.dump(record, open(path, "w", encoding="utf-8"))
print(now.split(" #")[0])
PY
}
version=$(fake_build "${ids[1]}" "0.0.9 #0123456789abcdef" zero)
fake_build "${ids[3]}" "VERSION #0000000000000000" >/dev/null
rc=0
# (--progress lines: the log says why each student is graded again)
"$cugrade" grade vecadd -S "$work/class" --backend cpu -j 2 --progress lines "${unsealed[@]}" -o "$work/out" \
  "${policy[@]}" >"$work/build.out" 2>&1 || rc=$?
[ "$rc" -eq 0 ] || fail "the run after a new cugrade exited $rc"
grep -q "${ids[1]}: graded again: it was graded with other settings: cugrade (0.0.9, now $version)" "$work/build.out" ||
  { cat "$work/build.out" >&2; fail "no reason given for grading ${ids[1]} again"; }
grep -q "${ids[3]}: graded again: it was graded with other settings: cugrade's build ($version rebuilt" "$work/build.out" ||
  fail "no reason given for grading ${ids[3]} again"
[ "$(grep -c ": graded again: " "$work/build.out")" -eq 2 ] || fail "others than the two were graded again"
[ -f "$diff" ] || { cat "$work/build.out" >&2; fail "no regrade.csv after a new cugrade"; }
[ "$(($(wc -l <"$diff") - 1))" -eq 1 ] || fail "regrade.csv after a new cugrade: $(cat "$diff")"
grep -q "^${ids[1]},0,8,8,8,vecadd: 0 → 8,,\"cugrade (0.0.9, now $version)\"" "$diff" ||
  fail "${ids[1]} in regrade.csv after a new cugrade: $(cat "$diff")"
grep -q "^Regrade: 1 of 2 students graded again got a new score: $diff" "$work/build.out" ||
  fail "no console line for the regrade after a new cugrade"

# 4. The same class in two parts (--shard, as Slurm's tasks grade it), then --collect: the policy
#    applied by the collect, and the parts' regrades gathered into one regrade.csv.
in_parts() {  # in_parts NAME: both parts into $work/parts, then the collect (its console in NAME.out)
  local i rc=0
  for i in 1 2; do
    "${grade[@]}" -o "$work/parts" --shard "$i/2" >"$work/$1-$i.out" 2>&1 || rc=$?
  done
  "$cugrade" grade vecadd -S "$work/class" -o "$work/parts" --collect "${policy[@]}" >"$work/$1.out" 2>&1 || rc=$?
  [ "$rc" -eq 0 ] || { cat "$work/$1"*.out >&2; fail "grading in parts ($1) exited $rc"; }
}
in_parts parts
book=$work/parts/gradebook.csv
row_is "${ids[2]}" 7.2 archive "$deadline" 1 8 0.8 late
[ ! -e "$work/parts/regrade.csv" ] || fail "a first grading in parts wrote regrade.csv"
sed -i 's/^    points: 2$/    points: 3/' "$spec"
in_parts parts-again
[ -f "$work/parts/regrade.csv" ] || { cat "$work/parts-again.out" >&2; fail "no regrade.csv from the parts"; }
grep -q "^${ids[2]},8,12,4,12,vecadd: 8 → 12,,the assignment's spec (assignment.yaml has changed)" "$work/parts/regrade.csv" ||
  fail "${ids[2]} in the parts' regrade.csv: $(grep "^${ids[2]}," "$work/parts/regrade.csv")"
grep -q "^Regrade: 7 of 8 students graded again got a new score: $work/parts/regrade.csv" "$work/parts-again.out" ||
  { cat "$work/parts-again.out" >&2; fail "the collect did not give the parts' regrade"; }
[ ! -e "$work/parts/.regrade-parts" ] || fail "the collect left the parts' files"
row_is "${ids[2]}" 10.8 archive "$deadline" 1 12 1.2 late

[ "$failures" -eq 0 ] || { echo "$failures failure(s)" >&2; exit 1; }
echo "late policy, extensions and regrade diffs: ok"
