#!/usr/bin/env bash
# attack_suite_test.sh ROOT CUGRADE: the attacks that need more than one check's outcome to judge
# (docs/security.md, "The attack suite"), run by the real cugrade on the CPU backend, each in a
# folder of its own under a fresh temporary folder (HOME and TMPDIR too):
#   1. the course secret: leak_secret.cu hunts for it (cugrade's environment, --secret-file) and
#      tries every way out; no report and no file may hold it afterwards;
#   2. classmates: `cugrade grade` over a class in which one student (attacks/classmates.cu)
#      overwrites the others' records, reports and files and leaves a daemon that rewrites the
#      gradebook after cugrade exits; every classmate's grade, report and file must be as
#      without it, no marker may be left in $HOME or /tmp, no process may outlive cugrade;
#   3. the same daemon against `cugrade check --report`;
#   4. submissions shaped as attacks: a symbolic link to a secret, a named pipe, /dev/zero, file
#      names and student ids with quotes, newlines, $(...) and backticks.
# Needs a working sandbox (`cugrade doctor`); without one it exits 77 (Skipped), since the attacks
# would run with the tester's rights. ATTACK_SUITE_FORCE=1 runs it anyway (to measure an unsealed
# cugrade: the attacks only write inside the temporary folder, /tmp/cugrade-attack-was-here and
# /tmp/cugrade-leaked-secret); ATTACK_SUITE_KEEP=1 keeps the temporary folder.
set -euo pipefail
project=$1 cugrade=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/cugrade-attacks-XXXXXX")
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
ok() { echo "ok: $*"; }

# Processes the attacks name "cugrade-attackd": any left is reported and ended, by its own pid.
end_daemons() {
  local pid
  for pid in $(pgrep -x cugrade-attackd || true); do kill -KILL "$pid" 2>/dev/null || true; done
}
cleanup() {
  end_daemons
  rm -f /tmp/cugrade-attack-was-here /tmp/cugrade-leaked-secret
  if [ "${ATTACK_SUITE_KEEP:-}" = 1 ]; then echo "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

if ! "$cugrade" doctor 2>/dev/null | grep -q "sandbox.*works:" && [ "${ATTACK_SUITE_FORCE:-}" != 1 ]; then
  echo "skipped: the sandbox does not work here (cugrade doctor), so the attacks would run unsealed"
  exit 77
fi
unsealed=()
if "$cugrade" grade --help 2>/dev/null | grep -q -- --allow-unsealed; then unsealed=(--allow-unsealed); fi

mkdir -p "$work/home" "$work/tmp"
export HOME=$work/home TMPDIR=$work/tmp
unset CUGRADE_COURSE_SECRET
rm -f /tmp/cugrade-attack-was-here /tmp/cugrade-leaked-secret
attacks=$project/graders/vecadd/solutions/attacks
good=$project/graders/vecadd/solutions/good/lecture_style.cu

# json_value KEY FILE: a top-level number or string of a JSON report (or of a batch record's report).
json_value() {
  python3 -c 'import json,sys; r=json.load(open(sys.argv[2])); print(r.get("report", r)[sys.argv[1]])' "$1" "$2"
}

# --- 1. The course secret ------------------------------------------------------------------
secret="attack-suite-secret-$RANDOM$RANDOM-do-not-leak"
printf '%s\n' "$secret" > "$work/secret"
for how in file environment; do
  dir=$work/secret-$how
  mkdir -p "$dir"
  args=(check vecadd -s "$attacks/leak_secret.cu" --backend cpu --report "json=$dir/report.json"
        --report "markdown=$dir/report.md" --report "html=$dir/report.html" --report "junit=$dir/junit.xml")
  rc=0
  if [ "$how" = file ]; then
    (cd "$work" && "$cugrade" "${args[@]}" --secret-file "$work/secret" >"$dir/console" 2>&1) || rc=$?
  else
    (cd "$work" && CUGRADE_COURSE_SECRET=$secret "$cugrade" "${args[@]}" >"$dir/console" 2>&1) || rc=$?
  fi
  [ "$rc" -eq 0 ] || fail "secret ($how): cugrade check exited $rc"
  if grep -rlF "$secret" "$dir" >/dev/null; then
    fail "secret ($how): the secret is in $(grep -rlF "$secret" "$dir" | xargs -n1 basename | tr '\n' ' ')"
  else
    ok "secret ($how): in no report"
  fi
  if [ -e /tmp/cugrade-leaked-secret ] && grep -qF "$secret" /tmp/cugrade-leaked-secret; then
    fail "secret ($how): written to the host's /tmp/cugrade-leaked-secret"
  fi
  rm -f /tmp/cugrade-leaked-secret
  outcome=$(json_value outcome "$dir/report.json" 2>/dev/null || echo none)
  [ "$outcome" = wrong_answer ] || fail "secret ($how): outcome $outcome, want wrong_answer (its own sums are 0)"
done

# --- 2. Classmates in a batch --------------------------------------------------------------
class=$work/class
for student in alice bob carol mallory; do mkdir -p "$class/$student"; done
cp "$good" "$class/alice/vecadd.cu"
cp "$good" "$class/bob/vecadd.cu"
cp "$project/graders/vecadd/solutions/bad/off_by_one.cu" "$class/carol/vecadd.cu"
cp "$project/harness/tests/ci/attacks/classmates.cu" "$class/mallory/vecadd.cu"
files_before=$(cd "$class" && find . -type f -exec sha256sum {} + | sort)
rc=0
(cd "$work" && "$cugrade" grade vecadd --submissions "$class" --out "$work/grades" --backend cpu -j 2 \
   --progress lines "${unsealed[@]}" >"$work/grade.out" 2>"$work/grade.log") || rc=$?
[ "$rc" -eq 0 ] || fail "batch: cugrade grade exited $rc (want 0: no harness error); $(tail -3 "$work/grade.log")"
snapshot() { (cd "$work/grades" && find . -path ./work -prune -o -type f -print0 | sort -z | xargs -0 sha256sum); }
after_exit=$(snapshot 2>/dev/null || true)
sleep 3  # a daemon would act within a second of cugrade's exit
if pgrep -x cugrade-attackd >/dev/null; then fail "batch: a process of the attacker outlived cugrade"; end_daemons; fi
[ "$(snapshot 2>/dev/null || true)" = "$after_exit" ] || fail "batch: the grades folder changed after cugrade exited"
book=$work/grades/gradebook.csv
row() { grep "^$1," "$book" | tr -d '\r' | cut -d, -f1-5; }
[ "$(row alice)" = "alice,9,9,9,passed" ] || fail "batch: alice's row is '$(row alice)'"
[ "$(row bob)" = "bob,9,9,9,passed" ] || fail "batch: bob's row is '$(row bob)'"
case "$(row carol)" in carol,*,9,*,wrong_answer) ;; *) fail "batch: carol's row is '$(row carol)'";; esac
[ "$(row mallory)" = "mallory,0,9,0,wrong_answer" ] || fail "batch: mallory's row is '$(row mallory)'"
for student in alice bob carol; do
  for file in "results/$student.json" "students/$student/report.json"; do
    if ! score=$(json_value score "$work/grades/$file" 2>/dev/null); then
      fail "batch: $file is not a report"
    elif [ "$student" != carol ] && [ "$score" != 9.0 ]; then
      fail "batch: $file says $score points"
    fi
  done
