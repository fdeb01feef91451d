#!/usr/bin/env bash
# Files are data, end to end (see tests.cmake): the real cugrade on the CPU backend.
#  1. `cugrade grade` over a class whose ids and file names hold quotes, newlines, spaces, $(...),
#     backticks, bytes that are not UTF-8 and 255 bytes, each a correct vecadd: every one gets
#     full marks and a row, and no command in a name runs. Beside them, submissions that are a
#     link to a secret, a link to /dev/zero, a named pipe, a file past the size limit, a link as
#     the student's entry: each is that student's not_run result with its reason, the batch does
#     not wait on the pipe, and the secret appears nowhere in OUT.
#  2. `cugrade check` with the course secret (in the environment, then as --secret-file) and
#     --keep-work, on a correct file that writes down its environment, command line and its
#     parent's environment: the secret is in none of them, nor anywhere in the work folder.
#   hostile_files.sh CUGRADE SOURCE_ROOT
# The names below hold $(...) and backticks on purpose: they must never expand.
# shellcheck disable=SC2016
set -euo pipefail
cugrade=$1 src=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/cugrade-hostile-XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# The batch test's copy of vecadd (fewer cases, 2 s per case), with a 64 KiB file limit and a
# hidden case (run only with the course secret).
mkdir -p "$work/root/assignments"
cp -r "$src/assignments/vecadd" "$work/root/assignments/"
yaml=$work/root/assignments/vecadd/assignment.yaml
while IFS= read -r line; do
  case $line in
    limits:*) printf '  - {sizes: [{n: 300}], seeds: [7], points: 1, visibility: hidden}\n\n%s\n' \
                "${line%\}}, submission_file_kb: 64}" ;;
    *) printf '%s\n' "$line" ;;
  esac
done <"$src/harness/tests/data/batch/vecadd_batch.yaml" >"$yaml"
grep -q 'submission_file_kb: 64}$' "$yaml" || { echo "cannot set the limit in $yaml" >&2; exit 1; }
export CUGRADE_ROOT=$work/root
good=$src/graders/vecadd/solutions/good/grid_stride.cu
secret="course-secret-$RANDOM$RANDOM-not-for-students"
printf '%s\n' "$secret" >"$work/secret.txt"
mkdir -p "$work/cwd"
cd "$work/cwd"  # a command in a name would run here: nothing may appear

# Where the sandbox cannot run (a container without the rights), grade only with --allow-unsealed.
unsealed=()
if "$cugrade" grade --help 2>/dev/null | grep -q -- --allow-unsealed; then unsealed=(--allow-unsealed); fi

# 1. The class.
class=$work/class
long=$(printf 'l%.0s' $(seq 255))
ids=("o'brien" 'say "hi"' $'two\nlines' '$(touch pwned)' '`touch pwned`' $'caf\xe9' "$long" '-rf' '=1+2' 'a  b ')
names=("o'brien.cu" 'say "hi".cu' $'two\nlines.cu' '$(touch pwned).cu' '`touch pwned`.cu' $'caf\xe9.cu' vecadd.cu
       '-rf.cu' '=1+2.cu' ' a b .cu')
for i in "${!ids[@]}"; do
  mkdir -p "$class/${ids[$i]}"
  cp "$good" "$class/${ids[$i]}/${names[$i]}"
