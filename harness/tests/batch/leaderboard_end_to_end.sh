#!/usr/bin/env bash
# The class's leaderboard and Classroom 50's result, end to end on the CPU backend (CTest label
# cpu): a generated class of transpose (the reference, known solutions, broken copies) graded by the
# real cugrade with a course secret; leaderboard.html and .csv written and linked from summary.html;
# on the CPU backend no time counts, and the page says so in words with the reason and how many;
# each student's own reports name their pseudonym (and no one else's);
# `--collect` writes them too: without the secret nobody can be named and the page says why, with
# --leaderboard-names it says it is for the staff. Then `cugrade check --report classroom50=...`
# inside Classroom 50's environment writes a result that follows Classroom 50's schema, and outside
# it refuses before grading, naming what is missing.
#   leaderboard_end_to_end.sh CUGRADE SOURCE_ROOT [COUNT]
set -euo pipefail
cugrade=$1 src=$2 count=${3:-6}
work=$(mktemp -d "${TMPDIR:-/tmp}/cugrade-leaderboard-XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
has() { grep -qF -- "$2" "$1" || fail "$1 lacks: $2"; }

export CUGRADE_NVCC=/nonexistent/nvcc  # the CPU backend's own compiler says what compiles
"$src/scripts/make-class.sh" transpose "$count" "$work/class" --expected "$work/expected.csv" >/dev/null
sealing=()
if "$cugrade" grade transpose -S "$work/class" -o "$work/probe" --backend cpu --shard 1/1000 -q 2>&1 |
  grep -q "the sandbox does not work here"; then
  echo "note: the sandbox does not work here: --allow-unsealed"
  sealing=(--allow-unsealed)
fi
(umask 077 && printf 'leaderboard test secret' >"$work/secret")

rc=0
"$cugrade" grade transpose -S "$work/class" -o "$work/out" --backend cpu -j 2 --progress none \
  --secret-file "$work/secret" "${sealing[@]}" >"$work/grade.out" 2>&1 || rc=$?
[ "$rc" -eq 0 ] || { cat "$work/grade.out" >&2; fail "grade exited $rc"; }
page=$work/out/leaderboard.html csv=$work/out/leaderboard.csv
if [ ! -f "$page" ] || [ ! -f "$csv" ]; then fail "no leaderboard.html or leaderboard.csv"; exit 1; fi
has "$work/out/summary.html" '<a href="leaderboard.html">Speed leaderboard</a>'
# The CPU backend times nothing: a header and no row, and words on the page, not an empty table.
[ "$(cat "$csv")" = "board,step,size,rank,student,time_ms,reference_ms,ratio,rate,rate_unit" ] ||
  fail "leaderboard.csv has rows or another header: $(head -3 "$csv")"
has "$page" "No submission qualifies yet"
grep -q '<table class="leaderboard"' "$page" && fail "an empty leaderboard drew a table"
passed=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "outcome") col = i }
                 NR > 1 && $col == "passed"' "$work/out/gradebook.csv" | wc -l)
[ "$passed" -gt 0 ] || fail "no submission of the class passed: the class is not what this test needs"
has "$page" "<tr><td>not timed on a GPU</td><td class=\"num\">$passed</td></tr>"
has "$page" "pseudonyms derived from the course secret"
for student in $(cut -d, -f1 "$work/expected.csv" | tail -n +2); do
  grep -qF "$student" "$page" && fail "the leaderboard names $student"
done
# Each student's own reports tell them their pseudonym, HMAC-SHA256 of their id under the course
# secret (computed here apart from cugrade), and nobody else's.
pseudonyms=$work/pseudonyms.txt
python3 - "$work/secret" "$work/expected.csv" >"$pseudonyms" <<'PY'
import csv, hashlib, hmac, sys
secret = open(sys.argv[1], "rb").read()
for row in csv.DictReader(open(sys.argv[2])):
    print(row["student"], "anon-" + hmac.new(secret, b"cugrade/leaderboard/" + row["student"].encode(), hashlib.sha256).hexdigest()[:8])
