#!/usr/bin/env bash
# classroom50_workflow_test.sh ROOT CUGRADE: the student workflow `cugrade init` writes, in a
# Classroom 50 assignment repository, writes Classroom 50's result.json at the top of the
# checkout, and the file follows Classroom 50's published schema (result-v1.schema.json,
# ../report/data/classroom50/PROVENANCE.md). The workflow's own steps run here, under sh as in a
# container, on the CPU backend, with the variables GitHub Actions sets: its "Classroom 50's
# submission" step (the identity: .classroom50.yaml, the repository's name, the submit/ tag that
# Classroom 50's workflow put on the commit in `origin`, or the tag pushed) and its "Grade" step
# (the cugrade check). Without a submit/ tag or outside Classroom 50, no result.json and the grade
# goes on. Without python3's jsonschema: Skipped (77), a failure in CI (CI=true).
set -euo pipefail
project=$1 cugrade=$2
if ! python3 -c 'import jsonschema; jsonschema.Draft202012Validator' 2>/dev/null; then
  echo "no jsonschema for python3 (apt-get install python3-jsonschema): the workflow's result.json is not validated"
  if [ "${CI:-}" = true ]; then echo "FAIL: CI must validate Classroom 50's result"; exit 1; fi
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
export HOME=$work/home CUGRADE_NVCC=/nonexistent/nvcc  # the step's `git config --global` writes here
mkdir -p "$HOME"
export GIT_AUTHOR_NAME=alice GIT_AUTHOR_EMAIL=alice@example.com GIT_COMMITTER_NAME=alice GIT_COMMITTER_EMAIL=alice@example.com

# The student's repository as Classroom 50's accept leaves it, with cugrade's workflow and a
# correct solution; `origin` is a bare copy standing in for GitHub.
cd "$work"
"$cugrade" init vecadd repo --course-repo my-course/cugrade --cugrade-ref v9.9.9 >/dev/null
workflow=$work/repo/.github/workflows/cugrade.yml
cp "$project/graders/vecadd/solutions/good/grid_stride.cu" repo/vecadd.cu
printf 'classroom: gpu-course\nassignment: "vecadd-hw"\n' > repo/.classroom50.yaml
git -C repo init -q -b main && git -C repo add -A && git -C repo commit -qm "my vecadd"
git clone -q --bare repo origin.git
git -C repo remote add origin "$work/origin.git"
sha=$(git -C repo rev-parse HEAD)
tag=submit/2026-12-01T10-00-00Z-${sha:0:7}
"$project/harness/tests/ci/workflow_step.sh" "$workflow" "Classroom 50's submission" > identity_step.sh
"$project/harness/tests/ci/workflow_step.sh" "$workflow" "Grade" > grade_step.sh
{ [ -s identity_step.sh ] && [ -s grade_step.sh ]; } || fail "the workflow has no Classroom 50 or Grade step"

# run_workflow REF REF_NAME: the two steps in the checkout as Actions runs them, each step's
# GITHUB_ENV lines in the next one's environment; prints both steps' output to steps.out.
run_workflow() {
  rm -f repo/result.json repo/cugrade-report.json
  : > github_env
  (
    cd repo
    export GITHUB_ENV=$work/github_env GITHUB_STEP_SUMMARY=$work/summary.md GITHUB_REF=$1 GITHUB_REF_NAME=$2 \
      GITHUB_REPOSITORY=gpu-course/gpu-course-vecadd-hw-alice GITHUB_SHA=$sha GITHUB_SERVER_URL=https://github.com \
      GITHUB_ACTOR=alice GITHUB_ACTOR_ID=1234 CUGRADE=$cugrade ASSIGNMENT=vecadd SUBMISSION=vecadd.cu BACKEND=cpu \
      FAIL_UNDER=100%
    sh -e "$work/identity_step.sh"
    set -a
    # shellcheck disable=SC1091
    . "$work/github_env"
    set +a
    sh -e "$work/grade_step.sh"
  ) > steps.out 2>&1 || { cat steps.out; fail "the workflow's steps failed ($1)"; }
}