done
# Archives with the same kind of names inside.
mkdir -p "$work/tmp/\$(touch pwned) dir"
cp "$good" "$work/tmp/\$(touch pwned) dir/it's \"x\""$'\xe9\n.cu'
tar -czf "$class/tarred \"one\".tar.gz" -C "$work/tmp" "\$(touch pwned) dir"
# What is not a submission file.
mkdir -p "$class/mallory" "$class/zed" "$class/piper" "$class/hugo" "$work/elsewhere"
ln -s "$work/secret.txt" "$class/mallory/vecadd.cu"
ln -s /dev/zero "$class/zed/vecadd.cu"
mkfifo "$class/piper/vecadd.cu"
{ cat "$good"; head -c 70000 /dev/zero | tr '\0' ' '; } >"$class/hugo/vecadd.cu"
cp "$good" "$work/elsewhere/vecadd.cu"
ln -s "$work/elsewhere" "$class/linda"
ln -s "$work/secret.txt" "$class/sly.zip"
correct=$((${#ids[@]} + 1))

rc=0
start=$(date +%s)
CUGRADE_NVCC=/nonexistent/nvcc timeout 600 "$cugrade" grade vecadd --submissions "$class" --out "$work/out" \
  --backend cpu -j 2 --progress lines "${unsealed[@]}" >"$work/grade.out" 2>"$work/grade.log" || rc=$?
echo "grade: $(($(date +%s) - start)) s, exit $rc"
[ "$rc" -eq 0 ] || { cat "$work/grade.log" >&2; fail "cugrade grade exited $rc (want 0)"; }
book=$work/out/gradebook.csv
[ -f "$book" ] || { cat "$work/grade.log" >&2; echo "FAIL: no gradebook" >&2; exit 1; }
got=$(grep -c ',4,4,4,passed,yes,' "$book" || true)
[ "$got" -eq "$correct" ] || fail "$got correct submissions got 4 of 4, want $correct"
for id in "o'brien" '"say ""hi"""' '$(touch pwned)' '`touch pwned`' $'caf\xe9' "$long" "'-rf" "'=1+2" '"a  b "'; do
  grep -qF -- "$id,4,4,4,passed,yes," "$book" || fail "no full-marks row for $id"
done
grep -qF '"two' "$book" || fail "no row for the id with a newline"
want_not_run() {  # student, a piece of the note
  grep -F -- "$1,0,4,0,not_run,no," "$book" | grep -qF -- "$2" || fail "$1: want not_run with \"$2\": $(grep -F -- "$1," "$book")"
}
want_not_run mallory "submission file vecadd.cu is a symbolic link, not a file"
want_not_run zed "submission file vecadd.cu is a symbolic link, not a file"
want_not_run piper "submission file vecadd.cu is a named pipe (FIFO), not a file"
want_not_run hugo "submission file vecadd.cu is larger than 64 KiB"
want_not_run linda "linda is a symbolic link"
want_not_run sly "sly.zip is a symbolic link"
rows=$(grep -c ',\(passed\|not_run\),' "$book" || true)
[ "$rows" -eq $((correct + 6)) ] || fail "$rows rows, want $((correct + 6))"
[ "$(find "$work/out/students" -name report.html | wc -l)" -eq $((correct + 6)) ] ||
  fail "not one report.html per student"
[ "$(find "$work/out/results" -name '*.json' | wc -l)" -eq $((correct + 6)) ] || fail "not one result per student"
if grep -rqF "$secret" "$work/out"; then fail "the secret file's content is in OUT: $(grep -rlF "$secret" "$work/out")"; fi
# Resumed, nothing is graded again: every id finds its own result.
CUGRADE_NVCC=/nonexistent/nvcc "$cugrade" grade vecadd --submissions "$class" --out "$work/out" --backend cpu -j 2 \
  --progress lines "${unsealed[@]}" >/dev/null 2>"$work/again.log" || true
grep -q "already graded and unchanged" "$work/again.log" || fail "the second run: $(head -3 "$work/again.log")"
if grep -q "graded again: its files" "$work/again.log"; then fail "unchanged ids graded again: $(cat "$work/again.log")"; fi

# 2. The course secret in a check: never in the runner's environment, argv or any work file.
cp "$src/harness/tests/data/batch/probe_environment.cu" "$work/probe.cu"
for how in environment file; do
  keep=$work/keep-$how
  rm -f "$work/cwd/cugrade-probe.txt"
  rc=0
  if [ "$how" = environment ]; then
    CUGRADE_NVCC=/nonexistent/nvcc CUGRADE_COURSE_SECRET=$secret "$cugrade" check vecadd -s "$work/probe.cu" \
      --backend cpu --keep-work "$keep" --report json="$work/$how.json" >"$work/$how.out" 2>&1 || rc=$?
  else
    CUGRADE_NVCC=/nonexistent/nvcc "$cugrade" check vecadd -s "$work/probe.cu" --secret-file "$work/secret.txt" \
      --backend cpu --keep-work "$keep" --report json="$work/$how.json" >"$work/$how.out" 2>&1 || rc=$?
  fi
  [ "$rc" -eq 0 ] || { cat "$work/$how.out" >&2; fail "check with the secret in the $how exited $rc"; }
  grep -q '"outcome": "passed"' "$work/$how.json" || fail "the probe did not pass (secret in the $how)"
  grep -q '"hidden/vecadd/1"' "$work/$how.json" || fail "no hidden case ran: the secret was not used (in the $how)"
  probes=$(find "$keep" "$work/cwd" -name cugrade-probe.txt | wc -l)
  [ "$probes" -ge 1 ] || fail "the probe wrote nothing (secret in the $how): this test would prove nothing"
  grep -q "^CUGRADE_CPU_THREADS=\|^PATH=" "$(find "$keep" "$work/cwd" -name cugrade-probe.txt | head -1)" ||
    fail "the probe did not see its environment"
  if grep -rqaF "$secret" "$keep" "$work/cwd"; then
    fail "the secret (in the $how) is in: $(grep -rlaF "$secret" "$keep" "$work/cwd" | tr '\n' ' ')"
  fi
done

# 3. `cugrade check` on a pipe and on a link to the secret: a report saying why (what Gradescope
#    shows the student), at once, and never the secret.
mkfifo "$work/pipe.cu"
ln -s "$work/secret.txt" "$work/leak.cu"
for file in pipe.cu leak.cu; do
  rc=0
  timeout 60 "$cugrade" check vecadd -s "$work/$file" --backend cpu --report json="$work/$file.json" \
    >"$work/$file.out" 2>&1 || rc=$?
  [ "$rc" -eq 0 ] || { cat "$work/$file.out" >&2; fail "check of $file exited $rc (want 0: graded, not gradable)"; }
  grep -q '"outcome": "not_run"' "$work/$file.json" 2>/dev/null || fail "check of $file: no not_run report"
  grep -qF "is a " "$work/$file.json" 2>/dev/null || fail "check of $file: the report does not say why"
  if grep -qF "$secret" "$work/$file.json" "$work/$file.out"; then fail "check of $file shows the secret"; fi
done

# 4. A name with $(...) and quotes through nvcc's own check of the file (when nvcc is there).
mkdir -p "$work/named"
cp "$good" "$work/named/\$(touch pwned) it's \"q\".cu"
rc=0
"$cugrade" check vecadd -s "$work/named" --backend cpu --report json="$work/named.json" >"$work/named.out" 2>&1 || rc=$?
grep -q '"outcome": "passed"' "$work/named.json" 2>/dev/null ||
  { tail -20 "$work/named.out" >&2; fail "a correct file named with \$(...) and quotes did not pass (exit $rc)"; }

if [ -n "$(find "$work" -name pwned -print -quit)" ]; then fail "a command in a name ran: $(find "$work" -name pwned)"; fi
if [ "$failures" -gt 0 ]; then
  echo "--- gradebook" >&2; cat "$book" >&2
  echo "--- log" >&2; tail -40 "$work/grade.log" >&2
  exit 1
fi
echo "hostile_files: every check passed"