PY
[ "$(wc -l <"$pseudonyms")" -eq "$count" ] || fail "$(wc -l <"$pseudonyms") pseudonyms for $count students"
names=$(cut -d' ' -f2 "$pseudonyms")
while read -r student name; do
  for file in report.md report.html report.json gradescope-results.json; do
    has "$work/out/students/$student/$file" "leaderboard you are $name"
    others=$(printf '%s\n' "$names" | grep -vxF "$name" | grep -cFf - "$work/out/students/$student/$file" || true)
    [ "$others" -eq 0 ] || fail "$student's $file names another student's pseudonym"
  done
done <"$pseudonyms"

# --collect writes it too; without the secret it cannot name anyone, and says so.
rc=0
"$cugrade" grade transpose -S "$work/class" -o "$work/out" --collect >"$work/collect.out" 2>&1 || rc=$?
[ "$rc" -eq 0 ] || { cat "$work/collect.out" >&2; fail "--collect exited $rc"; }
has "$page" "Nobody is listed"
has "$page" "--secret-file"
grep -q "anon-" "$work/out/students/$(head -1 "$pseudonyms" | cut -d' ' -f1)/report.md" &&
  fail "a collect without the secret left a pseudonym in a student's report"
rc=0
"$cugrade" grade transpose -S "$work/class" -o "$work/out" --collect --leaderboard-names >"$work/named.out" 2>&1 || rc=$?
[ "$rc" -eq 0 ] || fail "--collect --leaderboard-names exited $rc"
has "$page" "keep this page to the course staff"
has "$work/out/summary.html" 'href="leaderboard.html"'

# Classroom 50: the identity its runner sets for an autograder, then a result its schema accepts.
solution=$work/class/$(awk -F, '$2 == "reference" { print $1; exit }' "$work/expected.csv")
rc=0
env -u CLASSROOM -u ASSIGNMENT -u OWNER -u USERNAME -u SUBMISSION_TAG -u COMMIT_URL -u RELEASE_URL \
  "$cugrade" check transpose -s "$solution" --backend cpu -q --report "classroom50=$work/result.json" \
  >"$work/outside.out" 2>&1 || rc=$?
[ "$rc" -eq 1 ] || fail "--report classroom50 outside Classroom 50 exited $rc, not 1 (usage)"
has "$work/outside.out" "CLASSROOM, ASSIGNMENT, OWNER (or USERNAME), SUBMISSION_TAG, COMMIT_URL, RELEASE_URL not set"
[ -e "$work/result.json" ] && fail "a result.json was written without Classroom 50's identity"
rc=0
CLASSROOM=gpu-course ASSIGNMENT=transpose USERNAME=alice SUBMISSION_TAG=submit/2026-12-01T10-00-00Z-a1b2c3d \
  COMMIT_URL=https://github.com/gpu-course/gpu-course-transpose-alice/commit/a1b2c3d \
  RELEASE_URL=https://github.com/gpu-course/gpu-course-transpose-alice/releases/tag/submit%2F2026-12-01T10-00-00Z-a1b2c3d \
  "$cugrade" check transpose -s "$solution" --backend cpu -q --report "classroom50=$work/result.json" \
  >"$work/inside.out" 2>&1 || rc=$?
[ "$rc" -eq 0 ] || { cat "$work/inside.out" >&2; fail "check with --report classroom50 exited $rc"; }
if python3 -c 'import jsonschema' 2>/dev/null; then
  python3 - "$src/harness/tests/report/data/classroom50/result-v1.schema.json" "$work/result.json" <<'PY' ||
import json, sys
from jsonschema import Draft202012Validator
result = json.load(open(sys.argv[2]))
Draft202012Validator(json.load(open(sys.argv[1]))).validate(result)
assert result["score"] == result["max-score"] > 0, (result["score"], result["max-score"])
assert result["owner"] == "alice" and all(t["passed"] for t in result["tests"]), result["tests"]
PY
    fail "the reference's result.json does not follow Classroom 50's schema with full marks"
else
  echo "note: no jsonschema for python3: result.json not validated here (report/classroom50_schema does in CI)"
fi

[ "$failures" -eq 0 ] || exit 1
echo "leaderboard_end_to_end: $count submissions; leaderboard written, linked, empty with its reason; collect; Classroom 50 result valid"
