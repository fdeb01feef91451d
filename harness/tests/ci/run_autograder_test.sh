#!/usr/bin/env bash
# run_autograder_test.sh ROOT CUGRADE: Gradescope's run_autograder (templates/gradescope/) in a
# fake /autograder tree, on the CPU backend: a correct vecadd earns full marks, a compile error
# gets a failed Build test and score 0, and hidden cases run with the course secret while the
# secret file is gone before the student's code runs.
set -euo pipefail
project=$1 cugrade=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# autograder ROOT SOLUTION [SECRET]: a fresh tree holding one submission, graded.
autograder() {
  local root=$1 solution=$2
  mkdir -p "$root/source" "$root/submission"
  cp "$project/templates/gradescope/run_autograder" "$root/run_autograder"
  sed 's/^ASSIGNMENT=.*/ASSIGNMENT=vecadd/' "$project/templates/gradescope/autograder.env" > "$root/source/autograder.env"
  cp "$solution" "$root/submission/vecadd.cu"
  if [ $# -ge 3 ]; then printf '%s' "$3" > "$root/source/course-secret"; fi
  (cd "$root" && CUGRADE_AUTOGRADER_ROOT="$root" CUGRADE="$cugrade" ./run_autograder > "$root/stdout" 2>&1) ||
    { cat "$root/stdout"; fail "run_autograder exited non-zero for $solution"; }
  [ -s "$root/results/results.json" ] || fail "no results/results.json for $solution"
}
# top_level KEY FILE: the value of a top-level key of cugrade's results.json (indented by 2).
top_level() { sed -n "s/^  \"$1\": \([^,]*\),\{0,1\}\$/\1/p" "$2"; }

good="$project/graders/vecadd/solutions/good/lecture_style.cu"
autograder "$work/good" "$good"
json="$work/good/results/results.json"
score=$(top_level score "$json")
# extra_data (keys are sorted: it comes before tests) keeps cugrade's maximum.
max=$(sed -n 's/^    "max_score": \([^,]*\),\{0,1\}$/\1/p' "$json" | head -1)
[ -n "$score" ] || fail "results.json has no top-level score"
[ "$score" = "$max" ] || fail "a correct solution scored $score of $max"
grep -q '"status": "failed"' "$json" && fail "a correct solution has a failed test: $(cat "$json")"
grep -q '"name": "Build"' "$json" || fail "no Build test"
grep -q 'PASS' "$work/good/stdout" || fail "the console report is not in Gradescope's stdout"
echo "ok: a correct vecadd scored $score of $max"

autograder "$work/compile_error" "$project/graders/vecadd/solutions/bad/compile_error.cu"
json="$work/compile_error/results/results.json"
[ "$(top_level score "$json")" = "0.0" ] || [ "$(top_level score "$json")" = "0" ] || fail "compile error scored $(top_level score "$json")"
grep -q '"status": "failed"' "$json" || fail "the Build test of a compile error did not fail"
grep -q 'not gradable' "$json" || fail "the summary does not say not gradable"
echo "ok: a compile error scored 0 with a failed Build test"

autograder "$work/hidden" "$good" "a course secret"
json="$work/hidden/results/results.json"
[ -e "$work/hidden/source/course-secret" ] && fail "the course secret file is still there while grading"
grep -q '"visibility": "after_published"' "$json" || fail "no hidden case ran with the course secret"
grep -q '"name": "[a-z]*: hidden case 1"' "$json" || fail "hidden cases are not named as such"
echo "ok: hidden cases ran with the secret and are after_published"

# setup.sh with the course's package named: a download whose SHA-256 is not the pinned one is
# refused before anything is installed (a local file stands in for the release download; the
# package test, label package, runs setup.sh with the right SHA-256 in a fresh Debian root).
if command -v curl >/dev/null; then
  setup_root="$work/setup"
  mkdir -p "$setup_root/source"
  cp "$project/templates/gradescope/setup.sh" "$setup_root/source/"
  printf 'not the package the course pinned\n' > "$work/stand-in.deb"
  pinned=$(printf 'the package the course built\n' | sha256sum | cut -d' ' -f1)
  sed -e "s|^CUGRADE_PACKAGE_URL=.*|CUGRADE_PACKAGE_URL=file://$work/stand-in.deb|" \
      -e "s|^CUGRADE_PACKAGE_SHA256=.*|CUGRADE_PACKAGE_SHA256=$pinned|" \
      "$project/templates/gradescope/autograder.env" > "$setup_root/source/autograder.env"
  grep -q "^CUGRADE_PACKAGE_SHA256=$pinned\$" "$setup_root/source/autograder.env" || fail "autograder.env has no CUGRADE_PACKAGE_SHA256"
  if CUGRADE_AUTOGRADER_ROOT="$setup_root" bash "$setup_root/source/setup.sh" > "$setup_root/stdout" 2>&1; then
    fail "setup.sh accepted a package whose SHA-256 differs: $(cat "$setup_root/stdout")"
  fi
  grep -q FAILED "$setup_root/stdout" || fail "no checksum failure in setup.sh's output: $(cat "$setup_root/stdout")"
  echo "ok: setup.sh refuses a package whose SHA-256 is not the pinned one"
else
  echo "NOTE: no curl here (scripts/install-deps.sh --test-tools installs it): setup.sh's package path was not run"
fi
