#!/usr/bin/env bash
# The README's first command: install what is missing, build what grading needs (cugrade, its
# runners and the probe: the `grading` target, not the tests; scripts/test.sh builds those), and
# grade a bundled example submission — on the GPU if there is one, otherwise on the CPU backend.
set -euo pipefail
cd "$(dirname "$0")/.."
# CUDA code for this machine's GPU only, or without one for one architecture (enough to build it;
# the example then grades on the CPU backend): a seventh of the work of every architecture. A build
# folder configured before keeps its own choice.
if nvidia-smi -L >/dev/null 2>&1; then arch=native; else arch=75-real; fi
export CUGRADE_CUDA_ARCHITECTURES="${CUGRADE_CUDA_ARCHITECTURES:-$arch}"
scripts/build.sh --target grading
build/harness/cugrade doctor || true
echo
build/harness/cugrade check matmul --submission graders/matmul/solutions/good/lecture_style.cu \
  --report json=build/example-report.json --report markdown=build/example-report.md
echo "Reports written to build/example-report.json and build/example-report.md"
