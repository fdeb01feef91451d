#!/usr/bin/env bash
# The README's first command: install what is missing, build what grading needs (cugrade, its
# runners and the probe: the `grading` target, not the tests; scripts/test.sh builds those), and
# grade a bundled example submission — on the GPU if there is one, otherwise on the CPU backend.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh --target grading
build/harness/cugrade doctor || true
echo
build/harness/cugrade check matmul --submission graders/matmul/solutions/good/lecture_style.cu \
  --report json=build/example-report.json --report markdown=build/example-report.md
echo "Reports written to build/example-report.json and build/example-report.md"
