#!/usr/bin/env bash
# Generates a class of submissions for `cugrade grade` from an assignment's own files: the
# reference, the known-good and known-bad solutions (graders/<id>/solutions, not its attacks/), the template, and
# copies of the reference made to fail on purpose (a compile error, a crash, an endless loop, an
# output flood, a huge allocation), some handed in as .zip or .tar.gz, an empty folder and a
# damaged archive. Used by the batch test (harness/tests/batch/class_end_to_end.sh) and to
# measure a batch's throughput on a GPU machine.
#
#   scripts/make-class.sh ASSIGNMENT COUNT DIR [--mix stress|class] [--backend cpu|cuda] [--expected FILE]
#
#   --mix stress   every kind in turn (the default; what the test grades)
#   --mix class    what a class hands in: mostly correct, some wrong, a few broken (throughput)
#   --backend      which backend the expected outcomes are for (default cpu)
#   --expected     also write FILE: student,kind,outcome ("any" where it is not fixed)
set -euo pipefail

usage() { sed -n '9,15p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 1; }
[ $# -ge 3 ] || usage
assignment=$1 count=$2 dir=$3
shift 3
mix=stress backend=cpu expected=""
while [ $# -gt 0 ]; do
  case $1 in
    --mix) mix=$2; shift 2 ;;
    --backend) backend=$2; shift 2 ;;
    --expected) expected=$2; shift 2 ;;
    *) usage ;;
  esac
done
root=$(cd "$(dirname "$0")/.." && pwd)
spec=$root/assignments/$assignment/assignment.yaml
solutions=$root/graders/$assignment/solutions
[ -f "$spec" ] || { echo "make-class: no assignment $assignment" >&2; exit 1; }
case $mix in stress|class) ;; *) usage ;; esac
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
[ -z "$(ls -A "$dir")" ] || { echo "make-class: $dir is not empty" >&2; exit 1; }
# Some submissions are handed in as .zip: without zip the class would silently end before them.
command -v zip > /dev/null || { echo "make-class: zip is not installed (sudo apt-get install zip)" >&2; exit 1; }

