#!/usr/bin/env bash
# classroom50_schema_test.sh SAMPLES SCHEMA OUT_DIR: writes cugrade's Classroom 50 results of several
# made-up submissions, with the identity Classroom 50's runner sets in the environment, and
# validates each against Classroom 50's published schema (result-v1.schema.json,
# ../data/classroom50/PROVENANCE.md) with Python's jsonschema, then the rules the schema leaves to
# Classroom 50's code (score <= max-score, per test too). Without jsonschema: Skipped (exit 77) on
# a developer's machine, a failure in CI (CI=true), where scripts/install-deps.sh --test-tools
# installs it (python3-jsonschema).
set -euo pipefail
samples=$1 schema=$2 out=$3
if ! python3 -c 'import jsonschema; jsonschema.Draft202012Validator' 2>/dev/null; then
  echo "no jsonschema for python3 (apt-get install python3-jsonschema, or scripts/install-deps.sh --test-tools): the Classroom 50 results are not validated"
  if [ "${CI:-}" = true ]; then echo "FAIL: CI must validate the Classroom 50 results"; exit 1; fi
  exit 77
fi
mkdir -p "$out"
rm -f "$out"/*.json

# Outside Classroom 50's runner the identity is missing: a message naming it, no file.
if env -u CLASSROOM -u ASSIGNMENT -u OWNER -u USERNAME -u SUBMISSION_TAG -u COMMIT_URL -u RELEASE_URL \
  "$samples" "$out" 2>"$out/missing.err"; then
  echo "FAIL: the samples were written without Classroom 50's identity"; exit 1
fi
grep -q "CLASSROOM, ASSIGNMENT, OWNER (or USERNAME), SUBMISSION_TAG, COMMIT_URL, RELEASE_URL not set" "$out/missing.err" ||
  { echo "FAIL: the message does not name what is missing:"; cat "$out/missing.err"; exit 1; }

export CLASSROOM=gpu-course ASSIGNMENT=matmul ASSIGNMENT_TYPE=individual USERNAME=alice \
  SUBMISSION_TAG=submit/2026-12-01T10-00-00Z-a1b2c3d \
  COMMIT_URL=https://github.com/gpu-course/gpu-course-matmul-alice/commit/a1b2c3d \
  RELEASE_URL=https://github.com/gpu-course/gpu-course-matmul-alice/releases/tag/submit%2F2026-12-01T10-00-00Z-a1b2c3d \
  GITHUB_ACTOR=alice GITHUB_ACTOR_ID=1234
"$samples" "$out"
shopt -s nullglob
files=("$out"/*.json)
if [ ${#files[@]} -lt 6 ]; then echo "FAIL: expected 6 Classroom 50 results in $out, found ${#files[@]}"; exit 1; fi
python3 - "$schema" "${files[@]}" <<'PY'
import json, sys
from jsonschema import Draft202012Validator
schema = json.load(open(sys.argv[1], encoding="utf-8"))
Draft202012Validator.check_schema(schema)
validator = Draft202012Validator(schema)
failed = False
for path in sys.argv[2:]:
    result = json.load(open(path, encoding="utf-8"))
    problems = [f"{'/'.join(map(str, e.path)) or '(top)'}: {e.message}" for e in validator.iter_errors(result)]
    # What Classroom 50's runner checks in code (runner.py validate_result), beyond the schema.
    if result.get("score", 0) > result.get("max-score", 0):
        problems.append("score > max-score")
    for i, test in enumerate(result.get("tests", [])):
        if test.get("score", 0) > test.get("max-score", 0):
            problems.append(f"tests[{i}]: score > max-score")
    if result.get("score") != sum(t["score"] for t in result["tests"]):
        problems.append("score is not the sum of the tests' scores")
    if result.get("owner") != "alice" or result.get("submitted_by") != {"username": "alice", "id": 1234}:
        problems.append("the identity is not the runner's")
    for problem in problems:
        print(f"FAIL: {path}: {problem}")
    failed = failed or bool(problems)
sys.exit(1 if failed else 0)
PY
echo "ok: ${#files[@]} Classroom 50 results follow $(basename "$schema")"