done
[ "$(cd "$class" && find . -type f -exec sha256sum {} + | sort)" = "$files_before" ] ||
  fail "batch: a submission was changed"
[ ! -e "$HOME/cugrade-attack-was-here" ] || fail "batch: the attacker wrote into \$HOME"
[ ! -e /tmp/cugrade-attack-was-here ] || fail "batch: the attacker wrote into the host's /tmp"
rm -f "$HOME/cugrade-attack-was-here" /tmp/cugrade-attack-was-here
[ "$failures" -eq 0 ] && ok "batch: every classmate's grade, record, report and file as without the attacker"

# --- 3. A daemon against `cugrade check --report` ------------------------------------------
dir=$work/check-daemon
mkdir -p "$dir"
rc=0
(cd "$work" && "$cugrade" check vecadd -s "$project/harness/tests/ci/attacks/classmates.cu" --backend cpu \
   --report "json=$dir/report.json" --report "markdown=$dir/report.md" >"$dir/console" 2>&1) || rc=$?
[ "$rc" -eq 0 ] || fail "check daemon: cugrade check exited $rc"
report_after_exit=$(sha256sum "$dir/report.json" "$dir/report.md" 2>/dev/null || true)
sleep 3
if pgrep -x cugrade-attackd >/dev/null; then fail "check daemon: a process outlived cugrade"; end_daemons; fi
[ "$(sha256sum "$dir/report.json" "$dir/report.md" 2>/dev/null || true)" = "$report_after_exit" ] ||
  fail "check daemon: a report changed after cugrade exited"
[ "$(json_value outcome "$dir/report.json" 2>/dev/null || echo none)" = wrong_answer ] ||
  fail "check daemon: the report is not its own ($(head -c 200 "$dir/report.json"))"