# The reference's files as a student would hand them in: its .cu files and the local headers
# they include (e.g. reference_only.cuh).
copy_reference() {
  cp "$root/reference/$assignment"/*.cu "$1"
  for header in "$root/reference/$assignment"/*.cuh; do
    if [ -e "$header" ]; then cp "$header" "$1"; fi
  done
}

# The first entry point: where the deliberate faults go.
entry=$(sed -n 's/^ *entry: *\([A-Za-z_0-9]*\).*/\1/p' "$spec" | head -1)
entry_file=$(grep -l "^void ${entry}(" "$root/reference/$assignment"/*.cu | head -1)

# Known solutions and the outcome each must get on this backend ("any" where it may vary).
known=() known_outcome=()
while IFS= read -r line; do
  file=$(sed -n 's/.*file: *\([^,}]*\).*/\1/p' <<<"$line")
  outcome=$(sed -n 's/.*outcome: *\([a-z_]*\).*/\1/p' <<<"$line")
  [ -n "$file" ] || continue
  # The attack suite is judged by the self-test and ci/attack_suite, on the assignment's own
  # sizes and limits; a class graded with another spec would see other outcomes.
  case $file in attacks/*) continue ;; esac
  if grep -q "backends:" <<<"$line" && ! grep -q "backends:.*$backend" <<<"$line"; then outcome=any; fi
  if [ "$backend" = cuda ] && grep -q "flaky_on_gpu: *true" <<<"$line"; then outcome=any; fi
  known+=("$file") known_outcome+=("$outcome")
done < <(grep '^- ' "$solutions/expected.yaml")

# The faults, each a statement put first in the entry point (includes added at the top).
declare -A fault=(
  [compile]='int broken = ;'
  [crash]='{ volatile int* nowhere = nullptr; *nowhere = 1; }'
  [hang]='for (volatile unsigned spin = 0;; spin = spin + 1) {}'
  [flood]='for (long line = 0; line < 100000000L; ++line) std::printf("debug output line %ld of a student who forgot to remove it\n", line);'
  [huge]='{ volatile std::size_t huge = std::size_t(1) << 62; char* big = new char[huge]; big[0] = 1; delete[] big; }'
)
declare -A fault_outcome=([compile]=compile_error [crash]=crashed [hang]=timeout [flood]=output_limit [huge]=crashed)

# The reference with `statement` first in the entry point, into folder $1.
reference_with() {
  local into=$1 statement=$2
  mkdir -p "$into"
  copy_reference "$into/"
  local target
  target="$into/$(basename "$entry_file")"
  { printf '#include <cstddef>\n#include <cstdio>\n'; sed "/^void ${entry}(.*{ *\$/a\\  ${statement//\\/\\\\}" "$entry_file"; } >"$target"
}

# The kinds, in the order they are handed out.
kinds=()
if [ "$mix" = stress ]; then
  kinds+=(reference)
  for i in "${!known[@]}"; do kinds+=("known:$i"); done
  kinds+=(template compile crash hang flood huge zip targz empty damaged)
else
  # Of 20: 13 correct (2 as archives), 4 wrong in some way, 1 compile error, 1 template, 1 crash.
  good=() wrong=()
  for i in "${!known[@]}"; do
    case ${known_outcome[$i]} in passed) good+=("known:$i") ;; *) wrong+=("known:$i") ;; esac
  done
  for s in $(seq 0 10); do
    if [ $((s % 3)) -eq 0 ] || [ ${#good[@]} -eq 0 ]; then kinds+=(reference); else kinds+=("${good[$((s % ${#good[@]}))]}"); fi
  done
  kinds+=(zip targz)
  for s in 0 1 2 3; do
    if [ ${#wrong[@]} -gt 0 ]; then kinds+=("${wrong[$((s % ${#wrong[@]}))]}"); else kinds+=(template); fi
  done
  kinds+=(compile template crash)
fi

[ -z "$expected" ] || echo "student,kind,outcome" >"$expected"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for n in $(seq 1 "$count"); do
  kind=${kinds[$(((n - 1) % ${#kinds[@]}))]}
  label=$kind outcome=any
  case $kind in
    known:*)
      i=${kind#known:}
      label=$(basename "${known[$i]}" .cu)
      outcome=${known_outcome[$i]} ;;
  esac
  id=$(printf 's%03d-%s' "$n" "${label//_/-}")
  case $kind in
    reference) mkdir -p "$dir/$id"; copy_reference "$dir/$id/"; outcome=passed ;;
    known:*) mkdir -p "$dir/$id"; cp "$solutions/${known[$i]}" "$dir/$id/$assignment.cu" ;;
    template) mkdir -p "$dir/$id"; cp "$root/templates/$assignment"/*.cu "$dir/$id/" ;;
    compile|crash|hang|flood|huge) reference_with "$dir/$id" "${fault[$kind]}"; outcome=${fault_outcome[$kind]} ;;
    zip)  # the reference inside a folder named after the student, as archivers make them
      mkdir -p "$tmp/$id"; copy_reference "$tmp/$id/"
      (cd "$tmp" && zip -qr "$dir/$id.zip" "$id"); outcome=passed ;;
    targz)
      mkdir -p "$tmp/$id"; copy_reference "$tmp/$id/"
      tar -czf "$dir/$id.tar.gz" -C "$tmp" "$id"; outcome=passed ;;
    empty) mkdir -p "$dir/$id"; outcome=not_run ;;
    damaged) head -c 2048 /dev/urandom >"$dir/$id.zip"; outcome=not_run ;;
  esac
  [ -z "$expected" ] || echo "$id,$kind,$outcome" >>"$expected"
done
echo "make-class: $count submissions of $assignment in $dir ($mix mix)"
