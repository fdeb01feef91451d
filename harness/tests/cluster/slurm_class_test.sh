#!/usr/bin/env bash
# A class graded on a real single-node Slurm (see tests.cmake):
#   slurm_class_test.sh CUGRADE SOURCE_ROOT [COUNT]
# 1. `--slurm --shards 6` (MaxArraySize 4: two arrays) gives the gradebook a local grade gives.
# 2. A run held at submission, one array task cancelled, then the node failed under the others:
#    the requeued tasks grade only what is missing, the cancelled shard's students are listed as
#    not graded (exit 3) with the command that grades them, and that command grades exactly them.
# Jobs are submitted by an ordinary user (one is created when this runs as root). Skipped (77)
# where Slurm is not installed or cannot start; every daemon it started is stopped on every exit.
set -euo pipefail
cugrade=$(realpath "$1") src=$(realpath "$2") count=${3:-24}
shards=6
work=$(mktemp -d "${TMPDIR:-/tmp}/cugrade-slurm-XXXXXX")
cluster=$work/slurm
opened=()  # folders above the build given o+x for the job's user, closed again at the end
cleanup() {
  "$src/scripts/local-slurm.sh" stop "$cluster" || true
  for folder in "${opened[@]}"; do chmod o-x "$folder" || true; done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
skip() { echo "SKIP: $*"; exit 77; }
command -v zip >/dev/null || skip "no zip (scripts/install-deps.sh --test-tools installs it): make-class.sh needs it"

# The cluster: two fake GPUs need mknod (root); another user starts it without GPUs.
gpus=2
[ "$(id -u)" -eq 0 ] || gpus=0
rc=0
"$src/scripts/local-slurm.sh" start "$cluster" --gpus "$gpus" --cpus 4 --max-array-size 4 || rc=$?
[ "$rc" -eq 77 ] && skip "Slurm cannot start here (above)"
[ "$rc" -eq 0 ] || { echo "FAIL: local-slurm.sh start exited $rc" >&2; exit 1; }
# shellcheck source=/dev/null
. "$cluster/env.sh"

# The test's own copy of vecadd (fewer cases, a 2 s limit), as the batch's end-to-end test grades it.
chmod 755 "$work"
mkdir -p "$work/root/assignments"
cp -r "$src/assignments/vecadd" "$work/root/assignments/"
cp "$src/harness/tests/data/batch/vecadd_batch.yaml" "$work/root/assignments/vecadd/assignment.yaml"
"$src/scripts/make-class.sh" vecadd "$count" "$work/class" >/dev/null
export CUGRADE_ROOT=$work/root CUGRADE_NVCC=/nonexistent/nvcc

# An ordinary user submits the jobs (as root: one of our own), with a course secret only it reads.
# Each of its commands has 5 minutes: one that hangs fails the test, which still stops the cluster.
limit=300
if [ "$(id -u)" -eq 0 ]; then
  user="cugrade-slurm"
  id "$user" >/dev/null 2>&1 || useradd --system --no-create-home --shell /bin/bash "$user" ||
    skip "cannot create the user $user"
  # The user runs this build: each folder above it must let others through.
  folder=$(dirname "$cugrade")
  while [ "$folder" != / ]; do
    if [ "$(stat -c %A "$folder" | cut -c10)" != x ] && [ "$(stat -c %A "$folder" | cut -c10)" != t ]; then
      chmod o+x "$folder" && opened+=("$folder")
    fi
    folder=$(dirname "$folder")
  done
  for root_folder in "$src" "$src/harness"; do
    [ "$(stat -c %A "$root_folder" | cut -c10)" = x ] || { chmod o+x "$root_folder" && opened+=("$root_folder"); }
  done
  as_user() {
    runuser -u "$user" -- timeout -k 10 "$limit" env "PATH=$PATH" "SLURM_CONF=$SLURM_CONF" \
      "LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}" "CUGRADE_ROOT=$CUGRADE_ROOT" "CUGRADE_NVCC=$CUGRADE_NVCC" "HOME=$work/home" "$@"
  }
else
  user=$(id -un)
  as_user() { timeout -k 10 "$limit" env "HOME=$work/home" "$@"; }
fi
mkdir -p "$work/home" "$work/local" "$work/cluster" "$work/fault"
secret=$work/home/course-secret
echo "slurm-test-secret-$RANDOM$RANDOM" >"$secret"
chmod 600 "$secret"
chown -R "$user" "$work/home" "$work/local" "$work/cluster" "$work/fault"
as_user "$cugrade" --version >/dev/null || skip "the user $user cannot run $cugrade"

# Sealed where the sandbox works for that user; a shard refuses to grade unsealed otherwise.
sealing=()
probe_rc=0
as_user "$cugrade" grade vecadd -S "$work/class" -o "$work/home/probe" --backend cpu --shard 1/1000 -q \
  >/dev/null 2>"$work/probe.err" || probe_rc=$?
if grep -q "the sandbox does not work here" "$work/probe.err"; then
  [ "$probe_rc" -eq 1 ] || fail "an unsealed shard exited $probe_rc, not 1"
  echo "note: the sandbox does not work for $user here; grading with --allow-unsealed (the refusal was checked)"
  sealing=(--allow-unsealed)
elif [ "$probe_rc" -ne 0 ]; then
  cat "$work/probe.err" >&2
  fail "a shard of no student exited $probe_rc"
fi
common=(vecadd --submissions "$work/class" --backend cpu --secret-file "$secret" --progress lines "${sealing[@]}")

# The gradebook's graded columns: student, score, max_score, the step, outcome, gradable.
graded_columns() { tr -d '\r' <"$1" | cut -d, -f1-6; }

# 1. Local, then on Slurm.
start=$(date +%s)
rc=0
as_user "$cugrade" grade "${common[@]}" --out "$work/local" -j 2 >"$work/local.out" 2>"$work/local.log" || rc=$?
echo "local grade: $(($(date +%s) - start)) s, exit $rc"
[ -f "$work/local/gradebook.csv" ] || { cat "$work/local.log" >&2; echo "FAIL: no local gradebook" >&2; exit 1; }
start=$(date +%s)
rc=0
as_user "$cugrade" grade "${common[@]}" --out "$work/cluster" --slurm --shards "$shards" \
  >"$work/cluster.out" 2>"$work/cluster.log" || rc=$?
echo "--slurm --shards $shards: $(($(date +%s) - start)) s, exit $rc"
sed 's/^/  | /' "$work/cluster.log" "$work/cluster.out"
[ "$rc" -eq 0 ] || fail "--slurm exited $rc (the local grade: see above)"
if ! diff <(graded_columns "$work/local/gradebook.csv") <(graded_columns "$work/cluster/gradebook.csv") >&2; then
  fail "the Slurm gradebook differs from the local one"
fi
[ "$(grep -c '^cugrade: submitted array job' "$work/cluster.log")" -eq 2 ] ||
  fail "not two arrays for $shards shards at MaxArraySize 4"
grep -q -- '--array=0-3%16$' "$work/cluster.log" || fail "no --array=0-3%16 (shards 1..4)"
grep -q -- '--array=0-1%16$' "$work/cluster.log" || fail "no --array=0-1%16 (shards 5..6)"
grep -q '^cugrade: submitted collect job' "$work/cluster.log" || fail "no collect job"
[ "$(grep -c '^cugrade: shard [0-9]/6 done' "$work/cluster.log")" -eq "$shards" ] || fail "not a line per finished shard"
grep -q '^#SBATCH --requeue$' "$work/cluster/slurm/grade.sbatch" || fail "grade.sbatch does not ask for --requeue"
grep -q -- '--gres' "$work/cluster/slurm/grade.sbatch" && fail "grade.sbatch asks for a GPU on the CPU backend"
grep -q 'Slurm node cugrade-node, job ' "$work/cluster/students/s001-reference/report.json" ||
  fail "the report does not name the node it ran on"
grep -q "Throughput:" "$work/cluster.out" || fail "no console summary"
[ -f "$work/cluster/summary.html" ] || fail "no summary.html"

# A secret others can read is refused before anything is submitted.
cp "$secret" "$work/home/open-secret"
chmod 644 "$work/home/open-secret"
rc=0
as_user "$cugrade" grade vecadd -S "$work/class" -o "$work/home/refused" --backend cpu --slurm \
  --secret-file "$work/home/open-secret" >/dev/null 2>"$work/refused.log" || rc=$?
if [ "$rc" -ne 1 ] || ! grep -q "chmod 600" "$work/refused.log"; then
  fail "a world-readable secret was not refused (exit $rc)"
fi

# 2. Held at submission: one task cancelled before it starts, the node failed under the others.
slurm_run=("$cugrade" grade "${common[@]}" --out "$work/fault" --slurm --shards "$shards")
rc=0
as_user "${slurm_run[@]}" --no-wait --slurm-arg=--hold >"$work/held.out" 2>"$work/held.log" || rc=$?
[ "$rc" -eq 0 ] || { cat "$work/held.log" >&2; echo "FAIL: --no-wait exited $rc" >&2; exit 1; }
read -r -a jobs <<<"$(sed -n 's/^Submitted jobs: //p' "$work/held.out")"
[ "${#jobs[@]}" -eq 3 ] || { cat "$work/held.out" >&2; echo "FAIL: not two arrays and a collect job" >&2; exit 1; }
grep -q -- '--collect' "$work/held.out" || fail "--no-wait printed no collect command"
# Neither the jobs' scripts, arguments nor environment hold the secret (slurmctld keeps them all).
grep -r -q -F -- "$(cat "$secret")" "$cluster/state" && fail "the course secret is in a job's saved state"
# A held task never starts: the same command, run again, says so and how to release it.
as_user timeout 90 "${slurm_run[@]}" >/dev/null 2>"$work/held-wait.log" &
waiting=$!
for _ in $(seq 450); do
  grep -q "Slurm holds" "$work/held-wait.log" && break
  sleep 0.2
done
pkill -f -- "--out $work/fault " || true  # the waiting cugrade itself (runuser's child)
wait "$waiting" 2>/dev/null || true
grep -q "Slurm holds .*(JobHeldUser).*scontrol release" "$work/held-wait.log" ||
  { sed 's/^/  | /' "$work/held-wait.log"; fail "waiting on held tasks did not say that Slurm holds them"; }
as_user scancel "${jobs[0]}_1"  # shard 2: never runs
as_user scontrol release "${jobs[@]}"
for _ in $(seq 600); do
  compgen -G "$work/fault/results/*.json" >/dev/null && break
  sleep 0.2
done
find "$work/fault/results" -name '*.json' -printf '%f %T@\n' | sort >"$work/before-failure.txt"
[ "$(id -u)" -eq 0 ] || skip "the node failure needs root (scontrol update state=down); part 1 passed"
scontrol update nodename=cugrade-node state=down reason=cugrade-test
# The node stays down (ReturnToService=1) until the killed tasks have ended: their cugrade
# finishes the student it was grading (within Slurm's KillWait), and a requeued copy launched
# beside the old step would fail to launch and be held. A loaded machine may take minutes.
for _ in $(seq 1200); do
  pgrep -f -- "--out $work/fault" >/dev/null || pgrep -f '^slurmstepd: \[' >/dev/null || break
  sleep 0.2
done
pgrep -af -- "--out $work/fault|^slurmstepd: \[" && echo "note: the failed node's old tasks are still running after 4 minutes"
# The node comes back; Slurm holds a requeued job back for a while: it may start now.
scontrol update nodename=cugrade-node state=resume
for job in "${jobs[@]}"; do scontrol update jobid="$job" starttime=now 2>/dev/null || true; done
rc=0
as_user "${slurm_run[@]}" >"$work/fault.out" 2>"$work/fault.log" || rc=$?
sed 's/^/  | /' "$work/fault.log" "$work/fault.out"
if [ "$rc" -ne 3 ]; then  # what Slurm made of it
  squeue --format='%i|%T|%N|%r' || true
  sinfo --Node --format='%N %T %E' || true
  tail -n 40 "$cluster/log/slurmctld.log" "$cluster/log/slurmd.log" || true
fi
[ "$rc" -eq 3 ] || fail "the run with a cancelled task exited $rc, not 3 (students not graded)"
grep -q "still queued; waiting for them, not submitting again" "$work/fault.log" ||
  fail "running the same command again did not wait for the jobs it had submitted"
grep -q "restart 1," "$work/fault/slurm/logs/"shard-*-of-6.log || fail "no task was requeued by the node failure"

# Shard 2's students: SHA-256 of the id, its first 8 bytes modulo 6 (unsigned, in two halves).
shard_of() {
  local hex
  hex=$(printf '%s' "$1" | sha256sum | cut -c1-16)
  echo $((((16#${hex:0:8} % shards) * (4294967296 % shards) + 16#${hex:8:8} % shards) % shards + 1))
}
expected=()
for entry in "$work/class"/*; do
  student=$(basename "$entry")
  student=${student%.zip}
  student=${student%.tar.gz}
  [ "$(shard_of "$student")" -eq 2 ] && expected+=("$student")
done
[ "${#expected[@]}" -gt 0 ] || fail "shard 2 has no student (choose another COUNT)"
listed=$(sed -n 's/^  \(.*\): not graded: no result was written.*/\1/p' "$work/fault.out" | sort | tr '\n' ' ')
[ "$listed" = "$(printf '%s\n' "${expected[@]}" | sort | tr '\n' ' ')" ] ||
  fail "not graded: '$listed', want shard 2's '${expected[*]}'"
[ "$(grep -c 'not graded yet' "$work/fault/gradebook.csv")" -eq "${#expected[@]}" ] ||
  fail "the gradebook does not have a row without a score for each student not graded"
grep -q -- "--slurm --shards $shards" "$work/fault.out" || fail "no command to grade them again"
# The requeued tasks graded only what was missing: each result written before the failure is the same file.
while read -r name stamp; do
  now=$(find "$work/fault/results" -name "$name" -printf '%T@')
  [ "$now" = "$stamp" ] || fail "$name was graded again after the node failure"
done <"$work/before-failure.txt"
echo "node failure: $(wc -l <"$work/before-failure.txt") results written before it were kept; shard 2 (${#expected[@]} students) not graded"

# The command it printed grades exactly them.
again=$(grep -A1 '^Grade the .* not graded again' "$work/fault.out" | tail -n 1)
rc=0
as_user bash -c "$again" >"$work/again.out" 2>"$work/again.log" || rc=$?
sed 's/^/  | /' "$work/again.log"
[ "$rc" -eq 0 ] || fail "the rerun exited $rc"
grep -q "^cugrade: grading ${#expected[@]} of $count students on Slurm" "$work/again.log" ||
  fail "the rerun did not grade exactly the ${#expected[@]} not graded"
if ! diff <(graded_columns "$work/local/gradebook.csv") <(graded_columns "$work/fault/gradebook.csv") >&2; then
  fail "after the rerun the gradebook differs from the local one"
fi

[ "$failures" -eq 0 ] || { echo "$failures failure(s)" >&2; exit 1; }
echo "slurm class: the gradebook of $count submissions on Slurm ($shards shards) equals the local one; nothing lost"