validate() {  # validate FILE TAG
  python3 - "$project/harness/tests/report/data/classroom50/result-v1.schema.json" "$1" "$2" "$sha" <<'PY'
import json, sys
from jsonschema import Draft202012Validator
schema_path, result_path, tag, sha = sys.argv[1:]
result = json.load(open(result_path, encoding="utf-8"))
problems = [f"{'/'.join(map(str, e.path)) or '(top)'}: {e.message}"
            for e in Draft202012Validator(json.load(open(schema_path, encoding="utf-8"))).iter_errors(result)]
expected = {"classroom": "gpu-course", "assignment": "vecadd-hw", "owner": "alice", "submission": tag,
            "commit": f"https://github.com/gpu-course/gpu-course-vecadd-hw-alice/commit/{sha}",
            "release": "https://github.com/gpu-course/gpu-course-vecadd-hw-alice/releases/tag/" + tag.replace("/", "%2F"),
            "submitted_by": {"username": "alice", "id": 1234}}
problems += [f"{k}: {result.get(k)!r}, not {v!r}" for k, v in expected.items() if result.get(k) != v]
if not result.get("max-score", 0) > 0 or result.get("score") != result.get("max-score"):
    problems.append(f"not full marks: {result.get('score')} of {result.get('max-score')}")
if not all(t["passed"] for t in result.get("tests", [])):
    problems.append(f"a test failed: {result.get('tests')}")
for p in problems:
    print(f"FAIL: {result_path}: {p}")
sys.exit(1 if problems else 0)
PY
}

# 1. A push of the branch, after Classroom 50's workflow tagged the commit: its tag, from origin.
git -C origin.git tag "$tag" "$sha"
run_workflow refs/heads/main main
[ -f repo/result.json ] || { cat steps.out; fail "no result.json at the top of the checkout"; }
validate repo/result.json "$tag" || fail "the workflow's result.json is not Classroom 50's"
[ -f repo/cugrade-report.json ] || fail "the other reports were not written beside it"
grep -q "Classroom 50: gpu-course/vecadd-hw, alice, $tag" steps.out || fail "the step did not say whose result it writes"
echo "ok: a branch push writes result.json for the submit/ tag on its commit, valid against Classroom 50's schema"

# 2. A push of a submit/ tag (Classroom 50's tag mode): that tag.
run_workflow "refs/tags/submit/2026-12-02T08-00-00Z-${sha:0:7}" "submit/2026-12-02T08-00-00Z-${sha:0:7}"
validate repo/result.json "submit/2026-12-02T08-00-00Z-${sha:0:7}" || fail "a submit/ tag push's result.json"
echo "ok: a submit/ tag push writes result.json for that tag"

# 3. No submit/ tag on the commit yet: a notice, no result.json, and the grade as always.
git -C origin.git tag -d "$tag" >/dev/null
run_workflow refs/heads/main main
[ -e repo/result.json ] && fail "a result.json without a submission tag"
grep -q "no submit/ tag on this commit yet" steps.out || fail "no notice without a tag: $(cat steps.out)"
[ -f repo/cugrade-report.json ] || fail "no grade without a tag"

# 4. Outside Classroom 50 (no .classroom50.yaml: Actions skips the identity step): no result.json.
(
  cd repo
  GITHUB_STEP_SUMMARY=$work/summary.md CUGRADE=$cugrade ASSIGNMENT=vecadd SUBMISSION=vecadd.cu BACKEND=cpu \
    FAIL_UNDER=100% sh -e "$work/grade_step.sh"
) > plain.out 2>&1 || { cat plain.out; fail "the Grade step failed outside Classroom 50"; }
[ -e repo/result.json ] && fail "a result.json outside Classroom 50"

# 5. A hostile .classroom50.yaml (a newline would write more variables): refused, a warning.
printf 'classroom: "gpu-course\\nPATH=/tmp"\nassignment: vecadd-hw\n' > repo/.classroom50.yaml
git -C origin.git tag "$tag" "$sha"
run_workflow refs/heads/main main
grep -q "no valid classroom and assignment" steps.out || fail "a bad .classroom50.yaml was not refused: $(cat steps.out)"
[ -s github_env ] && fail "a bad .classroom50.yaml wrote variables: $(cat github_env)"
echo "ok: no result.json without a submit/ tag, outside Classroom 50, or with a bad .classroom50.yaml"