rm -f "$HOME/cugrade-attack-was-here" /tmp/cugrade-attack-was-here

# --- 4. Submissions shaped as attacks --------------------------------------------------------
shapes=$work/shapes
mkdir -p "$shapes"
# check_shape NAME SECONDS ARGS...: a check that must end within SECONDS with no harness error;
# its report (if any) is $shapes/NAME.json. Under an address-space limit: /dev/zero must not take
# the machine's memory even if it were read.
check_shape() {
  local name=$1 seconds=$2 rc=0 start
  shift 2
  start=$(date +%s)
  (cd "$shapes" && timeout "$seconds" prlimit --as=8589934592 "$cugrade" check vecadd --backend cpu \
     --report "json=$shapes/$name.json" "$@" >"$shapes/$name.console" 2>&1) || rc=$?
  [ "$rc" -ne 124 ] || fail "shape $name: still running after $seconds s"
  [ "$rc" -ne 3 ] || fail "shape $name: a harness error (exit 3): $(tail -2 "$shapes/$name.console")"
  echo "  shape $name: exit $rc in $(($(date +%s) - start)) s"
}
ln -s "$work/secret" "$shapes/link.cu"
check_shape symlink_to_secret 60 -s "$shapes/link.cu"
if grep -rlF "$secret" "$shapes" >/dev/null; then fail "shape symlink_to_secret: the secret reached a report"; fi
mkfifo "$shapes/pipe.cu"
check_shape fifo 60 -s "$shapes/pipe.cu"
check_shape dev_zero 60 -s /dev/zero
ln -s /dev/zero "$shapes/zero.cu"
check_shape symlink_to_dev_zero 60 -s "$shapes/zero.cu"
for refused in symlink_to_secret fifo dev_zero symlink_to_dev_zero; do
  if [ -f "$shapes/$refused.json" ] && [ "$(json_value score "$shapes/$refused.json")" != 0.0 ]; then
    fail "shape $refused: scored $(json_value score "$shapes/$refused.json")"
  fi
done
# Names a shell would act on, and names with quotes and newlines: a correct file is a correct
# file (9 of 9), and no command ran.
# shellcheck disable=SC2016 # these names must not expand, here or anywhere
names=('$(cd;touch pwned-dollar).cu' '`cd;touch pwned-backtick`.cu' "it's \"quoted\".cu" $'new\nline.cu' '-dash.cu')
k=0
for name in "${names[@]}"; do
  k=$((k + 1))
  mkdir -p "$shapes/named-$k"
  cp "$good" "$shapes/named-$k/$name"
  check_shape "name-$k" 120 -s "$shapes/named-$k/$name"
  score=$(json_value score "$shapes/name-$k.json" 2>/dev/null || echo none)
  [ "$score" = 9.0 ] || fail "name $(printf '%q' "$name"): a correct file scored $score"
done
# shellcheck disable=SC2016
ids=('$(cd;touch pwned-id)' "o'brien \"the\" student" $'new\nline' '-o')
for id in "${ids[@]}"; do mkdir -p "$work/ids/$id" && cp "$good" "$work/ids/$id/vecadd.cu"; done
rc=0
(cd "$work" && "$cugrade" grade vecadd --submissions "$work/ids" --out "$work/ids-grades" --backend cpu -j 2 \
   --progress lines "${unsealed[@]}" >"$work/ids.out" 2>"$work/ids.log") || rc=$?
[ "$rc" -eq 0 ] || fail "ids: cugrade grade exited $rc; $(tail -3 "$work/ids.log")"
passed=$(python3 -c 'import csv,sys; print(sum(r["score"] == "9" for r in csv.DictReader(open(sys.argv[1], newline=""))))' \
           "$work/ids-grades/gradebook.csv" 2>/dev/null || echo 0)
[ "$passed" = "${#ids[@]}" ] || fail "ids: $passed of ${#ids[@]} correct submissions with odd ids scored 9 of 9"
# A command run from a name would have touched its file in the home folder of the shell that ran
# it (cd; touch): the grader's ($HOME, in $work) or a sandbox's.
pwned=$(find "$work" /tmp "$project" /root -maxdepth 4 -name 'pwned-*' 2>/dev/null | head -3)
[ -z "$pwned" ] || fail "a file or id name ran a command: $pwned"

if [ "$failures" -gt 0 ]; then
  echo "attack_suite_test: $failures failures"
  exit 1
fi
echo "attack_suite_test: every attack on the secret, classmates and the submission's shape failed"
