#!/usr/bin/env bash
# Right grades in real course set-ups (see tests.cmake): the real cugrade on the CPU backend.
#  1. Relative paths, as the README writes them: `grade -S class -o out --keep-work` and
#     `check -s FILE --keep-work kw` from the folder above them grade correct files in full.
#  2. `--backend cuda` where no GPU is usable: a harness error said once (exit 3), no Gradescope
#     result file, PrairieLearn's gradable: false; `grade` grades no one.
#  3. The late flag from the submission's own evidence: a git repository copied just now is
#     on time by its commit, a folder with Gradescope's submission_metadata.json beside its
#     submission/ by its created_at (the same file among the student's own files counts for
#     nothing), an archive by its entries' times; a plain folder copied now is late by its
#     files' times; the gradebook says which source each row used.
#  4. Usage mistakes are exit 1 before anything is graded or written: --out the submissions
#     folder itself, -j below 1, `init` onto a file, an empty --fail-under.
#  5. A course author lints a copy of a spec by its path, against the assignment's grader.
#  6. Canvas's "Download Submissions", unzipped: every file loose and named by its student; each
#     student's files graded together under their own names (a header included by its name, also
#     where Canvas renamed it "-1" on a second hand-in, an uploaded zip unpacked), late as Canvas marked it (the files' times are the download's), the
#     --out folder among them not in the way, and a second run grading no one.
#  7. Blackboard's "Assignment File Download", unzipped: every file loose and named by its student
#     and attempt; each student's last attempt graded under its own names (an earlier wrong one
#     skipped, a user name with "_" whole, an uploaded archive unpacked, an attempt of text alone
#     not gradable), handed in at the attempt's time in the names, a second run grading no one.
#   course_setups.sh CUGRADE SOURCE_ROOT
set -euo pipefail
cugrade=$(realpath "$1") src=$(realpath "$2")
work=$(mktemp -d "${TMPDIR:-/tmp}/cugrade-setups-XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# The batch test's copy of vecadd (fewer cases, 2 s per case).
mkdir -p "$work/root/assignments"
cp -r "$src/assignments/vecadd" "$work/root/assignments/"
cp "$src/harness/tests/data/batch/vecadd_batch.yaml" "$work/root/assignments/vecadd/assignment.yaml"
export CUGRADE_ROOT=$work/root CUGRADE_NVCC=/nonexistent/nvcc
good=$src/graders/vecadd/solutions/good/grid_stride.cu
unsealed=()
if "$cugrade" grade --help 2>/dev/null | grep -q -- --allow-unsealed; then unsealed=(--allow-unsealed); fi

# 1. Relative --out, --submissions and --keep-work.
mkdir -p "$work/ta/class/alice" "$work/ta/class/bob"
cp "$good" "$work/ta/class/alice/vecadd.cu"
cp "$good" "$work/ta/class/bob/vecadd.cu"
cd "$work/ta"
rc=0
"$cugrade" grade vecadd -S class -o out --keep-work --backend cpu -j 2 --progress none "${unsealed[@]}" \
  >grade.out 2>grade.err || rc=$?
[ "$rc" -eq 0 ] || fail "grade with relative paths exited $rc (want 0)"
got=$(grep -c ',4,4,4,passed,yes,' out/gradebook.csv 2>/dev/null || true)
[ "${got:-0}" -eq 2 ] || { cat out/gradebook.csv grade.out grade.err >&2 || true; fail "relative --out: $got of 2 correct submissions got 4 of 4"; }
[ -d out/work/alice ] || fail "--keep-work kept no out/work/alice"
rc=0
"$cugrade" check vecadd -s class/alice/vecadd.cu --keep-work kw --backend cpu --report json=check.json \
  >check.out 2>&1 || rc=$?
[ "$rc" -eq 0 ] || { cat check.out >&2; fail "check with a relative --keep-work exited $rc (want 0)"; }
grep -q '"outcome": "passed"' check.json 2>/dev/null || fail "check with a relative --keep-work did not pass"
[ -d kw ] || fail "check --keep-work kw kept no kw/"

# 2. --backend cuda without a usable GPU.
rc=0
CUDA_VISIBLE_DEVICES=-1 "$cugrade" check vecadd -s class/alice/vecadd.cu --backend cuda --report gradescope=gs.json \
  --report prairielearn=pl.json --report json=cuda.json >cuda.out 2>cuda.err || rc=$?
[ "$rc" -eq 3 ] || fail "check --backend cuda without a GPU exited $rc (want 3: harness error)"
[ ! -e gs.json ] || fail "check --backend cuda without a GPU wrote a Gradescope result"
grep -q '"gradable": false' pl.json 2>/dev/null || fail "PrairieLearn's result is not gradable: false"
grep -q '"outcome": "harness_error"' cuda.json 2>/dev/null || fail "the report's outcome is not harness_error"
said=$(grep -c 'no usable NVIDIA GPU' cuda.err || true)
[ "$said" -eq 1 ] || { cat cuda.err >&2; fail "no GPU said $said times on stderr (want once)"; }
said=$(grep -c 'no usable NVIDIA GPU' cuda.out || true)
[ "$said" -le 1 ] || fail "no GPU said $said times in the console report (want at most once)"
rc=0
CUDA_VISIBLE_DEVICES=-1 "$cugrade" grade vecadd -S class -o out-cuda --backend cuda --progress none "${unsealed[@]}" \
  >grade-cuda.out 2>grade-cuda.err || rc=$?
[ "$rc" -eq 3 ] || fail "grade --backend cuda without a GPU exited $rc (want 3)"
[ ! -e out-cuda/students ] || fail "grade --backend cuda without a GPU wrote students' results"
grep -q 'no usable NVIDIA GPU' grade-cuda.err || fail "grade --backend cuda without a GPU did not say why"

# 3. The late flag. Every file below is copied now, long after the deadline.
late=$work/late
mkdir -p "$late/plain" "$late/meta/submission" "$late/forged" "$late/tmp/erin"
cp "$good" "$late/plain/vecadd.cu"
# Gradescope's layout: its metadata beside the folder of the student's files.
cp "$good" "$late/meta/submission/vecadd.cu"
printf '{"id": 7, "created_at": "2025-12-31T16:00:00.123456-08:00", "users": []}\n' >"$late/meta/submission_metadata.json"
# The same file among the student's own files is theirs: no evidence.
cp "$good" "$late/forged/vecadd.cu"
printf '{"id": 8, "created_at": "2025-12-31T16:00:00Z"}\n' >"$late/forged/submission_metadata.json"
cp "$good" "$late/tmp/erin/vecadd.cu"
touch -d 2026-01-01T00:00:00Z "$late/tmp/erin/vecadd.cu"
tar -czf "$late/erin.tar.gz" -C "$late/tmp" erin
rm -rf "$late/tmp"
expect=("plain,files,yes" "meta,gradescope,no" "forged,files,yes" "erin,archive,no")
if git --version >/dev/null 2>&1; then
  mkdir -p "$work/origin"
  cp "$good" "$work/origin/vecadd.cu"
  (cd "$work/origin" && git init -q . && git add vecadd.cu &&
    GIT_COMMITTER_DATE=2026-01-01T00:00:00Z GIT_AUTHOR_DATE=2026-01-01T00:00:00Z \
      git -c user.name=s -c user.email=s@example.org -c commit.gpgsign=false commit -q -m hw)
  git clone -q "$work/origin" "$late/cloned"
  expect+=("cloned,git,no")
fi
rc=0
"$cugrade" grade vecadd -S "$late" -o "$work/late-out" --deadline 2026-01-15 --backend cpu -j 2 --progress none \
  "${unsealed[@]}" >late.out 2>late.err || rc=$?
[ "$rc" -eq 0 ] || { cat late.err >&2; fail "grade with --deadline exited $rc"; }
book=$work/late-out/gradebook.csv
head -1 "$book" | grep -q ',submitted_at,submitted_from,late,' || fail "the gradebook has no submitted_from column"
for row in "${expect[@]}"; do
  IFS=, read -r id source is_late <<<"$row"
  grep -q "^$id,4,4,4,passed,yes,[^,]*,$source,$is_late," "$book" ||
    fail "$id: want time from $source, late $is_late; got: $(grep "^$id," "$book" || echo 'no row')"
done

# 4. Usage mistakes.
usage_error() {  # usage_error WHAT: the command after it must exit 1, having written nothing
  local what=$1 rc=0
  shift
  "$@" >usage.out 2>usage.err || rc=$?
  [ "$rc" -eq 1 ] || { cat usage.out usage.err >&2; fail "$what exited $rc (want 1)"; }
}
cd "$work/ta"
usage_error "grade --out the submissions folder" \
  "$cugrade" grade vecadd -S class -o class/ --backend cpu --progress none "${unsealed[@]}"
[ ! -e class/results ] || fail "grade --out the submissions folder wrote results into it"
grep -q 'submissions folder itself' usage.err || fail "grade --out the submissions folder did not say why"
usage_error "grade -j -3" "$cugrade" grade vecadd -S class -o out-j --backend cpu -j -3 "${unsealed[@]}"
[ ! -e out-j ] || fail "grade -j -3 wrote its --out"
usage_error "grade -j 0" "$cugrade" grade vecadd -S class -o out-j --backend cpu -j 0 "${unsealed[@]}"
touch afile
usage_error "init onto a file" env CUGRADE_ROOT="$src" "$cugrade" init vecadd afile
grep -q 'not a folder' usage.err || fail "init onto a file did not say why"
usage_error "check --fail-under ''" "$cugrade" check vecadd -s "$good" --backend cpu --fail-under ""

# 5. A spec linted by its path.
mkdir -p "$work/draft"
cp -r "$src/assignments/vecadd" "$work/draft/"
rc=0
"$cugrade" lint "$work/draft/vecadd/assignment.yaml" >lint.out 2>lint.err || rc=$?
[ "$rc" -eq 0 ] || { cat lint.out lint.err >&2; fail "lint of a copy by its path exited $rc (want 0)"; }
sed -i 's/{n: 1048579}\]/{n: 1048579}, {n: 200000000}]/' "$work/draft/vecadd/assignment.yaml"
rc=0
"$cugrade" lint "$work/draft/vecadd" >lint.out 2>lint.err || rc=$?
[ "$rc" -eq 2 ] || fail "lint of a copy with a size past its memory exited $rc (want 2)"
grep -q "^$work/draft/vecadd/assignment.yaml:[0-9]*:[0-9]*: size .* needs at least" lint.err ||
  { cat lint.err >&2; fail "lint of a copy by its path did not name the size with file:line:column"; }

# 6. Canvas's download. Its files' times are now, long after the deadline: they must not count.
canvas=$work/canvas
mkdir -p "$canvas" "$work/zip/hw1"
# One student's kernel includes their own header: it must be found under the name they gave it.
printf '#pragma once\n#define THREADS 256\n' >"$canvas/smithjohn_1234_901_threads.cuh"
{ echo '#include "threads.cuh"'; cat "$good"; } >"$canvas/smithjohn_1234_902_vecadd.cu"
# Another handed both in again: Canvas renamed them; the include of the old name must still work.
printf '#pragma once\n#define THREADS 128\n' >"$canvas/kimmin_1260_905_threads-1.cuh"
{ echo '#include "threads.cuh"'; cat "$good"; } >"$canvas/kimmin_1260_906_vecadd-1.cu"
cp "$good" "$canvas/doejane_late_1240_903_vecadd.cu"
printf '<p>my file is attached</p>\n' >"$canvas/doejane_late_1240_text.html"
cp "$good" "$work/zip/hw1/vecadd.cu"
(cd "$work/zip" && tar -cf - hw1) | gzip -n >"$canvas/leeann_1250_904_hw1.tar.gz"
rc=0
"$cugrade" grade vecadd -S "$canvas" -o "$canvas/grades" --deadline 2026-01-15 --backend cpu -j 2 --progress lines \
  "${unsealed[@]}" >canvas.out 2>canvas.err || rc=$?
[ "$rc" -eq 0 ] || { cat canvas.err >&2; fail "grade of Canvas's download exited $rc"; }
grep -q "^cugrade: Canvas's download: the files of 4 students" canvas.err || fail "the log does not say it read Canvas's download"
book=$canvas/grades/gradebook.csv
for row in "smithjohn_1234,canvas: on time,no" "doejane_1240,canvas: late,yes" "leeann_1250,canvas: on time,no" \
  "kimmin_1260,canvas: on time,no"; do
  IFS=, read -r id source is_late <<<"$row"
  grep -q "^$id,4,4,4,passed,yes,,$source,$is_late," "$book" ||
    fail "$id: want passed, late $is_late by Canvas's mark; got: $(grep "^$id," "$book" || echo 'no row')"
done
rc=0
"$cugrade" grade vecadd -S "$canvas" -o "$canvas/grades" --deadline 2026-01-15 --backend cpu -j 2 --progress lines \
  "${unsealed[@]}" >canvas.out 2>canvas.err || rc=$?
[ "$rc" -eq 0 ] || fail "the second run over Canvas's download exited $rc"
grep -q "grading 0, 4 already graded" canvas.err || fail "the second run graded someone: $(head -2 canvas.err)"

# 7. Blackboard's download. Its files' times are now, long after the deadline: the names' count.
bb=$work/blackboard
hw="Lab 1 Vecadd_"
mkdir -p "$bb" "$work/bbzip/hw1"
# jsmith: a wrong first attempt, then a right one before the deadline with a header of their own.
cp "$src/graders/vecadd/solutions/bad/off_by_one.cu" "$bb/${hw}jsmith_attempt_2026-01-10-09-00-00_vecadd.cu"
printf 'Name: John Smith (jsmith)\nAssignment: Lab 1 Vecadd\n' >"$bb/${hw}jsmith_attempt_2026-01-10-09-00-00.txt"
printf '#pragma once\n#define THREADS 256\n' >"$bb/${hw}jsmith_attempt_2026-01-14-22-00-00_threads.cuh"
{ echo '#include "threads.cuh"'; cat "$good"; } >"$bb/${hw}jsmith_attempt_2026-01-14-22-00-00_vecadd.cu"
printf 'Name: John Smith (jsmith)\nAssignment: Lab 1 Vecadd\n' >"$bb/${hw}jsmith_attempt_2026-01-14-22-00-00.txt"
# a_doe: an archive, a day late.
cp "$good" "$work/bbzip/hw1/vecadd.cu"
(cd "$work/bbzip" && tar -cf - hw1) | gzip -n >"$bb/${hw}a_doe_attempt_2026-01-16-08-30-00_hw1.tar.gz"
printf 'Name: Ann Doe (a_doe)\nAssignment: Lab 1 Vecadd\n' >"$bb/${hw}a_doe_attempt_2026-01-16-08-30-00.txt"
# zed: text in Blackboard's box, no file.
printf 'Name: Zed (zed)\nAssignment: Lab 1 Vecadd\nSubmission Field:\nmy code is below\n' \
  >"$bb/${hw}zed_attempt_2026-01-15-12-00-00.txt"
rc=0
TZ=UTC "$cugrade" grade vecadd -S "$bb" -o "$bb/grades" --deadline 2026-01-15 --backend cpu -j 2 --progress lines \
  "${unsealed[@]}" >bb.out 2>bb.err || rc=$?
[ "$rc" -eq 0 ] || { cat bb.err >&2; fail "grade of Blackboard's download exited $rc"; }
grep -q "^cugrade: Blackboard's download: the files of 3 students" bb.err ||
  fail "the log does not say it read Blackboard's download"
grep -q "skipped jsmith: attempt 2026-01-10-09-00-00 not graded" bb.err || fail "jsmith's earlier attempt was not said to be skipped"
book=$bb/grades/gradebook.csv
grep -q "^jsmith,4,4,4,passed,yes,2026-01-14T22:00:00Z,blackboard,no," "$book" ||
  fail "jsmith: want the last attempt passed, on time; got: $(grep "^jsmith," "$book" || echo 'no row')"
grep -q "^a_doe,4,4,4,passed,yes,2026-01-16T08:30:00Z,blackboard,yes," "$book" ||
  fail "a_doe: want passed, late; got: $(grep "^a_doe," "$book" || echo 'no row')"
grep -q "^zed,0,4,0,not_run,no,,nothing handed in,,\"the attempt holds no file, only the text" "$book" ||
  fail "zed: want not gradable, nothing handed in; got: $(grep "^zed," "$book" || echo 'no row')"
rc=0
TZ=UTC "$cugrade" grade vecadd -S "$bb" -o "$bb/grades" --deadline 2026-01-15 --backend cpu -j 2 --progress lines \
  "${unsealed[@]}" >bb.out 2>bb.err || rc=$?
[ "$rc" -eq 0 ] || fail "the second run over Blackboard's download exited $rc"
grep -q "grading 0, 3 already graded" bb.err || fail "the second run graded someone: $(head -2 bb.err)"

if [ "$failures" -gt 0 ]; then
  echo "$failures failure(s)" >&2
  exit 1
fi
echo "course set-ups: all passed"
